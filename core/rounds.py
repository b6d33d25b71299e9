"""Round rows and their seating, which the director, the clock, the table and the player
pages all read: a round's row, seating it (by the movement or the imported seating, with
substitutes in the seats of players who left), and the seats a round will have."""

from __future__ import annotations

import functools
import json

from sqlalchemy import or_, select

from core.lookup import movement_of, movement_plan
from core.words import SEATS
from models import Player, Round, Seating, Substitution, Table, Tournament, db
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
    """The round's row with its seats, as plan_rounds gives them: the movement (or the
    imported seating) from the round before, substitutes in the seats of players who
    left, and players who joined since at tables of their own."""
    rnd = round_row(tournament, number)
    if rnd is not None:
        return rnd
    if number < 1 or number > tournament.rounds:
        raise ValueError(f"This tournament has rounds 1 to {tournament.rounds}.")
    if not initial_seating(tournament):
        raise ValueError("Seat round 1 first.")
    gap = missing_table(initial_seating(tournament))
    if gap is not None and movement_of(tournament) != "imported":
        raise ValueError(f"Round 1 has no one at table {gap}, so the players cannot move "
                         "on to the next round: seat round 1 again.")
    plan = plan_rounds(tournament, number)[number]
    tables = table_rows(tournament, max(plan, default=0))
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
        # a day cut short keeps the schedule drawn for the longer one (Movement.drawn_for)
        drawn = _drawn(json.dumps(movement.to_dict(), sort_keys=True),
                       json.dumps([{str(t): s for t, s in r.items()} for r in earlier],
                                  sort_keys=True), max(rounds, movement.drawn_for))
        return {number: tables for number, tables in drawn.items() if number <= rounds}
    return later_rounds(movement, earlier, rounds)


@functools.lru_cache(maxsize=16)
def _drawn(movement: str, earlier: str, rounds: int) -> dict[int, dict[int, dict[str, int]]]:
    seated_ones = [{int(t): seats for t, seats in r.items()} for r in json.loads(earlier)]
    return later_rounds(Movement.from_dict(json.loads(movement)), seated_ones, rounds)


def table_rows(tournament: Tournament, count: int) -> dict[int, Table]:
    """{number: table} for tables 1..count at least, making the missing ones: a table
    that joins mid-event needs its row (and its QR link) like the first ones."""
    have = {t.number for t in tournament.tables}
    for number in range(1, count + 1):
        if number not in have:
            tournament.tables.append(Table(number=number))
    db.session.flush()
    return {t.number: t for t in tournament.tables}


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


def substituted(seats: dict[str, int], number: int,
                subs: dict[int, tuple[int, int]]) -> dict[str, int]:
    """One table's seats in round `number` with the substitutes in for those who left."""
    out = {}
    for seat, player_id in seats.items():
        sub = subs.get(player_id)
        if sub is not None and number >= sub[1]:
            player_id = sub[0]
        out[seat] = player_id
    return out


def stored_seating(tournament: Tournament) -> dict[int, dict[int, dict[str, int]]]:
    """Every stored round as {round: {table number: {seat: player id}}}, in one query."""
    stored: dict[int, dict[int, dict[str, int]]] = {}
    for number, table_number, seat, player_id in db.session.execute(
            select(Round.number, Table.number, Seating.seat, Seating.player_id)
            .join(Round, Round.id == Seating.round_id).join(Table, Table.id == Seating.table_id)
            .where(Round.tournament_id == tournament.id)):
        stored.setdefault(number, {}).setdefault(table_number, {})[seat] = player_id
    return stored


def joining(tournament: Tournament, seated_ids: set[int],
            subs: dict[int, tuple[int, int]]) -> tuple[list[Player], list[Player]]:
    """Who is in the field without a seat: (ranked players, free substitutes), each by
    number. A late arrival, or a no-show who came after all, is a ranked player without a
    seat; the substitutes are those standing in for nobody. A player marked not coming at
    the door waits for nothing."""
    standing_in = {sub for sub, _ in subs.values()}
    waiting = [p for p in tournament.players
               if p.withdrawn_from_round is None and p.id not in seated_ids
               and p.id not in standing_in and p.arrival != "absent"]
    return ([p for p in waiting if not p.is_substitute],
            [p for p in waiting if p.is_substitute])


