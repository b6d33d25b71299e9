"""core.rows.PrecompiledRead: the statements every table page runs, on the driver's own
cursor, answer exactly as SQLAlchemy's execution of the same statement (the same values of
the same types: times, JSON, booleans), the statement listeners still see them, and a
failure is handled as SQLAlchemy's execution handles one."""

from __future__ import annotations

import pytest
from sqlalchemy import bindparam, column, select, table
from sqlalchemy.exc import DBAPIError, InvalidRequestError

from blueprints.calls import table_calls
from blueprints.live import service
from blueprints.table import sheet_reads
from core import table_pages
from core.rounds import ensure_round, round_row
from core.rows import PrecompiledRead
from models import Table, db
from tests.clock.conftest import games_on, started
from tests.conftest import make_tournament
from tests.table.conftest import count_queries


@pytest.fixture
def reads(director):
    """Every precompiled read, with parameters that find rows of every kind: a started
    round, a sheet with games, an open call, a seated next round."""
    tournament = make_tournament(director, rounds=3)
    started(tournament, 1, minutes_ago=5, paused_minutes_ago=1, reason="lunch")
    sheet = games_on(tournament, 2, 1, 2)
    sheet.games[0].initials, sheet.games[0].seat_initials = "BG", {"E": "BG"}
    ensure_round(tournament, 2)
    table_ = db.session.scalar(select(Table).where(Table.tournament_id == tournament.id,
                                                   Table.number == 2))
    table_calls.place_call(table_, "ruling", "")
    db.session.commit()
    link = {"code": tournament.code, "number": 2}
    seats = {"round_id": round_row(tournament, 1).id, "table_id": table_.id}
    return {
        "table link": (table_pages._SHOWN[False], link),
        "table link, round 1": (table_pages._SHOWN[True], {**link, "round_no": 1}),
        "poll versions": (service._VERSIONS[False], link),
        "poll versions, round 1": (service._VERSIONS[True], {**link, "round_no": 1}),
        "seats": (sheet_reads._SEATED[False], seats),
        "seats and next tables": (sheet_reads._SEATED[True], {
            **seats, "tournament_id": tournament.id, "number": 2}),
        "sheet and games": (sheet_reads._SHEET, seats),
    }


def test_each_read_answers_as_sqlalchemy_does(app, reads):
    for name, (read, params) in reads.items():
        expected = [tuple(row) for row in db.session.connection().execute(read.statement,
                                                                         params)]
        assert expected, name  # something to compare
        with db.engine.connect() as connection:
            outside = read.run(connection.connection, connection.dialect, params)
        for got in (read.rows(params), outside):
            assert got == expected, name
            # equal is not enough: 1 == True, and a time read as its text would differ
            # only in type
            assert [[type(value) for value in row] for row in got] == \
                [[type(value) for value in row] for row in expected], name


def test_rows_name_their_columns(app, reads):
    read, params = reads["sheet and games"]
    first = read.rows(params)[0]
    assert (first.game_number, first.game_record) == (1, {"outcome": "wall"})
    assert first.game_seat_initials == {"E": "BG"}


def test_the_statement_listeners_see_each_read(app, reads):
    read, params = reads["sheet and games"]
    with count_queries() as statements:
        read.rows(params)
    assert statements.statements == [read.compiled(db.engine.dialect).sql]


def test_a_driver_error_is_raised_as_sqlalchemy_raises_it(app):
    connection = db.session.connection()
    with pytest.raises(DBAPIError) as raised:
        _missing_table().rows({"x": 1})
    assert "no_such_table" in str(raised.value)
    assert not raised.value.connection_invalidated and not connection.invalidated
    db.session.rollback()


def _missing_table():
    return PrecompiledRead(select(column("x")).select_from(table("no_such_table"))
                           .where(column("x") == bindparam("x")))


def test_a_lost_connection_is_dropped_as_sqlalchemy_drops_it(app, monkeypatch):
    # Any error the driver says means the connection is gone (here: a missing table,
    # told so by is_disconnect) must invalidate it, not hand it back to the pool.
    monkeypatch.setattr(db.engine.dialect, "is_disconnect", lambda *args: True)
    connection = db.session.connection()
    with pytest.raises(DBAPIError) as raised:
        _missing_table().rows({"x": 1})
    assert raised.value.connection_invalidated
    assert connection.invalidated
    db.session.rollback()


def test_a_missing_parameter_is_refused_not_sent_as_null(app, reads):
    read, params = reads["seats and next tables"]
    without = {name: value for name, value in params.items() if name != "tournament_id"}
    with pytest.raises(InvalidRequestError, match="tournament_id"):
        read.rows(without)
    with db.engine.connect() as connection, pytest.raises(InvalidRequestError):
        read.run(connection.connection, connection.dialect, without)


def test_a_statement_that_cannot_be_compiled_ahead_is_refused(app):
    expanding = PrecompiledRead(select(column("x")).select_from(table("t"))
                                .where(column("x").in_(bindparam("xs", expanding=True))))
    with pytest.raises(RuntimeError):
        expanding.compiled(db.engine.dialect)


def test_a_page_that_only_shows_reads_on_a_connection_of_its_own(app, tournament):
    """A player's phone's table page (a GET) reads without opening the session: its reads
    run on one connection taken from the pool, given back as the request ends."""
    from sqlalchemy import event
    from sqlalchemy.orm import Session

    table_ = tournament.tables[0]
    url = f"/t/{tournament.code}/{table_.number}?k={table_.token}"
    name = tournament.name
    # as in production, where each request has its own app context: no session yet
    db.session.remove()
    began = []

    def note_begin(session, transaction, connection):
        began.append(session)

    event.listen(Session, "after_begin", note_begin)
    try:
        checked_out = db.engine.pool.checkedout()
        with count_queries() as statements:
            page = app.test_client().get(url)  # a player's phone: nobody signed in
    finally:
        event.remove(Session, "after_begin", note_begin)
    assert page.status_code == 200 and name in page.get_data(as_text=True)
    assert len(statements.statements) == 3  # the table's link, its seats, its sheet
    assert began == []
    assert db.engine.pool.checkedout() == checked_out


def test_a_request_that_writes_after_such_reads_reads_what_it_wrote(app, tournament):
    """Once a request opens the session (here, to change a row), its reads go through the
    session, so they see its own writes; the connection it read on before goes back to
    the pool first, so the request never holds two."""
    from core.rows import read_rows
    from models import Tournament

    tournament_id = tournament.id
    db.session.remove()
    name = select(Tournament.name).where(Tournament.id == bindparam("id"))
    checked_out = db.engine.pool.checkedout()
    with app.test_request_context("/", method="GET"):
        assert read_rows(name, {"id": tournament_id}).scalar() == "Test Open"
        assert db.engine.pool.checkedout() == checked_out + 1
        db.session.get(Tournament, tournament_id).name = "Renamed"
        # one connection at a time: the one read on went back before the session took one
        assert db.engine.pool.checkedout() == checked_out + 1
        assert read_rows(name, {"id": tournament_id}).scalar() == "Renamed"
        db.session.rollback()
        db.session.remove()
    assert db.engine.pool.checkedout() == checked_out
    assert db.session.get(Tournament, tournament_id).name == "Test Open"
