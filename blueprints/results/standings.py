"""Standings as rows: every competition (the main standings, each session, the mini
tournament) ranked by tournament.standings from the round totals, with the director's
recorded draws applied, and the leaders for the big screen. `board(tournament)` is the
function to measure in the benchmark. How the lines become a table's rows and pages is in
standings_rows; what the public standings keep and compare to answer a poll, in
standings_versions."""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from operator import attrgetter

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from core.lookup import rules_of
from models import Competition, Tiebreak, Tournament, db
from tournament import standings as ranking
from tournament.standings import Standing

from .totals import PlayerInfo, Results, load_round_totals

MAIN = "main"
# A Tiebreak row whose note starts with this marks a tie group the director chose to leave
# shared (its player_ids are the group, in no particular order).
SHARED_MARK = "[shared]"
_ROUND_NO = attrgetter("round_no")


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
