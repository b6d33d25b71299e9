"""Fixtures for view and service tests: an app on a fresh database, a client, directors,
and ready-made tournaments.

The database is SQLite in a temporary file, or PostgreSQL when MAHJTABLE_TEST_BACKEND is
"postgres" (then TEST_DATABASE_URL names it; `make test` runs the suite both ways). The
schema is built once per session by the real migrations; each test then starts from
empty tables. Under pytest-xdist every worker has its own SQLite file, or its own
PostgreSQL schema in the one database, so workers never see each other's rows."""

from __future__ import annotations

import os

import pytest
from sqlalchemy import text

from app import create_app
from models import Player, db

BACKEND = os.environ.get("MAHJTABLE_TEST_BACKEND", "sqlite")


@pytest.hookimpl(trylast=True)  # after e2e/conftest.py has marked its tests
def pytest_collection_modifyitems(items):
    """The end-to-end and fault tests first: each takes seconds to a minute, a view test a
    fraction of a second. pytest-xdist hands tests out in this order, so the long ones are
    spread over the workers from the start and the short ones fill in after them. Run
    last, a long test keeps one worker busy after the others have finished."""
    items.sort(key=lambda item: not (item.get_closest_marker("e2e")
                                     or item.get_closest_marker("fault")))


# "public" when pytest runs alone, "gw0", "gw1", ... under xdist.
PG_SCHEMA = os.environ.get("PYTEST_XDIST_WORKER", "public")


def database_url(tmp_path_factory) -> str:
    if BACKEND == "postgres":
        url = os.environ.get("TEST_DATABASE_URL")
        if not url:
            pytest.exit("MAHJTABLE_TEST_BACKEND=postgres needs TEST_DATABASE_URL", 2)
        # libpq's own `options`: every connection of this worker works in its schema.
        separator = "&" if "?" in url else "?"
        return f"{url}{separator}options=-csearch_path%3D{PG_SCHEMA}"
    return "sqlite:///" + str(tmp_path_factory.mktemp("db") / "test.db")


@pytest.fixture(scope="session")
def _app(tmp_path_factory):
    from flask_migrate import upgrade

    app = create_app({
        "DATABASE_URL": database_url(tmp_path_factory),
        "TESTING": True,
        "WTF_CSRF_ENABLED": False,
        "SERVER_NAME": "mahj.test",
        # Tests that check the host list set their own (tests/security/test_files_and_hosts.py).
        "TRUSTED_HOSTS": None,
        "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1",
    })
    with app.app_context():
        if BACKEND == "postgres":
            db.session.execute(text(f"DROP SCHEMA IF EXISTS {PG_SCHEMA} CASCADE; "
                                    f"CREATE SCHEMA {PG_SCHEMA}"))
            db.session.commit()
        upgrade()
    return app


@pytest.fixture
def app(_app):
    """The app, with empty tables and fresh config for each test."""
    saved = dict(_app.config)
    with _app.app_context():
        yield _app
        db.session.rollback()
        db.session.remove()
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()
    _app.config.clear()
    _app.config.update(saved)


@pytest.fixture(autouse=True)
def _user_per_request(monkeypatch):
    """The `app` fixture keeps one app context open for the whole test, and Flask-Login
    caches the signed-in user in its `g`; so a second client would act as whoever made the
    previous request. Forget that cache before every request of every client."""
    from flask import g, has_app_context
    from flask.testing import FlaskClient

    original = FlaskClient.open

    def open_(self, *args, **kwargs):
        if has_app_context():
            g.pop("_login_user", None)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(FlaskClient, "open", open_)


@pytest.fixture
def client(app):
    return app.test_client()


def make_user(email="ann@example.com", name="Ann Director", password="correct horse",
              may_create_tournaments=False):
    """An account; with `may_create_tournaments`, as create-director makes one."""
    from blueprints.auth.service import create_user

    user, _ = create_user(email, name, password,
                          may_create_tournaments=may_create_tournaments)
    db.session.commit()
    return user


def sign_in(client, email="ann@example.com", password="correct horse"):
    response = client.post("/auth/sign-in", data={"email": email, "password": password})
    assert response.status_code == 302, response.get_data(as_text=True)
    return response


@pytest.fixture
def director(app, client):
    """A signed-in director (no tournament yet), made as create-director makes one."""
    user = make_user(may_create_tournaments=True)
    sign_in(client)
    return user


def make_tournament(user, *, players=32, preset="tnt", rounds=3, seated=True, name="Test Open",
                    code=None):
    from blueprints.director.seating import seat_round_one
    from blueprints.director.tournaments import create_tournament

    tournament = create_tournament(user, name=name, preset=preset, rounds=rounds,
                                           code=code)
    for number in range(1, players + 1):
        tournament.players.append(Player(number=number, name=f"Player {number}"))
    db.session.flush()
    if seated:
        seat_round_one(tournament, method="number", user=user)
    db.session.commit()
    return tournament


@pytest.fixture
def tournament(director):
    """A seated 8-table TNT tournament run by `director`."""
    return make_tournament(director)
