"""Players: seat lookup by player number (this round, every round, where next) and the
personal scoresheet with each game's points and the sheet's state."""

from __future__ import annotations

import secrets

from core.rounds import ensure_round
from models import db, utcnow
from tests.table.conftest import TableClient


def lookup(client, tournament, number):
    return client.get(f"/p/{tournament.code}/seat?number={number}")


def test_the_lookup_page_asks_for_a_player_number(client, tournament):
    response = client.get(f"/p/{tournament.code}/seat")
    text = response.get_data(as_text=True)
    assert response.status_code == 200 and "Your player number" in text
    assert 'id="number"' in text


def test_a_player_finds_this_rounds_table_seat_and_itinerary(client, tournament):
    # player 7 starts at table 2, West: West moves up two tables a round (8 tables)
    response = lookup(client, tournament, 7)
    text = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Player 7, player 7" in text
    assert "Table 2</span> <span class=\"big-number\">West" in text
    assert "Round 2: table 4, West" in text  # where do I go next (planned by the movement)
    assert "planned" in text


def test_the_next_round_uses_its_stored_seating_once_seated(client, tournament):
    rnd1 = tournament.round_list[0]
    rnd1.started_at = utcnow()
    rnd1.ended_at = utcnow()
    ensure_round(tournament, 2)
    db.session.commit()
    text = lookup(client, tournament, 7).get_data(as_text=True)
    assert "Next, round 2: go to" in text and "Table 4" in text


def test_unknown_or_bad_numbers_are_answered_at_the_field(client, tournament):
    response = lookup(client, tournament, 99)
    assert response.status_code == 404
    assert "There is no player 99" in response.get_data(as_text=True)
    response = client.get(f"/p/{tournament.code}/seat?number=abc")
    assert response.status_code == 422
    assert 'id="number-error"' in response.get_data(as_text=True)
    assert client.get("/p/NOPE99/seat?number=1").status_code == 404


def test_the_personal_scoresheet_shows_points_totals_and_state(client, tournament):
    east = TableClient(client, tournament, number=1)
    east.save(1, outcome="mahjong", winner="S", value="30", win_by="self", jokerless="y")
    east.save(2, outcome="wall", dead=["S"])
    east.save(3, outcome="time")
    east.save(4, outcome="time")
    # player 2 sits South at table 1 in round 1
    text = client.get(f"/p/{tournament.code}/player/2").get_data(as_text=True)
    assert "Round 1: table 1, South" in text
    assert ">50<" in text and "Not initialled yet" in text and "Not submitted yet" in text
    for seat in "ESWN":
        east.post("/initial", {"round_no": 1, "version": east.version(), "seat": seat,
                               "initials": seat, "request_key": secrets.token_urlsafe(6)})
    east.post("/submit", {"round_no": 1, "version": east.version(),
                          "request_key": secrets.token_urlsafe(6)})
    text = client.get(f"/p/{tournament.code}/player/2").get_data(as_text=True)
    assert "Initialled by you (S)" in text and "Submitted" in text
    assert "verified" not in text.lower()        # TNT: no table guide verifies sheets
    assert "Total so far: <strong>50</strong>" in text
    assert client.get(f"/p/{tournament.code}/player/99").status_code == 404


def test_tournament_page_links_the_lookup(client, tournament):
    text = client.get(f"/p/{tournament.code}").get_data(as_text=True)
    assert f"/p/{tournament.code}/seat" in text


def _play_rounds(tournament, last_round):
    """Seat rounds 2..last_round; every table's sheet of each round gets four wall games
    and every player's initials, and the rounds before the last have ended."""
    from models import GameEntry, Round, RoundSignoff, Scoresheet

    for number in range(2, last_round + 1):
        ensure_round(tournament, number)
    db.session.flush()
    for rnd in db.session.scalars(db.select(Round).where(
            Round.tournament_id == tournament.id, Round.number <= last_round)):
        rnd.started_at = utcnow()
        rnd.ended_at = utcnow() if rnd.number < last_round else None
        for table in tournament.tables:
            sheet = Scoresheet(round_id=rnd.id, table_id=table.id, version=9,
                               state="submitted", pending_adjustments=[])
            sheet.games = [GameEntry(number=n, record={"outcome": "wall"}, signer="W",
                                     initials="W", points_e=10, points_s=10, points_w=10,
                                     points_n=10) for n in range(1, 5)]
            sheet.signoffs = [RoundSignoff(seat=seat, initials=seat) for seat in "ESWN"]
            db.session.add(sheet)
    db.session.commit()


def test_seat_lookup_and_scores_cost_the_same_queries_at_any_round(client, director):
    """One joined query reads the player's seatings, sheets, games and initials: the
    pages cost the same at round 1 as after five rounds."""
    from tests.conftest import make_tournament
    from tests.table.conftest import count_queries

    tournament = make_tournament(director, players=16, rounds=8)
    urls = [f"/p/{tournament.code}/seat?number=7", f"/p/{tournament.code}/player/7"]

    def cost():
        counts = []
        for url in urls:
            client.get(url)  # warm: what a first request of a process loads once
            with count_queries() as queries:
                response = client.get(url)
            assert response.status_code == 200
            counts.append(len(queries))
        return counts

    before = cost()
    _play_rounds(tournament, 5)
    after = cost()
    assert after == before, (before, after)
    text = client.get(urls[1]).get_data(as_text=True)
    assert "Round 5: table" in text and "Total so far: <strong>200</strong>" in text
    assert "Initialled by you" in text


def test_the_round_in_play_is_the_clocks_current_round(client, tournament):
    """A paused round is still the round in play; a seated round not started after the
    last one ended is "next"."""
    from blueprints.player.service import round_in_play

    assert round_in_play(tournament) == (1, "now")
    rnd1 = tournament.round_list[0]
    rnd1.started_at = rnd1.paused_at = utcnow()
    db.session.commit()
    assert round_in_play(tournament) == (1, "now")
    rnd1.paused_at, rnd1.ended_at = None, utcnow()
    db.session.commit()
    assert round_in_play(tournament) == (2, "next")
    ensure_round(tournament, 2)
    db.session.commit()
    assert round_in_play(tournament) == (2, "next")


def test_odd_player_numbers_are_answered_at_the_field_never_a_500(client, tournament):
    for typed in ("²", str(2**64), "-1", "1e3", "%EF%BC%91"):  # the last: fullwidth 1
        response = client.get(f"/p/{tournament.code}/seat?number={typed}")
        assert response.status_code == 422, typed
        assert 'id="number-error"' in response.get_data(as_text=True)
    assert client.get(f"/p/{tournament.code}/player/{2**64}").status_code == 404
