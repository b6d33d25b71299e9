"""A fresh draw for a small field, where a round-by-round greedy draw runs out of new
opponents: the rounds built from a finite field and the search over every drawn round
keep it close to the floor."""

import pytest

from tournament.movement import SEATS, draw_rounds, met_counts, repeat_count


def by_number(tables):
    return {table: {seat: 4 * (table - 1) + i + 1 for i, seat in enumerate(SEATS)}
            for table in range(1, tables + 1)}


def repeats(first, drawn):
    return repeat_count(met_counts([first, *(drawn[n] for n in sorted(drawn))]))


@pytest.mark.parametrize("tables, seed", [(8, 0), (8, 1), (8, 2), (7, 0), (7, 1), (7, 9)])
def test_thirty_two_and_twenty_eight_players_meet_nobody_twice_in_eight_rounds(tables, seed):
    # 32 players: the greedy draw alone gave 7-11 repeats over seeds 0-9, the annealing
    # after it 2-6; 8 tables make a field of 8, whose rounds give 7 more without a repeat.
    # 28 players: 0 for seeds 0-9; one choice of the field's rounds alone left 8 and 9 for
    # seeds 0 and 9, the annealing alone 10-14.
    first = by_number(tables)
    drawn = draw_rounds([first], 8, seed)
    assert repeats(first, drawn) == 0
    assert drawn == draw_rounds([first], 8, seed)


def test_the_search_keeps_the_rounds_already_seated_and_seats_everyone_once():
    first = by_number(8)
    second = draw_rounds([first], 2, 5)[2]
    rest = draw_rounds([first, second], 10, 5)
    assert sorted(rest) == list(range(3, 11))
    field = sorted(range(1, 33))
    for seats_by_table in rest.values():
        assert sorted(p for seats in seats_by_table.values() for p in seats.values()) == field
    # ten rounds: 29 (the greedy draw alone gave 29-37 with round 1 seated by number; with
    # two rounds seated the field's rounds do not apply, so this is the tabu search alone)
    assert repeats(first, {2: second, **rest}) <= 31


def test_thirty_two_players_in_ten_rounds_and_twelve():
    # 29-33 and 83-87 before the field's rounds (12 rounds cannot go under 80)
    first = by_number(8)
    assert repeats(first, draw_rounds([first], 10, 4)) <= 18
    assert repeats(first, draw_rounds([first], 12, 4)) <= 82
