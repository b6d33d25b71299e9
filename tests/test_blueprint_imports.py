"""Blueprints never import each other's modules: what two audiences share belongs below
them (models/, tournament/, and a shared core package), so that each blueprint can be read,
changed and tested on its own.

The imports that already cross are listed in KNOWN_CROSSINGS, by name, until they move
into the shared core. The list may only shrink: a new crossing fails, and so does an entry
whose import is gone (delete it from the list)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Modules of blueprints/ that belong to no audience, which every blueprint may use.
SHARED = {"blueprints", "blueprints.common"}

# importing module -> imported module, for every crossing not yet moved into core/
KNOWN_CROSSINGS: set[tuple[str, str]] = set()


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def resolve(node: ast.ImportFrom, importer: str, is_package: bool) -> str:
    """The absolute module an `from ... import ...` names (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    base = importer.split(".")
    if not is_package:
        base.pop()
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imported_modules(source: str, importer: str, is_package: bool, root: Path) -> set[str]:
    """Every module a source imports, at the top or inside a function. `from pkg import x`
    counts as pkg.x when x is a module of pkg, else as pkg."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            module = resolve(node, importer, is_package)
            for alias in node.names:
                candidate = f"{module}.{alias.name}"
                as_path = root.joinpath(*candidate.split("."))
                is_module = as_path.with_suffix(".py").exists() or as_path.is_dir()
                found.add(candidate if is_module else module)
    return found


def audience(module: str) -> str | None:
    """The blueprint a module belongs to (blueprints.table.views -> "table"), or None."""
    parts = module.split(".")
    if parts[0] != "blueprints" or module in SHARED or len(parts) < 2:
        return None
    return parts[1]


def crossings(root: Path) -> set[tuple[str, str]]:
    """(importing module, imported module) for each import from one blueprint into another."""
    found = set()
    for path in sorted((root / "blueprints").rglob("*.py")):
        importer = module_name(path, root)
        own = audience(importer)
        if own is None:
            continue
        modules = imported_modules(path.read_text(), importer, path.name == "__init__.py",
                                   root)
        for module in modules:
            other = audience(module)
            if other is not None and other != own:
                found.add((importer, module))
    return found


def test_no_blueprint_imports_another_beyond_the_known_crossings():
    found = crossings(ROOT)
    new = found - KNOWN_CROSSINGS
    assert not new, ("a blueprint imports another blueprint's module; move what both need "
                     f"below the blueprints instead: {sorted(new)}")


def core_imports_of_blueprints(root: Path) -> set[tuple[str, str]]:
    """(core module, blueprint module) for each import from the shared core into blueprints/:
    the core sits below every blueprint, so it may use none of them."""
    found = set()
    for path in sorted((root / "core").rglob("*.py")):
        importer = module_name(path, root)
        modules = imported_modules(path.read_text(), importer, path.name == "__init__.py",
                                   root)
        found |= {(importer, module) for module in modules
                  if module.split(".")[0] == "blueprints"}
    return found


def test_the_core_imports_no_blueprint():
    found = core_imports_of_blueprints(ROOT)
    assert not found, f"core/ sits below the blueprints and may not import them: {sorted(found)}"


def test_every_known_crossing_still_exists():
    gone = KNOWN_CROSSINGS - crossings(ROOT)
    assert not gone, f"these imports are gone: delete them from KNOWN_CROSSINGS: {sorted(gone)}"


def plant(root: Path, files: dict[str, str]) -> Path:
    for name, source in {"blueprints/__init__.py": "", "blueprints/common.py": "",
                         **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    return root


BLUEPRINTS = {
    "blueprints/table/__init__.py": "", "blueprints/table/service.py": "",
    "blueprints/clock/__init__.py": "", "blueprints/clock/service.py": "",
}


@pytest.mark.parametrize("source, expected", [
    ("from blueprints.clock.service import round_clock",
     {("blueprints.table.views", "blueprints.clock.service")}),
    ("from blueprints.clock import service as clock_service",
     {("blueprints.table.views", "blueprints.clock.service")}),
    ("import blueprints.clock.service", {("blueprints.table.views", "blueprints.clock.service")}),
    ("from ..clock import service", {("blueprints.table.views", "blueprints.clock.service")}),
    ("def later():\n    from blueprints.clock import service",
     {("blueprints.table.views", "blueprints.clock.service")}),
    ("from blueprints import clock", {("blueprints.table.views", "blueprints.clock")}),
    ("from . import service\nfrom .service import anything\n"
     "from blueprints.table.service import x", set()),
    ("from blueprints.common import SEAT_NAMES\nfrom blueprints import common", set()),
    ("from models import Table\nfrom tournament.rules import RuleSet\nimport flask", set()),
])
def test_the_check_itself_finds_a_planted_crossing(tmp_path, source, expected):
    root = plant(tmp_path, {**BLUEPRINTS, "blueprints/table/views.py": source})
    assert crossings(root) == expected



@pytest.mark.parametrize("source, expected", [
    ("from blueprints.clock.service import round_clock",
     {("core.lookup", "blueprints.clock.service")}),
    ("def later():\n    from blueprints.table import service",
     {("core.lookup", "blueprints.table.service")}),
    ("from blueprints.common import SEAT_NAMES", {("core.lookup", "blueprints.common")}),
    ("import blueprints", {("core.lookup", "blueprints")}),
    ("from . import access\nfrom core.access import MANAGE\nfrom models import Table", set()),
])
def test_the_core_check_itself_finds_a_planted_blueprint_import(tmp_path, source, expected):
    root = plant(tmp_path, {**BLUEPRINTS, "core/__init__.py": "", "core/access.py": "",
                            "core/lookup.py": source})
    assert core_imports_of_blueprints(root) == expected
