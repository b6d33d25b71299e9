"""Standings as rows: every competition (the main standings, each session, the mini
tournament) ranked by tournament.standings from the round totals, with the director's
recorded draws applied; the leaders for the big screen; the fingerprint polling pages
send back. `board(tournament)` is the function to measure in the benchmark."""

from __future__ import annotations

import hashlib
import json
from bisect import bisect_left
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from operator import attrgetter

from markupsafe import Markup, escape
from sqlalchemy import case, func, select
from sqlalchemy.orm import selectinload

from blueprints.common import points_text
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
from tournament import standings as ranking
from tournament.standings import Standing

from .totals import PlayerInfo, Results, load_round_totals

MAIN = "main"
# A Tiebreak row whose note starts with this marks a tie group the director chose to leave
# shared (its player_ids are the group, in no particular order).
SHARED_MARK = "[shared]"
_ROUND_NO = attrgetter("round_no")
_NO_RESULT_CELL = '<td class="num col-detail">-</td>'


@dataclass
class Line:
    """One standings line as the pages show it."""

    rank: int
    player: PlayerInfo
    total: int
    games_won: int
    per_round: Mapping[int, int]  # read-only: the Standing's own
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
    return [Line(s.rank, players[s.player], s.total, s.games_won, s.per_round, s.tied,
                 s.best_game is not None)
            for s in standings]


def counted_only(lines: list[Line]) -> list[Line]:
    """The lines of players with a counted game, ranked among themselves: a player with no
    result yet is not "X", and does not push a real -10 down the ranks. Ranks keep any
    recorded draw (each moves up by the players without a result ranked above it)."""
    played = [line for line in lines if line.played]
    unplayed_ranks = sorted(line.rank for line in lines if not line.played)
    # bisect_left: how many players without a result are ranked above (a smaller rank).
    ranks = [line.rank - bisect_left(unplayed_ranks, line.rank) for line in played]
    counts = Counter(ranks)
    # A line is copied only where its rank or tie changes (most lines, once every player
    # has a result, keep both: hundreds of copies saved on every page).
    return [line if line.rank == rank and line.tied == (counts[rank] > 1)
            else replace(line, rank=rank, tied=counts[rank] > 1)
            for line, rank in zip(played, ranks, strict=True)]


def counted_first(lines: list[Line]) -> list[Line]:
    """The standings as the pages list them: the players with a counted game, ranked among
    themselves, then those with no result yet (shown with "-", never as "X")."""
    return counted_only(lines) + [line for line in lines if not line.played]


def round_cells(line: Line, rounds: list[int]) -> Markup:
    """A standings row's cells for its rounds, as the standings table shows them: the
    round's points (zero is "X"), or "-" for a player with no result yet. Made here, not
    in the template: a 600-player, 12-round table has 7,200 of them, and a template call
    per cell is most of the page's time."""
    if not line.played:
        return Markup(_NO_RESULT_CELL * len(rounds))
    # The cells hold only integers and "X": nothing to escape.
    get = line.per_round.get
    return Markup("".join([f'<td class="num col-detail">{points_text(get(r, 0))}</td>'
                           for r in rounds]))


_NO_RESULT = '<abbr title="no result yet">-</abbr>'


def standings_rows(lines: list[Line], rounds: list[int], prize_places: int = 0,
                   id_prefix: str = "s", me: int | None = None,
                   page: StandingsPage | None = None) -> Markup:
    """The standings table's rows, counted_first (only `page`'s, when given): each
    player's rank (with "=" when tied), number, name, total, games won and round_cells;
    prize places and "me" marked. Made here, not in a template loop: the director's and
    the printed standings list every player, and the loop was half of the page's cost."""
    prefix = escape(id_prefix)
    rows = []
    ordered = counted_first(lines)
    for line in ordered[page.first:page.stop] if page else ordered:
        number = line.player.number
        mine = me == number
        prize = bool(line.played and prize_places and line.rank <= prize_places)
        css = "prize me" if prize and mine else "prize" if prize else "me" if mine else ""
        if line.played:
            rank = f'{line.rank}<abbr title="tied">=</abbr>' if line.tied else line.rank
            total, won = points_text(line.total), line.games_won
        else:
            rank, total, won = _NO_RESULT, _NO_RESULT, "-"
        current = ' aria-current="true"' if mine else ""
        rows.append(
            f'\n    <tr id="{prefix}-player-{number}" class="{css}"{current}>'
            f'<td class="num">{rank}</td><td class="num">{number}</td>'
            f'<th scope="row">{escape(line.player.name)}</th>'
            f'<td class="num total">{total}</td><td class="num col-detail">{won}</td>'
            f'{round_cells(line, rounds)}</tr>')
    return Markup("".join(rows))


