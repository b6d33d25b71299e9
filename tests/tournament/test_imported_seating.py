"""An organiser's own seating for every round (hidden-tile: "follow the table assignment
provided by HTM"), read from CSV rows of round, table, seat, player number."""

import pytest

from tournament.movement import read_imported_seating, shared_tables

PLAYERS = set(range(1, 9))


def full(rounds=2):
    rows = [["round", "table", "seat", "player"]]
    for round_no in range(1, rounds + 1):
        order = list(range(1, 9)) if round_no == 1 else [1, 6, 3, 8, 5, 2, 7, 4]
        for index, player in enumerate(order):
            rows.append([str(round_no), str(index // 4 + 1), "ESWN"[index % 4], str(player)])
    return rows


def test_a_complete_seating_is_read_round_by_round():
    plan, problems = read_imported_seating(full(), 2, PLAYERS)
    assert problems == []
    assert plan[1][1] == {"E": 1, "S": 2, "W": 3, "N": 4}
    assert plan[2][2] == {"E": 5, "S": 2, "W": 7, "N": 4}


def test_seat_names_and_no_header_are_fine():
    rows = [[r, t, {"E": "East", "S": "south", "W": "W", "N": "n"}[s], p]
            for r, t, s, p in full()[1:]]
    assert read_imported_seating(rows, 2, PLAYERS)[1] == []


@pytest.mark.parametrize("change, line, words", [
    (lambda rows: rows[1].__setitem__(0, "3"), 2, "Round must be a number from 1 to 2"),
    (lambda rows: rows[1].__setitem__(1, "9"), 2, "Table must be a number from 1 to 2"),
    (lambda rows: rows[1].__setitem__(2, "X"), 2, "Seat must be E, S, W or N"),
    (lambda rows: rows[1].__setitem__(3, "99"), 2, "no player number '99'"),
    (lambda rows: rows[2].__setitem__(3, "1"), 3, "Player 1 is seated twice in round 1"),
    (lambda rows: rows[2].__setitem__(2, "E"), 3, "Round 1, table 1, East is given twice"),
    (lambda rows: rows[1].__delitem__(3), 2, "Needs four columns"),
])
def test_every_bad_line_is_named(change, line, words):
    rows = full()
    change(rows)
    _, problems = read_imported_seating(rows, 2, PLAYERS)
    assert any(p.line == line and words in p.message for p in problems), problems


def test_a_round_left_out_is_named():
    rows = [row for row in full() if row[0] != "2"]
    _, problems = read_imported_seating(rows, 2, PLAYERS)
    assert [p.message for p in problems][:1] == ["Round 2, table 1 has nobody at East, South, "
                                                  "West, North."]


def test_pairs_seated_together_twice_are_found():
    plan, _ = read_imported_seating(full(), 2, PLAYERS)
    repeats = shared_tables(plan)
    assert repeats[(1, 3)] == (1, 2) and (1, 2) not in repeats
