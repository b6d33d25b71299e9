"""No module under blueprints/ grows past what reads on a few screens: a view module that
does is two concerns, and is split along its seam (docs/architecture.md)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MOST_LINES = 450


def test_no_blueprint_module_passes_450_lines():
    long = {str(path.relative_to(ROOT)): n for path in (ROOT / "blueprints").rglob("*.py")
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES}
    assert not long
