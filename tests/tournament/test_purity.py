"""tournament/ is pure Python: every module imports only the standard library and itself."""

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "tournament"
MODULES = sorted(PACKAGE.glob("*.py"))


def imported_roots(source: str) -> set[str]:
    """Top-level names of everything a module imports (relative imports count as itself)."""
    roots = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            roots.add("tournament" if node.level else (node.module or "").split(".")[0])
    return roots


def foreign(roots: set[str]) -> set[str]:
    return {root for root in roots if root != "tournament" and root not in sys.stdlib_module_names}


def test_the_package_has_its_modules():
    names = {module.name for module in MODULES}
    assert {"__init__.py", "rules.py", "scoring.py"} <= names


@pytest.mark.parametrize("module", MODULES, ids=lambda path: path.name)
def test_module_imports_only_the_standard_library(module):
    assert foreign(imported_roots(module.read_text())) == set()


@pytest.mark.parametrize("source, outside", [
    ("import flask", {"flask"}),
    ("from sqlalchemy.orm import Mapped", {"sqlalchemy"}),
    ("import os, json\nfrom dataclasses import dataclass", set()),
    ("from . import rules\nfrom tournament.rules import RuleSet", set()),
    ("def f():\n    import hypothesis", {"hypothesis"}),
])
def test_the_check_itself_catches_outside_imports(source, outside):
    assert foreign(imported_roots(source)) == outside
