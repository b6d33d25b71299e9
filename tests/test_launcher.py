"""The `mahjtable` command (launcher.py): where its data lives, what its first start does
and prints, and the guides' commands reached through it. Serving itself is the fault and
end-to-end tests' (both servers) and .ci's (the wheel and the one-file build)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

import launcher


@pytest.fixture
def data_env(monkeypatch, tmp_path):
    """The variables the command sets for gunicorn's workers, given back after the test;
    the user's data folder under tmp_path."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    for name in ("MAHJTABLE_DATA_DIR", "PORT", "HOST", "DATABASE_URL", "BASE_URL",
                 "SECRET_KEY"):
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    return tmp_path


@pytest.fixture
def served(monkeypatch):
    """Each serve() the command reached, instead of serving."""
    calls = []
    monkeypatch.setattr(launcher, "serve", lambda *args: calls.append(args))
    return calls


def mahjtable(*args: str):
    result = CliRunner().invoke(launcher.main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def test_the_data_folder_is_the_users_unless_an_option_or_the_environment_says(
        data_env, monkeypatch):
    assert launcher.use_data_dir(None) == data_env / "xdg" / "MahjTable"
    monkeypatch.setenv("MAHJTABLE_DATA_DIR", str(data_env / "from-env"))
    assert launcher.use_data_dir(None) == data_env / "from-env"
    assert launcher.use_data_dir(str(data_env / "option")) == data_env / "option"
    assert (data_env / "option").is_dir()
    assert (data_env / "option").stat().st_mode & 0o077 == 0  # owner-only


def test_gunicorn_where_it_runs_and_waitress_on_windows():
    assert launcher.default_server("posix") == "gunicorn"
    assert launcher.default_server("nt") == "waitress"


def tournaments(data_dir: Path) -> list[str]:
    with sqlite3.connect(data_dir / "mahjtable.db") as connection:
        return [row[0] for row in connection.execute("SELECT code FROM tournament")]


def test_the_first_start_migrates_loads_the_demo_once_and_says_where_things_are(
        data_env, served):
    first = mahjtable("run", "--port", "8765")
    data_dir = data_env / "xdg" / "MahjTable"
    assert tournaments(data_dir) == ["DEMO26"]
    assert served == [("gunicorn", "0.0.0.0", 8765)]
    assert "Loaded the demo tournament." in first.output
    # The address the phones open, and its QR code (segno's block characters).
    assert "Phones on this laptop's Wi-Fi open:" in first.output
    address = first.output.split("Wi-Fi open:")[1].split()[0]
    assert address.startswith("http://") and address.endswith(":8765/")
    assert "127.0.0.1" not in address
    assert "\u2588" in first.output
    assert "Director login:    director@demo.mahjtable / " in first.output
    assert f"Your data:        {data_dir}" in first.output
    assert "Whole tournament backup" in first.output and "Ctrl-C" in first.output
    # Everything written went into the data folder.
    assert {p.name for p in data_dir.iterdir()} >= {"mahjtable.db", "secret_key",
                                                     "demo-login.txt"}

    again = mahjtable("--data-dir", str(data_dir), "run", "--server", "waitress")
    assert "the demo was not loaded" in again.output
    assert tournaments(data_dir) == ["DEMO26"]
    assert served[-1][0] == "waitress"
    assert "its password is in demo-login.txt" in again.output


def test_mahjtable_alone_runs(data_env, served):
    mahjtable("--data-dir", str(data_env / "d"))
    assert served and tournaments(data_env / "d") == ["DEMO26"]


def test_the_guides_commands_are_reached_through_it(data_env):
    data = str(data_env / "d")
    mahjtable("--data-dir", data, "db", "upgrade")
    made = mahjtable("--data-dir", data, "create-director", "dee@example.com", "--name",
                     "Dee", "--password", "a long enough secret 123")
    assert "Created dee@example.com" in made.output
    revoked = mahjtable("--data-dir", data, "may-create-tournaments", "dee@example.com",
                        "--revoke")
    assert "may no longer create tournaments" in revoked.output
    listed = mahjtable("--data-dir", data, "--help").output
    for command in ("run", "create-director", "set-password", "may-create-tournaments",
                    "import-backup", "demo", "db"):
        assert command in listed
