"""core.reads: on PostgreSQL a GET reads outside a transaction (no BEGIN, no ROLLBACK),
and its first write or row lock starts one, so writes stay atomic. SQLite's driver does
this by itself, so these run on PostgreSQL only."""

from __future__ import annotations

import os

import pytest
from sqlalchemy import select, text

from models import Tournament, db

pytestmark = pytest.mark.skipif(os.environ.get("MAHJTABLE_TEST_BACKEND") != "postgres",
                                reason="psycopg's transactions")


def in_transaction() -> bool:
    from psycopg.pq import TransactionStatus

    driver = db.session.connection().connection.driver_connection
    return driver.info.transaction_status != TransactionStatus.IDLE


@pytest.fixture
def tournament_id(app, tournament):
    """The tournament's id, its session closed: each test starts on a fresh one."""
    tournament_id = tournament.id
    db.session.remove()
    yield tournament_id
    db.session.rollback()
    db.session.remove()


def test_a_get_reads_outside_a_transaction(app, tournament_id):
    with app.test_request_context("/", method="GET"):
        assert db.session.scalar(select(Tournament.name)) == "Test Open"
        assert not in_transaction()


def test_a_write_during_a_get_is_one_transaction(app, tournament_id):
    with app.test_request_context("/", method="GET"):
        found = db.session.get(Tournament, tournament_id)
        found.name = "Renamed"
        db.session.flush()
        assert in_transaction()
        db.session.execute(text("UPDATE tournament SET venue = 'Elsewhere' WHERE id = :id"),
                           {"id": tournament_id})
        db.session.rollback()
        db.session.remove()
    stored = db.session.get(Tournament, tournament_id)
    assert (stored.name, stored.venue) != ("Renamed", "Elsewhere")
    assert stored.name == "Test Open" and stored.venue != "Elsewhere"


def test_a_row_lock_during_a_get_is_held_in_a_transaction(app, tournament_id):
    with app.test_request_context("/", method="GET"):
        db.session.scalar(select(Tournament.id).with_for_update(read=True))
        assert in_transaction()


def test_a_post_reads_in_its_transaction_as_before(app, tournament_id):
    with app.test_request_context("/", method="POST"):
        db.session.scalar(select(Tournament.name))
        assert in_transaction()


def test_a_post_that_only_shows_reads_outside_a_transaction(app, tournament_id):
    """The entry wizard's preview answers a post but writes nothing (@shows_only): no
    BEGIN and no ROLLBACK, as a GET; a post to the save beside it keeps its transaction."""
    from flask import url_for

    with app.test_request_context("/"):
        preview = url_for("table.preview_game", code="TEST", number=1)
        save = url_for("table.save_game", code="TEST", number=1)
    with app.test_request_context(preview, method="POST"):
        db.session.scalar(select(Tournament.name))
        assert not in_transaction()
    db.session.remove()
    with app.test_request_context(save, method="POST"):
        db.session.scalar(select(Tournament.name))
        assert in_transaction()


def test_the_pool_gets_its_connections_back_in_transaction_mode(app, tournament_id):
    with app.test_request_context("/", method="GET"):
        driver = db.session.connection().connection.driver_connection
        db.session.scalar(select(Tournament.name))
        assert driver.autocommit
        db.session.remove()
    assert not driver.autocommit


def test_the_reads_of_a_get_without_the_session_are_outside_a_transaction(app, tournament_id):
    """A GET that has not opened the session reads on a connection of its own (core.rows):
    outside a transaction as well, and the pool gets it back in transaction mode."""
    from core.rows import _read_connection, read_rows

    with app.test_request_context("/", method="GET"):
        assert read_rows(select(Tournament.name), {}).scalar() == "Test Open"
        connection = _read_connection()
        assert not db.session.registry.has()  # the session was never opened
        driver = connection.connection.driver_connection
        assert driver.autocommit and driver.info.transaction_status == 0  # 0: IDLE
    assert not driver.autocommit
