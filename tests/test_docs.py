"""The docs hold: every relative link and picture in README.md, bench/RESULTS.md and
docs/ opens (a heading it points at included), every picture in docs/pictures/ is shown
somewhere, and every `make` target and `flask --app app` command the docs tell a reader
to run exists. A reader who meets a dead link or a command that is not there stops
trusting the page."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[1]
PICTURES = ROOT / "docs" / "pictures"

# [text](target), ![alt](target), and <img src="target"> / <a href="target"> in HTML.
MARKDOWN_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_LINK = re.compile(r"<(?:img|a)\b[^>]*?\b(?:src|href)=\"([^\"]+)\"")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
CODE_SPAN = re.compile(r"`([^`\n]+)`")
# `make X`, after any VAR=value settings and options; X as the Makefile spells targets.
MAKE = re.compile(r"(?:^|[\s;&|(])make((?:[ \t]+(?:[A-Z_]+=\S*|-\S+))*)[ \t]+([a-z][\w.-]*)",
                  re.M)
FLASK = re.compile(r"flask[ \t]+--app[ \t]+app[ \t]+([a-z][\w-]*)")


def documents() -> list[Path]:
    return [ROOT / "README.md", ROOT / "bench" / "RESULTS.md",
            *sorted((ROOT / "docs").rglob("*.md"))]


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to
    hyphens (formatting marks and links reduced to their text first)."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"[`*_]", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor in a markdown file, numbered as GitHub numbers repeats."""
    text = FENCE.sub("", path.read_text())
    seen: dict[str, int] = {}
    found = set()
    for heading in re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", text, re.M):
        base = slug(heading)
        count = seen.get(base, 0)
        found.add(base if count == 0 else f"{base}-{count}")
        seen[base] = count + 1
    found |= set(re.findall(r"<a\s+(?:name|id)=\"([^\"]+)\"", text))
    return found


def links(path: Path) -> list[str]:
    # Links inside code are examples, not links.
    text = FENCE.sub("", path.read_text())
    text = CODE_SPAN.sub("", text)
    return MARKDOWN_LINK.findall(text) + HTML_LINK.findall(text)


def relative(target: str) -> bool:
    return not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) and not target.startswith("//")


@pytest.mark.parametrize("path", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_and_picture_opens(path):
    broken = []
    for target in filter(relative, links(path)):
        file_part, _, anchor = target.partition("#")
        destination = (path.parent / unquote(file_part)).resolve() if file_part else path
        if not destination.exists():
            broken.append(f"{target}: no such file")
        elif anchor and destination.suffix == ".md" and anchor not in anchors(destination):
            broken.append(f"{target}: no heading #{anchor} in {destination.name}")
    assert not broken, f"{path.relative_to(ROOT)}: " + "; ".join(broken)


def test_every_picture_of_the_guides_is_shown_somewhere():
    """A picture nobody shows is dead weight in the repository, or the sign of a page
    that lost it."""
    shown = set()
    for path in documents():
        for target in filter(relative, links(path)):
            shown.add((path.parent / unquote(target.partition("#")[0])).resolve())
    unshown = sorted(p.name for p in PICTURES.glob("*.png") if p.resolve() not in shown)
    assert not unshown, f"pictures in docs/pictures/ that no page shows: {unshown}"


def test_the_guide_pictures_are_taken_by_the_walk():
    """Every picture the docs show from docs/pictures/ is one the guides' end-to-end walk
    (or another end-to-end test, through its `picture`) takes, so `make screenshots`
    brings each one up to date."""
    walk = "\n".join(path.read_text() for path in sorted((ROOT / "e2e").glob("test_*.py")))
    taken = set(re.findall(r"picture\(\w+, \"([\w-]+)\"", walk))
    named = {Path(target).stem for path in documents() for target in links(path)
             if "pictures/" in target and relative(target)}
    assert named <= taken, f"pictures no test takes: {sorted(named - taken)}"


def code_in(path: Path) -> str:
    """The parts of a document a reader would copy: fenced blocks and code spans."""
    text = path.read_text()
    blocks = [match.group(0) for match in FENCE.finditer(text)]
    return "\n".join(blocks + CODE_SPAN.findall(FENCE.sub("", text)))


def make_targets() -> set[str]:
    makefile = (ROOT / "Makefile").read_text()
    return set(re.findall(r"^([a-z][\w.-]*)\s*:(?!=)", makefile, re.M))


@pytest.mark.parametrize("path", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_make_target_the_docs_name_exists(path):
    targets = make_targets()
    named = {match[1] for match in MAKE.findall(code_in(path))}
    assert named <= targets, f"not Makefile targets: {sorted(named - targets)}"


def test_every_flask_command_the_docs_name_exists(app):
    commands = set(app.cli.commands)
    named = {(path.relative_to(ROOT), command) for path in documents()
             for command in FLASK.findall(path.read_text())}
    missing = sorted(f"{path}: flask --app app {command}" for path, command in named
                     if command not in commands)
    assert not missing, f"no such command: {missing}"


def test_the_checks_catch_what_they_are_for(tmp_path):
    """The parsing is what could fail silently: a planted dead link, a missing heading and
    an unknown target are each caught."""
    page = tmp_path / "page.md"
    page.write_text("# A heading, with `code`\n\n[ok](#a-heading-with-code) "
                    "[dead](missing.md) [gone](#nowhere)\n\n```sh\nmake nosuchtarget\n"
                    "PORT=1 make run\n```\n")
    assert anchors(page) == {"a-heading-with-code"}
    assert links(page) == ["#a-heading-with-code", "missing.md", "#nowhere"]
    assert {m[1] for m in MAKE.findall(code_in(page))} == {"nosuchtarget", "run"}
    assert "nosuchtarget" not in make_targets() and "run" in make_targets()
