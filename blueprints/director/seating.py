"""Seating: round 1 drawn, by number or imported from the organiser's own plan, swaps,
and the schedule every later round follows (tournament.movement)."""

from __future__ import annotations

import csv
import io
import random
import secrets
from dataclasses import dataclass

from sqlalchemy import delete, func, select

from core.lookup import movement_of, movement_plan
from core.rounds import (
    imported_plan,
    initial_seating,
    plan_rounds,
    round_row,
    stored_seating,
)
from core.words import SEATS
from core.writes import write
from models import (
    DirectorCall,
    Player,
    Round,
    Scoresheet,
    Seating,
    Substitution,
    Table,
    Tournament,
    User,
    db,
)
from tournament.movement import (
    SeatingProblem,
    read_imported_seating,
    repeat_meetings,
    shared_tables,
)

from .common import (
    PLAYED,
    SetupError,
    audit,
    played_refusal,
)
from .player_import import csv_separator, csv_text


@write
def seat_round_one(
    tournament: Tournament, method: str = "draw", seed: int | None = None,
    user: User | None = None,
) -> Round:
    """Make the tables and seat round 1: a random draw (seed kept, so it can be shown and
    redone) or by player number. Players 1-4 sit E,S,W,N at table 1, and so on."""
    players = [p for p in tournament.players if p.withdrawn_from_round is None]
    if len(players) < 4 or len(players) % 4:
        raise ValueError(
            f"Seating needs a multiple of four players; there are {len(players)}. "
            f"Add {(-len(players)) % 4 or 4} substitute(s) first."
        )
    # Every later round follows from round 1: once any round is played, no redraw.
    played_refusal(tournament, "the seating can no longer be redrawn", "method")
    players.sort(key=lambda p: p.number)
    if method == "draw":
        seed = seed if seed is not None else secrets.randbelow(1_000_000)
        random.Random(seed).shuffle(players)
    elif method != "number":
        raise ValueError("Choose a random draw or seating by player number.")
    else:
        seed = None
    table_count = len(players) // 4
    ensure_tables(tournament, table_count)
    # Later rounds derive from round 1: drop them all (none is played) and rebuild.
    db.session.execute(delete(Round).where(Round.tournament_id == tournament.id, ~PLAYED))
    db.session.flush()
    db.session.expire(tournament, ["round_list"])
    _drop_spare_tables(tournament, table_count)
    tournament.seating_method, tournament.seating_seed = method, seed
    tables = {t.number: t for t in tournament.tables}
    rnd = Round(tournament=tournament, number=1, duration_seconds=tournament.round_minutes * 60)
    db.session.add(rnd)
    for index, player in enumerate(players):
        table_number, seat = divmod(index, 4)
        rnd.seats.append(Seating(table=tables[table_number + 1], seat=SEATS[seat],
                                 player=player))
    db.session.flush()
    audit(tournament, user, "seating.round1", f"round:{rnd.id}",
          after={"method": method, "seed": seed, "tables": table_count})
    return rnd


def _drop_spare_tables(tournament: Tournament, count: int) -> None:
    """After a redraw for fewer players (the no-shows withdrawn), the tables beyond the
    new count would print a card and show a page that seats nobody. Those with nothing
    of their own (no sheet, no call: none is played) go; a later table that joins is
    made again with a new link."""
    spare = [t.id for t in tournament.tables if t.number > count]
    if not spare:
        return
    kept = set(db.session.scalars(select(Scoresheet.table_id).where(
        Scoresheet.table_id.in_(spare)))) | set(db.session.scalars(select(
            DirectorCall.table_id).where(DirectorCall.table_id.in_(spare))))
    gone = [table_id for table_id in spare if table_id not in kept]
    if gone:
        db.session.execute(delete(Table).where(Table.id.in_(gone)))
        db.session.flush()
        db.session.expire(tournament, ["tables"])


def ensure_tables(tournament: Tournament, count: int) -> None:
    have = {t.number for t in tournament.tables}
    for number in range(1, count + 1):
        if number not in have:
            tournament.tables.append(Table(number=number))
    db.session.flush()


@dataclass
class SeatingImport:
    """An imported seating's outcome: its problems (nothing saved), or what was saved."""

    problems: list[SeatingProblem]
    rounds: int = 0
    tables: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


