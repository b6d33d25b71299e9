"""Every result of a tournament read once: the players, and their points per game
(`load_results`, every game's effective points GameEntry.points_e/s/w/n with its player in
ONE query) or per round (`load_round_totals`, from each sheet's games summed per seat as the
models keep them). Both give the same standings (tests/results compare both ways)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import compress, repeat
from operator import attrgetter, is_not, not_
from typing import NamedTuple

from sqlalchemy import Select, bindparam, case, select
from sqlalchemy.orm import aliased

from core.words import SEATS, SheetState
from models import (
    GameEntry,
    Player,
    Round,
    Scoresheet,
    Seating,
    db,
)
from tournament.rules import RuleSet
from tournament.standings import Entrant, GameResult, RoundTotal

OFFICIAL_STATES = (SheetState.SUBMITTED, SheetState.VERIFIED)


class PlayerInfo(NamedTuple):
    """A player as the standings show them. A named tuple, not a dataclass: a large event's
    every standings page makes thousands, straight from the rows (`PlayerInfo._make`)."""

    id: int
    number: int
    name: str
    substitute: bool
    withdrawn_from_round: int | None


_ID_AND_SUBSTITUTE = attrgetter("id", "substitute")


@dataclass
class Results:
    """Every player and every entered game of a tournament, read once."""

    players: dict[int, PlayerInfo]
    official: list[GameResult] | list[RoundTotal]  # games on final sheets (final_states)
    entered: list[GameResult] | list[RoundTotal]   # every game entered, final or not
    open_games: int                 # games entered on sheets not yet final

    @property
    def entrants(self) -> list[Entrant]:
        # Made in C (tuple.__new__ on each player's two fields): one per player, 4,000 at a
        # 1,000-table event, on every standings page.
        return list(map(tuple.__new__, repeat(Entrant),
                        map(_ID_AND_SUBSTITUTE, self.players.values())))


def load_results(tournament_id: int, rules: RuleSet | None = None) -> Results:
    """Players and their per-game points from one query, in one pass over its rows.

    A player appears in one row per game played (or one row with no game). A game is won
    by a seat when its record says outcome "mahjong" and names that seat the winner; under
    `rules` that void a round stopped by time without counting its wins, not in such a
    round. A game is official once its sheet is final under `rules` (None: submitted)."""
    final = rules.final_states if rules is not None else OFFICIAL_STATES
    void_wins = rules is not None and rules.time_called_zeroes == "round" and \
        not rules.voided_round_wins
    points = case(*((Seating.seat == seat, getattr(GameEntry, f"points_{seat.lower()}"))
                    for seat in SEATS[:-1]), else_=GameEntry.points_n)
    won = (GameEntry.record["outcome"].as_string() == "mahjong") & (
        GameEntry.record["winner"].as_string() == Seating.seat)
    games = (
        select(Seating.player_id.label("player_id"), Round.number.label("round_no"),
               GameEntry.number.label("game_no"), points.label("points"),
               won.label("won"), Scoresheet.state.label("state"),
               Scoresheet.id.label("sheet_id"),
               (GameEntry.record["outcome"].as_string() == "time").label("timed"))
        .join(Round, Round.id == Seating.round_id)
        .join(Scoresheet, (Scoresheet.round_id == Seating.round_id)
              & (Scoresheet.table_id == Seating.table_id))
        .join(GameEntry, GameEntry.sheet_id == Scoresheet.id)
        .where(Round.tournament_id == tournament_id)
        .subquery()
    )
    rows = db.session.execute(
        select(Player.id, Player.number, Player.name, Player.is_substitute,
               Player.withdrawn_from_round, games.c.round_no, games.c.game_no,
               games.c.points, games.c.won, games.c.state, games.c.sheet_id, games.c.timed)
        .outerjoin(games, games.c.player_id == Player.id)
        .where(Player.tournament_id == tournament_id)
        .order_by(Player.number)
    ).all()
    voided = {row.sheet_id for row in rows if row.timed} if void_wins else set()
    players: dict[int, PlayerInfo] = {}
    official: list[GameResult] = []
    entered: list[GameResult] = []
    open_games = 0
    for (pid, number, name, substitute, withdrawn, round_no, game_no, pts, is_won, state,
         sheet_id, _) in rows:
        if pid not in players:
            players[pid] = PlayerInfo(pid, number, name, bool(substitute), withdrawn)
        if round_no is None:
            continue
        result = GameResult(pid, round_no, game_no, pts,
                            bool(is_won) and sheet_id not in voided)
        entered.append(result)
        if state in final:
            official.append(result)
        else:
            open_games += 1
    # open_games counted each seat; a game has four seats.
    return Results(players, official, entered, (open_games + 3) // 4)


@lru_cache(maxsize=8)
def _sheet_rows(final: tuple[str, ...], void_wins: bool) -> Select:
    """The statement load_round_totals runs (bound to :tournament_id): one row per sheet
    with games, its four seats' players joined by seat, which is a quarter of the rows
    (and no choosing of columns by seat) that a row per seat would take. Outer joins: a
    seat nobody sits in has no total for anybody. Built once per process for each rule
    set's states: a statement, not data, so no worker holds anything a write could make
    stale, and no request pays the 2-3 ms of building it again."""
    columns = [Round.number, Scoresheet.games_count, Scoresheet.state.in_(final)]
    query = select(Scoresheet).join(Round, Round.id == Scoresheet.round_id)
    for seat in SEATS:
        seated = aliased(Seating)
        won = getattr(Scoresheet, f"won_{seat.lower()}")
        if void_wins:
            won = case((Scoresheet.time_called, 0), else_=won)
        columns += [seated.player_id, getattr(Scoresheet, f"total_{seat.lower()}"), won,
                    getattr(Scoresheet, f"best_{seat.lower()}")]
        query = query.outerjoin(seated, (seated.round_id == Scoresheet.round_id)
                                & (seated.table_id == Scoresheet.table_id)
                                & (seated.seat == seat))
    return query.with_only_columns(*columns).where(
        Round.tournament_id == bindparam("tournament_id"), Scoresheet.games_count > 0)


_PLAYERS = (select(Player.id, Player.number, Player.name, Player.is_substitute,
                   Player.withdrawn_from_round)
            .where(Player.tournament_id == bindparam("tournament_id"))
            .order_by(Player.number))


def load_round_totals(tournament_id: int, rules: RuleSet | None = None) -> Results:
    """`load_results` summed per player and round: the same Results, with RoundTotal values
    in place of GameResult ones (a 600-player, 12-round event: 7,200 rows instead of
    28,800). Each sheet carries its games summed per seat (kept by models.sheet on every
    write of a game), so this reads one row per sheet with games (its four players
    beside their sums) and no game record at all. `rules` as for `load_results`: which
    sheets are final, and no games won in a round voided by time where the rule set says
    so."""
    final = rules.final_states if rules is not None else OFFICIAL_STATES
    void_wins = rules is not None and rules.time_called_zeroes == "round" and \
        not rules.voided_round_wins
    connection = db.session.connection()
    rows = connection.execute(_sheet_rows(tuple(final), void_wins),
                              {"tournament_id": tournament_id}).all()
    # Column by column (zip, map, compress run in C): thousands of RoundTotal values
    # without a Python loop over them.
    round_nos, games, is_final, *by_seat = zip(*rows, strict=True) if rows else ([],) * 19
    entered: list[RoundTotal] = []
    official: list[RoundTotal] = []
    for index in range(0, len(by_seat), 4):
        players, points, won, best = by_seat[index:index + 4]
        # tuple.__new__ on zip's tuples: RoundTotal values made in C, twice as fast as
        # calling RoundTotal (its __new__ is Python) for each.
        seat_totals = list(map(tuple.__new__, repeat(RoundTotal),
                               zip(players, round_nos, points, won, best, games, strict=True)))
        if None in players:
            seat_totals = list(compress(seat_totals, map(is_not, players, repeat(None))))
            seat_final = list(compress(is_final, map(is_not, players, repeat(None))))
        else:
            seat_final = is_final
        entered += seat_totals
        official += compress(seat_totals, seat_final)
    open_games = sum(compress(games, map(not_, is_final)))
    # The Boolean column comes back as bool, so each row is a PlayerInfo as it is.
    players = {player.id: player for player in map(PlayerInfo._make, connection.execute(
        _PLAYERS, {"tournament_id": tournament_id}).all())}
    return Results(players, official, entered, open_games)
