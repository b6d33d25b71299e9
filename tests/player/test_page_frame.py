"""The frame of every page: players' pages carry no "Director sign-in" in their header
(it sits at the foot of the page), and every page names a favicon that exists."""

from __future__ import annotations


def header(html: str) -> str:
    return html.split('<header class="site-header">')[1].split("</header>")[0]


def test_player_pages_keep_director_sign_in_out_of_the_header(app, tournament):
    visitor = app.test_client()
    for path in ("/", f"/p/{tournament.code}", f"/results/{tournament.code}"):
        html = visitor.get(path).get_data(as_text=True)
        assert "Director sign-in" not in header(html), path
        assert 'href="/auth/sign-in">Director sign-in</a>' in html.split("<footer")[1], path


def test_every_page_carries_its_favicon_in_its_head(app, tournament):
    # written into the page (a data: address): one request fewer on a first visit
    from html import unescape
    from pathlib import Path
    from urllib.parse import unquote

    visitor = app.test_client()
    html = visitor.get("/").get_data(as_text=True)
    href = unescape(html.split('<link rel="icon" type="image/svg+xml" href="')[1]
                    .split('"')[0])
    assert href.startswith("data:image/svg+xml,")
    icon = (Path(app.root_path) / "static" / "favicon.svg").read_text().strip()
    assert unquote(href.removeprefix("data:image/svg+xml,")) == icon


def test_the_players_page_says_only_what_applies(app, director):
    from tests.conftest import make_tournament

    visitor = app.test_client()
    tnt = make_tournament(director, code="TNTONE")
    html = visitor.get(f"/p/{tnt.code}/player/1").get_data(as_text=True)
    assert "No games yet" in html and "Total so far" not in html
    hidden_tile = make_tournament(director, preset="hidden-tile", code="HIDDEN")
    from tests.results.conftest import add_sheet

    add_sheet(hidden_tile, 1, 1, [{"outcome": "wall"}])
    html = visitor.get(f"/p/{hidden_tile.code}/player/1").get_data(as_text=True)
    assert "Not verified yet" in html and "Total so far" in html


def test_the_history_chart_labels_are_large_enough_for_a_phone(app, tournament):
    from tests.results.conftest import add_sheet

    add_sheet(tournament, 1, 1, [{"outcome": "wall"}])
    html = app.test_client().get(f"/p/{tournament.code}/player/1").get_data(as_text=True)
    assert 'font-size="18"' in html and 'font-size="12"' not in html


def test_pages_with_nothing_to_post_set_no_session_cookie(app, tournament):
    visitor = app.test_client()
    for path in ("/", f"/p/{tournament.code}", f"/p/{tournament.code}/seat?number=1",
                 f"/p/{tournament.code}/player/1", f"/display/{tournament.code}"):
        response = visitor.get(path)
        assert response.status_code == 200, path
        assert "Set-Cookie" not in response.headers, path
        assert "X-CSRFToken" not in response.get_data(as_text=True), path
    # a page that posts keeps the token htmx sends
    table = tournament.tables[0]
    html = visitor.get(f"/t/{tournament.code}/{table.number}?k={table.token}").get_data(
        as_text=True)
    assert 'hx-headers=\'{"X-CSRFToken": "' in html


def test_the_account_links_follow_who_is_signed_in(app, client, director, tournament):
    """The header's and footer's account links read the session's account (signed_in):
    a director sees theirs on a table's page, a phone without an account the sign-in
    link, and a session naming an account that no longer opens it counts as nobody's."""
    table = tournament.tables[0]
    path = f"/t/{tournament.code}/{table.number}?k={table.token}"

    def links(who):
        html = who.get(path).get_data(as_text=True)
        return ("My tournaments" in header(html), "Sign out" in header(html),
                "Director sign-in</a>" in html.split("<footer")[1])

    assert links(client) == (True, True, False)  # the director fixture is signed in
    assert links(app.test_client()) == (False, False, True)
    stale = app.test_client()
    with stale.session_transaction() as session:
        session["_user_id"] = str(director.id)  # no session version: refused (auth.service)
    assert links(stale) == (False, False, True)
