"""The app factory and its configuration."""

import os
import socket

import pytest

from app import create_app, normalise_database_url


@pytest.mark.parametrize("given, expected", [
    ("postgres://u:p@h:5432/d", "postgresql+psycopg://u:p@h:5432/d"),
    ("postgresql://u@h/d", "postgresql+psycopg://u@h/d"),
    ("postgresql+psycopg://u@h/d", "postgresql+psycopg://u@h/d"),
    ("sqlite:////tmp/x.db", "sqlite:////tmp/x.db"),
])
def test_database_urls_are_normalised_to_psycopg3(given, expected):
    assert normalise_database_url(given) == expected


def test_database_url_from_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("DATABASE_URL", "postgres://someone@db.example/mahj")
    app = create_app()
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://someone@db.example/mahj"


def test_default_database_is_sqlite_in_instance_folder(monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    app = create_app()
    assert app.config["SQLALCHEMY_DATABASE_URI"] == (
        "sqlite:///" + os.path.join(app.instance_path, "mahjtable.db"))


def test_secret_key_is_generated_once_and_kept(monkeypatch, tmp_path):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    first = create_app()
    second = create_app()
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"]
    assert len(first.config["SECRET_KEY"]) >= 32
    key_file = os.path.join(first.instance_path, "secret_key")
    with open(key_file) as f:
        assert f.read().strip() == first.config["SECRET_KEY"]


def test_secret_key_from_environment_wins(monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "from-the-environment")
    assert create_app().config["SECRET_KEY"] == "from-the-environment"


def test_base_url_is_kept_without_trailing_slash(monkeypatch):
    monkeypatch.setenv("BASE_URL", "http://192.168.1.10:8000/")
    assert create_app().config["BASE_URL"] == "http://192.168.1.10:8000"


def test_sqlite_connections_use_wal_busy_timeout_and_foreign_keys(app):
    from sqlalchemy import text

    from models import db

    if db.engine.dialect.name != "sqlite":
        pytest.skip("SQLite pragmas")
    with db.engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA busy_timeout")).scalar() == 10000
        assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1


def test_home_page_lists_tournaments_in_progress(client, director):
    from datetime import date

    from tests.conftest import make_tournament

    running = make_tournament(director, name="Spring Classic", seated=False)
    running.starts_on = date.today()
    make_tournament(director, name="Next Year Open", seated=False).starts_on = date(2099, 1, 1)
    from models import db
    db.session.commit()
    page = client.get("/").get_data(as_text=True)
    assert "Spring Classic" in page
    assert "Next Year Open" not in page
    assert "/auth/sign-in" in page


@pytest.mark.parametrize("path, status", [("/no-such-page", 404)])
def test_error_pages_use_the_apps_look(client, path, status):
    response = client.get(path)
    assert response.status_code == status
    body = response.get_data(as_text=True)
    assert "Page not found" in body and "MahjTable" in body


def test_security_headers_on_every_page(client):
    response = client.get("/")
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "'unsafe-inline'" not in csp
    assert "frame-ancestors 'none'" in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"


def test_create_director_command(app):
    from sqlalchemy import select

    from models import User, db

    result = app.test_cli_runner().invoke(
        args=["create-director", "Boss@Example.com", "--name", "Boss", "--generate"])
    assert result.exit_code == 0, result.output
    user = db.session.scalar(select(User).where(User.email == "boss@example.com"))
    password = result.output.strip().split()[-1]
    assert user is not None and user.check_password(password)
    again = app.test_cli_runner().invoke(
        args=["create-director", "boss@example.com", "--generate"])
    assert again.exit_code != 0 and "already" in again.output


def test_demo_command_loads_once(app):
    from sqlalchemy import func, select

    from models import Player, Round, Seating, Table, Tournament, db

    runner = app.test_cli_runner()
    result = runner.invoke(args=["demo"])
    assert result.exit_code == 0, result.output
    assert "Director login" in result.output and "Table 8" in result.output
    tournament = db.session.scalar(select(Tournament))
    assert tournament.preset == "tnt" and tournament.rounds == 3
    assert db.session.scalar(select(func.count()).select_from(Player)) == 32
    assert db.session.scalar(select(func.count()).select_from(Table)) == 8
    assert db.session.scalar(select(func.count()).select_from(Seating)) == 32
    assert db.session.scalar(select(Round.number)) == 1
    second = runner.invoke(args=["demo"])
    assert "already has a tournament" in second.output
    assert db.session.scalar(select(func.count()).select_from(Tournament)) == 1


def test_database_locked_is_a_clear_503_not_a_500(tmp_path):
    import sqlite3

    from sqlalchemy.exc import OperationalError

    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}", "TESTING": True})

    @app.get("/locked")
    def locked():
        raise OperationalError("UPDATE ...", {}, sqlite3.OperationalError("database is locked"))

    response = app.test_client().get("/locked")
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "2"
    assert "tap again" in response.get_data(as_text=True)


def test_static_files_are_versioned_long_cached_and_compressed(client):
    import re

    page = client.get("/").get_data(as_text=True)
    # The page's one script, htmx inside, under a URL that changes with its content.
    script = re.search(r'src="(/static/bundle/public\.js\?v=[0-9a-f]{12})"', page).group(1)
    response = client.get(script, headers={"Accept-Encoding": "gzip, deflate"})
    assert response.status_code == 200
    assert "max-age=31536000" in response.headers["Cache-Control"]
    assert response.headers["Content-Encoding"] == "gzip"
    assert len(response.data) < 24_000  # 68 KB on disk, htmx's 52 KB included


