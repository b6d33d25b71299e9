"""A table's side of a call: calling the director, cancelling, and what the table's phones
show (its open call, else its ruling, else a call it just cancelled).

Everything is read from the database alone, so every gunicorn worker and host sees the
same call. Each change is one unit of work (core.writes) with its audit row."""

from __future__ import annotations

import hashlib
from datetime import timedelta

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from blueprints.common import unstorable
from core import sheets
from core.calls import latest_call, table_call
from core.errors import Conflict, Refused, Replay, TooMany
from core.words import OPEN_STATES, CallState, table_actor
from core.writes import KEY_LENGTH, claim, unit, write
from models import (
    CALL_REASONS,
    AuditEvent,
    CallClaim,
    DirectorCall,
    Round,
    Table,
    db,
    record,
    utcnow,
)

from .state import closed, set_state, subject

# A table may call at most this many times in FLOOD_WINDOW (cancelled calls count too).
FLOOD_LIMIT = 4
FLOOD_WINDOW = timedelta(minutes=10)
NOTE_MAX = 280
UNSTORABLE = "{what} has a character that cannot be stored; please type it again."

INVALID_LINK = ("This table link is no longer valid. Ask the director for the table's "
                "QR code.")


class TooManyCalls(TooMany):
    def __init__(self, count: int):
        super().__init__(
            f"This table has called the director {count} times in the last "
            f"{int(FLOOD_WINDOW.total_seconds() // 60)} minutes. Please wait a few minutes "
            "before calling again, or raise a hand.")


def call_round(table: Table) -> Round | None:
    """The round a call belongs to: the round the table plays now, as the table's page
    reads it (core.sheets.current_round)."""
    return sheets.current_round(table)


# ---------------------------------------------------------------- what the table shows


def ruling_points(call: DirectorCall) -> dict | None:
    """The points a resolved call's ruling put on the sheet ({"seat", "points", "game",
    "round"}, from its audit row), or None."""
    after = db.session.scalar(
        select(AuditEvent.after).where(AuditEvent.subject == subject(call),
                                       AuditEvent.action == "call.resolve")
        .order_by(AuditEvent.id.desc()).limit(1))
    return after.get("adjustment") if isinstance(after, dict) else None


# ---------------------------------------------------------------- the table's actions


def _checked(reason: str, note: str) -> tuple[str, str]:
    reason = (reason or "").strip()
    note = (note or "").strip()
    if reason and reason not in CALL_REASONS:
        raise Refused("reason", "Please choose one of the reasons shown.")
    if len(note) > NOTE_MAX:
        raise Refused("note", f"Please keep the note to {NOTE_MAX} characters or fewer "
                              f"(this one has {len(note)}).")
    if unstorable(note, lines=True):
        raise Refused("note", UNSTORABLE.format(what="The note"))
    return reason, note


def place_call(table: Table, reason: str = "", note: str = "",
               request_key: str | None = None) -> tuple[DirectorCall, bool]:
    """Call the director from a table. Returns (call, created): a table with an open call
    gets that call back (a second tap, or a second phone at the table), never another; so
    does a request key already applied (a resend). Raises Refused for a bad reason or
    note, TooManyCalls for a flood."""
    reason, note = _checked(reason, note)
    request_key = _scoped(table, request_key)
    try:
        with unit(request_key):
            return _place(table, reason, note, request_key), True
    except Replay as replay:
        return replay.current or table_call(table) or latest_call(table), False
    except IntegrityError:
        # The same request key from a resend that raced this one.
        return table_call(table) or latest_call(table), False


def _scoped(table: Table, request_key: str | None) -> str | None:
    """The stored form of a call's request key: bound to this table, so a key another
    table (of this tournament or another) used is never taken for this table's resend.
    A hash fits AppliedRequest's key and never equals another write's stored key."""
    if not request_key:
        return None
    scope = f"call|{table.id}|{request_key[:KEY_LENGTH]}"
    return hashlib.sha256(scope.encode()).hexdigest()


def _place(table: Table, reason: str, note: str, request_key: str | None) -> DirectorCall:
    """place_call's unit. The table's row is locked first (a no-op UPDATE, which serialises
    writers on SQLite and PostgreSQL alike), then the open call and the flood limit are
    checked against the database."""
    now = utcnow()
    db.session.execute(update(Table).where(Table.id == table.id).values(token=Table.token))
    claim(request_key)
    existing = db.session.scalar(
        select(DirectorCall).where(DirectorCall.table_id == table.id,
                                   DirectorCall.state.in_(OPEN_STATES))
        .order_by(DirectorCall.called_at).limit(1)
    )
    if existing is not None:
        raise Replay(existing)
    recent = db.session.scalar(
        select(func.count()).select_from(DirectorCall)
        .where(DirectorCall.table_id == table.id,
               DirectorCall.called_at >= now - FLOOD_WINDOW)
    )
    if recent >= FLOOD_LIMIT:
        raise TooManyCalls(recent)
    rnd = call_round(table)
    call = DirectorCall(
        tournament_id=table.tournament_id, table_id=table.id,
        round_id=rnd.id if rnd else None, reason=reason, note=note, state=CallState.OPEN,
        called_at=now, updated_at=now, version=1,
    )
    db.session.add(call)
    db.session.flush()
    record("call.place", tournament_id=table.tournament_id, subject=subject(call),
           after={"table": table.number, "reason": reason, "note": note,
                  "round": rnd.number if rnd else None},
           actor=table_actor(table.number, None))
    return call


@write
def cancel_call(table: Table, call_id: int | None = None) -> DirectorCall:
    """The table cancels its open call."""
    call = db.session.scalar(
        select(DirectorCall).where(DirectorCall.table_id == table.id,
                                   DirectorCall.state.in_(OPEN_STATES))
        .order_by(DirectorCall.called_at).limit(1)
    )
    if call is None or (call_id is not None and call.id != call_id):
        raise Conflict(None, "This table has no open call to cancel.")
    before = call.state
    now = utcnow()
    if not set_state(call, OPEN_STATES, state=CallState.CANCELLED, cancelled_at=now):
        raise closed(call)
    db.session.execute(update(CallClaim).where(CallClaim.call_id == call.id,
                                               CallClaim.released_at.is_(None))
                       .values(released_at=now))
    record("call.cancel", tournament_id=table.tournament_id, subject=subject(call),
           before={"state": before}, after={"state": CallState.CANCELLED},
           actor=table_actor(table.number, None))
    return call
