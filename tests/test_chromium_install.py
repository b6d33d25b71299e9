"""`make test` gets a Chromium before the end-to-end tests: the one already there, else
Playwright's download, else the distribution's package (e2e/chromium.py)."""

from __future__ import annotations

import pytest

from e2e import chromium


@pytest.fixture
def machine(monkeypatch):
    """A machine with no Chromium whose installs succeed or fail as a test says."""
    state = {"installed": None, "commands": [], "works": set()}

    def run(command):
        state["commands"].append(command)
        name = "playwright" if "playwright" in command else "apt" if "install" in command \
            else "apt-update"
        ok = name in state["works"] or name == "apt-update"
        if ok and name != "apt-update":
            state["installed"] = name
        return ok

    monkeypatch.setattr(chromium, "run", run)
    monkeypatch.setattr(chromium, "found", lambda: state["installed"])
    monkeypatch.setattr(chromium.shutil, "which",
                        lambda name: f"/usr/bin/{name}" if name in ("apt-get", "sudo") else None)
    monkeypatch.setattr(chromium.os, "geteuid", lambda: 0)
    return state


def test_a_chromium_already_there_installs_nothing(machine):
    machine["installed"] = "/usr/bin/chromium"
    assert chromium.main() == 0
    assert machine["commands"] == []


def test_playwrights_download_comes_first(machine):
    machine["works"] = {"playwright"}
    assert chromium.main() == 0
    assert machine["installed"] == "playwright"
    assert len(machine["commands"]) == 1 and machine["commands"][0][1:] == [
        "-m", "playwright", "install", "chromium"]


def test_the_distributions_package_when_the_download_is_unreachable(machine):
    machine["works"] = {"apt"}
    assert chromium.main() == 0
    assert machine["installed"] == "apt"
    assert machine["commands"][-1][-4:] == ["install", "-y", "-qq", "chromium"]


def test_nothing_works_fails_and_says_what_to_install(machine, capsys):
    assert chromium.main() == 1
    assert "apt-get install chromium" in capsys.readouterr().err


def test_without_apt_get_only_the_download_is_tried(machine, monkeypatch):
    monkeypatch.setattr(chromium.shutil, "which", lambda name: None)
    assert chromium.main() == 1
    assert [c for c in machine["commands"] if "playwright" not in c] == []
