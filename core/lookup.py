"""Lookups every audience needs: a tournament by its public code, its rule set, and the
table a QR link opens."""

from __future__ import annotations

import functools
import json
import secrets
from types import SimpleNamespace

from flask import g, request
from sqlalchemy import Text, bindparam, cast, select
from sqlalchemy.orm import contains_eager

from core import clock
from core.codes import plain_code
from core.rows import read_rows
from models import Round, Table, Tournament, db, utcnow
from tournament.rules import RuleSet

# Built once per process: building a statement and its cache key costs more than running
# it. Parameters are bound at each execution; nothing read from the database is kept.
_TOURNAMENT_BY_CODE = select(Tournament).where(Tournament.code == bindparam("code"))
_TABLE_BY_LINK = (
    select(Table).join(Tournament, Tournament.id == Table.tournament_id)
    .options(contains_eager(Table.tournament))
    .where(Tournament.code == bindparam("code"), Table.number == bindparam("number"))
)
_TABLE_COLUMNS = tuple(column.name for column in Table.__table__.c)
# Every column of the tournament but its imported seating, with its rules as the stored
# text (see ShownTournament).
_TOURNAMENT_COLUMNS = tuple("rules_text" if column.name == "rules" else column.name
                            for column in Tournament.__table__.c
                            if column.name != "imported_seating")
_IMPORTED_SEATING = select(Tournament.imported_seating).where(Tournament.id == bindparam("id"))
_CLOCK_NAMES = tuple(column.key for column in clock.CLOCK_COLUMNS)
# The table, its tournament and the tournament's clock (its current round), in one query.
_TABLE_ROW_BY_LINK = (
    select(*Table.__table__.c,
           *(cast(Tournament.rules, Text) if name == "rules_text" else Tournament.__table__.c[name]
             for name in _TOURNAMENT_COLUMNS),
           *clock.CLOCK_COLUMNS)
    .join(Tournament, Tournament.id == Table.tournament_id)
    .outerjoin(Round, Round.tournament_id == Tournament.id)
    .where(Tournament.code == bindparam("code"), Table.number == bindparam("number"))
    .order_by(*clock.CURRENT_ORDER).limit(1)
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
    """The rules' movement: "east_stays" or "imported"."""
    return rules_of(tournament).movement


class BadLink(Exception):
    """A table link whose code, number or token does not match (or was rotated)."""


def table_from_link(code: str, number: int, token: str | None) -> Table:
    """The table this QR link opens (its tournament loaded in the same query), or BadLink
    (wrong code, number or token)."""
    code = plain_code(code)
    if code is None:
        raise BadLink()
    table = db.session.scalar(_TABLE_BY_LINK, {"code": code, "number": number})
    _check_token(table, token)
    return table


def shown_table_from_link(code: str, number: int, token: str | None) -> SimpleNamespace:
    """table_from_link for a request that only shows the table: its columns and its
    tournament's (`.tournament`) as plain attributes, read as one row. Loading the two
    entities costs about three times the row, on every table page and changed poll; a
    write takes the entities from table_from_link. The same row carries the tournament's
    clock, which every such page shows: core.clock.clock_view then reads nothing."""
    code = plain_code(code)
    if code is None:
        raise BadLink()
    row = read_rows(_TABLE_ROW_BY_LINK, {"code": code, "number": number}).first()
    if row is None:
        raise BadLink()
    # the table's columns, then its tournament's, then its clock's, in the order selected
    at = len(_TABLE_COLUMNS)
    table = SimpleNamespace(**dict(zip(_TABLE_COLUMNS, row[:at], strict=True)))
    table.tournament = ShownTournament(
        **dict(zip(_TOURNAMENT_COLUMNS, row[at:at + len(_TOURNAMENT_COLUMNS)], strict=True)))
    _check_token(table, token)
    clock.remember(table.tournament_id, SimpleNamespace(**dict(zip(
        _CLOCK_NAMES, row[at + len(_TOURNAMENT_COLUMNS):], strict=True))), utcnow())
    return table


class ShownTournament(SimpleNamespace):
    """A tournament's columns as plain attributes. Its imported seating (about 94 KB of
    JSON, read only to say where a seat goes next) is read the first time it is asked
    for, as the entity's deferred column is. Its rules come as the stored text
    (`rules_text`, which rules_of reads as it is) and are parsed only if asked for."""

    def __getattr__(self, name: str):
        if name == "imported_seating":
            self.imported_seating = read_rows(_IMPORTED_SEATING, {"id": self.id}).scalar()
            return self.imported_seating
        if name == "rules":
            self.rules = json.loads(self.rules_text)
            return self.rules
        raise AttributeError(name)


def _check_token(table, token: str | None) -> None:
    # Compared as bytes: compare_digest refuses str with non-ASCII characters (a TypeError,
    # so a 500), and anyone holding a link can put any character in ?k=.
    if table is None or not token or not secrets.compare_digest(
            table.token.encode(), str(token).encode("utf-8", "surrogatepass")):
        raise BadLink()


def table_link(view):
    """The one loader of a page a table's QR link opens (`code`, `number` in the URL, the
    token in ?k=): the table and its tournament on flask.g, or BadLink for the blueprint's
    own answer to a wrong link. A GET only shows them (shown_table_from_link); a write
    gets the entities."""

    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        load = shown_table_from_link if request.method == "GET" else table_from_link
        g.table = load(kwargs["code"], kwargs["number"], request.args.get("k"))
        g.tournament = g.table.tournament
        return view(*args, **kwargs)

    return wrapper
