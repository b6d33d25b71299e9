"""On slow venue Wi-Fi a first visit is one page, one stylesheet, one script (htmx
inside) and a favicon, all compressed; later visits ask for none of the assets again."""

from __future__ import annotations

import gzip
import hashlib
import re
from pathlib import Path

import pytest

import assets
from tests.clock.conftest import started
from tests.table.conftest import TableClient

STATIC = Path(assets.__file__).resolve().parent / "static"


def test_the_checked_in_bundles_are_built_from_the_sources_as_they_are():
    assert not assets.stale(), "a source changed: run `python assets.py` and commit"


def test_the_freshness_check_itself_sees_an_edited_source(tmp_path):
    for source in {s for kinds in assets.BUNDLES.values() for files in kinds.values()
                   for s in files}:
        (tmp_path / source).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / source).write_text((STATIC / source).read_text())
    before = assets.build("public", "css", tmp_path)
    with open(tmp_path / "css" / "table.css", "a") as css:
        css.write("\n.added { color: red; }\n")
    assert assets.build("public", "css", tmp_path) != before
    assert ".added{color:red}" in assets.build("public", "css", tmp_path)


def test_every_source_is_in_a_bundle():
    bundled = {s for kinds in assets.BUNDLES.values() for files in kinds.values()
               for s in files}
    sources = {str(p.relative_to(STATIC)) for p in STATIC.glob("css/*.css")}
    sources |= {str(p.relative_to(STATIC)) for p in STATIC.glob("js/*.js")}
    assert sources <= bundled


def assets_of(page: str) -> list[str]:
    return re.findall(r'<link rel="stylesheet" href="([^"]+)"|<script src="([^"]+)"', page)


@pytest.fixture
def east(client, tournament):
    started(tournament, minutes_ago=5)
    return TableClient(client, tournament)


@pytest.mark.parametrize("path, bundle, script", [
    ("/director/t/{id}", "director", "director"), ("/clock/director/{id}", "staff", "staff"),
    ("/calls/director/{id}", "staff", "staff"), ("/results/director/{id}", "staff", "staff"),
    ("/display/{code}", "screen", "screen"), ("/", "public", "public"),
    # a table's own stylesheet, without the standings' styles; the players' script
    ("/t/{code}/{seat}", "table", "public"),
])
def test_a_page_loads_one_stylesheet_and_one_script(client, east, path, bundle, script):
    tournament = east.tournament
    if path == "/t/{code}/{seat}":
        page = east.get().get_data(as_text=True)
    else:
        page = client.get(path.format(id=tournament.id, code=tournament.code)
                          ).get_data(as_text=True)
    css = re.findall(r'<link rel="stylesheet" href="([^"]+)"', page)
    js = re.findall(r'<script src="([^"]+)"', page)
    assert [url.split("?")[0] for url in css] == [f"/static/bundle/{bundle}.css"]
    assert [url.split("?")[0] for url in js] == [f"/static/bundle/{script}.js"]
    for url in css + js:
        name = url.split("?")[0].removeprefix("/static/")
        digest = hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:12]
        assert url.endswith(f"?v={digest}")  # a new file, a new URL


def test_the_table_pages_first_visit_stays_within_its_bound_compressed(app, east):
    # A player's phone: nobody signed in.
    east.client = app.test_client()
    gz = {"Accept-Encoding": "gzip, deflate"}
    page = east.client.get(east.url(), headers=gz)
    total = len(page.data)
    html = gzip.decompress(page.data).decode() if page.headers.get(
        "Content-Encoding") == "gzip" else page.get_data(as_text=True)
    urls = re.findall(r'(?:href|src)="(/static/[^"]+\.(?:css|js)\?v=[^"]+)"', html)
    assert len(urls) == 2
    for url in urls + ["/favicon.ico"]:
        response = east.client.get(url, headers=gz)
        assert response.status_code == 200
        assert "max-age=31536000" in response.headers["Cache-Control"]
        if not url.startswith("/favicon"):
            assert response.headers["Content-Encoding"] == "gzip"
        total += len(response.data)
    # 30 KB over the venue's Wi-Fi (bench --wifi): the bundles' gzip made by zopfli
    # (assets.py) won back what the older phones' fallbacks and each player's own phone
    # added; 29.3 KB now.
    assert total <= 30 * 1024, total


def test_a_bundle_is_served_as_its_zopfli_gzip_or_plain_to_a_phone_without_gzip(app):
    client = app.test_client()
    html = client.get("/").get_data(as_text=True)
    url = re.search(r'src="(/static/bundle/public\.js\?v=[^"]+)"', html).group(1)
    plain = client.get(url, headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers
    assert plain.data == (STATIC / "bundle" / "public.js").read_bytes()
    zipped = client.get(url, headers={"Accept-Encoding": "gzip, deflate"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert zipped.data == (STATIC / "bundle" / "public.js.gz").read_bytes()
    assert gzip.decompress(zipped.data) == plain.data
    assert "Accept-Encoding" in zipped.headers["Vary"] and zipped.headers["ETag"] != \
        plain.headers["ETag"]
    # the gzip is not a page's URL of its own
    assert client.get("/static/bundle/public.js.gz").status_code == 404
