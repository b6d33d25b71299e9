"""Standings, prize places, tie-breaks, missing results and exports, as rows.

The bridge between the results pages and tournament.standings: every game's effective
points (GameEntry.points_e/s/w/n) are read with their player in ONE query (`load_results`)
and turned into `tournament.standings.GameResult` values in one pass; each competition (the
main standings, each session, the mini tournament) is then one call to
`tournament.standings`. `board(tournament)` is the function to measure in the benchmark:
it reads the same points summed per player and round by the database
(`load_round_totals`), which gives the same standings (tests/results compare both ways).

The JSON backup and its import live in `backup.py` beside this module."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from dataclasses import dataclass, field, replace

from sqlalchemy import case, func, select
from sqlalchemy.orm import selectinload

from blueprints.common import unstorable
from core.lookup import rules_of
from core.words import SEATS
from models import (
    Competition,
    CompetitionEntry,
    GameEntry,
    Player,
    Round,
    Scoresheet,
    Seating,
    Table,
    Tiebreak,
    Tournament,
    User,
    db,
    record,
)
from tournament import standings as ranking
from tournament.errors import FieldError
from tournament.rules import RuleSet
from tournament.standings import Entrant, GameResult, RoundTotal, Standing

OFFICIAL_STATES = ("submitted", "verified")
# Where a seat's total is in load_round_totals' sheet rows (its wins 4 on, its best 8 on).
SEAT_COLUMN = {seat: 4 + index for index, seat in enumerate(SEATS)}
MAIN = "main"
# A Tiebreak row whose note starts with this marks a tie group the director chose to leave
# shared (its player_ids are the group, in no particular order).
SHARED_MARK = "[shared]"


class ResultsError(FieldError):
    """A director's request that cannot be applied; the message says why in plain words."""


