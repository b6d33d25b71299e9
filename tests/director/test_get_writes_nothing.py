"""Looking at a director's page writes nothing: later rounds' seats on the schedule,
itineraries and table cards are computed from round 1 (tournament.movement plus
substitutions); rows are made only by an explicit POST (seat round 1, the clock's
"Seat round N")."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import event, func, select

from blueprints.director.seating import schedule
from core.rounds import ensure_round, round_row
from models import Round, Seating, Substitution, db
from tests.conftest import make_tournament
from tests.director.test_access import director_urls

WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE)\b", re.I)


@pytest.fixture
def writes(app):
    """Every INSERT/UPDATE/DELETE sent to the database while the test runs."""
    seen: list[str] = []

    def listen(conn, cursor, statement, parameters, context, executemany):
        if WRITE.match(statement):
            seen.append(statement)

    event.listen(db.engine, "before_cursor_execute", listen)
    yield seen
    event.remove(db.engine, "before_cursor_execute", listen)


def test_no_director_get_writes_a_row(app, client, tournament, writes):
    gets = [path for method, path in director_urls(app, tournament) if method == "GET"]
    assert any(path.endswith("/schedule") for path in gets)
    for path in gets:
        writes.clear()
        response = client.get(path)
        assert response.status_code < 400, (path, response.status_code)
        assert writes == [], (path, writes)
    assert db.session.scalar(select(func.count()).select_from(Round)) == 1


def planned(tournament):
    """{round: {(table, seat): player id}} as the schedule shows it."""
    return {rnd.number: {(table.number, s): p.id for table, seats in tables
                         for s, p in seats.items()}
            for rnd, tables in schedule(tournament)}


def stored(tournament, number):
    rnd = ensure_round(tournament, number)
    return {(s.table.number, s.seat): s.player_id for s in rnd.seats}


def test_the_schedule_shows_every_round_as_the_clock_will_seat_it(client, director):
    tournament = make_tournament(director, players=24, rounds=5)
    page = client.get(f"/director/t/{tournament.id}/schedule").get_data(as_text=True)
    assert page.count('class="round-sheet page-break"') == 5
    for number in range(1, 6):
        assert f"Round {number}</h2>" in page
    shown = planned(tournament)
    assert sorted(shown) == [1, 2, 3, 4, 5]
    # What the clock console's "Seat round N" (ensure_round) stores later is what was shown.
    for number in range(1, 6):
        assert stored(tournament, number) == shown[number]
    assert planned(tournament) == shown


def test_the_schedule_follows_a_substitution_without_making_rounds(client, tournament):
    leaver = next(p for p in tournament.players if p.number == 7)
    response = client.post(f"/director/t/{tournament.id}/players/{leaver.id}/withdraw",
                           data={"from_round": "2", "new_substitute": "Hal House"})
    assert response.status_code == 302
    sub = db.session.scalar(select(Substitution)).substitute_id
    page = client.get(f"/director/t/{tournament.id}/schedule").get_data(as_text=True)
    assert "Hal House" in page
    slips = client.get(f"/director/t/{tournament.id}/itineraries").get_data(as_text=True)
    assert "Hal House (substitute)" in slips
    assert db.session.scalar(select(func.count()).select_from(Round)) == 1
    shown = planned(tournament)
    assert leaver.id in shown[1].values() and sub not in shown[1].values()
    for number in (2, 3):
        assert sub in shown[number].values() and leaver.id not in shown[number].values()
        assert stored(tournament, number) == shown[number]


def test_the_schedule_reads_rounds_that_exist(client, tournament):
    ensure_round(tournament, 2)
    db.session.commit()
    rnd2 = round_row(tournament, 2)
    # A stored round is shown as stored (here: two seats traded by hand).
    seats = sorted(rnd2.seats, key=lambda s: (s.table.number, "ESWN".index(s.seat)))
    first, second = seats[0], seats[1]
    a, b = first.player_id, second.player_id
    db.session.delete(second)
    db.session.flush()
    first.player_id = b
    db.session.flush()
    db.session.add(Seating(round_id=rnd2.id, table_id=second.table_id, seat=second.seat,
                           player_id=a))
    db.session.commit()
    shown = planned(tournament)
    assert shown[2][(first.table.number, first.seat)] == b
    assert shown[2][(second.table.number, second.seat)] == a
