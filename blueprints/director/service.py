"""Director setup: tournaments, staff, players, tables and seating, as rows.

The bridge between the director's pages and tournament/: rule presets come from
tournament.rules, every round's seats from tournament.movement. Every change that a
director would want to trace later writes an audit row in the same transaction."""

from __future__ import annotations

import random
import secrets
import string
from datetime import date

from sqlalchemy import delete, func, select

from models import (
    Player,
    Round,
    Seating,
    Substitution,
    Table,
    Tournament,
    TournamentStaff,
    User,
    db,
    record,
)
from tournament.movement import seating as movement_seating
from tournament.rules import PRESETS

CODE_ALPHABET = "".join(c for c in string.ascii_uppercase + string.digits if c not in "O0I1L")


def new_code() -> str:
    """A short public code, easy to type from a poster (no O/0, I/1/L)."""
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
        if not db.session.scalar(select(Tournament.id).where(Tournament.code == code)):
            return code


def actor_label(user: User | None) -> str:
    return user.name if user is not None else "system"


def create_tournament(
    director: User, *, name: str, preset: str, rounds: int, starts_on: date | None = None,
    ends_on: date | None = None, venue: str = "", code: str | None = None,
) -> Tournament:
    """A tournament with its own copy of a preset's rules, staffed by its director."""
    rules = PRESETS[preset]
    tournament = Tournament(
        code=code or new_code(), name=name, preset=preset, rules=rules.to_dict(),
        rounds=rounds, games_per_round=rules.games_per_round,
        round_minutes=rules.round_minutes, starts_on=starts_on, ends_on=ends_on, venue=venue,
    )
    tournament.staff.append(TournamentStaff(user=director, role="director"))
    db.session.add(tournament)
    db.session.flush()
    record("tournament.create", tournament_id=tournament.id, subject=f"tournament:{tournament.id}",
           after={"name": name, "preset": preset, "rounds": rounds},
           actor=actor_label(director), actor_user_id=director.id)
    return tournament


def ranked_players(tournament: Tournament) -> list[Player]:
    return [p for p in tournament.players if p.withdrawn_from_round is None]


def round_row(tournament: Tournament, number: int) -> Round | None:
    return db.session.scalar(
        select(Round).where(Round.tournament_id == tournament.id, Round.number == number)
    )


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
    existing = round_row(tournament, 1)
    if existing is not None and existing.started_at is not None:
        raise ValueError("Round 1 has started; its seating can no longer be redrawn.")
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
    # Later rounds derive from round 1: drop them all and rebuild.
    db.session.execute(delete(Round).where(Round.tournament_id == tournament.id,
                                           Round.started_at.is_(None)))
    db.session.flush()
    tournament.seating_method, tournament.seating_seed = method, seed
    tables = {t.number: t for t in tournament.tables}
    rnd = Round(tournament=tournament, number=1, duration_seconds=tournament.round_minutes * 60)
    db.session.add(rnd)
    for index, player in enumerate(players):
        table_number, seat = divmod(index, 4)
        rnd.seats.append(Seating(table=tables[table_number + 1], seat="ESWN"[seat],
                                 player=player))
    db.session.flush()
    record("seating.round1", tournament_id=tournament.id, subject=f"round:{rnd.id}",
           after={"method": method, "seed": seed, "tables": table_count},
           actor=actor_label(user), actor_user_id=user.id if user else None)
    return rnd


def ensure_tables(tournament: Tournament, count: int) -> None:
    have = {t.number for t in tournament.tables}
    for number in range(1, count + 1):
        if number not in have:
            tournament.tables.append(Table(number=number))
    db.session.flush()


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
    tables = {t.number: t for t in tournament.tables}
    subs = substitutions(tournament)
    rnd = Round(tournament=tournament, number=number,
                duration_seconds=tournament.round_minutes * 60)
    db.session.add(rnd)
    for table_number, seats in movement_seating(initial, number, len(initial)).items():
        for seat, player_id in seats.items():
            sub = subs.get(player_id)
            if sub is not None and number >= sub[1]:
                player_id = sub[0]
            rnd.seats.append(Seating(table=tables[table_number], seat=seat,
                                     player_id=player_id))
    db.session.flush()
    return rnd


def player_count(tournament: Tournament) -> int:
    return db.session.scalar(
        select(func.count()).select_from(Player).where(Player.tournament_id == tournament.id,
                                                       Player.withdrawn_from_round.is_(None))
    )
