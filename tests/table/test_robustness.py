"""The table under odd input and load: digits that are not ASCII, numbers too big for the
database, long idempotency keys, a sheet created by another phone mid-write, writes that
are refused (nothing of them stays), and the panel poll's cost."""

from __future__ import annotations

import re
import secrets

import pytest
from sqlalchemy.exc import IntegrityError

from blueprints.table.sheet_writes import save_game
from core import sheets as core_sheets
from core.rounds import ensure_round
from models import GameEntry, Round, Scoresheet, db, utcnow
from tests.table.conftest import TableClient, count_queries

HX = {"HX-Request": "true"}
HUGE = str(2**64)


def games(east, round_no=1):
    sheet = east.sheet(round_no)
    return sorted(sheet.games, key=lambda g: g.number) if sheet else []


def sheets() -> int:
    return db.session.scalar(db.select(db.func.count()).select_from(Scoresheet))


# ---- digits that int() refuses, and numbers too big for an SQL INTEGER ----------------


@pytest.mark.parametrize("fields", [
    {"value_other": "²"},            # str.isdigit() is True, int() raises
    {"value_other": "٣٠"},           # Arabic-Indic 30: int() reads it; we do not
    {"value_other": "1" * 40},
])
def test_a_typed_card_value_that_is_not_plain_digits_is_refused_at_the_field(east, fields):
    response = east.save(1, outcome="mahjong", winner="S", win_by="self", **fields)
    assert response.status_code == 422
    assert "Type the card value as a number" in response.get_data(as_text=True)
    assert games(east) == []


@pytest.mark.parametrize("fields", [
    {"value": "²", "win_by": "self"},
    {"value": "25", "win_by": "thrown", "thrower": "E", "exposures": "²"},
    {"value": "25", "win_by": "thrown", "thrower": "E", "exposures": HUGE},
])
def test_odd_digits_in_the_buttons_are_refused_and_save_nothing(east, fields):
    response = east.save(1, outcome="mahjong", winner="S", **fields)
    assert response.status_code == 422
    assert games(east) == []
    preview = east.post("/game/preview", {"round_no": 1, "version": 1, "outcome": "mahjong",
                                          "winner": "S", **fields})
    assert preview.status_code == 200


@pytest.mark.parametrize("version", [HUGE, "-1", "²", "٣", "1e3"])
def test_a_posted_version_that_is_no_version_is_stale(east, version):
    response = east.save(1, outcome="wall", version=version)
    assert response.status_code == 409
    assert games(east) == []


@pytest.mark.parametrize("path, data", [
    ("/game", {"outcome": "wall", "initials": "W"}),
    ("/time", {}),
    ("/initial", {"seat": "E", "initials": "E"}),
    ("/submit", {}),
])
@pytest.mark.parametrize("round_no, game_no", [(HUGE, "1"), ("1", HUGE), ("²", "²")])
def test_posted_round_and_game_numbers_out_of_range_are_never_a_500(east, path, data,
                                                                      round_no, game_no):
    response = east.post(path, {"round_no": round_no, "game_no": game_no,
                                "version": east.version(),
                                "request_key": secrets.token_urlsafe(8), **data})
    assert response.status_code in (303, 404, 409, 422)
    assert response.status_code != 303 or path != "/game" or game_no == "1"


@pytest.mark.parametrize("query", [{"r": HUGE}, {"r": "²"}, {"g": HUGE}, {"r": "-3"}])
@pytest.mark.parametrize("path", ["", "/game", "/review"])
def test_query_numbers_out_of_range_read_as_missing(east, path, query):
    east.save(1, outcome="wall")
    east.get(path)  # shows, and so clears, the "saved" message
    without = east.get(path)
    response = east.get(path, **query)
    assert response.status_code == 200
    assert without_request_keys(response) == without_request_keys(without)


def without_request_keys(response) -> str:
    """The page with its forms' fresh request keys blanked: otherwise no two renders match."""
    return re.sub(r'(name="request_key"[^>]*?value=")[^"]*"', r'\1"',
                  response.get_data(as_text=True))


def test_a_huge_round_number_on_the_poll_reads_as_missing(east):
    response = east.client.get(east.url("", r=HUGE, v="1-1-0-not_started"), headers=HX)
    assert response.status_code in (200, 204)


# ---- idempotency keys longer than the stored 64 characters ----------------------------


def test_a_resent_save_with_a_long_key_is_recognised(east):
    key = "k" * 100
    version = east.version()
    assert east.save(1, outcome="wall", key=key, version=version).status_code == 303
    resent = east.save(1, outcome="wall", key=key, version=version, entered_as="new")
    assert resent.status_code == 303  # "already saved", not a conflict
    assert len(games(east)) == 1


def test_a_resent_submit_with_a_long_key_is_applied_once(east):
    for number in range(1, 5):
        east.save(number, outcome="wall")
    for seat in "ESWN":
        east.post("/initial", {"round_no": 1, "version": east.version(), "seat": seat,
                               "initials": seat, "request_key": secrets.token_urlsafe(6)})
    data = {"round_no": 1, "version": east.version(), "request_key": "s" * 65}
    assert east.post("/submit", data).status_code == 303
    assert east.post("/submit", data).status_code == 303
    assert east.sheet().state == "submitted"


# ---- one transaction per write, the sheet included ------------------------------------


