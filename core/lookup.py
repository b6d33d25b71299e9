"""Lookups every audience needs: a tournament by its public code, and its rule set."""

from __future__ import annotations

from sqlalchemy import select

from models import Tournament, db
from tournament.rules import RuleSet


def plain_code(code: str | None) -> str | None:
    """A tournament code as typed or in a URL, upper-cased; None when it cannot be one
    (codes are letters and digits, at most 16): a NUL byte in it would make PostgreSQL
    refuse the query, a 500 on every public page of a tournament."""
    code = (code or "").strip().upper()
    return code if code.isascii() and code.isalnum() and len(code) <= 16 else None


def tournament_by_code(code: str) -> Tournament | None:
    code = plain_code(code)
    if code is None:
        return None
    return db.session.scalar(select(Tournament).where(Tournament.code == code))


def rules_of(tournament: Tournament) -> RuleSet:
    """The tournament's rule set: the one reading of Tournament.rules."""
    return RuleSet.from_dict(tournament.rules)


def movement_of(tournament: Tournament) -> str:
    """The rules' movement: "east_stays" or "imported"."""
    return rules_of(tournament).movement
