"""What the app leaves on disk and which addresses it answers to: an owner-only instance
folder and database, demo secrets printed once, trusted hosts for QR codes, a control
socket per instance, and one password policy."""

from __future__ import annotations

import os
import runpy
import sqlite3
import stat

import pytest
from sqlalchemy import select

from app import create_app, trusted_hosts
from blueprints.auth.service import WeakPassword, create_user
from cli import demo_login_path
from models import Table, User, db
from models.password_policy import password_problem
from tests.conftest import make_tournament

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_the_instance_folder_and_a_new_database_are_owner_only(tmp_path):
    path = tmp_path / "new.db"
    app = create_app({"DATABASE_URL": f"sqlite:///{path}"})
    assert mode(app.instance_path) == 0o700
    assert mode(path) == 0o600
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("CREATE TABLE t (x)")
    connection.execute("INSERT INTO t VALUES (1)")
    connection.commit()
    assert mode(f"{path}-wal") == 0o600 and mode(f"{path}-shm") == 0o600
    connection.close()


def test_an_older_world_readable_database_is_tightened(tmp_path):
    path = tmp_path / "old.db"
    path.touch(mode=0o644)
    os.chmod(path, 0o644)
    create_app({"DATABASE_URL": f"sqlite:///{path}"})
    assert mode(path) == 0o600


def test_the_demo_prints_its_secrets_on_the_first_start_only(app):
    demo_login_path().unlink(missing_ok=True)
    runner = app.test_cli_runner()
    first = runner.invoke(args=["demo"]).output
    tokens = [t.token for t in db.session.scalars(select(Table))]
    assert "Director login" in first and all(token in first for token in tokens)
    kept = demo_login_path().read_text()
    assert mode(demo_login_path()) == 0o600
    assert all(token in kept for token in tokens) and "Director login" in kept
    password = kept.split("Director login:")[1].split("/")[1].strip()
    again = runner.invoke(args=["demo"]).output
    assert password not in again and not any(token in again for token in tokens)
    assert "Players:" in again and "demo-login.txt" in again


def test_without_base_url_only_this_machine_s_names_are_trusted(monkeypatch):
    monkeypatch.delenv("TRUSTED_HOSTS", raising=False)
    hosts = trusted_hosts("")
    assert {"localhost", "127.0.0.1"} <= set(hosts) and "evil.example" not in hosts
    monkeypatch.setenv("TRUSTED_HOSTS", "mahj.example, .club.example")
    assert trusted_hosts("") == ["mahj.example", ".club.example"]
    assert trusted_hosts("https://mahj.example") == ["mahj.example", ".club.example",
                                                     "mahj.example"]
    monkeypatch.delenv("TRUSTED_HOSTS")
    assert trusted_hosts("https://mahj.example") is None  # QR codes use BASE_URL


@pytest.mark.parametrize("headers", [{"Host": "evil.example"},
                                     {"Host": "mahj.test", "X-Forwarded-Host": "evil.example"}])
def test_a_forged_host_never_reaches_a_qr_code(app, client, director, monkeypatch, headers):
    tournament = make_tournament(director, code="HOSTS1")
    app.config["TRUSTED_HOSTS"] = ["mahj.test"]
    app.config["BASE_URL"] = ""
    if "X-Forwarded-Host" in headers:
        from werkzeug.middleware.proxy_fix import ProxyFix

        monkeypatch.setattr(app, "wsgi_app", ProxyFix(app.wsgi_app, x_host=1))
    response = client.get(f"/director/t/{tournament.id}/cards", headers=headers)
    assert response.status_code == 400
    assert "evil.example" not in response.get_data(as_text=True)
    assert "does not answer to that address" in response.get_data(as_text=True)
    ok = client.get(f"/director/t/{tournament.id}/cards", headers={"Host": "mahj.test"})
    assert ok.status_code == 200 and "http://mahj.test/t/HOSTS1/1?k=" in ok.get_data(
        as_text=True)


@pytest.mark.parametrize("base_url, warned", [("http://127.0.0.1:8000", True),
                                              ("http://localhost:8000", True),
                                              ("http://192.168.1.10:8000", False)])
def test_the_cards_page_warns_when_its_codes_point_at_this_computer_only(
        app, client, director, base_url, warned):
    tournament = make_tournament(director, code="LOOP01")
    app.config["BASE_URL"] = base_url
    body = client.get(f"/director/t/{tournament.id}/cards").get_data(as_text=True)
    assert ("only this computer can open" in body) is warned


