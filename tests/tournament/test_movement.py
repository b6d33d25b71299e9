"""Table movement: every sheet says East stays, North +1, West +2, South -1, circularly."""

import doctest
from collections import defaultdict
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament import movement
from tournament.movement import SEATS, Meeting, repeat_meetings, seating, table_for


def full_seating(tables):
    """Round-1 seating where each player is named by where they start."""
    return {table: {seat: (table, seat) for seat in SEATS} for table in range(1, tables + 1)}


def test_design_examples():
    assert table_for("N", start_table=10, round_no=2, tables=10) == 1
    assert table_for("E", start_table=4, round_no=7, tables=10) == 4


def test_docstring_examples():
    assert doctest.testmod(movement).failed == 0


@pytest.mark.parametrize("seat, start_table, round_no, tables, table", [
    ("E", 3, 1, 10, 3),     # round 1 is the starting table
    ("N", 3, 1, 10, 3),
    ("E", 10, 12, 10, 10),  # all sheets: "East - Remains at the same table"
    ("N", 3, 2, 10, 4),     # tnt: "North - Moves up one table after each round"
    ("N", 3, 4, 10, 6),
    ("W", 3, 2, 10, 5),     # tnt: "West - Moves up two tables after each round"
    ("W", 9, 2, 10, 1),     # tnt: "Players moving up from the highest-numbered table
    ("W", 10, 2, 10, 2),    #       continue to Table 1"
    ("S", 3, 2, 10, 2),     # tnt: "South - Moves down one table after each round"
    ("S", 1, 2, 10, 10),    # tnt: "Players moving down from Table 1 continue to the
    ("S", 1, 3, 10, 9),     #       highest-numbered table"
    ("N", 10, 2, 10, 1),    # DESIGN.md example
    ("W", 5, 6, 10, 5),     # +2 five times = +10: back where they started
    ("S", 2, 21, 10, 2),    # -1 twenty times: twice round the room
    ("W", 1, 5, 1, 1),      # one table: nobody goes anywhere
    ("N", 2, 2, 3, 3),
])
def test_table_for(seat, start_table, round_no, tables, table):
    assert table_for(seat, start_table, round_no, tables) == table


@pytest.mark.parametrize("seat, start_table, round_no, tables, message", [
    ("X", 1, 1, 10, "seat must be one of E, S, W, N"),
    ("e", 1, 1, 10, "seat must be one of E, S, W, N"),
    (None, 1, 1, 10, "seat must be one of E, S, W, N"),
    ("E", 0, 1, 10, "start_table must be 1 or more"),
    ("E", 11, 1, 10, "start_table 11 does not exist: there are only 10 tables"),
    ("E", 1, 0, 10, "round_no must be 1 or more"),
    ("E", 1, 1.5, 10, "round_no must be a whole number"),
    ("E", 1, True, 10, "round_no must be a whole number"),
    ("E", 1, 1, 0, "tables must be 1 or more"),
    ("E", "1", 1, 10, "start_table must be a whole number"),
])
def test_table_for_refuses(seat, start_table, round_no, tables, message):
    with pytest.raises(ValueError, match=message):
        table_for(seat, start_table, round_no, tables)


def test_seating_moves_players_and_keeps_their_wind():
    first = {1: {"E": "Ann", "S": "Bea", "W": "Cy", "N": "Di"},
             2: {"E": "Ed", "S": "Flo", "W": "Gus", "N": "Hal"},
             3: {"E": "Ida", "S": "Jo", "W": "Kit", "N": "Lu"}}
    assert seating(first, round_no=1, tables=3) == first
    assert seating(first, round_no=2, tables=3) == {
        1: {"E": "Ann", "S": "Flo", "W": "Gus", "N": "Lu"},
        2: {"E": "Ed", "S": "Jo", "W": "Kit", "N": "Di"},
        3: {"E": "Ida", "S": "Bea", "W": "Cy", "N": "Hal"},
    }


def test_seating_lists_seats_in_play_order():
    first = {1: {"N": 4, "W": 3, "S": 2, "E": 1}}
    assert list(seating(first, round_no=3, tables=1)[1]) == ["E", "S", "W", "N"]


def test_seating_carries_empty_seats():
    first = {1: {"E": "Ann", "S": "Bea", "W": "Cy"}, 2: {"E": "Ed", "N": "Hal"}}
    assert seating(first, round_no=2, tables=3) == {
        1: {"E": "Ann"},
        2: {"E": "Ed"},
        3: {"S": "Bea", "W": "Cy", "N": "Hal"},
    }


