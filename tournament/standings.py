"""Standings: from every player's per-game points to totals, ranks and ties.

A competition is a range of rounds, optionally limited to the entrants who opted in: the
whole tournament, a session (tnt: "sessions, each consisting of several rounds"), or
Destination's paid mini tournament over rounds 10-12, whose games count in the main
standings too ("Your score counts once for rounds 10-12 and then again separately for a
mini tournament score"). Each is one call to `standings`.

Ranking is competition ranking on total points: players with the same total share a rank
and the next rank skips (1, 2, 2, 4). Substitutes (house players who fill an empty seat)
score at the table but are never ranked. A recorded tie-break (Hidden Tile's tile-bag
draw for prize places) orders one tie group and touches nothing else.

Knows nothing of the database or of scoring: the caller passes the points score_game
produced, as GameResult values, and decides how many places win prizes and who drew what
from the tile bag.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from types import MappingProxyType
from typing import NamedTuple, NoReturn


@dataclass(frozen=True)
class GameResult:
    """One player's points for one game of one round."""

    player: Hashable
    round_no: int
    game_no: int
    points: int
    won: bool


class RoundTotal(NamedTuple):
    """One player's games of one round, summed: what `standings` needs of them. The
    database adds them up (one row per player and round instead of one per game). A
    named tuple: thousands are made per standings, and a tuple is made fastest."""

    player: Hashable
    round_no: int
    points: int
    games_won: int
    best_game: int
    games: int


class Entrant(NamedTuple):
    """A player in the tournament; a substitute plays but is never ranked. A named tuple,
    as Standing is: a 4,000-player event makes one per player on every standings page."""

    player: Hashable
    substitute: bool = False


class Standing(NamedTuple):
    """One ranked player's line in a competition's standings.

    per_round maps round number -> that round's total, for every round of the competition
    that has any result (0 where this player has none), in round order; read-only.
    tied is True when another player shares this rank.

    A named tuple (read-only, as a frozen dataclass, and made five times faster): every
    standings page ranks every player, 4,000 at a 1,000-table event.
    """

    rank: int
    player: Hashable
    total: int
    games_won: int
    best_game: int | None
    per_round: Mapping[int, int]
    tied: bool


@dataclass(frozen=True)
class Competition:
    """What a standings table covers: rounds first_round..last_round, both included.

    entrants_only: only the entrants who opted in are ranked (the mini tournament).
    """

    key: str
    name: str
    first_round: int
    last_round: int
    entrants_only: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.first_round <= self.last_round:
            raise ValueError(
                f"{self.name}: rounds must run from 1 or later, first to last, "
                f"not {self.first_round} to {self.last_round}"
            )

    @property
    def rounds(self) -> range:
        return range(self.first_round, self.last_round + 1)

    def standings(
        self,
        results: Iterable[GameResult],
        entrants: Sequence[Entrant],
        opted_in: set[Hashable] | None = None,
        tiebreak: Sequence[Hashable] | None = None,
    ) -> list[Standing]:
        """This competition's standings; `opted_in` is required when entrants_only."""
        if self.entrants_only and opted_in is None:
            raise ValueError(f"{self.name} needs the list of entrants who opted in")
        return standings(
            results,
            entrants,
            rounds=self.rounds,
            only=opted_in if self.entrants_only else None,
            tiebreak=tiebreak,
        )

    def standings_from_totals(
        self,
        totals: Iterable[RoundTotal],
        entrants: Sequence[Entrant],
        opted_in: set[Hashable] | None = None,
    ) -> list[Standing]:
        """The same standings as `standings`, from per-round totals."""
        if self.entrants_only and opted_in is None:
            raise ValueError(f"{self.name} needs the list of entrants who opted in")
        return standings_from_totals(
            totals, entrants, rounds=self.rounds,
            only=opted_in if self.entrants_only else None)


class _Tally:
    """Running totals for one player while reading the results once."""

    __slots__ = ("total", "games_won", "best_game", "per_round")

    def __init__(self) -> None:
        self.total = 0
        self.games_won = 0
        self.best_game: int | None = None
        self.per_round: dict[int, int] = {}


