"""The bundles of static/: one stylesheet and one script per page, for slow venue Wi-Fi.

A page loads one CSS file and one JS file (htmx included) and a favicon, each cached for a
year under a URL that changes with its content. The sources stay in static/css and
static/js, one file per area with its comments; the bundles in static/bundle are built
from them, minified, and checked into the repository (tests/test_assets.py fails when one
is out of date). After editing a source:

    python assets.py

Each page names its bundle (templates/base.html, `{% block bundle %}`): what the players'
phones load (public; a table's own pages: table, the same without the standings'
styles), the director's setup pages (director), the other staff pages (the
console, the calls, the results: staff) and the big screen (screen). A bundle
holds every area its pages show, so a partial brings no file of its own."""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

import rcssmin
import rjsmin

STATIC = Path(__file__).resolve().parent / "static"

BUNDLES = {
    "public": {
        "css": ["css/app.css", "css/clock.css", "css/calls.css", "css/table.css",
                "css/own-phone.css", "css/results.css"],
        "js": ["vendor/htmx.min.js", "js/app.js", "js/offline.js", "js/clock.js",
               "js/calls.js", "js/table.js"],
    },
    # A table's own pages (its page, entering a game, the review): the players' bundle
    # without the standings' styles, so that the first load over slow Wi-Fi stays within
    # 30 KB with the call bar's and the entry's styles.
    # Its script is the players' (templates/base.html), so a phone that goes on to a
    # player's page has it already.
    "table": {
        "css": ["css/app.css", "css/clock.css", "css/calls.css", "css/table.css",
                "css/own-phone.css"],
    },
    # director.css styles bare fieldsets and legends its own way: only its pages load it.
    "director": {
        "css": ["css/app.css", "css/director.css", "css/clock.css", "css/bar.css",
                "css/checkin.css"],
        "js": ["vendor/htmx.min.js", "js/app.js", "js/offline.js", "js/director.js",
               "js/clock.js", "js/bar.js", "js/desk.js", "js/checkin.js"],
    },
    "staff": {
        "css": ["css/app.css", "css/clock.css", "css/calls.css", "css/results.css",
                "css/bar.css"],
        "js": ["vendor/htmx.min.js", "js/app.js", "js/offline.js", "js/clock.js",
               "js/calls.js", "js/bar.js"],
    },
    "screen": {
        "css": ["css/app.css", "css/clock.css", "css/results.css", "css/display.css"],
        "js": ["vendor/htmx.min.js", "js/app.js", "js/offline.js", "js/clock.js",
               "js/display.js"],
    },
}


# The browser floor (docs/architecture.md, "The oldest phones") reads ES2018: htmx 2.0.11 is
# written for later browsers in two spots, optional chaining and "??", either of which is a
# syntax error on Safari before 13.1 that would stop the whole bundle. Each is lowered to
# the same meaning in older syntax; each must match exactly once, so that a new htmx
# release fails the build here (tests/test_browser_floor.py) rather than slipping past.
LOWERED = {
    "vendor/htmx.min.js": [
        ("if(g?.swapDelay&&g.swapDelay>0)", "if(g&&g.swapDelay&&g.swapDelay>0)"),
        ('s.push=s.push??"true"', 's.push=s.push!=null?s.push:"true"'),
    ],
}


def lowered(source: str, text: str) -> str:
    """`text` of the vendored `source` with LOWERED applied; raises when one spot is not
    there exactly once."""
    for old, new in LOWERED.get(source, []):
        if text.count(old) != 1:
            raise ValueError(f"{source}: {old!r} found {text.count(old)} times, not once: "
                             "lower the new release by hand and update assets.LOWERED")
        text = text.replace(old, new)
    return text


def path(name: str, kind: str) -> Path:
    return STATIC / "bundle" / f"{name}.{kind}"


def build(name: str, kind: str, static: Path = STATIC) -> str:
    """The bundle `name` of `kind` ("css" or "js") as built from the sources now."""
    parts = []
    for source in BUNDLES[name][kind]:
        text = (static / source).read_text(encoding="utf-8")
        if source.startswith("vendor/"):
            parts.append(lowered(source, text).strip())  # minified by its authors
        elif kind == "css":
            parts.append(rcssmin.cssmin(text))
        else:
            parts.append(rjsmin.jsmin(text))
    # ";" between scripts: each source is its own statement, whatever its last line.
    return ("\n" if kind == "css" else ";\n").join(parts) + "\n"


def gzipped(target: Path) -> Path:
    """The bundle's gzip, made once here (app.MahjTable serves it to a phone that reads
    gzip): zopfli's is about 4% smaller than zlib's best, 0.9 KB of the players' script
    over the venue's Wi-Fi. Not a page's URL (static/ serves no .gz)."""
    return target.with_name(target.name + ".gz")


def gzip_current(target: Path) -> bool:
    """The bundle's gzip holds the bundle as it is: a stale one would serve old code."""
    zipped = gzipped(target)
    if not (zipped.exists() and target.exists()):
        return False
    try:
        return gzip.decompress(zipped.read_bytes()) == target.read_bytes()
    except (OSError, EOFError):
        return False


def stale() -> list[Path]:
    """The bundles whose checked-in file (or its gzip) differs from what the sources
    build."""
    return [path(name, kind) for name, kinds in BUNDLES.items() for kind in kinds
            if not path(name, kind).exists()
            or path(name, kind).read_text(encoding="utf-8") != build(name, kind)
            or not gzip_current(path(name, kind))]


def write() -> list[Path]:
    written = stale()
    if written:
        try:
            import zopfli.gzip
        except ImportError:
            sys.exit("Building the bundles needs zopfli, of the test requirements: "
                     "make .venv/.dev, then .venv/bin/python assets.py")
    for target in written:
        name, kind = target.stem, target.suffix[1:]
        target.parent.mkdir(exist_ok=True)
        text = build(name, kind).encode("utf-8")
        target.write_bytes(text)
        gzipped(target).write_bytes(zopfli.gzip.compress(text, numiterations=15))
    return written


if __name__ == "__main__":
    changed = write()
    for target in changed:
        print(f"built {target.relative_to(STATIC.parent)}")
    if not changed:
        print("bundles up to date")
    sys.exit(0)
