"""Lookups every audience needs: a tournament by its public code, its rule set, and the
table a QR link opens (for a write; core.table_pages reads it for a page)."""

from __future__ import annotations

import functools
import json
import secrets

from sqlalchemy import bindparam, select
from sqlalchemy.orm import contains_eager

from core.codes import plain_code
from models import Table, Tournament, db
from tournament.movement import Movement, describe, move_words
from tournament.rules import RuleSet

# Built once per process: building a statement and its cache key costs more than running
# it. Parameters are bound at each execution; nothing read from the database is kept.
_TOURNAMENT_BY_CODE = select(Tournament).where(Tournament.code == bindparam("code"))
_TABLE_BY_LINK = (
    select(Table).join(Tournament, Tournament.id == Table.tournament_id)
    .options(contains_eager(Table.tournament))
    .where(Tournament.code == bindparam("code"), Table.number == bindparam("number"))
)


def tournament_by_code(code: str) -> Tournament | None:
    code = plain_code(code)
    if code is None:
        return None
    return db.session.scalar(_TOURNAMENT_BY_CODE, {"code": code})


def rules_of(tournament: Tournament) -> RuleSet:
    """The tournament's rule set: the one reading of Tournament.rules (keyed on its stored
    text where the tournament was read as a plain row: no parsing and writing it again)."""
    stored = getattr(tournament, "rules_text", None)
    return _rule_set(stored if stored is not None
                     else json.dumps(tournament.rules, sort_keys=True))


@functools.lru_cache(maxsize=64)
def _rule_set(stored: str) -> RuleSet:
    """A request reads the rules several times, each a check of every field: a RuleSet is
    frozen, so one per distinct stored text serves every request (keyed on the text, an
    edit of the rules is a new key)."""
    return RuleSet.from_dict(json.loads(stored))


def movement_of(tournament: Tournament) -> str:
    """The rules' movement: "east_stays" (the tournament's own movement, movement_plan) or
    "imported"."""
    return rules_of(tournament).movement


def movement_plan(tournament: Tournament, rules: RuleSet | None = None) -> Movement:
    """How players move after each round: the imported seating when the rules say so,
    else the stored movement (each seat's move or a fresh draw). No stored movement, or
    one a damaged backup or a hand edit left unreadable, is the usual East-stays one, as
    every tournament had before a movement could be chosen."""
    if (rules or rules_of(tournament)).movement == "imported":
        return Movement.named("imported")
    try:
        return Movement.from_dict(tournament.movement) if tournament.movement else Movement()
    except ValueError:
        return Movement()


def seat_move(tournament: Tournament, seat: str) -> str:
    """One seat's move after a round in words ("West moves up 2 tables"), as the table
    page, the player's "where next" and the table cards say it."""
    movement = movement_plan(tournament)
    if movement.kind == "draw":
        return "a fresh draw every round"
    if movement.kind == "imported":
        return "the organiser's own seating"
    return move_words(seat, movement.moves[seat])


def movement_words(tournament: Tournament, rules: RuleSet | None = None,
                   short: bool = False) -> str:
    """Every seat's move in words ("East stays; South moves down 1 table; ..."; short:
    "East stays, South down 1, ..."), or "the organiser's own seating"."""
    movement = movement_plan(tournament, rules)
    if movement.kind == "imported":
        return "the organiser's own seating"
    return describe(movement, short)


class BadLink(Exception):
    """A table link whose code, number or token does not match (or was rotated)."""


def table_from_link(code: str, number: int, token: str | None) -> Table:
    """The table this QR link opens (its tournament loaded in the same query), or BadLink
    (wrong code, number or token)."""
    code = plain_code(code)
    if code is None:
        raise BadLink()
    table = db.session.scalar(_TABLE_BY_LINK, {"code": code, "number": number})
    check_token(table, token)
    return table


def check_token(table, token: str | None) -> None:
    """BadLink unless `token` is the table's (None: no such table)."""
    # Compared as bytes: compare_digest refuses str with non-ASCII characters (a TypeError,
    # so a 500), and anyone holding a link can put any character in ?k=.
    if table is None or not token or not secrets.compare_digest(
            table.token.encode(), str(token).encode("utf-8", "surrogatepass")):
        raise BadLink()
