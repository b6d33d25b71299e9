"""Words several audiences show the same way: how a game ended, a director's ruling, the
seating movement, which director calls are still open."""

from __future__ import annotations

OUTCOME_LABELS = {
    "mahjong": "Mah Jongg",
    "wall": "Wall game",
    "time": "Time called",
    "misnamed_tile": "Misnamed discard",
    "error_all_exposed": "Mah Jongg in error, all hands exposed",
    "error_one_intact": "Mah Jongg in error, one hand intact",
    "ended": "Round ended by the director",
}

MOVEMENT_WORDS = {"east_stays": "East stays, North up 1, West up 2, South down 1",
                  "imported": "the organiser's own seating"}

# A call the staff still has to answer (the others are resolved, dismissed or cancelled).
OPEN_STATES = ("open", "claimed")


def ruling_label(points: int, reason: str) -> str:
    """A director's adjustment in the table's words: "-10 director's ruling: tile count"."""
    return f"{points:+d} director's ruling: {reason}"
