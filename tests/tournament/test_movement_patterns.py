"""Movements by each seat's move (the organisers' own patterns, each in its sheet's words),
the director's own numbers, a fresh draw every round, and their warnings."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.movement import (
    PATTERNS,
    SEATS,
    Movement,
    describe,
    draw_rounds,
    fewest_repeats,
    later_rounds,
    met_counts,
    movement_warnings,
    repeat_count,
    repeat_meetings,
    seating,
    seats_together,
    table_for,
)


def full_seating(tables):
    return {table: {seat: (table, seat) for seat in SEATS} for table in range(1, tables + 1)}


@pytest.mark.parametrize("pattern, seat, start, round_no, tables, table", [
    # tnt: "East stays at the same table. ... North moves up 1 table. ... West moves up 2"
    ("east-stays", "E", 5, 3, 10, 5),
    ("east-stays", "N", 5, 2, 10, 6),
    ("east-stays", "W", 5, 2, 10, 7),
    ("east-stays", "S", 5, 2, 10, 4),
    # Crak Your Bags: "East moves up 1 table", West up 2
    ("east-up-one", "E", 5, 2, 10, 6),
    ("east-up-one", "E", 10, 2, 10, 1),
    ("east-up-one", "W", 5, 2, 10, 7),
    # MahjCon: East stays, South down 1, West down 2, North up 1
    ("mahjcon", "E", 5, 4, 10, 5),
    ("mahjcon", "S", 5, 2, 10, 4),
    ("mahjcon", "W", 5, 2, 10, 3),
    ("mahjcon", "W", 1, 2, 10, 9),
    ("mahjcon", "N", 5, 2, 10, 6),
    # the league's A/B/C/D: "A up 1, B down 1, C up 2, D down 2" (A East ... D North)
    ("abcd", "E", 5, 2, 10, 6),
    ("abcd", "S", 5, 2, 10, 4),
    ("abcd", "W", 5, 2, 10, 7),
    ("abcd", "N", 5, 2, 10, 3),
    ("abcd", "N", 2, 3, 10, 8),
])
def test_each_organisers_pattern_in_its_own_words(pattern, seat, start, round_no, tables,
                                                   table):
    moves = PATTERNS[pattern].moves
    assert table_for(seat, start, round_no, tables, moves) == table


@pytest.mark.parametrize("pattern, words", [
    ("east-stays", "East stays; South moves down 1 table; West moves up 2 tables; "
                   "North moves up 1 table"),
    ("mahjcon", "East stays; South moves down 1 table; West moves down 2 tables; "
                "North moves up 1 table"),
    ("abcd", "East moves up 1 table; South moves down 1 table; West moves up 2 tables; "
             "North moves down 2 tables"),
])
def test_every_seats_move_in_words(pattern, words):
    assert describe(Movement.named(pattern)) == words


def test_the_big_screen_says_it_short():
    assert describe(Movement.named("east-stays"), short=True) == \
        "East stays, South down 1, West up 2, North up 1"
    assert describe(Movement.named("abcd"), short=True) == \
        "East up 1, South down 1, West up 2, North down 2"


def test_the_usual_pattern_is_todays_movement():
    first = full_seating(7)
    for round_no in range(1, 9):
        assert seating(first, round_no, 7, PATTERNS["east-stays"].moves) == \
            seating(first, round_no, 7)
    assert repeat_meetings(7, 8, PATTERNS["east-stays"].moves) == repeat_meetings(7, 8)


ROUND_SEATINGS = st.sampled_from(sorted(PATTERNS))


@settings(max_examples=120, deadline=None)
@given(pattern=ROUND_SEATINGS, tables=st.integers(1, 160), round_no=st.integers(1, 14))
def test_every_pattern_seats_each_player_once_every_round(pattern, tables, round_no):
    seats = seating(full_seating(tables), round_no, tables, PATTERNS[pattern].moves)
    everyone = [player for at_table in seats.values() for player in at_table.values()]
    assert len(everyone) == len(set(everyone)) == 4 * tables
    assert all(list(at_table) == list(SEATS) for at_table in seats.values())


@settings(max_examples=60, deadline=None)
@given(moves=st.fixed_dictionaries({s: st.integers(-9, 9) for s in SEATS}),
       tables=st.integers(1, 30), round_no=st.integers(1, 12))
def test_the_directors_own_numbers_seat_each_player_once(moves, tables, round_no):
    seats = seating(full_seating(tables), round_no, tables, moves)
    everyone = [player for at_table in seats.values() for player in at_table.values()]
    assert len(everyone) == len(set(everyone)) == 4 * tables


@settings(max_examples=40, deadline=None)
@given(tables=st.integers(1, 40), rounds=st.integers(2, 10), seed=st.integers(0, 10**6))
def test_a_fresh_draw_seats_each_player_once_every_round(tables, rounds, seed):
    first = full_seating(tables)
    drawn = draw_rounds([first], rounds, seed)
    assert sorted(drawn) == list(range(2, rounds + 1))
    field = sorted(p for seats in first.values() for p in seats.values())
    for seats_by_table in drawn.values():
        assert sorted(seats_by_table) == list(range(1, tables + 1))
        assert all(len(seats) == 4 for seats in seats_by_table.values())
        assert sorted(p for seats in seats_by_table.values() for p in seats.values()) == field


def test_the_same_draw_number_gives_the_same_rounds():
    first = full_seating(8)
    assert draw_rounds([first], 6, 41) == draw_rounds([first], 6, 41)
    assert draw_rounds([first], 6, 41) != draw_rounds([first], 6, 42)


@pytest.mark.parametrize("players, rounds, most", [
    (32, 6, 2),     # README figures: 1 repeat; the floor is 0
    (64, 8, 0),
    (600, 12, 0),
])
def test_a_fresh_draw_keeps_repeat_meetings_near_the_floor(players, rounds, most):
    first = full_seating(players // 4)
    drawn = draw_rounds([first], rounds, seed=7)
    met = met_counts([first, *(drawn[n] for n in sorted(drawn))])
    assert fewest_repeats(players, rounds) <= repeat_count(met) <= most
    assert repeat_count(met) < repeat_count(met_counts(
        [seating(first, n, players // 4) for n in range(1, rounds + 1)])) or most == 0


def test_the_floor_counts_what_cannot_be_avoided():
    assert fewest_repeats(4, 3) == 12        # one table: six pairs meet twice more
    assert fewest_repeats(32, 10) == 0       # 30 opponents in 10 rounds, 31 to meet
    assert fewest_repeats(32, 12) == 80      # 36 meetings, 31 opponents: 5 each again


def test_a_draw_continues_from_the_rounds_already_seated():
    # round 2 seated by the usual movement, then a draw: rounds 3-5 avoid rounds 1 and 2
    first = full_seating(8)
    second = seating(first, 2, 8)
    rest = later_rounds(Movement.named("draw", seed=3), [first, second], 5)
    assert sorted(rest) == [3, 4, 5]
    assert repeat_count(met_counts([first, second, *rest.values()])) == 0


def test_later_rounds_start_from_the_last_seated_round():
    first = full_seating(5)
    moved = seating(first, 2, 5)
    later = later_rounds(Movement.named("mahjcon"), [first, moved], 4)
    assert later[3] == seating(moved, 2, 5, PATTERNS["mahjcon"].moves)
    assert later[4] == seating(moved, 3, 5, PATTERNS["mahjcon"].moves)


def test_west_up_two_with_two_tables_is_warned():
    warnings = movement_warnings(Movement.named("east-stays"), tables=2, rounds=3)
    assert any("East and West land on one table" in w for w in warnings)
    assert any("moving up 2 tables brings West back to the same table" in w
               for w in warnings)
    assert seats_together(PATTERNS["east-stays"].moves, 2) == [("E", "W"), ("S", "N")]
    assert movement_warnings(Movement.named("east-stays"), tables=10, rounds=3) == []


def test_own_numbers_where_two_seats_move_alike_are_warned():
    same = Movement(pattern="own", moves={"E": 1, "S": -1, "W": 2, "N": 1})
    assert seats_together(same.moves, 10) == [("E", "N")]
    assert "East and North land on one table" in movement_warnings(same, 10, 3)[0]


@pytest.mark.parametrize("stored, message", [
    ("x", "named values"),
    ({"kind": "swiss"}, "kind must be one of"),
    ({"pattern": "chess"}, "no movement pattern"),
    ({"moves": {"E": 1}}, "a move for each"),
    ({"moves": {"E": 1, "S": 1, "W": True, "N": 0}}, "West's move must be a whole number"),
    ({"moves": {"E": 1, "S": 1, "W": 100, "N": 0}}, "West's move must be a whole number"),
    ({"seed": -1}, "seed must be a whole number"),
    ({"kind": "draw", "drawn_for": "8"}, "drawn_for must be a whole number"),
])
def test_a_stored_movement_is_checked(stored, message):
    with pytest.raises(ValueError, match=message):
        Movement.from_dict(stored)


def test_a_movement_round_trips():
    for key in [*PATTERNS, "draw", "imported"]:
        movement = Movement.named(key, seed=12, from_round=2)
        assert Movement.from_dict(movement.to_dict()) == movement
    cut_short = replace(Movement.named("draw", seed=12), drawn_for=8)
    assert Movement.from_dict(cut_short.to_dict()) == cut_short
    # a movement stored before a day could be cut short reads as drawn for its rounds
    assert "drawn_for" not in Movement.named("draw", seed=12).to_dict()