@write
def import_seating(tournament: Tournament, user: User, text: str) -> SeatingImport:
    """The organiser's seating for every round from CSV lines (round, table, seat, player
    number). Every problem is listed and nothing is saved unless the whole file is fine;
    then round 1 is seated from it (later rounds when the director seats them) and the
    rounds not played are rebuilt."""
    if movement_of(tournament) != "imported":
        raise SetupError("text",
                         "Choose the organiser's own seating as the movement first.")
    played_refusal(tournament, "the seating can no longer be imported", "text")
    text = csv_text(text)
    rows = list(csv.reader(io.StringIO(text), delimiter=csv_separator(text)))
    players = {p.number: p for p in tournament.players if p.withdrawn_from_round is None}
    plan, problems = read_imported_seating(rows, tournament.rounds, set(players))
    if problems:
        return SeatingImport(problems)
    table_count = len(players) // 4
    ensure_tables(tournament, table_count)
    db.session.execute(delete(Round).where(Round.tournament_id == tournament.id, ~PLAYED))
    db.session.flush()
    db.session.expire(tournament, ["round_list"])
    tournament.imported_seating = {
        str(number): {str(table): {seat: players[player].id for seat, player in seats.items()}
                      for table, seats in tables.items()}
        for number, tables in plan.items()}
    tournament.seating_method, tournament.seating_seed = "imported", None
    tables = {t.number: t for t in tournament.tables}
    rnd = Round(tournament=tournament, number=1, duration_seconds=tournament.round_minutes * 60)
    db.session.add(rnd)
    for table_number, seats in plan[1].items():
        for seat, player in seats.items():
            rnd.seats.append(Seating(table=tables[table_number], seat=seat,
                                     player=players[player]))
    db.session.flush()
    audit(tournament, user, "seating.import", f"round:{rnd.id}",
          after={"rounds": len(plan), "tables": table_count})
    return SeatingImport([], len(plan), table_count)


@write
def seat(tournament: Tournament, user: User, method: str, seed: int | None = None) -> Round:
    """Seat round 1 (draw or by number) with the reason in plain words on failure."""
    if movement_of(tournament) == "imported":
        raise SetupError("method",
                         "This tournament follows the organiser's own seating: import it "
                         "below, or choose the usual movement first.")
    later = db.session.scalar(select(func.min(Substitution.from_round)).where(
        Substitution.tournament_id == tournament.id, Substitution.from_round > 1))
    if later is not None:
        raise SetupError("method",
                         f"A player has been replaced from round {later}; a new draw would "
                         "take away the rounds they play before that. Swap players instead.")
    try:
        return seat_round_one(tournament, method=method, seed=seed, user=user)
    except ValueError as error:
        raise SetupError("method", str(error)) from None


@write
def swap_players(tournament: Tournament, user: User, first_number: int,
                 second_number: int) -> None:
    """Swap two players' round-1 seats while no round is played; later rounds made so far
    are dropped (ensure_round makes them again from the new round 1)."""
    rnd = round_row(tournament, 1)
    if rnd is None:
        raise SetupError("first", "Seat round 1 first.")
    if movement_of(tournament) == "imported":
        raise SetupError("first",
                         "The organiser's seating decides every round: change the file and "
                         "import it again.")
    # Round 1's seats decide every later round: once any round is played, no swap.
    played_refusal(tournament, "seats can no longer be swapped", "first")
    if first_number == second_number:
        raise SetupError("second", "Choose two different players.")
    by_number = {s.player.number: s for s in rnd.seats}
    for field, number in (("first", first_number), ("second", second_number)):
        if number not in by_number:
            raise SetupError(field, f"No player number {number} is seated in round 1.")
    a, b = by_number[first_number], by_number[second_number]
    before = {first_number: [a.table.number, a.seat], second_number: [b.table.number, b.seat]}
    # Seats are unique per (round, player): free b's seat, move b's player to a's seat,
    # then seat a's player where b sat, flushing in between.
    a_player, b_player, b_table, b_seat = a.player_id, b.player_id, b.table_id, b.seat
    rnd.seats.remove(b)
    db.session.flush()
    a.player_id = b_player
    db.session.flush()
    rnd.seats.append(Seating(table_id=b_table, seat=b_seat, player_id=a_player))
    db.session.flush()
    db.session.execute(delete(Round).where(Round.tournament_id == tournament.id,
                                           Round.number > 1, ~PLAYED))
    db.session.flush()
    db.session.expire(tournament, ["round_list"])
    db.session.expire(rnd, ["seats"])
    audit(tournament, user, "seating.swap", f"round:{rnd.id}", before=before,
          after={first_number: before[second_number], second_number: before[first_number]})


