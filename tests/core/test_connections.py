"""Pooled PostgreSQL connections the server ended (a restart, pg_terminate_backend, an idle
timeout) are replaced before a request uses them: no page, poll or save fails for them.

The pool checks a connection at checkout without a round trip (app._postgres_alive), so
these run on PostgreSQL only; a SQLite connection is a file and cannot be lost."""

from __future__ import annotations

import importlib
import os
import time

import pytest
from sqlalchemy import create_engine, event, text

from bench import flows
from models import db

pytestmark = pytest.mark.skipif(os.environ.get("MAHJTABLE_TEST_BACKEND") != "postgres",
                                reason="a PostgreSQL pool")


def table_link(tournament, page="/t") -> str:
    table = tournament.tables[0]
    return f"{page}/{tournament.code}/{table.number}?k={table.token}"


def end_backends(pids: set[int]) -> None:
    """Terminate these server sessions, as a restart would, and wait until they are gone."""
    admin = create_engine(db.engine.url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE pid = ANY(:pids)"), {"pids": list(pids)})
        for _ in range(100):
            left = connection.scalar(text("SELECT count(*) FROM pg_stat_activity "
                                          "WHERE pid = ANY(:pids)"), {"pids": list(pids)})
            if not left:
                break
            time.sleep(0.05)
    admin.dispose()


@pytest.fixture
def pooled_pids(app):
    """The server session of every connection the pool hands out during the test."""
    pids: set[int] = set()

    def note(dbapi_connection, record, proxy):
        pids.add(dbapi_connection.info.backend_pid)

    event.listen(db.engine.pool, "checkout", note)
    yield pids
    event.remove(db.engine.pool, "checkout", note)


@pytest.mark.parametrize("idle_ping", [False, True])
def test_ended_connections_are_replaced_before_use(app, client, tournament, pooled_pids,
                                                   monkeypatch, idle_ping):
    if idle_ping:  # every checkout also makes the round trip, as after a long idle spell
        monkeypatch.setattr(importlib.import_module("app"), "IDLE_PING_SECONDS", 0)
    link, call = table_link(tournament), table_link(tournament, "/calls/t")
    db.session.remove()
    page = client.get(link)
    assert page.status_code == 200
    url, versions = flows.live_poll(page.get_data(as_text=True))
    poll = flows.with_versions(url, versions)
    assert client.get(poll, headers={"HX-Request": "true"}).status_code == 204
    db.session.remove()

    end_backends(set(pooled_pids))
    assert client.get(poll, headers={"HX-Request": "true"}).status_code == 204
    db.session.remove()

    end_backends(set(pooled_pids))
    assert client.get(link).status_code == 200
    db.session.remove()

    end_backends(set(pooled_pids))
    response = client.post(call, data={"reason": "tile_count", "request_key": "after-restart"})
    assert response.status_code == 302
    assert db.session.scalar(text("SELECT count(*) FROM director_call")) == 1


def test_poll_falls_back_to_the_full_answer_when_its_query_fails(app, client, tournament,
                                                                 monkeypatch):
    """A connection lost mid-statement: the unchanged poll's shortcut gives up and the
    full view answers on a fresh connection."""
    from blueprints.live import service

    link = table_link(tournament)
    url, versions = flows.live_poll(client.get(link).get_data(as_text=True))
    db.session.remove()

    def lost(connection, *args):
        end_backends({connection.driver_connection.info.backend_pid})
        connection.cursor().execute("SELECT 1")

    monkeypatch.setattr(service, "fast_unchanged", lost)
    response = client.get(flows.with_versions(url, versions), headers={"HX-Request": "true"})
    assert response.status_code in (200, 204)


def test_a_live_connection_with_something_to_read_is_kept(app):
    """Readable is not proof of death: a message of the server's own (here a
    notification) costs one round trip, not the connection."""
    db.session.remove()
    db.engine.dispose()  # one connection in the pool, so every checkout is that one
    with db.engine.connect() as connection:
        pid = connection.connection.driver_connection.info.backend_pid
        connection.exec_driver_sql("LISTEN mahjtable_check")
        connection.commit()
    admin = create_engine(db.engine.url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql("NOTIFY mahjtable_check")
    admin.dispose()
    time.sleep(0.2)
    with db.engine.connect() as connection:
        assert connection.connection.driver_connection.info.backend_pid == pid
        connection.exec_driver_sql("UNLISTEN *")
        connection.commit()