@pytest.mark.parametrize("initial, message", [
    ({4: {"E": "Ann"}}, "table 4 does not exist"),
    ({0: {"E": "Ann"}}, "table must be 1 or more"),
    ({1: {"X": "Ann"}}, "seat must be one of E, S, W, N"),
])
def test_seating_refuses(initial, message):
    with pytest.raises(ValueError, match=message):
        seating(initial, round_no=2, tables=3)


@settings(max_examples=150, deadline=None)
@given(tables=st.integers(1, 200), round_no=st.integers(1, 20))
def test_movement_fills_every_seat_of_every_table_exactly_once(tables, round_no):
    seats = seating(full_seating(tables), round_no, tables)
    assert sorted(seats) == list(range(1, tables + 1))
    assert all(list(at_table) == list(SEATS) for at_table in seats.values())
    everyone = [player for at_table in seats.values() for player in at_table.values()]
    assert len(everyone) == len(set(everyone)) == 4 * tables
    # a player keeps their wind and sits where table_for says
    for table, at_table in seats.items():
        for seat, (start_table, start_seat) in at_table.items():
            assert seat == start_seat
            assert table_for(seat, start_table, round_no, tables) == table


def brute_force_meetings(tables, rounds):
    """Seat everyone round by round and count every pair at each table."""
    shared = defaultdict(list)
    for round_no in range(1, rounds + 1):
        for at_table in seating(full_seating(tables), round_no, tables).values():
            for one, other in combinations(at_table.values(), 2):
                shared[frozenset((one, other))].append(round_no)
    return {pair: tuple(met) for pair, met in shared.items() if len(met) > 1}


@settings(max_examples=120, deadline=None)
@given(tables=st.integers(1, 40), rounds=st.integers(1, 20))
def test_repeat_meetings_agree_with_brute_force(tables, rounds):
    found = repeat_meetings(tables, rounds)
    assert {frozenset((m.first, m.second)): m.rounds for m in found} == brute_force_meetings(
        tables, rounds
    )
    assert len(found) == len({frozenset((m.first, m.second)) for m in found})


@pytest.mark.parametrize("tables", [1, 2, 3, 4, 5, 6, 7, 12, 13])
def test_repeat_meetings_small_rooms(tables):
    assert {frozenset((m.first, m.second)): m.rounds
            for m in repeat_meetings(tables, 8)} == brute_force_meetings(tables, 8)


def test_six_tables_west_and_south_meet_again_in_round_3():
    # W +2 and S -1 drift 3 tables apart per round: 6 tables apart (the same table) in round 3
    found = repeat_meetings(tables=6, rounds=3)
    assert Meeting((1, "S"), (1, "W"), (1, 3)) in found
    assert {(m.first[1], m.second[1]) for m in found} == {("S", "W")}
    assert len(found) == 6
    # S at 2 and W at 5 first meet in round 2 (at table 1) and again in round 4 (at table 5)
    assert Meeting((2, "S"), (5, "W"), (2, 4)) in repeat_meetings(tables=6, rounds=4)


def test_two_tables_pair_north_with_south_and_west_with_east():
    # with 2 tables +1 and -1 are the same move, and +2 is no move at all
    pairs = {(m.first, m.second) for m in repeat_meetings(tables=2, rounds=2)}
    assert pairs == {((1, "E"), (1, "W")), ((1, "S"), (1, "N")),
                     ((2, "E"), (2, "W")), ((2, "S"), (2, "N"))}


def test_no_repeats_in_a_large_room_over_few_rounds():
    assert repeat_meetings(tables=50, rounds=10) == []


def test_repeat_meetings_sorted_in_round_one_order():
    found = repeat_meetings(tables=6, rounds=7)
    order = "ESWN"
    keys = [((m.first[0], order.index(m.first[1])), (m.second[0], order.index(m.second[1])))
            for m in found]
    assert keys == sorted(keys)
    assert all(first < second for first, second in keys)


def test_repeat_meetings_fast_for_200_tables_and_20_rounds():
    import time

    started = time.perf_counter()
    found = repeat_meetings(tables=200, rounds=20)
    assert time.perf_counter() - started < 1.0
    assert found == []  # no seat pair drifts a multiple of 200 tables in 19 rounds
    assert len(repeat_meetings(tables=10, rounds=20)) > 0


@pytest.mark.parametrize("tables, rounds", [(0, 3), (3, 0), (2.0, 3)])
def test_repeat_meetings_refuses(tables, rounds):
    with pytest.raises(ValueError):
        repeat_meetings(tables, rounds)


def test_meeting_is_a_frozen_value():
    meeting = Meeting((1, "S"), (1, "W"), (1, 3))
    with pytest.raises(AttributeError):
        meeting.rounds = ()  # type: ignore[misc]
    assert hash(meeting) == hash(Meeting((1, "S"), (1, "W"), (1, 3)))
