"""The oldest phones the pages support (docs/architecture.md, "The oldest phones"): Safari
12.1 (iOS 12.2 and later), Chrome 79, Samsung Internet 12, Firefox ESR 115.

A script that uses syntax newer than its browser is a syntax error there, and stops every
line of its bundle, not only the new one; an API it lacks throws when it is reached. So
every served script must parse at the floor's level (esprima reads ES2017 with object
spread, a subset of what Safari 12.1 reads), our scripts must not call the APIs that came
later, and no layout that matters may hang on :has() (Safari 15.4, Firefox 121)."""

from __future__ import annotations

import re
from pathlib import Path

import esprima
import pytest

import assets

STATIC = Path(assets.__file__).resolve().parent / "static"
SOURCES = sorted(STATIC.glob("js/*.js"))
BUNDLES = sorted(STATIC.glob("bundle/*.js"))


def parses(text: str) -> bool:
    try:
        esprima.parseScript(text)
    except esprima.Error:
        return False
    return True


def test_the_parser_refuses_the_syntax_the_floor_lacks():
    # without this, a parser that read everything would pass every file below
    assert not parses("var a = b?.c;")
    assert not parses("var a = b ?? c;")
    assert not parses("class A { field = 1; }")
    assert parses("var a = {...b}; var c = (d) => d;")


@pytest.mark.parametrize("script", SOURCES + BUNDLES, ids=lambda p: p.name)
def test_every_served_script_parses_at_the_floor(script):
    assert parses(script.read_text(encoding="utf-8")), (
        f"{script.name} uses syntax newer than the browser floor")


def test_the_bundles_are_what_is_served():
    # the check above reads the built bundles: they must be the ones checked in
    assert not assets.stale()
    assert {p.stem for p in BUNDLES} == {name for name, kinds in assets.BUNDLES.items()
                                         if "js" in kinds}


def test_vendored_htmx_is_lowered_and_a_new_release_must_be_lowered_again():
    htmx = (STATIC / "vendor" / "htmx.min.js").read_text(encoding="utf-8")
    assert not parses(htmx)  # as its authors ship it: optional chaining
    assert parses(assets.lowered("vendor/htmx.min.js", htmx))
    with pytest.raises(ValueError, match="not once"):
        assets.lowered("vendor/htmx.min.js", htmx.replace("g?.swapDelay", "x?.delay"))


# APIs our scripts may not call: each came after the floor, and each has a way that works
# there (form.requestSubmit: mahj.resend in app.js; SubmitEvent.submitter: mahj.submitter).
LATER_APIS = {
    "requestSubmit": "Safari 16", "timeout": "AbortSignal.timeout, Safari 16",
    "structuredClone": "Safari 15.4", "replaceAll": "Safari 13.1", "at": "Safari 15.4",
    "hasOwn": "Safari 15.4", "replaceChildren": "Safari 14", "toSorted": "Safari 16",
    "findLast": "Safari 15.4", "matchAll": "Safari 13", "allSettled": "Safari 13",
    "fromEntries": "Safari 12.1 is the floor, but nothing needs it", "flatMap": "Safari 12",
}


@pytest.mark.parametrize("script", SOURCES, ids=lambda p: p.name)
def test_our_scripts_call_no_api_newer_than_the_floor(script):
    tokens = esprima.tokenize(script.read_text(encoding="utf-8"))
    # a method called: "." name "(" (a property of our own named "at" is no call)
    called = {b.value for a, b, c in zip(tokens, tokens[1:], tokens[2:], strict=False)
              if a.value == "." and b.type == "Identifier" and c.value == "("}
    found = {name: LATER_APIS[name] for name in called & LATER_APIS.keys()}
    assert not found, f"{script.name} calls {found}"
    if script.name != "app.js":
        # SubmitEvent.submitter (Safari 15.4) is read in one place, with its fallback
        read = [a.value for a, b, c in zip(tokens, tokens[1:], tokens[2:], strict=False)
                if b.value == "." and c.value == "submitter"]
        assert set(read) <= {"mahj"}, (
            f"{script.name}: read the submitter through mahj.submitter")


def rules(css: str) -> list[tuple[str, str]]:
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    return [(" ".join(sel.split()), " ".join(body.split()))
            for sel, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css)]


# Rules that use :has() and may: each only refines what a browser without it still shows
# usably (a focus ring the input's own replaces, a few pixels of padding, the big screen's
# grid without a news column), or repeats a rule that has a class of its own.
HAS_ALLOWED = {
    ".choice:has(input:focus-visible)": "the input's own focus ring shows without it",
    ".site-header:has(.entry-back)": "a slimmer header on the entry page",
    "main:has(> #entry)": "6 px of padding",
    "main:has(> #review)": "6 px of padding",
    ".total-card:has(.confirm-button)": "a card's border",
    ".display-grid:not(:has(.display-news))": "the big screen: a desktop browser",
    ".display-grid:not(:has(.display-news)) .clock__time": "the big screen",
    ".choice:has(input:checked)": "repeats .choice.is-checked for a tap without JavaScript",
    ".dead-grid .choice:has(input:checked)::after": "repeats .is-checked::after",
    ".chip:has(input:checked)": "repeats .chip.is-checked for a tap without JavaScript",
    "body.with-call-bar:has(.call-bar)": "fits the room to the bar's state; "
                                         "body.with-call-bar keeps the tallest",
    "body.with-call-bar:has(.call-status-open), body.with-call-bar:has(.call-status-claimed)":
        "as above",
    "body.with-call-bar:has(.call-resolved)": "as above",
}


def test_no_layout_that_matters_hangs_on_has_alone():
    used = {sel for path in STATIC.glob("css/*.css")
            for sel, _ in rules(path.read_text(encoding="utf-8")) if ":has(" in sel}
    assert used <= HAS_ALLOWED.keys(), (
        f"{sorted(used - HAS_ALLOWED.keys())}: give the element a class the server sets "
        "(or the script, with the server's default)")


def test_the_phones_styles_use_no_is_selector():
    # :is() and :where() came with Safari 14: a rule whose selector list holds one is
    # dropped whole by an older browser (the big screen is a desktop's: not counted)
    for name in ("app.css", "table.css", "calls.css", "clock.css", "results.css", "bar.css",
                 "director.css"):
        css = re.sub(r"/\*.*?\*/", "", (STATIC / "css" / name).read_text(), flags=re.S)
        assert ":is(" not in css and ":where(" not in css, name


@pytest.mark.parametrize("selector, declaration", [
    ("body.with-call-bar", "padding-bottom: var(--call-bar-height, 10.5rem);"),
    ("body.table-area.with-entry", "padding-bottom: var(--call-bar-height, 4.5rem);"),
    ("body.with-director-bar", "padding-bottom: 116px;"),
    (".choice.is-checked", "border-color: var(--brand);"),
    (".js .live-scores.is-empty", "display: none;"),
])
def test_the_layout_that_matters_has_a_class_of_its_own(selector, declaration):
    bodies = [body for path in STATIC.glob("css/*.css")
              for sel, body in rules(path.read_text(encoding="utf-8")) if sel == selector]
    assert any(declaration in body for body in bodies)
