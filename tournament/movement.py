"""Table movement: where every player sits in every round, and who meets whom twice.

A movement is each seat's table move after every round, circularly over tables 1..tables
(table N+1 is table 1, table 0 is table N). The usual one (TNT, City Mahj, Destination):
East stays at its table, North moves up one table, West up two and South down one; the
organisers' other patterns are in PATTERNS, and a director may give her own numbers.
Under a movement of moves a player keeps their seat letter (their wind) for the whole
tournament, so a player is fully described by the table and seat they start at.

The other kinds: a fresh draw every round (`draw_rounds`: few repeat meetings, by a greedy
placement and then simulated annealing over swaps in every drawn round), and the
organiser's own imported seating (`read_imported_seating`).

Pure arithmetic: this module knows nothing of player records, the database or requests.
Who sits where in round 1 (the draw) and what to do about repeat meetings (swapping a
player, accepting it) are left to the director and the service layer.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, TypeVar

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


def table_for(seat: str, start_table: int, round_no: int, tables: int,
              moves: Mapping[str, int] = MOVES) -> int:
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
    return (start_table - 1 + moves[seat] * (round_no - 1)) % tables + 1


def seating(
    initial: Mapping[int, Mapping[str, Player]], round_no: int, tables: int,
    moves: Mapping[str, int] = MOVES,
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
            placed[table_for(seat, start_table, round_no, tables, moves)][seat] = player
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


def repeat_meetings(tables: int, rounds: int,
                    moves: Mapping[str, int] = MOVES) -> list[Meeting]:
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
        step = moves[seat_a] - moves[seat_b]
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


# --- Movements by name, in words, and a fresh draw every round ---------------------------

@dataclass(frozen=True)
class Pattern:
    """A named movement of moves: `moves` is each seat's tables up (down when negative)."""

    key: str
    label: str
    moves: Mapping[str, int]
    source: str  # whose pattern it is, and what we chose where the sheet is silent


PATTERNS: dict[str, Pattern] = {p.key: p for p in (
    Pattern("east-stays", "East stays", MOVES,
            "TNT, City Mahj and Destination: East stays, North up 1, West up 2, South down 1."),
    # Crak Your Bags says only "East moves up 1 table" and West up 2. North cannot also go
    # up 1 (East and North would travel together and meet every round); South down 1 and
    # North staying keep the four moves next to each other (-1, 0, 1, 2), as TNT's are, so
    # with 4 tables or more no two players meet twice in the first three rounds.
    Pattern("east-up-one", "East moves up one", {"E": 1, "S": -1, "W": 2, "N": 0},
            "Crak Your Bags: East moves up 1 table, West up 2; the sheet does not say for "
            "South and North, so South moves down 1 and North stays."),
    Pattern("mahjcon", "MahjCon", {"E": 0, "S": -1, "W": -2, "N": 1},
            "MahjCon: East stays, South down 1, West down 2, North up 1."),
    # The league names seats A, B, C, D; read in the order of play, A is East.
    Pattern("abcd", "A/B/C/D (every seat moves)", {"E": 1, "S": -1, "W": 2, "N": -2},
            "The league's A/B/C/D: A up 1, B down 1, C up 2, D down 2 (A is East, B South, "
            "C West, D North)."),
)}

KINDS = ("moves", "draw", "imported")
MOST_TABLES_MOVED = 99
"""The largest move a director may type, either way: more than any room has tables."""