def test_gunicorn_has_a_control_socket_per_instance_or_none(monkeypatch):
    monkeypatch.delenv("GUNICORN_CONTROL_SOCKET", raising=False)
    settings = runpy.run_path(os.path.join(ROOT, "gunicorn.conf.py"))
    assert settings["control_socket_disable"] is True
    monkeypatch.setenv("GUNICORN_CONTROL_SOCKET", "/run/mahjtable/event-a.ctl")
    settings = runpy.run_path(os.path.join(ROOT, "gunicorn.conf.py"))
    assert settings["control_socket_disable"] is False
    assert settings["control_socket"] == "/run/mahjtable/event-a.ctl"


@pytest.mark.parametrize("password, ok", [
    ("", False), ("x", False), ("short pw", False),     # under 10 characters
    ("1234567890", False), ("qwertyuiop", False),       # breached favourites
    ("Password123!", False), ("iloveyou2024", False),   # a common word plus a tail
    ("aaaaaaaaaaaa", False),                            # one repeated character
    ("correct horse", True), ("tile-pung-kong-9", True),
])
def test_one_password_policy(password, ok):
    assert (password_problem(password) is None) is ok


@pytest.mark.parametrize("password", ["x", "", "password123"])
def test_the_cli_refuses_a_weak_password(app, password):
    result = app.test_cli_runner().invoke(
        args=["create-director", "boss@example.com", "--password", password])
    assert result.exit_code != 0
    assert "Please choose" in result.output or "most common" in result.output
    assert db.session.scalar(select(User)) is None


def test_the_cli_refuses_a_common_password_on_a_change_too(app):
    from tests.conftest import make_user

    make_user()
    result = app.test_cli_runner().invoke(args=["set-password", "ann@example.com"],
                                          input="password1234\npassword1234\n")
    assert result.exit_code != 0 and "most common" in result.output
    assert db.session.scalar(select(User)).check_password("correct horse")


def test_create_user_refuses_a_weak_password_and_accepts_a_good_one(app):
    with pytest.raises(WeakPassword):
        create_user("weak@example.com", "Weak", "letmein123")
    user, password = create_user("good@example.com", "Good", "tile-pung-kong-9")
    assert user.check_password(password)
    generated, password = create_user("gen@example.com", "Gen")
    assert password_problem(password) is None
    with pytest.raises(WeakPassword):  # a later change of password meets the same policy
        user.set_password("1234567890")
    assert user.check_password("tile-pung-kong-9")


@pytest.mark.parametrize("password, error", [("short", "at least 10"),
                                             ("password1234", "most common"),
                                             ("tile-pung-kong-9", None)])
def test_forms_that_set_a_password_say_the_policy_at_the_field(app, password, error):
    from flask_wtf import FlaskForm
    from wtforms import PasswordField

    from blueprints.common import chosen_password

    class ChooseForm(FlaskForm):
        password = PasswordField("Password", validators=[chosen_password])

    with app.test_request_context(method="POST", data={"password": password}):
        form = ChooseForm()
        assert form.validate() is (error is None)
        if error:
            assert error in form.password.errors[0]


def test_static_serves_assets_only(app, client, tmp_path, monkeypatch):
    """static/ is public to anyone: a script or a note left there must not be served."""
    from pathlib import Path

    from app import STATIC_KINDS

    static = Path(app.static_folder)
    assert client.get("/static/audio/make_chime.py").status_code == 404
    stray = sorted(str(p.relative_to(static)) for p in static.rglob("*")
                   if p.is_file() and p.suffix.lstrip(".") not in STATIC_KINDS)
    for name in stray:  # the vendored htmx's version note, kept beside it, is not served
        assert client.get(f"/static/{name}").status_code == 404, name
    for name in ("notes.txt", "tool.py", "backup.json", "x.sqlite"):
        (tmp_path / name).write_text("secret")
    monkeypatch.setattr(app, "static_folder", str(tmp_path))
    for name in ("notes.txt", "tool.py", "backup.json", "x.sqlite"):
        assert client.get(f"/static/{name}").status_code == 404, name


def test_every_asset_kind_still_serves(app, client):
    from pathlib import Path

    static = Path(app.static_folder)
    for kind in ("css", "js", "png", "svg", "wav"):
        asset = next(p for p in static.rglob(f"*.{kind}"))
        response = client.get(f"/static/{asset.relative_to(static)}")
        assert response.status_code == 200, asset