def standings(
    results: Iterable[GameResult],
    entrants: Sequence[Entrant],
    rounds: range | None = None,
    only: set[Hashable] | None = None,
    tiebreak: Sequence[Hashable] | None = None,
) -> list[Standing]:
    """Rank the entrants on their points in `rounds` (None: every round).

    Every non-substitute entrant is ranked, those without a game at total 0 after every
    player with a game; `only`
    limits the ranking to those players (each must be an entrant). Order: rank, then the
    order of `entrants` among players who share a rank. `tiebreak` is the recorded order
    of exactly one tie group (see break_tie).

    Raises ValueError for a result whose player is not an entrant, the same player's game
    given twice, an entrant listed twice, or an `only` player who is not an entrant.

    >>> results = [GameResult("ann", 1, 1, 25, True), GameResult("bea", 1, 1, -10, False)]
    >>> [(s.rank, s.player, s.total) for s in standings(results, [Entrant("bea"),
    ...     Entrant("ann"), Entrant("cy"), Entrant("sub", substitute=True)])]
    [(1, 'ann', 25), (2, 'bea', -10), (3, 'cy', 0)]
    """
    tallies, substitutes = _tallies(entrants, only)
    rounds_played: set[int] = set()
    games_seen: set[tuple[Hashable, int, int]] = set()
    for result in results:
        game = (result.player, result.round_no, result.game_no)
        if game in games_seen:
            raise ValueError(
                f"{result.player!r} has two results for round {result.round_no}, "
                f"game {result.game_no}"
            )
        games_seen.add(game)
        if rounds is not None and result.round_no not in rounds:
            continue
        tally = tallies.get(result.player)
        if tally is None:
            if result.player in substitutes:
                continue
            raise ValueError(f"result for {result.player!r}, who is not an entrant")
        rounds_played.add(result.round_no)
        tally.total += result.points
        tally.games_won += bool(result.won)
        if tally.best_game is None or result.points > tally.best_game:
            tally.best_game = result.points
        tally.per_round[result.round_no] = tally.per_round.get(result.round_no, 0) + result.points

    return _ranked(tallies, rounds_played, only, tiebreak)


def _tallies(entrants: Sequence[Entrant],
             only: set[Hashable] | None) -> tuple[dict[Hashable, _Tally], set[Hashable]]:
    """An empty tally per ranked entrant, and the substitutes."""
    tallies: dict[Hashable, _Tally] = {}
    substitutes: set[Hashable] = set()
    for entrant in entrants:
        if entrant.player in tallies or entrant.player in substitutes:
            raise ValueError(f"entrant {entrant.player!r} is listed twice")
        if entrant.substitute:
            substitutes.add(entrant.player)
        else:
            tallies[entrant.player] = _Tally()
    if only is not None:
        strangers = [player for player in only if player not in tallies and
                     player not in substitutes]
        if strangers:
            raise ValueError(f"not entrants: {', '.join(sorted(map(repr, strangers)))}")
    return tallies, substitutes


def standings_from_totals(
    totals: Iterable[RoundTotal],
    entrants: Sequence[Entrant],
    rounds: range | None = None,
    only: set[Hashable] | None = None,
    tiebreak: Sequence[Hashable] | None = None,
) -> list[Standing]:
    """`standings`, from each player's per-round totals instead of every game: the same
    lines for the same games (a round's total, wins and best game are what its games add
    up to). Raises ValueError as `standings` does, a player's round given twice included.

    >>> totals = [RoundTotal("ann", 1, 25, 1, 25, 1), RoundTotal("bea", 1, -10, 0, -10, 1)]
    >>> [(s.rank, s.player, s.total) for s in standings_from_totals(totals, [Entrant("bea"),
    ...     Entrant("ann"), Entrant("cy"), Entrant("sub", substitute=True)])]
    [(1, 'ann', 25), (2, 'bea', -10), (3, 'cy', 0)]
    """
    tallies, substitutes = _tallies(entrants, only)
    totals = totals if isinstance(totals, list) else list(totals)
    get = tallies.get
    counted = 0
    skipped: list[RoundTotal] = []          # no game, another round, or a substitute's
    stranger = False
    for total in totals:
        player, round_no, points, games_won, best_game, games = total
        if not games or (rounds is not None and round_no not in rounds):
            skipped.append(total)
            continue
        tally = get(player)
        if tally is None:
            if player not in substitutes:
                stranger = True
                break
            skipped.append(total)           # a substitute: plays, never ranked
            continue
        counted += 1
        tally.total += points
        tally.games_won += games_won
        if tally.best_game is None or best_game > tally.best_game:
            tally.best_game = best_game
        tally.per_round[round_no] = points
    # The faults, found in bulk after one plain pass: a player's round given twice shows
    # as fewer rounds tallied than totals counted, a repeat among the totals skipped, or a
    # skipped total for a round tallied. The rare faulty input is walked again in order,
    # so the error is the one a total-by-total check raises first.
    if stranger or counted != sum(len(tally.per_round) for tally in tallies.values()) or \
            len(set(map(_player_and_round, skipped))) != len(skipped) or \
            any(total[0] in tallies and total[1] in tallies[total[0]].per_round
                for total in skipped):
        _raise_first_fault(totals, tallies, substitutes, rounds)
    rounds_played: set[int] = set()
    for tally in tallies.values():
        rounds_played.update(tally.per_round)
    return _ranked(tallies, rounds_played, only, tiebreak)