@dataclass(frozen=True)
class Movement:
    """How players move after each round, as a tournament stores it.

    kind "moves": every seat moves by `moves` after each round; `pattern` names the
    PATTERNS entry it was chosen from ("own" for the director's numbers). kind "draw": a
    fresh draw every round from `seed`. kind "imported": the organiser's seating.
    `from_round`: the seated round the later rounds are computed from (1, unless the
    movement was changed after round 2 was seated: then the last round seated then).
    `drawn_for`: a draw's rounds are searched together, so its schedule depends on how
    many there are; when the director cuts the day short once rounds are seated, the
    schedule stays the one drawn for this many rounds (0: the tournament's number).
    """

    kind: str = "moves"
    pattern: str = "east-stays"
    moves: Mapping[str, int] = field(default_factory=lambda: dict(MOVES))
    seed: int = 0
    from_round: int = 1
    drawn_for: int = 0

    def to_dict(self) -> dict[str, Any]:
        stored = {"kind": self.kind, "pattern": self.pattern,
                  "moves": {seat: self.moves[seat] for seat in SEATS},
                  "seed": self.seed, "from_round": self.from_round}
        # only when set: a movement stored before days could be cut short reads the same
        if self.drawn_for:
            stored["drawn_for"] = self.drawn_for
        return stored

    @classmethod
    def from_dict(cls, stored: object) -> Movement:
        """The stored movement, checked; ValueError in plain words when it cannot be used."""
        if not isinstance(stored, Mapping):
            raise ValueError("The movement must be a set of named values.")
        kind = stored.get("kind", "moves")
        if kind not in KINDS:
            raise ValueError(f"The movement's kind must be one of {', '.join(KINDS)}.")
        pattern = stored.get("pattern", "own")
        if pattern != "own" and pattern not in PATTERNS:
            raise ValueError(f"There is no movement pattern called {pattern!r}.")
        moves = stored.get("moves", MOVES)
        if not isinstance(moves, Mapping) or set(moves) != set(SEATS):
            raise ValueError("The movement needs a move for each of East, South, West, North.")
        for seat in SEATS:
            move = moves[seat]
            if isinstance(move, bool) or not isinstance(move, int) or \
                    abs(move) > MOST_TABLES_MOVED:
                raise ValueError(f"{_SEAT_NAMES[seat]}'s move must be a whole number from "
                                 f"-{MOST_TABLES_MOVED} to {MOST_TABLES_MOVED}.")
        seed = stored.get("seed", 0)
        from_round = stored.get("from_round", 1)
        drawn_for = stored.get("drawn_for", 0)
        for name, value in (("seed", seed), ("from_round", from_round),
                            ("drawn_for", drawn_for)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"The movement's {name} must be a whole number.")
        return cls(kind=kind, pattern=pattern, moves={s: moves[s] for s in SEATS},
                   seed=seed, from_round=max(1, from_round), drawn_for=drawn_for)

    @classmethod
    def named(cls, key: str, seed: int = 0, from_round: int = 1) -> Movement:
        """A PATTERNS entry, "draw" or "imported" as a movement."""
        if key in ("draw", "imported"):
            return cls(kind=key, pattern="own", seed=seed, from_round=from_round)
        return cls(moves=dict(PATTERNS[key].moves), pattern=key, from_round=from_round)


def move_words(seat: str, move: int) -> str:
    """One seat's move: "East stays", "South moves down 1 table", "West moves up 2 tables"."""
    name = _SEAT_NAMES[seat]
    if move == 0:
        return f"{name} stays"
    tables = "table" if abs(move) == 1 else "tables"
    return f"{name} moves {'up' if move > 0 else 'down'} {abs(move)} {tables}"


def describe(movement: Movement, short: bool = False) -> str:
    """Every seat's move in words: "East stays; South moves down 1 table; ...", or with
    `short` (a line on the big screen): "East stays, South down 1, West up 2, North up 1"."""
    if movement.kind == "draw":
        return ("a fresh draw every round" if short else
                "A fresh random draw every round, with as few repeat meetings as it can")
    if movement.kind == "imported":
        return "The organiser's own seating for every round"
    if short:
        return ", ".join(
            f"{_SEAT_NAMES[s]} stays" if not movement.moves[s] else
            f"{_SEAT_NAMES[s]} {'up' if movement.moves[s] > 0 else 'down'} "
            f"{abs(movement.moves[s])}" for s in SEATS)
    return "; ".join(move_words(seat, movement.moves[seat]) for seat in SEATS)