@dataclass(frozen=True)
class PlannedRound:
    """One round of the printed schedule: its number, and its row when it has been made
    (None for a later round not seated yet: its seats are computed, not stored)."""

    number: int
    row: Round | None = None


def schedule(
    tournament: Tournament,
) -> list[tuple[PlannedRound, list[tuple[Table, dict[str, Player]]]]]:
    """Every round 1..rounds with its tables' seats: [(round, [(table, {seat: player})])].
    Rounds already made are read as stored; later ones are computed in memory from round 1
    (tournament.movement plus substitutions), so looking at the schedule writes nothing.
    Empty before round 1 is seated."""
    try:
        plans = plan_rounds(tournament, tournament.rounds)
    except ValueError:
        # An imported seating short of a round: show the rounds it has (and those made).
        plans = {number: imported_plan(tournament, number) or {}
                 for number in range(1, tournament.rounds + 1)}
        plans.update(stored_seating(tournament))
    if not plans:
        return []
    rows = {r.number: r for r in db.session.scalars(
        select(Round).where(Round.tournament_id == tournament.id,
                            Round.number <= tournament.rounds))}
    players = {p.id: p for p in tournament.players}
    tables_by_number = {t.number: t for t in tournament.tables}
    out = []
    for number in range(1, tournament.rounds + 1):
        # A table that joins later has no row until its round is made: shown all the same.
        out.append((PlannedRound(number, rows.get(number)), [
            (tables_by_number.get(table_number) or Table(number=table_number),
             {s: players[seats[s]] for s in SEATS if seats.get(s) in players})
            for table_number, seats in sorted(plans.get(number, {}).items())]))
    return out


def itineraries(tournament: Tournament) -> list[tuple[Player, list[tuple[int, int, str]]]]:
    """Each player's rounds as [(player, [(round, table, seat)])], by player number."""
    plan: dict[int, list[tuple[int, int, str]]] = {}
    for rnd, tables in schedule(tournament):
        for table, seats in tables:
            for seat_letter, player in seats.items():
                plan.setdefault(player.id, []).append((rnd.number, table.number, seat_letter))
    return [(p, plan[p.id]) for p in tournament.players if p.id in plan]


def meetings_report(tournament: Tournament) -> list[dict]:
    """tournament.movement.repeat_meetings with the round-1 players' names (under an
    imported seating: every pair it seats together more than once)."""
    initial = initial_seating(tournament)
    if not initial:
        return []
    players = {p.id: p for p in tournament.players}
    try:
        planned = plan_rounds(tournament, tournament.rounds)
    except ValueError:
        planned = {}
    if movement_of(tournament) != "imported" and any(
            len(tables) != len(initial) for tables in planned.values()):
        # A table joined late: the movement's arithmetic from round 1 no longer holds,
        # so the pairs are read from the plan itself.
        return _shared(planned, players)
    if movement_of(tournament) == "imported":
        plan = {number: imported_plan(tournament, number, {}) or {}
                for number in range(1, tournament.rounds + 1)}
        return _shared(plan, players)
    movement = movement_plan(tournament)
    if movement.kind != "moves" or movement.from_round > 1:
        # A draw, or moves from a round after the first: read the pairs from the plan.
        return _shared(planned, players)
    report = []
    for meeting in repeat_meetings(len(initial), tournament.rounds, movement.moves):
        first = players.get(initial[meeting.first[0]].get(meeting.first[1]))
        second = players.get(initial[meeting.second[0]].get(meeting.second[1]))
        report.append({"first": first, "second": second, "first_start": meeting.first,
                       "second_start": meeting.second, "rounds": meeting.rounds})
    return report


def _shared(plan: dict[int, dict[int, dict[str, int]]], players: dict[int, Player]
            ) -> list[dict]:
    """Every pair a plan seats together more than once, each named with where they start."""
    start: dict[int, tuple[int, str]] = {}
    for number in sorted(plan):
        for table, seats in plan[number].items():
            for seat, pid in seats.items():
                start.setdefault(pid, (table, seat))
    return [{"first": players.get(first), "second": players.get(second),
             "first_start": start.get(first), "second_start": start.get(second),
             "rounds": rounds}
            for (first, second), rounds in shared_tables(plan).items()]
