"""What every page a table's QR link opens reads first, in one query: the table and its
tournament, the tournament's clock, the table's round (the one asked for, or the current
one) with its sheet's version, and the table's latest call.

A GET only shows them, so it reads them as plain rows (loading the table and tournament
entities alone cost three times the row) and the readers later in the request answer
from this one read: core.clock.clock_view, core.sheets.poll_state, core.calls.table_call.
They would otherwise each run their own query. A write loads the entities
(core.lookup.table_from_link) and reads the rest as it needs them."""

from __future__ import annotations

import functools
import json
from types import SimpleNamespace
from typing import NamedTuple

from flask import g, request
from sqlalchemy import Text, bindparam, cast, select
from sqlalchemy.orm import aliased

from core import calls, clock, sheets
from core.codes import plain_code
from core.lookup import BadLink, check_token, table_from_link
from core.numbers import small_int
from core.rows import PrecompiledRead, only_shows, read_rows
from models import DirectorCall, Round, Scoresheet, Table, Tournament, utcnow

_TABLE_NAMES = tuple(column.name for column in Table.__table__.c)
# Every column of the tournament but its imported seating, and its rules as the stored
# text (see ShownTournament).
_TOURNAMENT_NAMES = tuple("rules_text" if column.name == "rules" else column.name
                          for column in Tournament.__table__.c
                          if column.name != "imported_seating")
_CLOCK_NAMES = tuple(column.key for column in clock.CLOCK_COLUMNS)
_ROUND_NAMES = tuple(column.name for column in Round.__table__.c)
_IMPORTED_SEATING = select(Tournament.imported_seating).where(Tournament.id == bindparam("id"))


class LinkedRows(NamedTuple):
    """The rows a table's link reaches, as link_statement joins them (the table and its
    tournament are the mapped classes themselves)."""

    clock_round: type        # the tournament's current round (its clock)
    table_round: type        # the table's round: r=, else its current one
    sheet: type              # that round's sheet at this table (or none)
    call: type               # the table's latest call (or none)


def link_statement(numbered: bool, columns):
    """The one read behind a table's link: the table named by the bound `code` and
    `number`, joined to its tournament and to the rows of LinkedRows (each outer-joined:
    any of them may not exist), chosen as the services choose them (core.clock,
    core.sheets, core.calls). `columns(rows)` says what to select of them; `numbered`:
    the table's round is the bound `round_no`, not its current one. The pages read
    everything they show through it (shown_table_from_link); the unchanged poll reads
    only the versions (blueprints.live.service)."""
    rows = LinkedRows(aliased(Round), aliased(Round), aliased(Scoresheet),
                      aliased(DirectorCall))
    return (
        select(*columns(rows))
        .join(Tournament, Tournament.id == Table.tournament_id)
        .outerjoin(rows.clock_round, rows.clock_round.id == clock.current_round_id())
        .outerjoin(rows.table_round, rows.table_round.id == sheets.table_round_id(numbered))
        .outerjoin(rows.sheet, (rows.sheet.round_id == rows.table_round.id)
                   & (rows.sheet.table_id == Table.id))
        .outerjoin(rows.call, rows.call.id == calls.latest_call_id())
        .where(Tournament.code == bindparam("code"), Table.number == bindparam("number"))
    )


def _shown_columns(rows: LinkedRows):
    return (*Table.__table__.c,
            *(cast(Tournament.rules, Text) if name == "rules_text"
              else Tournament.__table__.c[name] for name in _TOURNAMENT_NAMES),
            *(getattr(rows.clock_round, name) for name in _CLOCK_NAMES),
            *(getattr(rows.table_round, name) for name in _ROUND_NAMES),
            rows.sheet.version, rows.sheet.draft_at,
            *calls.latest_call_columns(rows.call))


# Built once per process (building a statement costs more than running it).
_SHOWN = {numbered: PrecompiledRead(link_statement(numbered, _shown_columns))
          for numbered in (False, True)}


