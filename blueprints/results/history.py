"""A player's history: round totals, running total and rank after each round."""

from __future__ import annotations

from dataclasses import dataclass

from core.lookup import rules_of
from models import (
    Tournament,
)
from tournament import standings as ranking
from tournament.standings import GameResult

from .totals import PlayerInfo, load_results


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
