"""Round rows and their seating, which the director, the clock, the table and the player
pages all read: a round's row, seating it (by the movement or the imported seating, with
substitutes in the seats of players who left), and the seats a round will have."""

from __future__ import annotations

import functools
import json

from sqlalchemy import select

from core.lookup import movement_of, movement_plan
from core.words import SEATS
from models import Round, Seating, Substitution, Table, Tournament, db
from tournament.movement import Movement, later_rounds


def round_row(tournament: Tournament, number: int) -> Round | None:
    return db.session.scalar(
        select(Round).where(Round.tournament_id == tournament.id, Round.number == number)
    )


def seated(tournament: Tournament) -> bool:
    """Whether round 1 is seated."""
    return round_row(tournament, 1) is not None


def seated_mark(is_seated: bool) -> str:
    """What the director's overview sends its poll for `seated` (the layout it was drawn
    for), and what the poll compares it with (blueprints.live.views.director)."""
    return "yes" if is_seated else "no"


def initial_seating(tournament: Tournament) -> dict[int, dict[str, int]]:
    """Round 1 as {table number: {seat: player id}}."""
    rows = db.session.execute(
        select(Table.number, Seating.seat, Seating.player_id)
        .join(Round, Round.id == Seating.round_id).join(Table, Table.id == Seating.table_id)
        .where(Round.tournament_id == tournament.id, Round.number == 1)
    )
    initial: dict[int, dict[str, int]] = {}
    for table_number, seat, player_id in rows:
        initial.setdefault(table_number, {})[seat] = player_id
    return initial


def substitutions(tournament: Tournament) -> dict[int, tuple[int, int]]:
    """{leaving player id: (substitute id, from round)}."""
    rows = db.session.scalars(
        select(Substitution).where(Substitution.tournament_id == tournament.id)
    )
    return {s.player_id: (s.substitute_id, s.from_round) for s in rows}


def ensure_round(tournament: Tournament, number: int) -> Round:
    """The round's row with its seats, following tournament.movement from round 1 and
    putting substitutes in the seats of players who left."""
    rnd = round_row(tournament, number)
    if rnd is not None:
        return rnd
    if number < 1 or number > tournament.rounds:
        raise ValueError(f"This tournament has rounds 1 to {tournament.rounds}.")
    initial = initial_seating(tournament)
    if not initial:
        raise ValueError("Seat round 1 first.")
    gap = missing_table(initial)
    if gap is not None and movement_of(tournament) != "imported":
        raise ValueError(f"Round 1 has no one at table {gap}, so the players cannot move "
                         "on to the next round: seat round 1 again.")
    plan = round_plan(tournament, initial, number, substitutions(tournament))
    tables = {t.number: t for t in tournament.tables}
    rnd = Round(tournament=tournament, number=number,
                duration_seconds=tournament.round_minutes * 60)
    db.session.add(rnd)
    for table_number, seats in plan.items():
        for seat, player_id in seats.items():
            rnd.seats.append(Seating(table=tables[table_number], seat=seat,
                                     player_id=player_id))
    db.session.flush()
    return rnd


def missing_table(seated) -> int | None:
    """The first table number from 1 up that no one sits at, below the highest seated
    (tables 1-6 and 8: 7); None when the tables seated run 1..n without a gap. The
    movement moves players by table number: with a gap it would send them to a table that
    is not there."""
    numbers = sorted(set(seated))
    return next((n for n in range(1, len(numbers) + 1) if n not in numbers), None)


def seated_rounds(tournament: Tournament, last: int) -> list[dict[int, dict[str, int]]]:
    """Rounds 1..last as stored, each {table number: {seat: player id}}, stopping at the
    first round not seated."""
    rows = db.session.execute(
        select(Round.number, Table.number, Seating.seat, Seating.player_id)
        .join(Round, Round.id == Seating.round_id).join(Table, Table.id == Seating.table_id)
        .where(Round.tournament_id == tournament.id, Round.number <= last))
    by_round: dict[int, dict[int, dict[str, int]]] = {}
    for number, table_number, seat, player_id in rows:
        by_round.setdefault(number, {}).setdefault(table_number, {})[seat] = player_id
    seated_ones = []
    for number in range(1, last + 1):
        if number not in by_round:
            break
        seated_ones.append(by_round[number])
    return seated_ones


def movement_base(tournament: Tournament, movement: Movement,
                  initial: dict[int, dict[str, int]] | None = None
                  ) -> list[dict[int, dict[str, int]]]:
    """The seated rounds a movement computes the later rounds from: round 1 alone, or
    rounds 1..from_round when the movement was changed after round 2 was seated."""
    if movement.from_round <= 1:
        initial = initial_seating(tournament) if initial is None else initial
        return [initial] if initial else []
    return seated_rounds(tournament, movement.from_round)


