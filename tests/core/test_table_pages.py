"""A table page's first read (core.table_pages) brings the table's clock, round and call
with it: the readers later in the request must answer from it exactly as they would
have read them on their own, in every state a table goes through."""

from __future__ import annotations

from dataclasses import replace

import pytest

from blueprints.calls import queue, table_calls
from core import calls, clock, rows, sheets
from core.rounds import round_row
from core.table_pages import shown_table_from_link
from models import Table, db
from tests.clock.conftest import ended, started
from tests.conftest import make_tournament
from tests.table.conftest import count_queries


def own_reads(app, table, tournament, number):
    """What the readers answer with nothing read before them in the request."""
    with app.test_request_context("/"):
        state = sheets.poll_state(table, number)
        call = calls.table_call(table)
        return (state and (state.token, state.round.id, state.sheet_version),
                call and (call.id, call.state), clock.clock_view(tournament))


def shown_reads(app, tournament, table_no, token, number):
    with count_queries() as statements, app.test_request_context("/"):
        table = shown_table_from_link(tournament.code, table_no, token, number)
        state = sheets.poll_state(table, number)
        call = calls.table_call(table)
        got = (state and (state.token, state.round.id, state.sheet_version),
               call and (call.id, call.state), clock.clock_view(table.tournament))
    # one read; a call the bar shows is loaded as the entity it is (no query when this
    # session holds it already)
    assert len(statements) == 1 or (got[1] and len(statements) == 2), statements.statements
    return got


def same_clock(mine, theirs) -> bool:
    # read a moment apart: a running clock may have ticked a second in between
    if mine is None or theirs is None:
        return mine is theirs
    return (replace(mine, remaining=0) == replace(theirs, remaining=0)
            and abs(mine.remaining - theirs.remaining) <= 1)


@pytest.mark.parametrize("number", [None, 1, 2])
def test_the_first_read_answers_as_each_reader_would(app, director, number):
    tournament = make_tournament(director, rounds=3)
    table = db.session.query(Table).filter_by(tournament_id=tournament.id, number=2).one()
    token = table.token

    def check():
        db.session.expire_all()
        expected = own_reads(app, table, tournament, number)
        got = shown_reads(app, tournament, 2, token, number)
        assert got[:2] == expected[:2]
        assert same_clock(got[2], expected[2])

    check()                                     # seated, clock not started, no call
    started(tournament, 1, minutes_ago=5)
    check()                                     # running
    call, _ = table_calls.place_call(table, "ruling", "")
    db.session.commit()
    check()                                     # an open call
    queue.resolve_call(call, director, "Play on.")
    db.session.commit()
    check()                                     # its ruling, shown until OK
    started(tournament, 1, minutes_ago=20, paused_minutes_ago=1, reason="lunch")
    check()                                     # paused
    round_row(tournament, 1).paused_at = None
    ended(tournament, 1)
    check()                                     # between rounds


def test_a_wrong_link_is_refused(app, director):
    tournament = make_tournament(director)
    table = db.session.query(Table).filter_by(tournament_id=tournament.id, number=2).one()
    from core.lookup import BadLink

    with app.test_request_context("/"):
        for code, number, token in ((tournament.code, 2, "wrong"), ("NOPE", 2, table.token),
                                    (tournament.code, 99, table.token)):
            with pytest.raises(BadLink):
                shown_table_from_link(code, number, token)


def test_the_shown_tournament_refuses_rows_it_never_read(app, director):
    """A template that reads tournament.players on a table's page fails in the tests
    rather than rendering an empty list (Jinja turns an AttributeError into Undefined)."""
    from flask import render_template_string

    from core.table_pages import ShownOnlyError

    tournament = make_tournament(director)
    table = db.session.query(Table).filter_by(tournament_id=tournament.id, number=2).one()
    with app.test_request_context("/"):
        shown = shown_table_from_link(tournament.code, 2, table.token)
        assert shown.tournament.name == tournament.name  # columns read as ever
        with pytest.raises(ShownOnlyError, match="players"):
            render_template_string("{{ t.players|length }}", t=shown.tournament)
        with pytest.raises(AttributeError):                # anything else: as before
            shown.tournament.no_such_thing  # noqa: B018


def test_a_round_this_table_has_no_seats_in_is_no_round_of_its(app, client, director):
    # Round 2 seated, but not at table 3 (its players moved elsewhere, say): asked for
    # round 2, table 3 has no such round, however the round is read.
    from blueprints.live import service
    from core.rounds import ensure_round
    from models import Seating

    tournament = make_tournament(director, rounds=3)
    ensure_round(tournament, 2)
    table = db.session.query(Table).filter_by(tournament_id=tournament.id, number=3).one()
    db.session.query(Seating).filter_by(round_id=round_row(tournament, 2).id,
                                        table_id=table.id).delete()
    db.session.commit()
    assert own_reads(app, table, tournament, 2)[0] is None
    assert shown_reads(app, tournament, 3, table.token, 2)[0] is None
    assert shown_reads(app, tournament, 3, table.token, 1)[0] is not None
    answer = client.get(f"/t/{tournament.code}/3?k={table.token}&r=2")
    assert answer.status_code == 404
    assert client.get(f"/t/{tournament.code}/3/game?k={table.token}&r=2").status_code == 404
    with db.engine.connect() as connection:
        assert service.fast_unchanged(connection.connection, connection.dialect,
                                      tournament.code, 3, table.token, 2,
                                      {"clock": "none", "panel": "none", "call": "none"},
                                      []) is False


def test_a_write_in_the_same_request_forgets_what_was_read(app, director):
    # Nothing writes on a GET today; if something ever does, the readers read again.
    from sqlalchemy import update

    from models import Scoresheet

    tournament = make_tournament(director)
    table = db.session.query(Table).filter_by(tournament_id=tournament.id, number=2).one()
    with app.test_request_context("/"):
        shown = shown_table_from_link(tournament.code, 2, table.token)
        before = sheets.poll_state(shown)
        started(tournament, 1, minutes_ago=5)       # a flush, then a commit
        assert sheets.poll_state(shown).token != before.token
        shown_table_from_link(tournament.code, 2, table.token)
        db.session.execute(update(Scoresheet).where(Scoresheet.id == -1).values(version=1))
        assert ("round", table.id, None) not in rows.request_reads()
