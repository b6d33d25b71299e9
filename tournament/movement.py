"""Table movement: where every player sits in every round, and who meets whom twice.

After each round East stays at its table, North moves up one table, West up two and
South down one, circularly over tables 1..tables (table N+1 is table 1, table 0 is table N).
A player keeps their seat letter (their wind) for the whole tournament, so a player is
fully described by the table and seat they start at in round 1.

Pure arithmetic: this module knows nothing of player records, the database or requests.
Who sits where in round 1 (the draw) and what to do about repeat meetings (swapping a
player, accepting it) are left to the director and the service layer.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import TypeVar

SEATS: tuple[str, ...] = ("E", "S", "W", "N")
"""Seat letters in the order of play around a table."""

MOVES: Mapping[str, int] = {"E": 0, "N": +1, "W": +2, "S": -1}
"""Tables each seat moves up (down when negative) after every round."""

Player = TypeVar("Player", bound=Hashable)

StartSeat = tuple[int, str]
"""A player as (start_table, seat letter): where they sit in round 1."""


def _check_whole(name: str, value: object, lowest: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    if value < lowest:
        raise ValueError(f"{name} must be {lowest} or more, not {value}")
    return value


def _check_seat(seat: object) -> str:
    if seat not in MOVES:
        raise ValueError(f"seat must be one of E, S, W, N, not {seat!r}")
    return seat  # type: ignore[return-value]


def _check_table(name: str, table: object, tables: int) -> int:
    _check_whole(name, table, 1)
    if table > tables:  # type: ignore[operator]
        raise ValueError(f"{name} {table} does not exist: there are only {tables} tables")
    return table  # type: ignore[return-value]


def table_for(seat: str, start_table: int, round_no: int, tables: int) -> int:
    """The table the player who starts at `start_table` in `seat` plays at in `round_no`.

    >>> table_for("N", start_table=10, round_no=2, tables=10)   # North moves up one
    1
    >>> table_for("E", start_table=4, round_no=7, tables=10)    # East never moves
    4
    >>> table_for("S", start_table=1, round_no=2, tables=10)    # South moves down one
    10
    """
    _check_seat(seat)
    _check_whole("tables", tables, 1)
    _check_table("start_table", start_table, tables)
    _check_whole("round_no", round_no, 1)
    return (start_table - 1 + MOVES[seat] * (round_no - 1)) % tables + 1


def seating(
    initial: Mapping[int, Mapping[str, Player]], round_no: int, tables: int
) -> dict[int, dict[str, Player]]:
    """Every table's seats in `round_no`, from the round-1 seating `initial`.

    `initial` maps table number -> seat letter -> player (any hashable: an id, a name).
    The answer has every table 1..tables, each with its seats in E, S, W, N order. A seat
    left empty in round 1 travels like a player would, so with a full round-1 seating
    every table is full in every round (each seat letter moves as one block).

    >>> first = {1: {"E": "Ann", "S": "Bea", "W": "Cy", "N": "Di"},
    ...          2: {"E": "Ed", "S": "Flo", "W": "Gus", "N": "Hal"}}
    >>> seating(first, round_no=2, tables=2)[1]
    {'E': 'Ann', 'S': 'Flo', 'W': 'Cy', 'N': 'Hal'}
    """
    _check_whole("tables", tables, 1)
    _check_whole("round_no", round_no, 1)
    placed: dict[int, dict[str, Player]] = {table: {} for table in range(1, tables + 1)}
    for start_table, seats in initial.items():
        _check_table("table", start_table, tables)
        for seat, player in seats.items():
            _check_seat(seat)
            placed[table_for(seat, start_table, round_no, tables)][seat] = player
    return {
        table: {seat: seats[seat] for seat in SEATS if seat in seats}
        for table, seats in placed.items()
    }


@dataclass(frozen=True)
class Meeting:
    """Two players who sit at the same table in more than one round.

    `first` and `second` are (start_table, seat); `first` is the one who comes first in
    round-1 order (by table, then E, S, W, N). `rounds` lists every round they share.
    """

    first: StartSeat
    second: StartSeat
    rounds: tuple[int, ...]


def _seat_order(player: StartSeat) -> tuple[int, int]:
    start_table, seat = player
    return start_table, SEATS.index(seat)


def repeat_meetings(tables: int, rounds: int) -> list[Meeting]:
    """Every pair of players who would sit at the same table in more than one round.

    Players are named by where they start, (start_table, seat). The list is sorted by
    `first`, then `second`, in round-1 order (table, then E, S, W, N).

    Two players of the same seat letter move together and never meet. Players of seats a
    and b meet in round r when their start tables differ by (move_a - move_b) * (r - 1)
    modulo the number of tables, whatever table they start at; so the rounds that repeat
    are found once per pair of seat letters and then repeated for every start table. This
    costs time in proportion to the answer, not to the square of the field.

    With 6 tables, West moves +2 and South -1: three tables apart after every round, so
    West and South of the same table meet again in round 3 (and 5, 7, ...):

    >>> repeat_meetings(tables=6, rounds=3)[0]
    Meeting(first=(1, 'S'), second=(1, 'W'), rounds=(1, 3))
    """
    _check_whole("tables", tables, 1)
    _check_whole("rounds", rounds, 1)
    meetings: list[Meeting] = []
    for seat_a, seat_b in combinations(SEATS, 2):
        step = MOVES[seat_a] - MOVES[seat_b]
        rounds_by_gap: dict[int, list[int]] = {}
        for round_no in range(1, rounds + 1):
            # seat_b's start table is this many tables up from seat_a's when they meet
            gap = (step * (round_no - 1)) % tables
            rounds_by_gap.setdefault(gap, []).append(round_no)
        for gap, shared in rounds_by_gap.items():
            if len(shared) < 2:
                continue
            for table_a in range(1, tables + 1):
                player_a = (table_a, seat_a)
                player_b = ((table_a - 1 + gap) % tables + 1, seat_b)
                first, second = sorted((player_a, player_b), key=_seat_order)
                meetings.append(Meeting(first, second, tuple(shared)))
    meetings.sort(key=lambda meeting: (_seat_order(meeting.first), _seat_order(meeting.second)))
    return meetings


MOVEMENTS = ("east_stays", "imported")
"""How players move between rounds: the usual movement above, or an organiser's own seating
for every round (Hidden Tile: "follow the table assignment provided by HTM")."""

_SEAT_WORDS = {"e": "E", "east": "E", "s": "S", "south": "S", "w": "W", "west": "W",
               "n": "N", "north": "N"}
_SEAT_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}

ImportedSeating = dict[int, dict[int, dict[str, int]]]
"""round -> table -> seat letter -> player number."""


@dataclass(frozen=True)
class SeatingProblem:
    """A line of an imported seating that cannot be used (line 0: the file as a whole)."""

    line: int
    message: str


def _whole_number(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else None


def read_imported_seating(
    rows: list[list[str]], rounds: int, players: set[int]
) -> tuple[ImportedSeating, list[SeatingProblem]]:
    """Every round's seating from rows of (round, table, seat, player number), as an
    organiser's own table assignment gives it; a first row that is not numbers is a header.

    The plan must seat every one of `players` exactly once in every round 1..rounds, four to
    a table at tables 1..len(players)//4. Returns the plan and every problem found (the plan
    is only usable when there are none), each naming its line in plain words.
    """
    _check_whole("rounds", rounds, 1)
    problems: list[SeatingProblem] = []
    plan: ImportedSeating = {}
    tables = len(players) // 4
    if not players or len(players) % 4:
        problems.append(SeatingProblem(0, f"The field has {len(players)} players: it must be "
                                          "a multiple of four to fill every table."))
    seen: dict[tuple[int, int], int] = {}  # (round, player) -> line
    for line, row in enumerate(rows, start=1):
        cells = [cell.strip() for cell in row]
        if not any(cells):
            continue
        if line == 1 and cells and _whole_number(cells[0]) is None:
            continue  # a header row
        if len(cells) < 4:
            problems.append(SeatingProblem(line, "Needs four columns: round, table, seat, "
                                                 "player number."))
            continue
        round_no, table, player = (_whole_number(cells[i]) for i in (0, 1, 3))
        seat = _SEAT_WORDS.get(cells[2].lower())
        if round_no is None or not 1 <= round_no <= rounds:
            problems.append(SeatingProblem(line, f"Round must be a number from 1 to {rounds}."))
            continue
        if table is None or not 1 <= table <= max(tables, 1):
            problems.append(SeatingProblem(line, f"Table must be a number from 1 to {tables}."))
            continue
        if seat is None:
            problems.append(SeatingProblem(line, "Seat must be E, S, W or N (or East, South, "
                                                 "West, North)."))
            continue
        if player is None or player not in players:
            problems.append(SeatingProblem(line, f"There is no player number {cells[3]!r} in "
                                                 "this tournament."))
            continue
        seats = plan.setdefault(round_no, {}).setdefault(table, {})
        if seat in seats:
            problems.append(SeatingProblem(line, f"Round {round_no}, table {table}, "
                                                 f"{_SEAT_NAMES[seat]} is given twice."))
            continue
        if (round_no, player) in seen:
            problems.append(SeatingProblem(line, f"Player {player} is seated twice in round "
                                                 f"{round_no} (also line "
                                                 f"{seen[(round_no, player)]})."))
            continue
        seen[(round_no, player)] = line
        seats[seat] = player
    if problems:
        return plan, problems
    for round_no in range(1, rounds + 1):
        for table in range(1, tables + 1):
            missing = [_SEAT_NAMES[s] for s in SEATS if s not in plan.get(round_no, {})
                       .get(table, {})]
            if missing:
                problems.append(SeatingProblem(0, f"Round {round_no}, table {table} has "
                                                  f"nobody at {', '.join(missing)}."))
    return plan, problems


def shared_tables(plan: Mapping[int, Mapping[int, Mapping[str, Player]]]
                  ) -> dict[tuple[Player, Player], tuple[int, ...]]:
    """Every pair of players who share a table in more than one round of `plan` (round ->
    table -> seat -> player), with those rounds; each pair in seating order."""
    together: dict[tuple[Player, Player], list[int]] = {}
    for round_no in sorted(plan):
        for seats in plan[round_no].values():
            players = [seats[s] for s in SEATS if s in seats]
            for first, second in combinations(players, 2):
                key = (first, second) if (second, first) not in together else (second, first)
                together.setdefault(key, []).append(round_no)
    return {pair: tuple(rounds) for pair, rounds in together.items() if len(rounds) > 1}
