"""Every result of a tournament read once: the players, and their points per game
(`load_results`, every game's effective points GameEntry.points_e/s/w/n with its player in
ONE query) or per round (`load_round_totals`, from each sheet's games summed per seat as the
models keep them). Both give the same standings (tests/results compare both ways)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress
from operator import itemgetter, not_

from sqlalchemy import case, select

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
# load_round_totals' row: RoundTotal's six fields, then whether the sheet is final.
_ROUND_TOTAL = itemgetter(0, 1, 2, 3, 4, 5)
_GAMES = itemgetter(5)
_FINAL = itemgetter(6)


@dataclass(frozen=True)
class PlayerInfo:
    id: int
    number: int
    name: str
    substitute: bool
    withdrawn_from_round: int | None


@dataclass
class Results:
    """Every player and every entered game of a tournament, read once."""

    players: dict[int, PlayerInfo]
    official: list[GameResult] | list[RoundTotal]  # games on final sheets (final_states)
    entered: list[GameResult] | list[RoundTotal]   # every game entered, final or not
    open_games: int                 # games entered on sheets not yet final

    @property
    def entrants(self) -> list[Entrant]:
        return [Entrant(p.id, p.substitute) for p in self.players.values()]


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


def load_round_totals(tournament_id: int, rules: RuleSet | None = None) -> Results:
    """`load_results` summed per player and round: the same Results, with RoundTotal values
    in place of GameResult ones (a 600-player, 12-round event: 7,200 rows instead of
    28,800). Each sheet carries its games summed per seat (kept by models.sheet on every
    write of a game), so this reads one row per seat of a sheet with games and no game
    record at all. `rules` as for `load_results`: which sheets are final, and no games won
    in a round voided by time where the rule set says so."""
    final = rules.final_states if rules is not None else OFFICIAL_STATES
    void_wins = rules is not None and rules.time_called_zeroes == "round" and \
        not rules.voided_round_wins

    def by_seat(prefix, label):
        return case(*((Seating.seat == seat, getattr(Scoresheet, f"{prefix}_{seat.lower()}"))
                      for seat in SEATS[:-1]),
                    else_=getattr(Scoresheet, f"{prefix}_{SEATS[-1].lower()}")).label(label)

    won = by_seat("won", "games_won")
    if void_wins:
        won = case((Scoresheet.time_called, 0), else_=won).label("games_won")
    connection = db.session.connection()
    # The columns in RoundTotal's order, then whether the sheet is final: the rows become
    # RoundTotal values and are split by state in C (map, compress), not one by one in a
    # Python loop over thousands of rows.
    rows = connection.execute(
        select(Seating.player_id, Round.number, by_seat("total", "points"), won,
               by_seat("best", "best_game"), Scoresheet.games_count,
               Scoresheet.state.in_(final).label("final"))
        .join(Round, Round.id == Seating.round_id)
        .join(Scoresheet, (Scoresheet.round_id == Seating.round_id)
              & (Scoresheet.table_id == Seating.table_id))
        .where(Round.tournament_id == tournament_id, Scoresheet.games_count > 0)
    ).all()
    entered: list[RoundTotal] = list(map(RoundTotal._make, map(_ROUND_TOTAL, rows)))
    is_final = list(map(_FINAL, rows))
    if all(is_final):
        official, open_games = list(entered), 0
    else:
        official = list(compress(entered, is_final))
        open_games = sum(compress(map(_GAMES, rows), map(not_, is_final)))
    players = {
        pid: PlayerInfo(pid, number, name, bool(substitute), withdrawn)
        for pid, number, name, substitute, withdrawn in connection.execute(
            select(Player.id, Player.number, Player.name, Player.is_substitute,
                   Player.withdrawn_from_round)
            .where(Player.tournament_id == tournament_id).order_by(Player.number))
    }
    # open_games counted each seat; a game has four seats.
    return Results(players, official, entered, (open_games + 3) // 4)
