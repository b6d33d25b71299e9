"""The director's pages, one module per group; importing this module registers them all
on the blueprint."""

from . import (
    card_pages,
    checkin_pages,
    player_pages,
    seating_pages,
    sheet_print,
    staff_pages,
    tournament_pages,
)
from .blueprint import bp

__all__ = ["bp", "card_pages", "checkin_pages", "player_pages", "seating_pages",
           "sheet_print", "staff_pages", "tournament_pages"]