# The public standings show this many lines at a time. An event of up to 200 players sees
# them all on one page; at a 1,000-table event the whole list was 1 MB of HTML, sent again
# to every onlooker's phone at each change of a result.
PAGE_LINES = 200


@dataclass(frozen=True)
class StandingsPage:
    """Which lines of the standings (counted_first order) one public page shows, and the
    line of the player "Find me" asked for."""

    number: int   # from 1
    count: int    # pages in all
    first: int    # the first line shown, from 0
    stop: int     # one past the last line shown
    total: int    # lines in all
    mine: Line | None = None  # player `me`'s line, as counted_first ranks it

    def lines_of(self, number: int) -> tuple[int, int]:
        """Page `number`'s first and last line, counted from 1 (for its link)."""
        first, stop = _span(number, self.total)
        return first + 1, stop


def _span(number: int, total: int) -> tuple[int, int]:
    """Page `number`'s lines of `total`: its first (from 0) and one past its last."""
    first = (number - 1) * PAGE_LINES
    return first, min(first + PAGE_LINES, total)


def standings_page(lines: list[Line], asked: int | None, me: int | None) -> StandingsPage:
    """The page asked for (a number past the last asks for the last); with none asked,
    the page holding player `me` ("Find me"), else the first."""
    total = len(lines)
    count = max(1, -(-total // PAGE_LINES))
    mine = None
    if me is not None:
        at, mine = next(((index, line) for index, line in enumerate(counted_first(lines))
                         if line.player.number == me), (0, None))
        if asked is None:
            asked = at // PAGE_LINES + 1
    number = min(max(asked or 1, 1), count)
    return StandingsPage(number, count, *_span(number, total), total, mine)


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
          provisional: bool = True, main_only: bool = False) -> Board:
    """Every competition's standings for this tournament: main first, then sessions and
    the mini tournament in round order. Two queries for the results (the per-round totals,
    the players), one for the competitions (with their entrants) and one for the recorded
    tie-breaks.

    The provisional standings (with games not yet submitted) are computed only when asked
    for and when some entered game is not submitted; otherwise they are the official ones.
    `main_only`: the overall standings alone (the big screen's leaders), without reading
    or ranking the other competitions.
    This is the function to measure in the benchmark (`board(tournament)`)."""
    results = load_round_totals(tournament.id, rules_of(tournament))
    competitions = [] if main_only else db.session.scalars(
        select(Competition).where(Competition.tournament_id == tournament.id)
        .options(selectinload(Competition.entries))
        .order_by(Competition.first_round, Competition.id)
    ).all()
    tiebreaks: dict[str, list[Tiebreak]] = {}
    if with_tiebreaks:
        recorded = select(Tiebreak).where(Tiebreak.tournament_id == tournament.id)
        if main_only:
            recorded = recorded.where(Tiebreak.competition_key == MAIN)
        for tiebreak in db.session.scalars(
            recorded.order_by(Tiebreak.recorded_at, Tiebreak.id)
        ):
            tiebreaks.setdefault(tiebreak.competition_key, []).append(tiebreak)

    last_round = max(tournament.rounds, max(map(_ROUND_NO, results.entered), default=0))
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
            # The ranking before any draw (a new list: _apply_tiebreaks does not change it);
            # where no draw applies it is the official one, lines and all.
            provisional_lines = list(lines) if official is untied else \
                _lines(untied, results.players)
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
        # Among the players with a counted game, at the places the pages show: those with
        # no result yet all stand at 0, and mid-event they made one "tie" of dozens that
        # reached into the prize places. A draw is recorded for a group of the whole
        # ranking (tiebreaks._group_for, ranking.break_tie), so a group that shares its
        # total with players who have no result yet is left out: no draw could be
        # recorded for it until they have one.
        tied_with = Counter(line.rank for line in lines)
        for group in ranking.prize_ties(counted_only(lines), tournament.prize_places):
            ids = {line.player.id for line in group}
            if tied_with[by_id[group[0].player.id].rank] != len(group):
                continue
            table.prize_ties.append(TieGroup(group[0].rank, group,
                                             shared_decided=ids in shared))
        tables.append(table)
    return Board(tournament, results, tables, results.open_games)


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
    board_ = board(tournament, provisional=False, main_only=True)
    if not board_.results.official:
        return Leaders()
    lines = counted_only(board_.main.lines)
    shown = lines[:count]
    cut = shown[-1].rank if shown else None
    return Leaders(shown, sum(1 for line in lines[count:] if line.rank == cut))


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