def computed_rounds(movement: Movement, earlier: list[dict[int, dict[str, int]]],
                    rounds: int) -> dict[int, dict[int, dict[str, int]]]:
    """Rounds after `earlier` up to `rounds`, as the movement gives them (nothing stored).
    A draw is kept per process by its inputs: every table page and player page of a
    drawn tournament asks for the same schedule, and the inputs decide it wholly."""
    if not earlier or rounds <= len(earlier):
        return {}
    if movement.kind == "draw":
        return _drawn(json.dumps(movement.to_dict(), sort_keys=True),
                      json.dumps([{str(t): s for t, s in r.items()} for r in earlier],
                                 sort_keys=True), rounds)
    return later_rounds(movement, earlier, rounds)


@functools.lru_cache(maxsize=16)
def _drawn(movement: str, earlier: str, rounds: int) -> dict[int, dict[int, dict[str, int]]]:
    seated_ones = [{int(t): seats for t, seats in r.items()} for r in json.loads(earlier)]
    return later_rounds(Movement.from_dict(json.loads(movement)), seated_ones, rounds)


def planned_seating(tournament: Tournament, initial: dict[int, dict[str, int]] | None,
                    number: int,
                    subs: dict[int, tuple[int, int]],
                    movement: Movement | None = None) -> dict[int, dict[str, int]]:
    """Round `number` as {table number: {seat: player id}}, computed (nothing stored):
    the tournament's movement from round 1 (or from the round it was changed after),
    substitutes in the seats of players who left. Empty when round 1's tables have a gap
    (a seating stored before imports refused one): there is no movement to follow, and a
    page shows the rounds stored."""
    movement = movement or movement_plan(tournament)
    earlier = movement_base(tournament, movement, initial)
    if earlier and missing_table(earlier[0]) is not None:
        return {}
    if number <= len(earlier):
        by_table = earlier[number - 1]
    else:
        by_table = computed_rounds(movement, earlier, max(number, tournament.rounds))\
            .get(number, {})
    plan: dict[int, dict[str, int]] = {}
    for table_number, seats in by_table.items():
        for seat, player_id in seats.items():
            sub = subs.get(player_id)
            if sub is not None and number >= sub[1]:
                player_id = sub[0]
            plan.setdefault(table_number, {})[seat] = player_id
    return plan


def imported_plan(tournament: Tournament, number: int,
                  subs: dict[int, tuple[int, int]] | None = None
                  ) -> dict[int, dict[str, int]] | None:
    """Round `number` of the imported seating as {table: {seat: player id}}, substitutes in
    the seats of players who left; None when the import has no such round."""
    stored = stored_round(tournament.imported_seating, number)
    if not stored:
        return None
    subs = substitutions(tournament) if subs is None else subs
    plan: dict[int, dict[str, int]] = {}
    for table_number, seats in stored.items():
        for seat, player_id in seats.items():
            sub = subs.get(player_id)
            if sub is not None and number >= sub[1]:
                player_id = sub[0]
            plan.setdefault(table_number, {})[seat] = player_id
    return plan


def stored_round(seating, number: int) -> dict[int, dict[str, int]]:
    """Round `number` of a stored imported seating as {table: {seat: player id}}, keeping
    only what has the shape the seating import writes: the column is JSON, and a row from
    a damaged backup or a hand edit must not break every page that reads it."""
    tables = seating.get(str(number)) if isinstance(seating, dict) else None
    if not isinstance(tables, dict):
        return {}
    plan: dict[int, dict[str, int]] = {}
    for table_key, seats in tables.items():
        if not (isinstance(table_key, str) and table_key.isascii() and table_key.isdigit()
                and len(table_key) <= 6 and isinstance(seats, dict)):
            continue
        kept = {seat: pid for seat, pid in seats.items()
                if seat in SEATS and isinstance(pid, int) and not isinstance(pid, bool)}
        if kept:
            plan[int(table_key)] = kept
    return plan


def round_plan(tournament: Tournament, initial: dict[int, dict[str, int]], number: int,
               subs: dict[int, tuple[int, int]]) -> dict[int, dict[str, int]]:
    """Round `number` as the rules' movement gives it: the imported seating, or
    tournament.movement from round 1. ValueError when an imported round is missing."""
    if movement_of(tournament) != "imported":
        return planned_seating(tournament, initial, number, subs)
    plan = imported_plan(tournament, number, subs)
    if plan is None:
        raise ValueError(f"Round {number} is not in the imported seating: import the "
                         "organiser's seating on the Seating page first.")
    return plan


def planned_spots(tournament: Tournament, number: int, movement: Movement
                  ) -> dict[int, tuple[int, str]]:
    """{player id: (table, seat)} in round `number` as an imported seating or a draw gives
    it (nothing stored), where no arithmetic on one player's seat can say it."""
    if movement.kind == "imported":
        plan = imported_plan(tournament, number) or {}
    else:
        plan = planned_seating(tournament, None, number, substitutions(tournament), movement)
    return {pid: (table, seat) for table, seats in plan.items() for seat, pid in seats.items()}