def _parts(row, *names_in_order):
    """The row cut into one namespace per run of names, in the order selected."""
    start = 0
    for names in names_in_order:
        yield dict(zip(names, row[start:start + len(names)], strict=True))
        start += len(names)


def shown_table_from_link(code: str, number: int, token: str | None,
                          round_no: int | None = None) -> SimpleNamespace:
    """table_from_link for a request that only shows the table: its columns and its
    tournament's (`.tournament`) as plain attributes, or BadLink. The same query reads
    the tournament's clock, the table's round `round_no` (None: its current one) with its
    sheet's version, and its latest call, for the readers later in this request."""
    code = plain_code(code)
    if code is None:
        raise BadLink()
    params = {"code": code, "number": number}
    if round_no is not None:
        params["round_no"] = round_no
    found = _SHOWN[round_no is not None].rows(params)
    if not found:
        raise BadLink()
    row = found[0]
    table, tournament, clock_round, table_round, rest = _parts(
        row, _TABLE_NAMES, _TOURNAMENT_NAMES, _CLOCK_NAMES, _ROUND_NAMES,
        ("sheet_version", "sheet_draft_at", *calls.LATEST_CALL_COLUMNS))
    table = SimpleNamespace(**table)
    check_token(table, token)
    table.tournament = ShownTournament(**tournament)
    clock.remember(table.tournament_id, SimpleNamespace(**clock_round), utcnow())
    sheets.remember_round(table.id, round_no, None if table_round["id"] is None else
                          SimpleNamespace(**table_round, sheet_version=rest["sheet_version"],
                                          sheet_draft_at=rest["sheet_draft_at"]))
    calls.remember_latest_call(table.id, None if rest["id"] is None else SimpleNamespace(
        **{name: rest[name] for name in calls.LATEST_CALL_COLUMNS}))
    return table


class ShownTournament(SimpleNamespace):
    """A tournament's columns as plain attributes. Its imported seating (about 94 KB of
    JSON for 600 players, read only to say where a seat goes next) is read the first
    time it is asked for, as the entity's deferred column is. Its rules come as the
    stored text (`rules_text`, which core.lookup.rules_of reads as it is) and are parsed
    only if asked for."""

    def __getattr__(self, name: str):
        if name == "imported_seating":
            self.imported_seating = read_rows(_IMPORTED_SEATING, {"id": self.id}).scalar()
            return self.imported_seating
        if name == "rules":
            self.rules = json.loads(self.rules_text)
            return self.rules
        if name in _RELATIONSHIPS:
            # Not an AttributeError: a template reading tournament.players here would
            # render it empty (Jinja makes it Undefined), and the page would quietly lie.
            raise ShownOnlyError(f"a table's page reads the tournament's columns, not its "
                                 f"{name}: read them where the page is built")
        raise AttributeError(name)


class ShownOnlyError(TypeError):
    """A table page asked its shown tournament for rows it does not read."""


_RELATIONSHIPS = frozenset(Tournament.__mapper__.relationships.keys())


def asked_round(args) -> int | None:
    """The round a table URL's query (`args`) asks for with r=, or None (rounds count from
    1: r=0, or anything not a plain number, asks for none): the pages, the poll and its
    unchanged answer all read it this way."""
    return small_int(args.get("r")) or None


def table_link(view):
    """The one loader of a page a table's QR link opens (`code`, `number` in the URL, the
    token in ?k=): the table and its tournament on flask.g, or BadLink for the blueprint's
    own answer to a wrong link; the round the URL asks for (r=, read once here) on
    g.asked_round. A request that only shows them (only_shows) reads them as rows
    (shown_table_from_link, with that round); a write gets the entities."""

    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        g.asked_round = asked_round(request.args)
        if only_shows():
            g.table = shown_table_from_link(kwargs["code"], kwargs["number"],
                                            request.args.get("k"), g.asked_round)
        else:
            g.table = table_from_link(kwargs["code"], kwargs["number"], request.args.get("k"))
        g.tournament = g.table.tournament
        return view(*args, **kwargs)

    return wrapper