# -- reading every result -----------------------------------------------------------------


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
    points = case(
        (Seating.seat == "E", GameEntry.points_e),
        (Seating.seat == "S", GameEntry.points_s),
        (Seating.seat == "W", GameEntry.points_w),
        else_=GameEntry.points_n,
    )
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

    connection = db.session.connection()
    # Two plain reads joined here: the sheets with games (with their sums) and the seats.
    # Cheaper than the database joining every seat to its sheet and picking its columns.
    sheets = {
        (round_id, table_id): sheet
        for round_id, table_id, *sheet in connection.execute(
            select(Scoresheet.round_id, Scoresheet.table_id, Round.number, Scoresheet.state,
                   Scoresheet.games_count, Scoresheet.time_called,
                   *(getattr(Scoresheet, f"{prefix}_{seat.lower()}")
                     for prefix in ("total", "won", "best") for seat in SEATS))
            .join(Round, Round.id == Scoresheet.round_id)
            .where(Round.tournament_id == tournament_id, Scoresheet.games_count > 0))
    }
    entered: list[RoundTotal] = []
    official: list[RoundTotal] = []
    for round_id, table_id, seat, player in connection.execute(
            select(Seating.round_id, Seating.table_id, Seating.seat, Seating.player_id)
            .join(Round, Round.id == Seating.round_id)
            .where(Round.tournament_id == tournament_id)):
        sheet = sheets.get((round_id, table_id))
        if sheet is None:
            continue
        round_no, state, games, timed = sheet[:4]
        at = SEAT_COLUMN[seat]
        total = RoundTotal(player, round_no, sheet[at],
                           0 if void_wins and timed else sheet[at + 4], sheet[at + 8], games)
        entered.append(total)
        if state in final:
            official.append(total)
    open_games = sum(total.games for total in entered) - sum(total.games for total in official)
    players = {
        pid: PlayerInfo(pid, number, name, bool(substitute), withdrawn)
        for pid, number, name, substitute, withdrawn in connection.execute(
            select(Player.id, Player.number, Player.name, Player.is_substitute,
                   Player.withdrawn_from_round)
            .where(Player.tournament_id == tournament_id).order_by(Player.number))
    }
    # open_games counted each seat; a game has four seats.
    return Results(players, official, entered, (open_games + 3) // 4)


# -- competitions, tie-breaks and the board ---------------------------------------------


@dataclass
class Line:
    """One standings line as the pages show it."""

    rank: int
    player: PlayerInfo
    total: int
    games_won: int
    per_round: dict[int, int]
    tied: bool
    played: bool = True  # some game of this player counts here (else the total is no result)


@dataclass
class TieGroup:
    """A tie group reaching into the prize places."""

    rank: int
    lines: list[Line]
    shared_decided: bool = False

    @property
    def player_ids(self) -> list[int]:
        return [line.player.id for line in self.lines]


@dataclass
class CompetitionTable:
    """One competition's standings (official, and provisional with open sheets)."""

    key: str
    name: str
    first_round: int
    last_round: int
    entrants_only: bool
    lines: list[Line]
    provisional: list[Line]
    rounds: list[int]
    provisional_rounds: list[int]
    prize_ties: list[TieGroup] = field(default_factory=list)
    # The director's decisions that still fit: (tiebreak, its players' lines, shared?)
    decisions: list[tuple[Tiebreak, list[Line], bool]] = field(default_factory=list)
    stale: list[Tiebreak] = field(default_factory=list)       # draws that no longer fit

    @property
    def label(self) -> str:
        if self.first_round == self.last_round:
            return f"round {self.first_round}"
        return f"rounds {self.first_round}-{self.last_round}"


@dataclass
class Board:
    tournament: Tournament
    results: Results
    tables: list[CompetitionTable]
    open_games: int

    @property
    def final_word(self) -> str:
        """What makes a sheet count as final here: "submitted", or "verified" where the
        rule set says scores are final after a table guide's verification."""
        return rules_of(self.tournament).scores_final

    def table(self, key: str | None) -> CompetitionTable:
        for table in self.tables:
            if table.key == key:
                return table
        return self.tables[0]

    @property
    def main(self) -> CompetitionTable:
        return self.tables[0]

    def has_results(self, table: CompetitionTable, provisional: bool = False) -> bool:
        """Whether any game counts in `table` yet (submitted sheets; with `provisional`, any
        entered game). Before that every player would show as tied first with X, so the
        pages say "No results yet" instead."""
        games = self.results.entered if provisional else self.results.official
        return any(table.first_round <= game.round_no <= table.last_round for game in games)


def competition_key(competition: Competition) -> str:
    return f"competition:{competition.id}"


def _lines(standings: list[Standing], players: dict[int, PlayerInfo]) -> list[Line]:
    return [Line(s.rank, players[s.player], s.total, s.games_won, dict(s.per_round), s.tied,
                 s.best_game is not None)
            for s in standings]


def counted_only(lines: list[Line]) -> list[Line]:
    """The lines of players with a counted game, ranked among themselves: a player with no
    result yet is not "X", and does not push a real -10 down the ranks. Ranks keep any
    recorded draw (each moves up by the players without a result ranked above it)."""
    played = [line for line in lines if line.played]
    unplayed_ranks = sorted(line.rank for line in lines if not line.played)
    moved = []
    for line in played:
        above = sum(1 for rank in unplayed_ranks if rank < line.rank)
        moved.append(replace(line, rank=line.rank - above))
    counts: dict[int, int] = {}
    for line in moved:
        counts[line.rank] = counts.get(line.rank, 0) + 1
    return [replace(line, tied=counts[line.rank] > 1) for line in moved]


def counted_first(lines: list[Line]) -> list[Line]:
    """The standings as the pages list them: the players with a counted game, ranked among
    themselves, then those with no result yet (shown with "-", never as "X")."""
    return counted_only(lines) + [line for line in lines if not line.played]


def find_player(lines: list[Line], number: int | None) -> Line | None:
    """The line of player `number` ("Find me"), as counted_first ranks it."""
    if number is None:
        return None
    return next((line for line in counted_first(lines) if line.player.number == number), None)


def _apply_tiebreaks(standings: list[Standing], tiebreaks: list[Tiebreak]):
    """Apply every recorded draw that still fits. Returns the standings, the decisions
    that still fit as (tiebreak, player ids, shared) and the draws that no longer fit
    (the scores changed after the draw: the director records it again)."""
    decided: list[tuple[Tiebreak, list[int], bool]] = []
    stale: list[Tiebreak] = []
    for tiebreak in tiebreaks:
        players = list(tiebreak.player_ids or [])
        if tiebreak.note.startswith(SHARED_MARK):
            groups: dict[int, set] = {}
            for line in standings:
                groups.setdefault(line.rank, set()).add(line.player)
            if len(players) > 1 and set(players) in groups.values():
                decided.append((tiebreak, players, True))
            else:
                stale.append(tiebreak)
            continue
        try:
            standings = ranking.break_tie(standings, players)
        except ValueError:
            stale.append(tiebreak)
        else:
            decided.append((tiebreak, players, False))
    return standings, decided, stale


def board(tournament: Tournament, *, with_tiebreaks: bool = True,
          provisional: bool = True) -> Board:
    """Every competition's standings for this tournament: main first, then sessions and
    the mini tournament in round order. Two queries for the results (the per-round totals,
    the players), one for the competitions (with their entrants) and one for the recorded
    tie-breaks.

    The provisional standings (with games not yet submitted) are computed only when asked
    for and when some entered game is not submitted; otherwise they are the official ones.
    This is the function to measure in the benchmark (`board(tournament)`)."""
    results = load_round_totals(tournament.id, rules_of(tournament))
    competitions = db.session.scalars(
        select(Competition).where(Competition.tournament_id == tournament.id)
        .options(selectinload(Competition.entries))
        .order_by(Competition.first_round, Competition.id)
    ).all()
    tiebreaks: dict[str, list[Tiebreak]] = {}
    if with_tiebreaks:
        for tiebreak in db.session.scalars(
            select(Tiebreak).where(Tiebreak.tournament_id == tournament.id)
            .order_by(Tiebreak.recorded_at, Tiebreak.id)
        ):
            tiebreaks.setdefault(tiebreak.competition_key, []).append(tiebreak)

    last_round = max([tournament.rounds, *(r.round_no for r in results.entered)])
    specs = [(MAIN, "Overall", ranking.Competition(MAIN, "Overall", 1, last_round), None)]
    for competition in competitions:
        spec = ranking.Competition(competition_key(competition), competition.name,
                                   competition.first_round, competition.last_round,
                                   competition.entrants_only)
        opted_in = {entry.player_id for entry in competition.entries
                    if entry.player_id in results.players}
        specs.append((spec.key, competition.name, spec, opted_in))

    entrants = results.entrants
    tables = []
    for key, name, spec, opted_in in specs:
        untied = spec.standings_from_totals(results.official, entrants, opted_in=opted_in)
        official, decided, stale = _apply_tiebreaks(untied, tiebreaks.get(key, []))
        lines = _lines(official, results.players)
        if not provisional:
            provisional_lines, provisional_rounds = [], []
        elif results.open_games:
            live = spec.standings_from_totals(results.entered, entrants, opted_in=opted_in)
            provisional_lines = _lines(live, results.players)
            provisional_rounds = list(live[0].per_round) if live else []
        else:
            # The ranking before any draw (a new list: _apply_tiebreaks does not change it).
            provisional_lines = _lines(untied, results.players)
            provisional_rounds = list(official[0].per_round) if official else []
        by_id = {line.player.id: line for line in lines}
        table = CompetitionTable(
            key=key, name=name, first_round=spec.first_round, last_round=spec.last_round,
            entrants_only=spec.entrants_only, lines=lines,
            provisional=provisional_lines,
            rounds=list(official[0].per_round) if official else [],
            provisional_rounds=provisional_rounds,
            decisions=[(t, [by_id[p] for p in players], shared)
                       for t, players, shared in decided], stale=stale,
        )
        shared = [set(players) for _, players, is_shared in decided if is_shared]
        for group in ranking.prize_ties(official, tournament.prize_places):
            ids = {line.player for line in group}
            table.prize_ties.append(TieGroup(group[0].rank,
                                             [by_id[line.player] for line in group],
                                             shared_decided=ids in shared))
        tables.append(table)
    return Board(tournament, results, tables, results.open_games)


class Leaders(list):
    """The leaders' lines (a list), and how many more players share the last line's rank
    without being shown (`more_tied`: the page says "and N more tied")."""

    def __init__(self, lines=(), more_tied: int = 0):
        super().__init__(lines)
        self.more_tied = more_tied


def leaders(tournament: Tournament, count: int = 10) -> Leaders:
    """At most `count` top lines of the main standings from submitted sheets; players tied
    with the last one shown are counted in `more_tied`, not listed (a big screen has room
    for `count` lines). Empty before any sheet is submitted ("No results yet")."""
    board_ = board(tournament, provisional=False)
    if not board_.results.official:
        return Leaders()
    lines = counted_only(board_.main.lines)
    shown = lines[:count]
    cut = shown[-1].rank if shown else None
    return Leaders(shown, sum(1 for line in lines[count:] if line.rank == cut))


def results_version(tournament: Tournament) -> str:
    """A short fingerprint of everything the standings show, from one small query:
    polling pages send it back and get 204 while it has not changed."""
    games = (select(func.count(GameEntry.id), func.max(GameEntry.updated_at))
             .join(Scoresheet, Scoresheet.id == GameEntry.sheet_id)
             .join(Round, Round.id == Scoresheet.round_id)
             .where(Round.tournament_id == tournament.id))
    sheets = (select(func.count(Scoresheet.id), func.coalesce(func.sum(Scoresheet.version), 0),
                     func.max(Scoresheet.updated_at),
                     func.sum(case((Scoresheet.state == "open", 0), else_=1)))
              .join(Round, Round.id == Scoresheet.round_id)
              .where(Round.tournament_id == tournament.id))
    breaks = (select(func.count(Tiebreak.id), func.max(Tiebreak.id))
              .where(Tiebreak.tournament_id == tournament.id))
    players = (select(func.count(Player.id), func.max(Player.id),
                      func.sum(case((Player.is_substitute, 1), else_=0)))
               .where(Player.tournament_id == tournament.id))
    competitions = (select(func.count(Competition.id.distinct()),
                           func.count(CompetitionEntry.id), func.max(Competition.last_round))
                    .select_from(Competition)
                    .outerjoin(CompetitionEntry,
                               CompetitionEntry.competition_id == Competition.id)
                    .where(Competition.tournament_id == tournament.id))
    parts = [tournament.prize_places, tournament.rounds]
    for query in (games, sheets, breaks, players, competitions):
        parts.extend(db.session.execute(query).one())
    return hashlib.sha1(json.dumps(parts, default=str).encode()).hexdigest()[:12]


# -- a player's history ---------------------------------------------------------------------


@dataclass
class HistoryPoint:
    round_no: int
    round_total: int
    running_total: int
    rank: int | None
    tied: bool


@dataclass
class PlayerHistory:
    player: PlayerInfo
    points: list[HistoryPoint]
    substitute: bool

    def chart(self, width: int = 320, height: int = 160, pad: int = 28) -> dict:
        """Coordinates for the running-total SVG: x by round, y by points, 0 line."""
        if not self.points:
            return {}
        values = [0] + [p.running_total for p in self.points]
        low, high = min(values), max(values)
        if high == low:
            high = low + 10
        span_x = width - 2 * pad
        span_y = height - 2 * pad
        count = len(self.points)

        def x(index: int) -> float:
            return round(pad + (span_x * index / count if count else 0), 1)

        def y(value: int) -> float:
            return round(pad + span_y * (high - value) / (high - low), 1)

        dots = [{"x": x(0), "y": y(0), "value": 0, "round_no": 0}]
        dots += [{"x": x(i + 1), "y": y(p.running_total), "value": p.running_total,
                  "round_no": p.round_no} for i, p in enumerate(self.points)]
        return {
            "width": width, "height": height, "pad": pad,
            "zero_y": y(0), "high": high, "low": low, "high_y": y(high), "low_y": y(low),
            "polyline": " ".join(f"{d['x']},{d['y']}" for d in dots), "dots": dots,
        }


def player_history(tournament: Tournament, player) -> PlayerHistory | None:
    """The player's round totals, running total and rank after each round, from submitted
    sheets (one results query; the ranks after each round are computed in memory)."""
    if player is None:
        return None
    results = load_results(tournament.id, rules_of(tournament))
    info = results.players.get(player.id)
    if info is None:
        return None
    # One result per player and round (sums): ranking after each round then reads
    # players x rounds values, not every game again.
    sums: dict[tuple[int, int], int] = {}
    for result in results.official:
        key = (result.player, result.round_no)
        sums[key] = sums.get(key, 0) + result.points
    per_round = [GameResult(player, round_no, 1, total, False)
                 for (player, round_no), total in sums.items()]
    rounds = sorted({round_no for _, round_no in sums})
    entrants = results.entrants
    running = 0
    points = []
    for round_no in rounds:
        round_total = sums.get((info.id, round_no), 0)
        running += round_total
        rank, tied = None, False
        if not info.substitute:
            lines = ranking.standings(per_round, entrants, rounds=range(1, round_no + 1))
            for line in lines:
                if line.player == info.id:
                    rank, tied = line.rank, line.tied
                    break
        points.append(HistoryPoint(round_no, round_total, running, rank, tied))
    return PlayerHistory(info, points, info.substitute)


# -- missing results --------------------------------------------------------------------------


@dataclass
class MissingTable:
    table_id: int
    table_no: int
    state: str            # "none" (no sheet yet), "open", or "submitted" (awaiting a
                          # table guide's verification, when the rules ask for one)
    games_entered: int
    east_name: str
    east_number: int | None


@dataclass
class RoundMissing:
    round_no: int
    started: bool
    ended: bool
    tables: int
    missing: list[MissingTable]

    @property
    def not_submitted(self) -> int:
        return sum(m.state != "submitted" for m in self.missing)

    @property
    def awaiting_verification(self) -> int:
        return sum(m.state == "submitted" for m in self.missing)


def missing_results(tournament: Tournament) -> list[RoundMissing]:
    """Per round that has started (or has any sheet): the tables whose sheet is not yet
    submitted, with East's name so the director can walk to the table. When the rule set
    has a table guide verify every sheet (`table_guide_verifies`, Hidden Tile), submitted
    sheets still awaiting that verification are listed too (state "submitted"); standings
    still count them, as they count every submitted sheet. Three queries."""
    done = ("verified",) if rules_of(tournament).table_guide_verifies else OFFICIAL_STATES
    rounds = db.session.execute(
        select(Round.id, Round.number, Round.started_at, Round.ended_at)
        .where(Round.tournament_id == tournament.id).order_by(Round.number)
    ).all()
    sheets = {
        (round_id, table_id): (state, games)
        for round_id, table_id, state, games in db.session.execute(
            select(Scoresheet.round_id, Scoresheet.table_id, Scoresheet.state,
                   func.count(GameEntry.id))
            .join(Round, Round.id == Scoresheet.round_id)
            .outerjoin(GameEntry, GameEntry.sheet_id == Scoresheet.id)
            .where(Round.tournament_id == tournament.id)
            .group_by(Scoresheet.id, Scoresheet.round_id, Scoresheet.table_id,
                      Scoresheet.state)
        )
    }
    seats: dict[int, dict[int, tuple[int, str | None, int | None]]] = {}
    for round_id, table_id, table_no, seat, name, number in db.session.execute(
        select(Seating.round_id, Table.id, Table.number, Seating.seat, Player.name,
               Player.number)
        .join(Table, Table.id == Seating.table_id)
        .join(Player, Player.id == Seating.player_id)
        .join(Round, Round.id == Seating.round_id)
        .where(Round.tournament_id == tournament.id)
    ):
        tables = seats.setdefault(round_id, {})
        known = tables.get(table_id, (table_no, None, None))
        if seat == "E":
            known = (table_no, name, number)
        tables[table_id] = known
    report = []
    for round_id, number, started_at, ended_at in rounds:
        has_sheet = any(key[0] == round_id for key in sheets)
        if started_at is None and not has_sheet:
            continue
        missing = []
        for table_id, (table_no, east_name, east_number) in sorted(
                seats.get(round_id, {}).items(), key=lambda item: item[1][0]):
            state, games = sheets.get((round_id, table_id), ("none", 0))
            if state in done:
                continue
            missing.append(MissingTable(table_id, table_no, state, games, east_name or "",
                                        east_number))
        report.append(RoundMissing(number, started_at is not None, ended_at is not None,
                                   len(seats.get(round_id, {})), missing))
    return report


@dataclass(frozen=True)
class SheetRuling:
    """A director's change to a sheet after it was submitted."""

    round_no: int
    table_no: int
    by: str
    at: object
    reason: str


def rulings(tournament: Tournament) -> list[SheetRuling]:
    """The sheets a director changed after submission, latest first, where the rule set
    says no changes after submission (each such change is a ruling). One query."""
    if rules_of(tournament).changes_after_submit != "ruling":
        return []
    rows = db.session.execute(
        select(Round.number, Table.number, User.name, Scoresheet.amended_at,
               Scoresheet.amend_reason)
        .join(Round, Round.id == Scoresheet.round_id)
        .join(Table, Table.id == Scoresheet.table_id)
        .outerjoin(User, User.id == Scoresheet.amended_by_id)
        .where(Round.tournament_id == tournament.id, Scoresheet.submitted_at.is_not(None),
               Scoresheet.amended_at >= Scoresheet.submitted_at)
        .order_by(Scoresheet.amended_at.desc())
    )
    return [SheetRuling(round_no, table_no, name or "a director", at, reason or "")
            for round_no, table_no, name, at, reason in rows]


# -- the director's decisions ---------------------------------------------------------------


def set_prize_places(tournament: Tournament, places: int, user: User) -> None:
    """Set how many places win prizes (audited)."""
    if places < 0 or places > 1000:
        raise ResultsError("prize_places", "Enter a number of prize places from 0 to 1000.")
    before = tournament.prize_places
    if before == places:
        return
    tournament.prize_places = places
    record("results.prize_places", tournament_id=tournament.id,
           subject=f"tournament:{tournament.id}", before={"prize_places": before},
           after={"prize_places": places}, actor=user.name, actor_user_id=user.id)
    db.session.commit()


def _group_for(tournament: Tournament, key: str, player_ids: list[int]) -> TieGroup:
    table = next((t for t in board(tournament, with_tiebreaks=False, provisional=False).tables
                  if t.key == key),
                 None)
    if table is None:
        raise ResultsError("competition", "That competition is not in this tournament.")
    groups: dict[int, list[Line]] = {}
    for line in table.lines:
        groups.setdefault(line.rank, []).append(line)
    for rank, lines in groups.items():
        if len(lines) > 1 and {line.player.id for line in lines} == set(player_ids):
            return TieGroup(rank, lines)
    raise ResultsError("order", "These players are no longer tied; reload the page to see "
                                "the current standings.")


TIE_METHODS = {
    "tile_bag": "a tile-bag draw (the first to draw three jokers places higher)",
    "draw": "a draw the director records",
    "shared": "the tied players share the place",
    None: "the director's choice for each tie: a draw, or shared places",
}


def tie_decisions(rules: RuleSet) -> tuple[str, ...]:
    """The decisions the results page offers on a prize tie under these rules: "draw"
    (record an order) and/or "shared"."""
    if rules.tiebreak in ("tile_bag", "draw"):
        return ("draw",)
    if rules.tiebreak == "shared":
        return ("shared",)
    return ("draw", "shared")


def tie_method_refusal(rules: RuleSet) -> str:
    return (f"Under these rules ties for a prize place are settled by "
            f"{TIE_METHODS[rules.tiebreak]}. Change the tie rule on the Rules page before "
            "play to settle them otherwise.")


def decide_tie(tournament: Tournament, key: str, group: list[int], order: list[int] | None,
               user: User, note: str = "") -> Tiebreak:
    """Record the director's decision on one tie group: `order` (player ids, best first:
    the tile-bag draw) or None to leave the group shared; only a decision the rule set's
    tie-break allows (`tie_decisions`). Replaces an earlier decision on the same group; one
    transaction with its audit row."""
    allowed = tie_decisions(rules_of(tournament))
    if ("shared" if order is None else "draw") not in allowed:
        raise ResultsError("decision", tie_method_refusal(rules_of(tournament)))
    tie = _group_for(tournament, key, group)
    ids = set(tie.player_ids)
    if order is not None and (len(order) != len(ids) or set(order) != ids):
        raise ResultsError("order", "Give every tied player a different place, 1 to "
                                    f"{len(ids)}.")
    note = note.strip()[:500]
    if unstorable(note):
        raise ResultsError("note", "The note has a character that cannot be stored; please "
                                   "type it again.")
    while note.startswith(SHARED_MARK):  # the marker is ours, never part of a typed note
        note = note[len(SHARED_MARK):].strip()
    earlier = [t for t in db.session.scalars(
        select(Tiebreak).where(Tiebreak.tournament_id == tournament.id,
                               Tiebreak.competition_key == key))
        if set(t.player_ids or []) == ids]
    before = [{"player_ids": t.player_ids, "note": t.note} for t in earlier]
    for old in earlier:
        db.session.delete(old)
    if order is None:
        tiebreak = Tiebreak(tournament_id=tournament.id, competition_key=key,
                            player_ids=sorted(ids),
                            note=f"{SHARED_MARK} {note}".strip(), recorded_by_id=user.id)
    else:
        tiebreak = Tiebreak(tournament_id=tournament.id, competition_key=key,
                            player_ids=list(order), note=note, recorded_by_id=user.id)
    db.session.add(tiebreak)
    db.session.flush()
    record("results.tiebreak", tournament_id=tournament.id, subject=f"tiebreak:{tiebreak.id}",
           before=before or None,
           after={"competition": key, "player_ids": tiebreak.player_ids,
                  "shared": order is None, "note": tiebreak.note},
           reason=note, actor=user.name, actor_user_id=user.id)
    db.session.commit()
    return tiebreak


def clear_tie(tournament: Tournament, tiebreak_id: int, user: User) -> None:
    """Remove a recorded decision (the group is tied again). Audited."""
    tiebreak = db.session.get(Tiebreak, tiebreak_id)
    if tiebreak is None or tiebreak.tournament_id != tournament.id:
        raise ResultsError("tiebreak", "That tie-break is not in this tournament.")
    record("results.tiebreak_cleared", tournament_id=tournament.id,
           subject=f"tiebreak:{tiebreak.id}",
           before={"competition": tiebreak.competition_key, "player_ids": tiebreak.player_ids,
                   "note": tiebreak.note}, actor=user.name, actor_user_id=user.id)
    db.session.delete(tiebreak)
    db.session.commit()


# -- CSV exports ----------------------------------------------------------------------------


GAME_COLUMNS = ["round", "table", "game", "seat", "player_number", "player_name", "points",
                "sheet_state", "outcome", "winner", "value", "discarder", "exposures",
                "self_picked", "jokerless", "singles_and_pairs", "quint", "heavenly",
                "dead", "in_error", "penalties", "adjustments", "record"]


def _yes(value) -> str:
    return "yes" if value else ""


# A spreadsheet reads a cell starting with one of these as a formula (tab and carriage
# return it strips first). A cell starts at the text's start, and after every comma,
# semicolon or line break (with any spaces or quote marks) for a spreadsheet set for the
# other separator or one that stops honouring quotes after the first: "Ann;=1+1;" in a
# semicolon locale.
CELL_START = re.compile(r'(^|[,;\r\n])([\s"]*)(?=[=+\-@\t\r])')
JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
JSON_CELL_START = re.compile(r'(^"|(?:[,;]|\\[nr])(?:\s|\\[tnr"])*)([=+\-@])')


def _text(value: str) -> str:
    """Words typed by people (names, reasons), safe to open in a spreadsheet: wherever a
    cell could start with a formula sign, an apostrophe goes before it."""
    return CELL_START.sub(r"\1\2'", value)


def _json(data) -> str:
    """A record as JSON, defused the same way without changing what it decodes to: a
    formula sign where a cell could start inside a string is written as a \\u escape."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return JSON_STRING.sub(lambda token: JSON_CELL_START.sub(
        lambda m: m.group(1) + f"\\u{ord(m.group(2)):04x}", token.group(0)), text)


def _csv_writer(out: io.StringIO):
    # Every field quoted: a separator inside a name or a reason stays inside its cell,
    # whether the spreadsheet splits on commas or on semicolons.
    return csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL)


def games_csv(tournament: Tournament) -> str:
    """Every game of every sheet, one line per seat, with the record's outcome details."""
    rows = db.session.execute(
        select(Round.number, Table.number, GameEntry.number, Seating.seat, Player.number,
               Player.name, GameEntry.points_e, GameEntry.points_s, GameEntry.points_w,
               GameEntry.points_n, Scoresheet.state, GameEntry.record)
        .select_from(GameEntry)
        .join(Scoresheet, Scoresheet.id == GameEntry.sheet_id)
        .join(Round, Round.id == Scoresheet.round_id)
        .join(Table, Table.id == Scoresheet.table_id)
        .join(Seating, (Seating.round_id == Scoresheet.round_id)
              & (Seating.table_id == Scoresheet.table_id))
        .join(Player, Player.id == Seating.player_id)
        .where(Round.tournament_id == tournament.id)
        .order_by(Round.number, Table.number, GameEntry.number,
                  case((Seating.seat == "E", 0), (Seating.seat == "S", 1),
                       (Seating.seat == "W", 2), else_=3))
    )
    out = io.StringIO()
    writer = _csv_writer(out)
    writer.writerow(GAME_COLUMNS)
    for (round_no, table_no, game_no, seat, number, name, pe, ps, pw, pn, state,
         game) in rows:
        game = game or {}
        points = {"E": pe, "S": ps, "W": pw, "N": pn}[seat]
        writer.writerow([
            round_no, table_no, game_no, seat, number, _text(name), points, state,
            game.get("outcome", ""), game.get("winner") or "", game.get("value") or "",
            game.get("discarder") or "", "" if game.get("exposures") is None
            else game["exposures"], _yes(game.get("self_picked")), _yes(game.get("jokerless")),
            _yes(game.get("singles_and_pairs")), _yes(game.get("quint")),
            _yes(game.get("heavenly")), " ".join(game.get("dead") or []),
            " ".join(game.get("in_error") or []),
            "; ".join(f"{p.get('seat')} {p.get('kind')}" for p in game.get("penalties") or []),
            _text("; ".join(f"{a.get('seat')} {a.get('points'):+d} {a.get('reason', '')}"
                            .strip() for a in game.get("adjustments") or [])),
            _json(game),
        ])
    return out.getvalue()


def standings_csv(tournament: Tournament, key: str | None = None) -> tuple[str, str]:
    """One competition's standings from submitted sheets, with recorded tie-breaks: the
    key of the competition shown (an unknown key gives the overall standings) and the CSV."""
    table = board(tournament, provisional=False).table(key or MAIN)
    rounds = list(range(table.first_round, table.last_round + 1))
    out = io.StringIO()
    writer = _csv_writer(out)
    writer.writerow(["competition", "rank", "tied", "player_number", "player_name", "total",
                     "games_won", *(f"round_{r}" for r in rounds)])
    for line in table.lines:
        writer.writerow([_text(table.name), line.rank, _yes(line.tied), line.player.number,
                         _text(line.player.name), line.total, line.games_won,
                         *(line.per_round.get(r, "") for r in rounds)])
    return table.key, out.getvalue()