def seats_together(moves: Mapping[str, int], tables: int) -> list[tuple[str, str]]:
    """Pairs of seats whose moves are the same around `tables` tables: they start at one
    table and land on one table again after every round (West up 2 with 2 tables is no
    move at all, so East and West of each table sit together every round)."""
    _check_whole("tables", tables, 1)
    if tables == 1:
        return []
    return [(a, b) for a, b in combinations(SEATS, 2) if (moves[a] - moves[b]) % tables == 0]


def movement_warnings(movement: Movement, tables: int, rounds: int) -> list[str]:
    """What the director should know before using `movement` with this many tables, in
    plain words; empty when nobody meets anyone twice."""
    _check_whole("tables", tables, 1)
    warnings = []
    if tables == 1:
        return ["With one table the same four players meet every round."] if rounds > 1 else []
    if movement.kind == "moves":
        for a, b in seats_together(movement.moves, tables):
            warnings.append(
                f"With {tables} tables, {_SEAT_NAMES[a]} and {_SEAT_NAMES[b]} land on one "
                f"table after every move: the {_SEAT_NAMES[a]} and {_SEAT_NAMES[b]} of each "
                f"table play together in every round.")
        for seat in SEATS:
            move = movement.moves[seat]
            if move and move % tables == 0:
                way = "up" if move > 0 else "down"
                warnings.append(f"With {tables} tables, moving {way} {abs(move)} tables "
                                f"brings {_SEAT_NAMES[seat]} back to the same table.")
    return warnings


Seating = Mapping[int, Mapping[str, Player]]
"""One round: table number -> seat letter -> player."""


def met_counts(rounds: Sequence[Seating]) -> Counter:
    """How many times each pair (a frozenset of two players) shares a table in `rounds`."""
    met: Counter = Counter()
    for seats_by_table in rounds:
        for seats in seats_by_table.values():
            for pair in combinations(seats.values(), 2):
                met[frozenset(pair)] += 1
    return met


def repeat_count(met: Counter) -> int:
    """Meetings beyond the first of each pair: 0 when nobody meets anyone twice."""
    return sum(times - 1 for times in met.values() if times > 1)


def fewest_repeats(players: int, rounds: int) -> int:
    """A floor under `repeat_count` for any seating: each player meets 3 opponents a round
    and there are only players - 1 others, so each meets at least 3 * rounds - (players - 1)
    of them again (each such repeat is shared by two players)."""
    over = max(0, 3 * rounds - (players - 1))
    return (players * over + 1) // 2


def _table_cost(player: int, table: list[int], met: list[list[int]]) -> int:
    mine = met[player]
    return sum(mine[other] for other in table)


def _draw_one(players: list[int], tables: int, met: list[list[int]],
              rng: random.Random) -> list[list[int]]:
    """One round: players placed at the open table where they have met the fewest of those
    already there (the first table that costs nothing wins), then pairs of players at
    different tables swapped while a swap lowers the repeat meetings."""
    order = players[:]
    rng.shuffle(order)
    placed: list[list[int]] = [[] for _ in range(tables)]
    open_tables = list(range(tables))
    for player in order:
        start = rng.randrange(len(open_tables))
        best, best_cost = None, None
        for step in range(len(open_tables)):
            index = open_tables[(start + step) % len(open_tables)]
            cost = _table_cost(player, placed[index], met)
            if best_cost is None or cost < best_cost:
                best, best_cost = index, cost
                if cost == 0:
                    break
        placed[best].append(player)
        if len(placed[best]) == 4:
            open_tables.remove(best)
    # Local search: a player who meets someone again trades places with a player of
    # another table when that lowers the round's repeats (tries bounded, so a crowded
    # field where repeats cannot be avoided still finishes quickly).
    where = {player: index for index, table in enumerate(placed) for player in table}
    for _attempt in range(60):
        clashing = [p for index, table in enumerate(placed) for p in table
                    if _table_cost(p, [o for o in table if o != p], met)]
        if not clashing:
            break
        improved = False
        for player in clashing:
            here = where[player]
            others = [o for o in placed[here] if o != player]
            now = _table_cost(player, others, met)
            for there in rng.sample(range(tables), min(tables, 40)):
                if there == here:
                    continue
                for other in placed[there]:
                    rest_there = [o for o in placed[there] if o != other]
                    before = now + _table_cost(other, rest_there, met)
                    after = (_table_cost(player, rest_there, met)
                             + _table_cost(other, others, met))
                    if after < before:
                        placed[here][placed[here].index(player)] = other
                        placed[there][placed[there].index(other)] = player
                        where[player], where[other] = there, here
                        improved = True
                        break
                if improved:
                    break
            if improved:
                break
        if not improved:
            break
    return placed


