"""The tournament's movement: choosing it, and the schedule it gives for this field before
it is used (every round and table, the repeat meetings per player, the warnings).

A movement can change freely until round 2 is seated; after that it applies to the rounds
not yet seated, computed from the last seated round, and the change is audited. Switching
to or from the organiser's imported seating is a change of the rules, fixed once scores
are in (blueprints.director.tournaments.update_rules)."""

from __future__ import annotations

import secrets
from collections import Counter
from dataclasses import dataclass, field

from sqlalchemy import func, select

from core.lookup import movement_plan
from core.rounds import (
    computed_rounds,
    imported_plan,
    movement_base,
    seated_rounds,
    substituted,
    substitutions,
)
from core.words import SEATS
from core.writes import write
from models import Round, Tournament, User, db
from tournament.movement import (
    PATTERNS,
    Movement,
    describe,
    fewest_repeats,
    movement_warnings,
    repeat_count,
)

from .common import SetupError, audit, lock_tournament
from .tournaments import update_rules

CHOICES = [*((p.key, p.label) for p in PATTERNS.values()),
           ("own", "My own numbers"),
           ("draw", "A fresh random draw every round"),
           ("imported", "The organiser's own seating (import a CSV)")]


@dataclass
class Preview:
    """What a movement gives for this field, in the director's words."""

    movement: Movement
    words: str
    warnings: list[str]
    rounds: list[tuple[int, bool, list[tuple[int, dict[str, str]]]]]  # (round, seated, tables)
    repeats_by_player: list[tuple[str, int, list[str]]] = field(default_factory=list)
    repeats: int = 0
    floor: int = 0
    by_position: bool = False  # round 1 is not seated: players named by where they start
    note: str = ""


def last_seated(tournament: Tournament) -> int:
    """The highest round number seated (0: none)."""
    return db.session.scalar(select(func.max(Round.number)).where(
        Round.tournament_id == tournament.id)) or 0


def candidate(tournament: Tournament, pattern: str, moves: dict[str, int] | None,
              seed: int | None) -> Movement:
    """The movement a form names (checked by the form already); from_round is where it
    would start if saved now."""
    from_round = 1 if last_seated(tournament) < 2 else last_seated(tournament)
    if pattern == "own":
        return Movement(pattern="own", moves=dict(moves or {}), from_round=from_round)
    if pattern == "draw":
        current = movement_plan(tournament)
        if seed is None:
            seed = current.seed if current.kind == "draw" else secrets.randbelow(1_000_000)
        return Movement.named("draw", seed=seed, from_round=from_round)
    return Movement.named(pattern, from_round=from_round)


def _label(player) -> str:
    return f"{player.number} {player.name}"


def preview(tournament: Tournament, movement: Movement) -> Preview:
    """Every round's tables under `movement` for this field: rounds already seated as
    stored, later ones computed. Before round 1 is seated the field is seated by number
    (players named by where they start: "3W" is West of table 3)."""
    players = {p.id: p for p in tournament.players}
    rounds = tournament.rounds
    seated = seated_rounds(tournament, rounds)
    field_size = sum(1 for p in tournament.players if p.withdrawn_from_round is None)
    tables = max(1, field_size // 4)
    if not seated:
        earlier = [{t: {s: f"{t}{s}" for s in SEATS} for t in range(1, tables + 1)}]
        name = numbered = str
    else:
        earlier = movement_base(tournament, movement) if movement.kind != "imported" else []
        tables = len(seated[0])

        def name(pid):
            return _label(players[pid]) if pid in players else "—"

        def numbered(pid):
            # the grid names players by number alone: seven columns of names wrap on a phone
            return str(players[pid].number) if pid in players else "—"
    # Once seated, a round not seated yet shows who will sit there: the substitutes in for
    # those who left (a late arrival in a substitute's seat), as seating it will make it.
    subs = substitutions(tournament) if seated else {}
    if movement.kind == "imported":
        plan = {n: imported_plan(tournament, n, subs) or {} for n in range(1, rounds + 1)}
        if not any(plan.values()):
            return Preview(movement, describe(movement), [], [], note=(
                "Import the organiser's seating below: its rounds show here once imported."))
    else:
        plan = {**dict(enumerate(earlier, start=1)),
                **{number: {table: substituted(seats, number, subs)
                            for table, seats in by_table.items()}
                   for number, by_table in computed_rounds(movement, earlier, rounds).items()}}
        plan.update(enumerate(seated, start=1))
    met: Counter = Counter()
    for number in range(1, rounds + 1):
        for seats in plan.get(number, {}).values():
            people = [seats[s] for s in SEATS if s in seats]
            for i, first in enumerate(people):
                for second in people[i + 1:]:
                    met[frozenset((first, second))] += 1
    again: dict = {}
    for pair, times in met.items():
        if times > 1:
            first, second = sorted(pair, key=str)
            again.setdefault(first, []).append((second, times - 1))
            again.setdefault(second, []).append((first, times - 1))
    shown = [(number, number <= len(seated),
              [(table, {s: numbered(seats[s]) for s in SEATS if s in seats})
               for table, seats in sorted(plan.get(number, {}).items())])
             for number in range(1, rounds + 1)]
    per_player = sorted(((name(pid), sum(times for _, times in others),
                          [name(other) for other, _ in sorted(others, key=lambda o: str(o[0]))])
                         for pid, others in again.items()), key=lambda row: (-row[1], row[0]))
    warnings = movement_warnings(movement, tables, rounds)
    if again:
        everyone = {pid for seats in plan.get(1, {}).values() for pid in seats.values()}
        warnings.append(f"{len(again)} of the {len(everyone)} players meet someone again; "
                        "the list below says whom.")
    return Preview(movement, describe(movement), warnings, shown, per_player,
                   repeat_count(met), fewest_repeats(4 * tables, rounds), not seated)


@write
def change_movement(tournament: Tournament, user: User, movement: Movement) -> Movement:
    """Store `movement` for the rounds not yet seated (all of them after round 1 until
    round 2 is seated), audited; SetupError in plain words when it can no longer apply."""
    lock_tournament(tournament)
    before = movement_plan(tournament)
    seated_to = last_seated(tournament)
    if seated_to >= tournament.rounds and seated_to >= 2:
        raise SetupError("pattern", "Every round is seated already: a new movement would "
                                    "change nothing.")
    if (movement.kind == "imported") != (before.kind == "imported"):
        # The rules say whether the organiser's seating is used; fixed once scores are in.
        update_rules(tournament, user,
                     {"movement": "imported" if movement.kind == "imported" else "east_stays"})
    from_round = 1 if seated_to < 2 else seated_to
    stored = Movement(kind=movement.kind, pattern=movement.pattern, moves=movement.moves,
                      seed=movement.seed, from_round=from_round)
    if movement.kind != "imported":
        tournament.movement = stored.to_dict()
    db.session.flush()
    audit(tournament, user, "movement.change", f"tournament:{tournament.id}",
          before={"movement": describe(before), **before.to_dict()},
          after={"movement": describe(stored), **stored.to_dict()})
    return stored
