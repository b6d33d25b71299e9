"""What the wheel (pyproject.toml) ships: every package of the app and every template,
static file and migration. A file left out breaks only the installed `mahjtable`, which
no view test runs: .ci/wheel-smoke installs the wheel and serves it."""

from __future__ import annotations

import glob
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
# The app's code: bench/, e2e/, tests/ and tools/ are the developers'.
APP_PACKAGES = ("blueprints", "core", "models", "tournament")


def tracked(*folders: str) -> set[str]:
    listed = subprocess.run(["git", "ls-files", *folders], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.split()
    return {name for name in listed if "__pycache__" not in name}


def test_every_package_of_the_app_is_in_the_wheel():
    found = {"mahjtable"} | {
        "mahjtable." + ".".join(path.parent.relative_to(ROOT).parts)
        for folder in APP_PACKAGES for path in (ROOT / folder).rglob("__init__.py")}
    assert set(PYPROJECT["tool"]["setuptools"]["packages"]) == found
    assert PYPROJECT["tool"]["setuptools"]["package-dir"] == {"mahjtable": "."}
    assert PYPROJECT["project"]["scripts"]["mahjtable"] == "mahjtable.launcher:main"


def test_every_template_static_file_and_migration_is_in_the_wheel():
    patterns = PYPROJECT["tool"]["setuptools"]["package-data"]["mahjtable"]
    shipped = {name for pattern in patterns
               for name in glob.glob(pattern, root_dir=ROOT, recursive=True)
               if (ROOT / name).is_file()}
    wanted = tracked("templates", "static", "migrations") - {"migrations/README"}
    assert wanted - shipped == set()


def test_the_wheel_asks_for_the_runtime_requirements():
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["dependencies"] == {
        "file": ["requirements.in"]}
    assert "dependencies" in PYPROJECT["project"]["dynamic"]