def _best_of_draws(players: list[int], tables: int, met: list[list[int]],
                   rng: random.Random) -> list[list[int]]:
    """The round with the fewest repeats of a few draws: a small field, where repeats are
    hard to avoid, gets more tries (each costs little); a large one rarely needs a second."""
    tries = max(1, min(_GREEDY, 400 // max(len(players), 1)))
    best, best_cost = None, None
    for _try in range(tries):
        placed = _draw_one(players, tables, met, rng)
        cost = sum(_table_cost(p, table[i + 1:], met)
                   for table in placed for i, p in enumerate(table))
        if best_cost is None or cost < best_cost:
            best, best_cost = placed, cost
        if cost == 0:
            break
    return best


def _search(drawn: list[list[list[int]]], met: list[list[int]], floor: int,
            budget: int, rng: random.Random) -> None:
    """Lower the repeat meetings of the drawn rounds by swapping two players of different
    tables within a round (tabu search over every drawn round at once, in place).

    Players are numbers 0..n-1; `drawn` is each drawn round's tables, `met` how often each
    pair shares a table over every round, earlier and drawn. Round by round, a greedy draw
    cannot undo the choices of the rounds before it, and a small field runs out of new
    opponents after a few rounds; so the search may change any drawn round. Each step
    weighs every swap of a player who meets someone again with a player of another table
    of that round, and makes the best one even when it adds repeats (the way out of a dead
    end), but not one that undoes a recent swap unless it beats the best schedule seen;
    after a long time without a better schedule a few random swaps shake it up. The best
    schedule seen is kept. `budget` counts the work (swaps weighed, seats looked over),
    not time, so the same seed always gives the same rounds.
    (Dotú and Van Hentenryck's tabu search for the social golfer problem.)
    """
    cost = sum(times - 1 for row in met for times in row if times > 1) // 2
    if cost <= floor or not drawn or all(len(tables) < 2 for tables in drawn):
        return
    n, rounds = len(met), len(drawn)
    where = [[0] * n for _ in drawn]
    # clash[r][p]: tablemates of p in drawn round r whom p meets more than once
    clash = [[0] * n for _ in drawn]
    for r, tables in enumerate(drawn):
        for index, table in enumerate(tables):
            for p in table:
                where[r][p] = index
                clash[r][p] = sum(1 for q in table if q != p and met[p][q] > 1)
    budget -= 4 * rounds * n
    # round * n + player for each player who clashes, and where each sits in that list,
    # so a clashing player is found without looking over every seat after each swap
    clashing: list[int] = []
    at: dict[int, int] = {}

    def mark(r: int, p: int) -> None:
        key = r * n + p
        if clash[r][p] > 0:
            if key not in at:
                at[key] = len(clashing)
                clashing.append(key)
        elif key in at:
            index = at.pop(key)
            last = clashing.pop()
            if index < len(clashing):
                clashing[index] = last
                at[last] = index

    def trade(out: int, into: int, table: list[int], crossed: list) -> int:
        """`into` takes `out`'s place among `table`'s others, in `met`; the change in
        repeats, and each pair whose count crossed 1 (out: -1) or 2 (into: +1)."""
        row_out, row_in = met[out], met[into]
        delta = 0
        for o in table:
            if o != out:
                row_out[o] -= 1
                met[o][out] -= 1
                row_in[o] += 1
                met[o][into] += 1
                delta += (row_in[o] > 1) - (row_out[o] > 0)
                if row_out[o] == 1:
                    crossed.append((out, o, -1))
                if row_in[o] == 2:
                    crossed.append((into, o, 1))
        return delta

    def swap(r: int, a: int, b: int) -> int:
        tables, seat = drawn[r], where[r]
        here, there = seat[a], seat[b]
        home, away = tables[here], tables[there]
        crossed: list[tuple[int, int, int]] = []
        delta = trade(a, b, home, crossed) + trade(b, a, away, crossed)
        home[home.index(a)] = b
        away[away.index(b)] = a
        seat[a], seat[b] = there, here
        # a pair that now meets twice, or only once again, clashes or stops clashing in
        # the other rounds where it shares a table
        for x, y, step in crossed:
            for other in range(rounds):
                if other != r and where[other][x] == where[other][y]:
                    clash[other][x] += step
                    clash[other][y] += step
                    mark(other, x)
                    mark(other, y)
        for table in (home, away):
            for p in table:
                row = met[p]
                clash[r][p] = sum(1 for q in table if q != p and row[q] > 1)
                mark(r, p)
        return delta

    for r in range(rounds):
        for p in range(n):
            mark(r, p)
    best_cost = cost
    best = [[table[:] for table in tables] for tables in drawn]
    tabu: dict[tuple[int, int, int], int] = {}
    random_ = rng.random
    low, high = _TENURE
    step = stale = 0
    while budget > 0 and clashing:
        step += 1
        best_delta, moves = None, []
        for key in clashing[:]:
            r, a = divmod(key, n)
            tables, seat, mine = drawn[r], where[r], clash[r]
            here = seat[a]
            row_a = met[a]
            rows_home = [met[o] for o in tables[here] if o != a]
            for there, table in enumerate(tables):
                if there == here:
                    continue
                base = sum(1 for o in table if row_a[o] > 0) - mine[a]
                for b in table:
                    delta = base - mine[b] - (row_a[b] > 0)
                    for row in rows_home:
                        if row[b] > 0:
                            delta += 1
                    if best_delta is not None and delta > best_delta:
                        continue
                    if (tabu.get((r, a, b) if a < b else (r, b, a), 0) > step
                            and cost + delta >= best_cost):
                        continue
                    if best_delta is None or delta < best_delta:
                        best_delta, moves = delta, [(r, a, b)]
                    else:
                        moves.append((r, a, b))
            budget -= n
        if not moves:
            continue
        r, a, b = moves[int(random_() * len(moves))]
        cost += swap(r, a, b)
        budget -= _SWAP_WORK * rounds
        tabu[(r, a, b) if a < b else (r, b, a)] = step + low + int(random_() * (high - low + 1))
        if cost < best_cost:
            best_cost, stale = cost, 0
            best = [[table[:] for table in tables] for tables in drawn]
            if cost <= floor:
                break
            continue
        stale += 1
        if stale >= _STALE:
            stale = 0
            for _kick in range(_KICK):
                r = int(random_() * rounds)
                tables = drawn[r]
                if len(tables) < 2:
                    continue
                here = int(random_() * len(tables))
                there = int(random_() * (len(tables) - 1))
                there += there >= here
                a = tables[here][int(random_() * len(tables[here]))]
                b = tables[there][int(random_() * len(tables[there]))]
                cost += swap(r, a, b)
                budget -= _SWAP_WORK * rounds
    drawn[:] = best


# A swap just made stays barred for 3-12 steps (drawn anew each time, so the search does
# not fall into a cycle of one length); after 300 steps without a better schedule, 3
# random swaps shake it up. Making a swap costs about as much work as weighing 12 others
# per round (the other rounds' clashes are updated).
_TENURE, _STALE, _KICK, _SWAP_WORK = (3, 12), 300, 3, 12
_GREEDY = 6
"""Draws of each round a small field keeps the best of before the search: the search then
starts from the round-by-round draw (or from a field's rounds, that draw kept when the
search ends worse) and keeps the best schedule it sees, so it is never worse than that
draw for the same seed."""


def _field(size: int) -> tuple[Callable[[int, int], int], Callable[[int, int], int]] | None:
    """Addition and multiplication of a finite field on 0..size-1: a prime, or a power of
    two up to 128 (sums are bitwise xor, products reduced by an irreducible polynomial);
    None for any other size."""
    if size in _POLYNOMIALS:
        polynomial = _POLYNOMIALS[size]

        def times(x: int, y: int) -> int:
            product = 0
            while y:
                if y & 1:
                    product ^= x
                y >>= 1
                x <<= 1
                if x & size:
                    x ^= polynomial
            return product
        return (lambda x, y: x ^ y), times
    if size > 1 and all(size % d for d in range(2, math.isqrt(size) + 1)):
        return (lambda x, y: (x + y) % size), (lambda x, y: x * y % size)
    return None


_POLYNOMIALS = {4: 0b111, 8: 0b1011, 16: 0b10011, 32: 0b100101, 64: 0b1000011,
                128: 0b10000011}


def _lines(first: list[list[int]], count: int, rng: random.Random) -> list[list[list[int]]]:
    """Up to `count` rounds after `first` in which nobody meets anyone twice, or none when
    the tables are not all full or their number g is not a prime or a power of two.

    Seat j of table i goes to table i + s_j * t in round t (in a field of g elements, the
    s_j four different numbers): two players of different seats share a table in exactly
    one of the rounds t = 0..g-1, round 0 being `first`, and two of the same seat never.
    So g - 1 rounds cost nothing, where a draw often finds none past half of them."""
    tables = len(first)
    field_ = _field(tables) if tables >= 4 and all(len(t) == 4 for t in first) else None
    if field_ is None:
        return []
    plus, times = field_
    slopes = rng.sample(range(tables), 4)
    rounds = []
    for t in rng.sample(range(1, tables), min(count, tables - 1)):
        placed: list[list[int]] = [[] for _ in range(tables)]
        for i, table in enumerate(first):
            for j, player in enumerate(table):
                placed[plus(i, times(slopes[j], t))].append(player)
        rounds.append(placed)
    return rounds


def draw_rounds(earlier: Sequence[Seating], rounds: int, seed: int
                ) -> dict[int, dict[int, dict[str, Player]]]:
    """Rounds len(earlier)+1..rounds drawn afresh, each keeping repeat meetings with every
    earlier round (and the ones drawn before it) as few as it can.

    `earlier` are the rounds already seated, round 1 first; the last one's players are the
    field. The same `earlier`, `rounds` and `seed` give the same rounds, so a page can show
    the schedule before the rounds are seated and the seating that follows is the one
    shown. The rounds are searched together, so round 3 of a 6-round draw is not round 3
    of an 8-round one: ask for the same last round every time. Seats at each table are
    drawn too (a player does not keep their wind).
    """
    _check_whole("rounds", rounds, 1)
    if not earlier:
        raise ValueError("A draw needs round 1 seated first.")
    last = earlier[-1]
    field_ = [seats[s] for table in sorted(last) for seats in (last[table],)
              for s in SEATS if s in seats]
    tables = max(1, len(last), -(-len(field_) // 4))
    number = {player: index for index, player in enumerate(field_)}
    n = len(field_)
    met = [[0] * n for _ in range(n)]
    for seats_by_table in earlier:
        for seats in seats_by_table.values():
            _meet(met, [number[p] for p in seats.values() if p in number])
    rng = random.Random(f"mahjtable-draw:{seed}:{len(earlier)}")
    players = list(range(n))
    floor = fewest_repeats(n, rounds)
    wanted = rounds - len(earlier)
    # Past g - 1 rounds the lines run out and the draw after them is stuck (with 28
    # players, 9 repeats in 8 rounds for every seed): the search gets the last two rounds
    # free to change, which reaches 0 for most seeds.
    first = [[number[p] for p in last[table].values() if p in number] for table in sorted(last)]
    count = wanted if wanted < tables else wanted - 2
    lines = [] if len(earlier) > 1 else _lines(first, count, rng)
    greedy = None
    if lines and len(lines) < wanted:
        # the round-by-round draw, kept when the search from the lines ends worse
        greedy, greedy_met = [], [row[:] for row in met]
        for _round_no in range(wanted):
            greedy.append(_best_of_draws(players, tables, greedy_met, rng))
            for table in greedy[-1]:
                _meet(greedy_met, table)
    earlier_met = [row[:] for row in met]
    # Whether the two rounds left free can be completed depends on which of the field's
    # rounds came before them (with 28 players one choice left 8 and 9 repeats for two
    # seeds in ten, where others reach 0): another choice is tried, the budget shared.
    attempts = _ATTEMPTS if lines and len(lines) < wanted else 1
    drawn, drawn_cost = None, None
    for attempt in range(attempts):
        if attempt:
            lines = _lines(first, count, rng)
        met = [row[:] for row in earlier_met]
        tried = lines
        for placed in lines:
            for table in placed:
                _meet(met, table)
        for _round_no in range(len(lines), wanted):
            placed = _best_of_draws(players, tables, met, rng)
            for table in placed:
                _meet(met, table)
            tried.append(placed)
        _search(tried, met, floor, _SEARCH_BUDGET // attempts, rng)
        cost = _repeats(earlier_met, tried)
        if drawn_cost is None or cost < drawn_cost:
            drawn, drawn_cost = tried, cost
        if cost <= floor:
            break
    if greedy is not None and _repeats(earlier_met, greedy) < _repeats(earlier_met, drawn):
        drawn = greedy
    result: dict[int, dict[int, dict[str, Player]]] = {}
    for round_no, placed in enumerate(drawn, start=len(earlier) + 1):
        this_round: dict[int, dict[str, Player]] = {}
        for index, table in enumerate(placed):
            letters = list(SEATS[:len(table)])
            rng.shuffle(letters)
            by_seat = dict(zip(letters, (field_[p] for p in table), strict=True))
            this_round[index + 1] = {s: by_seat[s] for s in SEATS if s in by_seat}
        result[round_no] = this_round
    return result


_SEARCH_BUDGET = 900_000
"""Work the search may do (swaps weighed, seats looked over): with the draws before it,
about 0.4 s for 32 players and 10 rounds on a slow shared 2-core machine (12 rounds reach
the floor sooner). A large field rarely needs the search."""


_ATTEMPTS = 3
"""Choices of the field's rounds tried when the last rounds are left to the search."""


def _repeats(met: list[list[int]], drawn: list[list[list[int]]]) -> int:
    """Repeat meetings of the rounds `met` counts and the rounds `drawn` after them."""
    met = [row[:] for row in met]
    for placed in drawn:
        for table in placed:
            _meet(met, table)
    return sum(times - 1 for row in met for times in row if times > 1) // 2


def _meet(met: list[list[int]], table: list[int]) -> None:
    for a, b in combinations(table, 2):
        met[a][b] += 1
        met[b][a] += 1


def later_rounds(movement: Movement, earlier: Sequence[Seating], rounds: int
                 ) -> dict[int, dict[int, dict[str, Player]]]:
    """Rounds len(earlier)+1..rounds under a movement of moves or a draw, from the seated
    rounds `earlier` (round 1 first; the last is where the moves start from)."""
    if movement.kind == "draw":
        return draw_rounds(earlier, rounds, movement.seed)
    if movement.kind != "moves":
        raise ValueError("An imported seating is read, not computed.")
    base, tables = earlier[-1], max(len(earlier[-1]), 1)
    return {number: seating(base, number - len(earlier) + 1, tables, movement.moves)
            for number in range(len(earlier) + 1, rounds + 1)}