def test_a_refused_first_save_leaves_no_sheet_behind(east):
    """ensure_sheet used to commit the new sheet on its own, before the save was checked."""
    assert east.save(1, outcome="mahjong", winner="S", value="25").status_code == 422
    assert east.save(1, outcome="wall", initials="").status_code == 422
    assert east.save(1, outcome="wall", version="7").status_code == 409
    assert sheets() == 0


def test_a_write_meeting_an_integrity_error_is_retried_once_from_the_start(east,
                                                                          monkeypatch):
    real, calls = core_sheets._insert_sheet, []

    def another_phone_won(rnd, table):
        calls.append(rnd)
        if len(calls) == 1:
            raise IntegrityError("INSERT INTO scoresheet", {}, Exception("UNIQUE"))
        real(rnd, table)

    monkeypatch.setattr(core_sheets, "_insert_sheet", another_phone_won)
    assert east.save(1, outcome="wall").status_code == 303
    assert len(calls) == 2 and len(games(east)) == 1 and sheets() == 1


def test_a_second_integrity_error_is_not_retried_again(east, monkeypatch):
    def always(rnd, table):
        raise IntegrityError("INSERT INTO scoresheet", {}, Exception("UNIQUE"))

    monkeypatch.setattr(core_sheets, "_insert_sheet", always)
    table = east.table
    rnd = db.session.scalar(db.select(Round).where(Round.tournament_id == table.tournament_id,
                                                   Round.number == 1))
    with pytest.raises(IntegrityError):
        save_game(table, rnd, 1, {"outcome": "wall"}, initials="W", version=1,
                          key="once")
    assert sheets() == 0


def test_ensure_sheet_never_commits_on_its_own(east):
    table = east.table
    rnd = db.session.scalar(db.select(Round).where(Round.tournament_id == table.tournament_id,
                                                   Round.number == 1))
    core_sheets.ensure_sheet(rnd, table)
    db.session.rollback()
    assert sheets() == 0


# ---- the panel poll answers 204 from two queries, whatever the round -----------------


def _seat_and_submit_rounds(tournament, table, last_round):
    """Seat rounds 2..last_round and mark this table's sheets of the earlier ones
    submitted (with four games), so `last_round` is the table's current round."""
    for number in range(2, last_round + 1):
        ensure_round(tournament, number)
    db.session.flush()
    for rnd in db.session.scalars(db.select(Round).where(
            Round.tournament_id == tournament.id, Round.number < last_round)):
        rnd.started_at = rnd.ended_at = utcnow()
        sheet = Scoresheet(round_id=rnd.id, table_id=table.id, version=9, state="submitted",
                           pending_adjustments=[])
        sheet.games = [GameEntry(number=n, record={"outcome": "wall"}, signer="W",
                                 initials="W") for n in range(1, 5)]
        db.session.add(sheet)
    db.session.commit()


def _poll_cost(east):
    page = east.get().get_data(as_text=True)
    token = page.split('data-live="panel" data-live-version="', 1)[1].split('"', 1)[0]
    with count_queries() as queries:
        response = east.client.get(east.url("", v=token), headers=HX)
    assert response.status_code == 204, token
    return len(queries), token


def test_the_panel_poll_answers_204_in_at_most_three_queries_at_any_round(client, director):
    from tests.conftest import make_tournament

    tournament = make_tournament(director, players=16, rounds=12)
    east = TableClient(client, tournament)
    first, token = _poll_cost(east)
    assert token.startswith("1-")
    _seat_and_submit_rounds(tournament, east.table, 6)
    later, token = _poll_cost(east)
    assert token.startswith("6-")
    assert first <= 3 and later <= 3 and first == later


def test_the_poll_of_an_asked_round_is_as_cheap(client, director):
    from tests.conftest import make_tournament

    tournament = make_tournament(director, players=16, rounds=12)
    east = TableClient(client, tournament)
    _seat_and_submit_rounds(tournament, east.table, 5)
    text = east.get(r=2).get_data(as_text=True)
    token = text.split('data-live="panel" data-live-version="', 1)[1].split('"', 1)[0]
    assert token.startswith("2-9-")
    with count_queries() as queries:
        response = east.client.get(east.url("", r=2, v=token), headers=HX)
    assert response.status_code == 204 and len(queries) <= 3


def test_the_poll_changes_with_the_clock_version(east):
    page = east.get().get_data(as_text=True)
    token = page.split('data-live="panel" data-live-version="', 1)[1].split('"', 1)[0]
    rnd = db.session.scalar(db.select(Round).where(
        Round.tournament_id == east.tournament.id, Round.number == 1))
    rnd.clock_version += 1
    db.session.commit()
    response = east.client.get(east.url("", v=token), headers=HX)
    assert response.status_code == 200 and 'id="panel"' in response.get_data(as_text=True)


def test_the_whole_panel_costs_the_same_at_any_round(client, director):
    """Not only the 204: the page itself reads the open earlier rounds in one query."""
    from tests.conftest import make_tournament

    tournament = make_tournament(director, players=16, rounds=12)
    east = TableClient(client, tournament)

    def cost():
        east.get()
        with count_queries() as queries:
            assert east.client.get(east.url(""), headers=HX).status_code == 200
        return len(queries)

    first = cost()
    _seat_and_submit_rounds(tournament, east.table, 6)
    assert cost() == first