def test_vendored_htmx_matches_its_recorded_checksum():
    import hashlib
    from pathlib import Path

    vendor = Path(__file__).resolve().parent.parent / "static" / "vendor"
    recorded = (vendor / "htmx.VERSION").read_text()
    digest = hashlib.sha256((vendor / "htmx.min.js").read_bytes()).hexdigest()
    assert digest in recorded and "2.0." in recorded


def test_secret_key_file_is_written_once_even_when_workers_race(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    from app import secret_key

    with ThreadPoolExecutor(8) as pool:
        keys = set(pool.map(lambda _: secret_key(str(tmp_path)), range(16)))
    assert len(keys) == 1
    assert oct((tmp_path / "secret_key").stat().st_mode & 0o777) == "0o600"


def test_timezone_is_read_and_checked_at_start(monkeypatch):
    monkeypatch.setenv("TIMEZONE", "America/New_York")
    assert create_app().config["TIMEZONE"] == "America/New_York"
    monkeypatch.setenv("TIMEZONE", "Mars/Olympus_Mons")
    with pytest.raises(Exception, match="Mars"):
        create_app()


def test_audit_rows_fit_their_columns_whatever_the_names(app):
    from models import AuditEvent, db, record

    record("x" * 100, tournament_id=None, subject="s" * 100, actor="Table 1 East (" + "N" * 200)
    db.session.commit()
    event = db.session.query(AuditEvent).one()
    assert len(event.actor) == 120 and len(event.action) == 64 and len(event.subject) == 64


def test_our_css_and_js_are_served_minified_and_vendored_files_untouched(client):
    from pathlib import Path

    static = Path(client.application.static_folder)
    for name in ("js/clock.js", "css/table.css"):
        response = client.get(f"/static/{name}?v=1")
        assert response.status_code == 200
        assert "max-age=31536000" in response.headers["Cache-Control"]
        body = response.get_data(as_text=True)
        source = (static / name).read_text()
        assert "/*" in source or "//" in source  # the source explains itself...
        assert len(body) < len(source) * 0.9 and "/*" not in body  # ...phones get it lean
    htmx = client.get("/static/vendor/htmx.min.js?v=1").get_data()
    assert htmx == (static / "vendor" / "htmx.min.js").read_bytes()
    assert client.get("/static/js/nope.js").status_code == 404


def test_passwords_are_hashed_with_scrypt_outside_the_test_suite(tmp_path):
    from models import User

    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}"})
    with app.app_context():
        user = User(email="x@example.com", name="X")
        user.set_password("a long enough password")
        assert user.password_hash.startswith("scrypt:")
        assert user.check_password("a long enough password")


def test_each_gunicorn_worker_compiles_every_template_then_freezes_what_it_made(app, monkeypatch):
    import gc
    import runpy
    from pathlib import Path
    from types import SimpleNamespace

    from flask import Flask

    root = Path(__file__).resolve().parent.parent
    on_disk = {str(path.relative_to(root / "templates"))
               for path in (root / "templates").rglob("*.html")}
    hook = runpy.run_path(str(root / "gunicorn.conf.py"))["post_worker_init"]

    def compiled() -> set[str]:
        return {name for _, name in app.jinja_env.cache}  # keys: (loader, name)

    # The templates compiled, then everything the worker has made frozen (gc.freeze: the
    # collector leaves it alone from then on). Watched here, not done to this process.
    calls = []
    monkeypatch.setattr(gc, "collect", lambda: calls.append(("collect", len(compiled()))))
    monkeypatch.setattr(gc, "freeze", lambda: calls.append(("freeze", len(compiled()))))

    assert not on_disk <= compiled()
    hook(SimpleNamespace(wsgi=app))
    assert on_disk <= compiled()  # every one compiled (a syntax error would have raised)
    assert calls == [("collect", len(compiled())), ("freeze", len(compiled()))]
    calls.clear()
    # another app (the benchmark's floor): no templates to compile; its heap frozen too
    hook(SimpleNamespace(wsgi=Flask("bare")))
    assert [name for name, _ in calls] == ["collect", "freeze"]


def test_compiled_templates_are_kept_in_a_plain_dict_without_eviction(app):
    # Jinja's default, a 400-entry LRU, scans a queue on every lookup to reorder it; our
    # templates are a fixed set of files, so nothing ever needs evicting.
    app.jinja_env.get_template("base.html")
    assert type(app.jinja_env.cache) is dict
    assert any(name == "base.html" for _, name in app.jinja_env.cache)


@pytest.mark.skipif(not hasattr(socket, "TCP_DEFER_ACCEPT"), reason="Linux only")
def test_gunicorn_hands_a_worker_a_connection_only_once_its_request_arrives():
    # The header deadline (gunicorn.conf.py keepalive) starts at the accept: a connection a
    # phone opened ahead of need would be closed before it was used (and a sync worker
    # would wait on it: e2e/test_idle_connections.py).
    import runpy
    from pathlib import Path
    from types import SimpleNamespace

    config = runpy.run_path(str(Path(__file__).resolve().parent.parent / "gunicorn.conf.py"))
    for hook in ("when_ready", "on_reload"):  # at start, and on new listeners after a reload
        with socket.socket() as tcp, socket.socket(socket.AF_UNIX) as unix:
            tcp.bind(("127.0.0.1", 0))
            tcp.listen()
            assert tcp.getsockopt(socket.IPPROTO_TCP, socket.TCP_DEFER_ACCEPT) == 0
            config[hook](SimpleNamespace(LISTENERS=[SimpleNamespace(sock=unix),
                                                    SimpleNamespace(sock=tcp)]))
            assert tcp.getsockopt(socket.IPPROTO_TCP, socket.TCP_DEFER_ACCEPT) > 0