def someone_waiting(tournament: Tournament) -> bool:
    """Whether a ranked player in the field (not marked not coming) has no seat in any
    round made (joining's ranked players): one EXISTS query, so the players' pages ask
    it cheaply."""
    seated_anywhere = select(Seating.id).join(Round, Round.id == Seating.round_id).where(
        Round.tournament_id == tournament.id, Seating.player_id == Player.id).exists()
    return bool(db.session.scalar(select(
        select(Player.id).where(Player.tournament_id == tournament.id,
                                Player.withdrawn_from_round.is_(None),
                                Player.is_substitute.is_(False),
                                or_(Player.arrival.is_(None), Player.arrival != "absent"),
                                ~seated_anywhere).exists())))


def waiting_for_a_seat(tournament: Tournament) -> list[Player]:
    """The ranked players in the field (not marked not coming) without a seat in any round
    made, by number: a late arrival, or a no-show who came after all. [] at once (one
    EXISTS query) when there is none."""
    if not someone_waiting(tournament):
        return []
    seated_ids = {pid for plan in stored_seating(tournament).values()
                  for seats in plan.values() for pid in seats.values()}
    return joining(tournament, seated_ids, substitutions(tournament))[0]


def joining_group(ranked: list[Player], free: list[Player]) -> list[int]:
    """The players who take new tables together: every ranked player without a seat and
    the free substitutes it takes to fill their tables; [] while there are too few
    substitutes (nobody joins alone: a table needs four)."""
    short = (-len(ranked)) % 4
    if not ranked or short > len(free):
        return []
    return [p.id for p in ranked] + [p.id for p in free[:short]]


def new_tables(plan: dict[int, dict[str, int]], group: list[int]) -> dict[int, dict[str, int]]:
    """The group's tables, numbered after the plan's last, four to a table in E,S,W,N."""
    first = max(plan, default=0) + 1
    return {first + index // 4: dict(zip(SEATS, group[index:index + 4], strict=True))
            for index in range(0, len(group), 4)}


def next_plan(tournament: Tournament, earlier: list[dict[int, dict[str, int]]], number: int,
              subs: dict[int, tuple[int, int]]) -> dict[int, dict[str, int]]:
    """Round `number` from the rounds before it (round 1 first): the tournament's movement
    over all of the last round's tables (so a table that joined moves with the rest; a
    draw counts every earlier meeting), or the imported seating with any table it does
    not know kept as it was. ValueError when an imported round is missing."""
    before = earlier[-1]
    if movement_of(tournament) != "imported":
        movement = movement_plan(tournament)
        base = earlier
        if movement.kind == "draw":
            # A draw is drawn from the rounds it was chosen after, all its rounds at once,
            # so that each round seated is the one its preview showed; only a table that
            # joined since changes the field it draws from.
            base = earlier[:max(1, movement.from_round)]
            if any(len(r) != len(base[-1]) for r in earlier[len(base):]):
                base = earlier
        # A draw is searched over all its rounds together, so a round depends on the
        # last round drawn: ask for the whole tournament, as the preview does.
        step = computed_rounds(movement, base, max(number, tournament.rounds))\
            .get(number, {})
        return {table: substituted(seats, number, subs) for table, seats in step.items()}
    plan = imported_plan(tournament, number, subs)
    if plan is None:
        raise ValueError(f"Round {number} is not in the imported seating: import the "
                         "organiser's seating on the Seating page first.")
    for table, seats in before.items():
        if table not in plan:
            plan[table] = substituted(seats, number, subs)
    return plan


def plan_rounds(tournament: Tournament, last: int) -> dict[int, dict[int, dict[str, int]]]:
    """Rounds 1..last as {round: {table: {seat: player id}}}: stored rounds as stored; a
    round not made yet follows from the round before it (next_plan), and the players who
    joined since it was made (joining_group) sit at new tables from it. Nothing is
    written. Empty before round 1 is seated."""
    stored = stored_seating(tournament)
    if 1 not in stored:
        return {}
    subs = substitutions(tournament)
    seated_ids = {pid for plan in stored.values() for seats in plan.values()
                  for pid in seats.values()}
    # With a gap in round 1's tables (stored before imports refused one) no movement can
    # be followed: the rounds stored are all there is.
    follows = movement_of(tournament) == "imported" or missing_table(stored[1]) is None
    plans: dict[int, dict[int, dict[str, int]]] = {}
    for number in range(1, last + 1):
        if number in stored:
            plan = stored[number]
        elif not follows:
            break
        else:
            plan = next_plan(tournament, [plans[n] for n in range(1, number)], number, subs)
            group = joining_group(*joining(tournament, seated_ids, subs))
            plan.update(new_tables(plan, group))
            seated_ids.update(group)
        plans[number] = plan
    return plans


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