_player_and_round = itemgetter(0, 1)


def _raise_first_fault(totals: list[RoundTotal], tallies: Mapping[Hashable, _Tally],
                       substitutes: set[Hashable], rounds: range | None) -> NoReturn:
    """Raise the ValueError for the first total, in order, that is a player's round given
    a second time or the result of someone who is not an entrant (standings_from_totals
    found one of them)."""
    seen: set[tuple[Hashable, int]] = set()
    for total in totals:
        key = (total[0], total[1])
        if key in seen:
            raise ValueError(f"{total[0]!r} has two totals for round {total[1]}")
        seen.add(key)
        if not total[5] or (rounds is not None and total[1] not in rounds):
            continue
        if total[0] not in tallies and total[0] not in substitutes:
            raise ValueError(f"result for {total[0]!r}, who is not an entrant")
    raise AssertionError("standings_from_totals saw a fault that is not there")


def _ranked(tallies: dict[Hashable, _Tally], rounds_played: set[int],
            only: set[Hashable] | None, tiebreak: Sequence[Hashable] | None) -> list[Standing]:
    """The lines, ranked, from the players' tallies."""
    ranked = list(tallies.items()) if only is None else \
        [(player, tally) for player, tally in tallies.items() if player in only]
    # Players with a game first, then highest total; reverse keeps a stable sort stable:
    # entrant order in ties. A player without a game (a no-show, a late arrival before
    # her first round) is never ranked above one with a game, whatever its total.
    ranked.sort(key=_order_of, reverse=True)
    in_order = sorted(rounds_played)
    # Competition ranking: a player's rank is that of the first player with their total
    # (among players with a game, or among those without).
    ranks: list[int] = []
    previous = None
    for position, item in enumerate(ranked, start=1):
        if _order_of(item) != previous:
            rank, previous = position, _order_of(item)
        ranks.append(rank)
    shared = Counter(ranks)
    # A player without a game in these rounds scores 0 in each: they share one read-only
    # mapping (early in a large event, most of the field).
    no_games = MappingProxyType(dict.fromkeys(in_order, 0))
    lines = [
        Standing(rank, player, tally.total, tally.games_won, tally.best_game,
                 MappingProxyType({round_no: tally.per_round.get(round_no, 0)
                                   for round_no in in_order}) if tally.per_round else no_games,
                 shared[rank] > 1)
        for rank, (player, tally) in zip(ranks, ranked, strict=True)
    ]
    if tiebreak is not None:
        lines = break_tie(lines, tiebreak)
    return lines


def _order_of(item: tuple[Hashable, _Tally]) -> tuple[bool, int]:
    return bool(item[1].per_round), item[1].total


def break_tie(lines: Sequence[Standing], order: Sequence[Hashable]) -> list[Standing]:
    """Apply a recorded tie-break (Hidden Tile's tile-bag draw) to one tie group.

    `order` lists every player of one tie group, best first; they take consecutive ranks
    from the group's shared rank in that order and are no longer tied. Every other line is
    unchanged, so several groups are broken by calling this once per group.

    Raises ValueError if `order` is not exactly the players of one tie group.
    """
    order = list(order)
    if len(set(order)) != len(order):
        raise ValueError("the tie-break lists a player twice")
    by_player = {line.player: line for line in lines}
    missing = [player for player in order if player not in by_player]
    if missing:
        raise ValueError(f"not in these standings: {', '.join(map(repr, missing))}")
    group_rank = by_player[order[0]].rank if order else None
    group = [line for line in lines if line.rank == group_rank]
    if len(group) < 2 or {line.player for line in group} != set(order):
        raise ValueError("the tie-break must list exactly the players of one tie group")
    broken = {
        player: by_player[player]._replace(rank=group[0].rank + position, tied=False)
        for position, player in enumerate(order)
    }
    before = [line for line in lines if line.rank < group[0].rank]
    after = [line for line in lines if line.rank > group[0].rank]
    return [*before, *(broken[player] for player in order), *after]


def prize_ties(lines: Sequence[Standing], places: int) -> list[list[Standing]]:
    """The tie groups that reach into prize places 1..places, in rank order.

    A group counts when its shared rank is `places` or better, even if it runs past the
    last prize place (three players tied for 3rd with 3 prizes still need a tile-bag draw).
    """
    groups: dict[int, list[Standing]] = {}
    for line in lines:
        if line.rank <= places:
            groups.setdefault(line.rank, []).append(line)
    return [group for _, group in sorted(groups.items()) if len(group) > 1]
