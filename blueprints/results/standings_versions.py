"""What the public standings keep and compare: the ranking a worker made last for each
version of what they show, and the versions a poll sends back to get 204 while nothing
it shows changed."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace

from sqlalchemy import case, func, select

from core.lookup import rules_of
from core.words import SheetState
from models import (
    Competition,
    CompetitionEntry,
    Player,
    Round,
    Scoresheet,
    Tiebreak,
    Tournament,
    db,
)

from .standings import Board, board

# The public standings' ranking this process made last for each (tournament, view), with
# everything it was ranked from (see public_board). Only the last: a 4,000-player,
# 12-round board is about 12 MB, and an older version is never asked for again.
_PUBLIC_BOARDS: dict[tuple[int, bool], tuple[tuple, Board]] = {}
PUBLIC_BOARDS_KEPT = 4  # two events' official and provisional views


def public_board(tournament: Tournament, versions: Versions, provisional: bool) -> Board:
    """The board the public standings show, ranked once per process for each version of
    what they show.

    At a round end a sheet is submitted every few seconds, and each onlooker's next poll
    needs the lines again: ranking a 4,000-player field is tens of CPU-ms, the rest of
    the answer (a page of 200 lines, "Find me") a few. Onlookers polling the same
    version share one ranking per worker instead of one each. The key is what the
    database says in this request (`versions`, read in one statement) with the
    tournament's identity and rules, so a worker never serves lines the database has
    moved past, and any number of workers and hosts agree: a worker that has not seen a
    version ranks it itself. The ranking is read after the version, so it is never older
    than its key (a newer one only makes the next poll's version differ, and rank again).
    What the key does not cover is not kept: the tournament (its
    name, the rules' words) and the count of games not counted yet are this request's,
    and the director's recorded draws (ORM rows, shown on the director's page only) are
    left out."""
    version = versions.every if provisional else versions.official
    slot = (tournament.id, provisional)
    key = (tournament.code, tournament.created_at, rules_of(tournament), version)
    kept_key, kept = _PUBLIC_BOARDS.get(slot, (None, None))
    if kept_key != key:
        fresh = board(tournament, provisional=provisional)
        kept = replace(fresh, tables=[replace(table, decisions=[], stale=[])
                                      for table in fresh.tables])
        _PUBLIC_BOARDS.pop(slot, None)
        # The oldest go first; pop(..., None) and a copied list of keys, so that threaded
        # workers (GUNICORN_WORKER_CLASS) evicting at once cannot fail a request.
        surplus = max(0, len(_PUBLIC_BOARDS) + 1 - PUBLIC_BOARDS_KEPT)
        for oldest in list(_PUBLIC_BOARDS)[:surplus]:
            _PUBLIC_BOARDS.pop(oldest, None)
        _PUBLIC_BOARDS[slot] = (key, kept)
    return replace(kept, tournament=tournament, open_games=versions.open_games)


@dataclass(frozen=True)
class Versions:
    """What the standings pages compare to answer a poll with 204.

    `every`: everything the standings show, provisional lines included (every saved game
    changes it). `official`: everything the official standings show but the count of
    games not yet counted (`open_games`), which a save at any table changes: a poll of
    the official standings whose lines did not change gets only that count (a few bytes),
    not thousands of lines ranked and rendered again."""

    every: str
    official: str
    open_games: int


def results_versions(tournament: Tournament) -> Versions:
    """The standings' Versions, from one statement.

    The standings read each sheet's stored sums, never a game (load_round_totals), and
    every change of a game that changes a sum rewrites its sheet's row (models.sheet keeps
    the sums on every flush; its updated_at moves, and a save bumps its version): the
    sheets stand for their games, and the 28,800 games of a large event are not read.
    The players' names and numbers, which no sheet holds, count through the tournament's
    players_version (blueprints.director.common.players_changed)."""
    def scalar(query):
        return query.scalar_subquery()

    final = Scoresheet.state.in_(rules_of(tournament).final_states)
    breaks = Tiebreak.tournament_id == tournament.id
    players = Player.tournament_id == tournament.id
    competitions = (select(Competition.id).where(Competition.tournament_id == tournament.id)
                    .scalar_subquery())
    query = (
        select(func.count(Scoresheet.id), func.coalesce(func.sum(Scoresheet.version), 0),
               func.max(Scoresheet.updated_at),
               func.sum(case((Scoresheet.state == SheetState.OPEN, 0), else_=1)),
               func.count(Scoresheet.id).filter(final),
               func.coalesce(func.sum(Scoresheet.version).filter(final), 0),
               func.max(Scoresheet.updated_at).filter(final),
               func.coalesce(func.sum(Scoresheet.games_count).filter(~final), 0),
               scalar(select(func.count(Tiebreak.id)).where(breaks)),
               scalar(select(func.max(Tiebreak.id)).where(breaks)),
               scalar(select(func.count(Player.id)).where(players)),
               scalar(select(func.max(Player.id)).where(players)),
               scalar(select(func.sum(case((Player.is_substitute, 1), else_=0)))
                      .where(players)),
               scalar(select(func.count(Competition.id))
                      .where(Competition.tournament_id == tournament.id)),
               scalar(select(func.count(CompetitionEntry.id))
                      .where(CompetitionEntry.competition_id.in_(competitions))),
               scalar(select(func.max(Competition.last_round))
                      .where(Competition.tournament_id == tournament.id)))
        .select_from(Scoresheet)
        .join(Round, Round.id == Scoresheet.round_id)
        .where(Round.tournament_id == tournament.id))
    row = db.session.execute(query).one()
    every_sheet, official_sheets, open_games, others = row[:4], row[4:7], row[7], row[8:]
    fixed = [tournament.prize_places, tournament.rounds, tournament.players_version]
    return Versions(every=_digest([*fixed, *every_sheet, *others]),
                    official=_digest([*fixed, *official_sheets, *others]),
                    open_games=int(open_games))


def _digest(parts: list) -> str:
    return hashlib.sha1(json.dumps(parts, default=str).encode()).hexdigest()[:12]
