"""The movement on the Seating page: a pattern chosen, its schedule shown before it is
used (every round and table, repeat meetings per player, warnings), saved with an audit
row, and changed after round 2 is seated only for the rounds not seated yet."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from blueprints.director import movement as movements
from core.lookup import movement_plan
from core.rounds import ensure_round, round_row
from models import AuditEvent, db
from tests.conftest import make_tournament
from tests.table.conftest import TableClient


def seating_page(client, tournament, **args):
    query = "&".join(f"{k}={v}" for k, v in args.items())
    response = client.get(f"/director/t/{tournament.id}/seating" + (f"?{query}" if query else ""))
    return response.status_code, response.get_data(as_text=True)


def use(client, tournament, pattern, **fields):
    response = client.post(f"/director/t/{tournament.id}/movement",
                           data={"pattern": pattern, **fields})
    db.session.expire_all()
    return response


def seats_of(tournament, number):
    rnd = round_row(tournament, number)
    return {(s.table.number, s.seat): s.player.number for s in rnd.seats}


def test_the_seating_page_shows_the_movement_in_words_and_its_schedule(client, tournament):
    status, page = seating_page(client, tournament)
    assert status == 200
    assert ("After each round: <strong>East stays; South moves down 1 table; West moves up 2 "
            "tables; North moves up 1 table</strong>") in page
    assert page.count('class="preview-round"') == tournament.rounds
    assert "Nobody meets anyone twice." in page
    assert "Use this movement" not in page  # nothing chosen: it is the one in use


def test_showing_a_patterns_schedule_saves_nothing(client, tournament):
    status, page = seating_page(client, tournament, pattern="mahjcon")
    assert status == 200
    assert "West moves down 2 tables" in page and "Use this movement" in page
    # round 2 by MahjCon: table 1 East stays (player 1); West comes from table 3 (player 11)
    assert '<th scope="row">1</th><td>1</td><td>6</td><td>11</td><td>32</td>' in page
    db.session.expire_all()
    assert tournament.movement is None
    assert db.session.scalar(select(AuditEvent).where(
        AuditEvent.action == "movement.change")) is None


def test_a_chosen_pattern_seats_the_next_round_and_is_audited(client, tournament):
    response = use(client, tournament, "mahjcon")
    assert response.status_code == 302
    assert movement_plan(tournament).moves == {"E": 0, "S": -1, "W": -2, "N": 1}
    ensure_round(tournament, 2)
    db.session.commit()
    # West of table 3 (player 11) goes down two tables to table 1
    assert seats_of(tournament, 2)[(1, "W")] == 11
    row = db.session.scalar(select(AuditEvent).where(AuditEvent.action == "movement.change"))
    assert row.before["pattern"] == "east-stays" and row.after["pattern"] == "mahjcon"
    assert "West moves down 2 tables" in row.after["movement"]


def test_the_preview_is_the_seating_that_follows(client, tournament):
    chosen = movements.candidate(tournament, "abcd", None, None)
    shown = movements.preview(tournament, chosen)
    use(client, tournament, "abcd")
    ensure_round(tournament, 2)
    db.session.commit()
    round_two = {(table, seat): int(label)
                 for table, seats in shown.rounds[1][2] for seat, label in seats.items()}
    assert round_two == seats_of(tournament, 2)


def test_a_draw_shown_is_the_draw_seated(client, director):
    tournament = make_tournament(director, players=32, rounds=4)
    status, page = seating_page(client, tournament, pattern="draw", seed="4321")
    assert "draw number 4321" in page and "Use this movement" in page
    shown = movements.preview(tournament, movements.candidate(tournament, "draw", None, 4321))
    assert use(client, tournament, "draw", seed="4321").status_code == 302
    for number in (2, 3):
        ensure_round(tournament, number)
        db.session.commit()
        drawn = {(table, seat): int(label)
                 for table, seats in shown.rounds[number - 1][2]
                 for seat, label in seats.items()}
        assert drawn == seats_of(tournament, number)
    assert shown.repeats == 0 == shown.floor


def test_two_tables_warn_that_players_meet_again(client, director):
    tournament = make_tournament(director, players=8, rounds=3)
    status, page = seating_page(client, tournament)
    assert "With 2 tables, East and West land on one table after every move" in page
    assert "moving up 2 tables brings West back to the same table" in page
    assert 'id="repeats-by-player"' in page
    assert "8 of the 8 players meet someone again" in page


def test_before_the_draw_players_are_named_by_where_they_start(client, director):
    tournament = make_tournament(director, players=12, rounds=2, seated=False)
    status, page = seating_page(client, tournament, pattern="abcd")
    assert status == 200 and "3W is West of table 3" in page
    assert "<td>1E</td>" in page


@pytest.mark.parametrize("fields, message", [
    ({"east": "1", "south": "", "west": "2", "north": "0"}, "Give every seat"),
    ({"east": "1", "south": "-1", "west": "200", "north": "0"}, "from -99 to 99"),
    ({"east": "one", "south": "-1", "west": "2", "north": "0"}, "whole number"),
])
def test_own_numbers_are_checked_at_the_field(client, tournament, fields, message):
    response = use(client, tournament, "own", **fields)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    assert tournament.movement is None
    status, page = seating_page(client, tournament, pattern="own", **fields)
    assert message in page and "Use this movement" not in page


def test_own_numbers_are_used(client, tournament):
    assert use(client, tournament, "own", east="3", south="0", west="-3",
               north="1").status_code == 302
    assert movement_plan(tournament).moves == {"E": 3, "S": 0, "W": -3, "N": 1}
    ensure_round(tournament, 2)
    db.session.commit()
    assert seats_of(tournament, 2)[(4, "E")] == 1  # East of table 1 up three tables


def test_after_round_two_only_the_rounds_not_seated_change(client, director):
    tournament = make_tournament(director, players=32, rounds=4)
    ensure_round(tournament, 2)
    db.session.commit()
    before = seats_of(tournament, 2)
    status, page = seating_page(client, tournament, pattern="mahjcon")
    assert "Use this movement from round 3" in page
    assert "Round 2 (seated)" in page
    assert use(client, tournament, "mahjcon").status_code == 302
    assert seats_of(tournament, 2) == before
    assert movement_plan(tournament).from_round == 2
    ensure_round(tournament, 3)
    db.session.commit()
    # round 3 is round 2's tables moved by MahjCon: West down two tables
    west_at_3 = before[(3, "W")]
    assert seats_of(tournament, 3)[(1, "W")] == west_at_3
    row = db.session.scalar(select(AuditEvent).where(AuditEvent.action == "movement.change"))
    assert row.after["from_round"] == 2


def test_when_every_round_is_seated_the_movement_no_longer_changes(client, director):
    tournament = make_tournament(director, players=16, rounds=2)
    ensure_round(tournament, 2)
    db.session.commit()
    response = use(client, tournament, "abcd")
    assert response.status_code == 422
    assert "Every round is seated already" in response.get_data(as_text=True)
    assert tournament.movement is None


def test_the_organisers_seating_cannot_replace_a_movement_once_scores_are_in(client,
                                                                            tournament):
    table = TableClient(client, tournament, 1)
    assert table.save(1, outcome="wall").status_code in (200, 302, 303)
    response = use(client, tournament, "imported")
    assert response.status_code == 422
    db.session.expire_all()
    assert tournament.rules["movement"] == "east_stays"


def test_every_seats_move_is_said_on_the_cards_rules_table_and_player_pages(client,
                                                                          tournament):
    use(client, tournament, "mahjcon")
    words = "East stays; South moves down 1 table; West moves down 2 tables; North moves up 1"
    cards = client.get(f"/director/t/{tournament.id}/cards").get_data(as_text=True)
    assert f"After each round: {words}" in cards
    rules = client.get(f"/director/t/{tournament.id}/rules").get_data(as_text=True)
    assert words in rules
    table = TableClient(client, tournament, 3).get().get_data(as_text=True)
    assert "(West moves down 2 tables)" in table
    # player 11 sits West at table 3: where next is table 1
    seat = client.get(f"/p/{tournament.code}/seat?number=11").get_data(as_text=True)
    assert "Round 2: table 1, West</strong> (West moves down 2 tables)" in seat


@pytest.mark.parametrize("args", [
    {"pattern": "swiss"},
    {"pattern": "draw", "seed": "abc"},
    {"pattern": "draw", "seed": "99999999"},
    {"pattern": "own", "east": "1e9", "south": "0", "west": "0", "north": "0"},
    {"pattern": "own", "east": "\x00", "south": "0", "west": "0", "north": "0"},
])
def test_a_bad_choice_in_the_address_is_answered_in_words(client, tournament, args):
    status, page = seating_page(client, tournament, **args)
    assert status == 200 and "Use this movement" not in page
    assert 'class="error"' in page


def test_under_a_draw_players_and_tables_are_told_the_drawn_next_table(client, director):
    tournament = make_tournament(director, players=16, rounds=3)
    use(client, tournament, "draw", seed="77")
    shown = movements.preview(tournament, movement_plan(tournament))
    spot = next((table, seat) for table, seats in shown.rounds[1][2]
                for seat, label in seats.items() if label == "5")
    page = client.get(f"/p/{tournament.code}/seat?number=5").get_data(as_text=True)
    seat_names = {"E": "East", "S": "South", "W": "West", "N": "North"}
    assert f"Round 2: table {spot[0]}, {seat_names[spot[1]]}</strong> (a fresh draw" in page
    # player 5 sits East at table 2 in round 1
    table = TableClient(client, tournament, 2).get().get_data(as_text=True)
    assert f"Next round: <strong>table {spot[0]}</strong>" in table


def _repeat_meetings(tournament, last):
    from collections import Counter
    from itertools import combinations

    met = Counter()
    for number in range(1, last + 1):
        tables = {}
        for (table, _), player in seats_of(tournament, number).items():
            tables.setdefault(table, []).append(player)
        assert sorted(p for ps in tables.values() for p in ps) == list(range(1, 33))
        met.update(frozenset(pair) for ps in tables.values() for pair in combinations(ps, 2))
    return sum(count - 1 for count in met.values())


def _change_rounds(tournament, director, rounds):
    from blueprints.director.tournaments import update_tournament

    update_tournament(tournament, director, name=tournament.name, rounds=rounds,
                      starts_on=None, ends_on=None, venue="", games_per_round=4,
                      round_minutes=50, prize_places=3, sessions="", mini=None)
    db.session.commit()


def test_a_draw_cut_short_keeps_the_schedule_the_players_were_given(client, director):
    """A draw searches all its rounds together, so a 5-round schedule is not the first
    five rounds of an 8-round one. When the director cuts the day short after rounds 2
    and 3 are seated, round 4 is the one the players were told (their pages' "next
    round"), and the schedule's meetings stay as drawn."""
    from core.rounds import plan_rounds

    tournament = make_tournament(director, players=32, rounds=8)
    assert use(client, tournament, "draw", seed="4321").status_code == 302
    for number in (2, 3):
        ensure_round(tournament, number)
        db.session.commit()
    numbers = {p.id: p.number for p in tournament.players}
    told = {(table, seat): numbers[pid]
            for table, seats in plan_rounds(tournament, 4)[4].items()
            for seat, pid in seats.items()}
    _change_rounds(tournament, director, 5)
    assert movement_plan(tournament).drawn_for == 8
    assert movement_plan(tournament).from_round == 1
    ensure_round(tournament, 4)
    db.session.commit()
    assert seats_of(tournament, 4) == told
    # 32 players, 8 tables: the 8-round schedule has nobody meet anyone twice (a 5-round
    # schedule drawn on from round 1 alone, before rounds were drawn together, gave 7)
    assert _repeat_meetings(tournament, 4) == 0


def test_a_draw_given_more_rounds_draws_them_from_every_seated_round(client, director):
    """More rounds than the schedule was drawn for: the rounds to come are drawn on from
    every seated round, so nobody meets again a player the seated rounds paired them with
    more than the field forces; seating the first of them seats everyone once."""
    tournament = make_tournament(director, players=32, rounds=4)
    assert use(client, tournament, "draw", seed="4321").status_code == 302
    for number in (2, 3):
        ensure_round(tournament, number)
        db.session.commit()
    _change_rounds(tournament, director, 3)
    assert movement_plan(tournament).drawn_for == 4
    _change_rounds(tournament, director, 8)
    plan = movement_plan(tournament)
    assert (plan.from_round, plan.drawn_for) == (3, 0)
    ensure_round(tournament, 4)
    db.session.commit()
    assert _repeat_meetings(tournament, 4) <= 2
