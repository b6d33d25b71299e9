"""The call a table's phones show, as every reader of it sees it: the call bar on the
table page and its poll (blueprints/live), which compares versions before Flask builds a
request. Placing, claiming and resolving calls stays in the calls blueprint."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import bindparam, select

from core.rows import read_rows, request_reads
from core.words import OPEN_STATES
from models import DirectorCall, Scoresheet, Table, db, utcnow

# How long a table still sees its cancelled call before the plain button.
RECENT = timedelta(minutes=10)
# A ruling stays on the table's phone until the table taps OK, or until the table submits
# that round's sheet (the players move on, and the next ones at the table were not there);
# this ends it in any case once the round is surely over.
RULING_SHOWN = timedelta(minutes=90)

# The ended calls this phone has said "OK" to (ids, newest last), so its bar is back to
# the button. A cookie, not a column: each phone at the table dismisses for itself.
DISMISSED_COOKIE = "calls_ok"


def dismissed_ids(raw: str | None) -> list[int]:
    """The call ids in the DISMISSED_COOKIE value `raw` (anything else in it is ignored;
    isascii: "²".isdigit() is True, but int("²") fails)."""
    return [int(part) for part in (raw or "").split(".")
            if part.isascii() and part.isdigit() and len(part) < 12]


def table_call(table: Table, now: datetime | None = None) -> DirectorCall | None:
    """The call a table's phones show: its open call, else its ruling (until OK, at most
    RULING_SHOWN), else a call cancelled in the last RECENT minutes, else None (just the
    button).

    Chosen from the latest call's state as a plain row; the call itself is loaded only
    when it is shown: most tables, most of the time, show the button (no call, or an old
    one), and loading the entity costs more than the row."""
    latest = request_reads().get(("call", table.id), _UNREAD)
    if latest is _UNREAD:
        latest = read_rows(_LATEST_CALL_STATE, {"table_id": table.id}).first()
    if latest is None or not call_shown(latest, now or utcnow()):
        return None
    return db.session.get(DirectorCall, latest.id)


def call_shown(call, now: datetime) -> bool:
    """Whether a table's bar still shows this call (`call`: its state, resolved_at,
    cancelled_at and round_submitted_at): while open; a ruling RULING_SHOWN after it,
    unless the table submitted the call's round since; a cancelled call RECENT."""
    if call.state in OPEN_STATES:
        return True
    if call.resolved_at is not None:
        submitted = call.round_submitted_at
        return now - call.resolved_at <= RULING_SHOWN and (
            submitted is None or submitted < call.resolved_at)
    return call.cancelled_at is not None and now - call.cancelled_at <= RECENT


# The latest call first: how every read of "the table's latest call" orders them.
_LATEST_FIRST = (DirectorCall.called_at.desc(), DirectorCall.id.desc())
# The latest call's columns table_call chooses by, as remember_latest_call takes them
# (round_submitted_at: latest_call_columns' reading of its round's sheet).
LATEST_CALL_COLUMNS = ("id", "state", "resolved_at", "cancelled_at", "round_submitted_at")
# Built once per process: building a statement and its cache key costs more than running
# it (every table page and changed poll reads it).
_LATEST_CALL = (select(DirectorCall).where(DirectorCall.table_id == bindparam("table_id"))
                .order_by(*_LATEST_FIRST).limit(1))
def round_submitted_at(call):
    """When the table submitted `call`'s round (DirectorCall or an alias of it), as a
    scalar subquery correlated to it (NULL: not yet)."""
    return (select(Scoresheet.submitted_at)
            .where(Scoresheet.round_id == call.round_id, Scoresheet.table_id == call.table_id)
            .correlate_except(Scoresheet).scalar_subquery())


def latest_call_columns(call) -> tuple:
    """LATEST_CALL_COLUMNS of `call` (DirectorCall or an alias of it)."""
    return (*(getattr(call, name) for name in LATEST_CALL_COLUMNS[:-1]),
            round_submitted_at(call).label("round_submitted_at"))


_LATEST_CALL_STATE = (
    select(*latest_call_columns(DirectorCall))
    .where(DirectorCall.table_id == bindparam("table_id")).order_by(*_LATEST_FIRST).limit(1))
_UNREAD = object()


def latest_call_id():
    """The id of the table's latest call as a scalar subquery correlated to Table, for a
    statement that reads the table itself."""
    return (select(DirectorCall.id).where(DirectorCall.table_id == Table.id)
            .order_by(*_LATEST_FIRST).limit(1).correlate(Table).scalar_subquery())


def remember_latest_call(table_id: int, call) -> None:
    """The table's latest call (LATEST_CALL_COLUMNS as attributes; None: no call) as a
    statement of the caller's read it: table_call chooses from it for the rest of this
    request."""
    request_reads()[("call", table_id)] = call


def latest_call(table: Table) -> DirectorCall | None:
    """The table's latest call, whatever its state."""
    return db.session.scalar(_LATEST_CALL, {"table_id": table.id})


def table_version(call: DirectorCall | None) -> str:
    """What a table's phone shows, as a short string: it polls with it and gets 204 while
    it is still current."""
    return "none" if call is None else f"{call.id}.{call.version}"
