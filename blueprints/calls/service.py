"""Calls for the director: a table calls, staff claim ("I'm going"), release, hand a call
to a director, and resolve it with a ruling (and, where the ruling changes points, an
adjustment on the table's sheet in the same transaction).

Everything shown (the table's state, the director's queue, the history) is read from the
database alone, so every gunicorn worker and host sees the same queue. Each change is one
transaction with its audit row. State changes are compare-and-set UPDATEs (`WHERE state IN
...`), so two directors tapping at once, or a double tap, change a call once.

Leaves to others: reaching a table by its link token and the round a table plays
(core.lookup.table_from_link, blueprints.table.service.current_round), the sheet and its
adjustments (blueprints.table.service.add_adjustment), the round clock and its M:SS text
(blueprints.clock.service)."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from blueprints.common import SEAT_NAMES, unstorable
from core import sheets
from core.words import OPEN_STATES
from models import (
    CALL_REASONS,
    AppliedRequest,
    AuditEvent,
    CallClaim,
    DirectorCall,
    Player,
    Round,
    Seating,
    Table,
    Tournament,
    User,
    db,
    record,
    utcnow,
)

# A table may call at most this many times in FLOOD_WINDOW (cancelled calls count too).
FLOOD_LIMIT = 4
FLOOD_WINDOW = timedelta(minutes=10)
# How long a table still sees its cancelled call before the plain button.
RECENT = timedelta(minutes=10)
# A ruling stays on the table's phone until the table taps OK: this only ends it once the
# round is surely over, for the next players at the table.
RULING_SHOWN = timedelta(minutes=90)
# Waits on the queue change colour and words after these many seconds.
WAIT_LEVELS = (120, 300)
NOTE_MAX = 280
UNSTORABLE = "{what} has a character that cannot be stored; please type it again."
RULING_MAX = 1000
ADJUSTMENT_MAX = 500

INVALID_LINK = ("This table link is no longer valid. Ask the director for the table's "
                "QR code.")


class CallError(Exception):
    """A refused change, in words for the person who tried it. `field` names the form
    field the message belongs to (None: the whole call); `status` is the HTTP answer."""

    def __init__(self, message: str, field: str | None = None, status: int = 409):
        super().__init__(message)
        self.message, self.field, self.status = message, field, status


class TooManyCalls(CallError):
    def __init__(self, count: int):
        super().__init__(
            f"This table has called the director {count} times in the last "
            f"{int(FLOOD_WINDOW.total_seconds() // 60)} minutes. Please wait a few minutes "
            "before calling again, or raise a hand.", status=429)


# ---------------------------------------------------------------- reaching things


def call_in_tournament(tournament: Tournament, call_id: int) -> DirectorCall | None:
    call = db.session.get(DirectorCall, call_id)
    if call is None or call.tournament_id != tournament.id:
        return None
    return call


def call_round(table: Table) -> Round | None:
    """The round a call belongs to: the round the table plays now, as the table's page
    reads it (core.sheets.current_round)."""
    return sheets.current_round(table)


# ---------------------------------------------------------------- what is shown


def waited_seconds(call: DirectorCall, now: datetime | None = None) -> int:
    end = call.resolved_at or call.cancelled_at or now or utcnow()
    return max(0, int((end - call.called_at).total_seconds()))


def wait_level(seconds: int) -> int:
    """0 under 2 minutes, 1 from 2 minutes, 2 from 5 minutes."""
    return sum(seconds >= limit for limit in WAIT_LEVELS)


def active_claims(call: DirectorCall) -> list[CallClaim]:
    return [c for c in call.claims if c.released_at is None]


def names(users: list[str]) -> str:
    """"Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    if len(users) <= 1:
        return "".join(users)
    return ", ".join(users[:-1]) + " and " + users[-1]


def on_the_way(call: DirectorCall) -> str:
    people = [c.user.name for c in active_claims(call)]
    if not people:
        return ""
    return f"{names(people)} {'is' if len(people) == 1 else 'are'} on the way"


def reason_label(call: DirectorCall) -> str:
    return CALL_REASONS.get(call.reason, "")


def round_number(call: DirectorCall) -> int | None:
    if call.round_id is None:
        return None
    return db.session.scalar(select(Round.number).where(Round.id == call.round_id))


def seat_players(call: DirectorCall) -> dict[str, str]:
    """{seat: player name} at the call's table in the call's round."""
    if call.round_id is None:
        return {}
    rows = db.session.execute(
        select(Seating.seat, Player.name).join(Player, Player.id == Seating.player_id)
        .where(Seating.round_id == call.round_id, Seating.table_id == call.table_id)
    )
    return dict(rows.all())


def table_call(table: Table, now: datetime | None = None) -> DirectorCall | None:
    """The call a table's phones show: its open call, else its ruling (until OK, at most
    RULING_SHOWN), else a call cancelled in the last RECENT minutes, else None (just the
    button)."""
    now = now or utcnow()
    call = db.session.scalar(
        select(DirectorCall).where(DirectorCall.table_id == table.id)
        .order_by(DirectorCall.called_at.desc(), DirectorCall.id.desc()).limit(1)
    )
    if call is None:
        return None
    if call.state in OPEN_STATES:
        return call
    if call.resolved_at is not None:
        return call if now - call.resolved_at <= RULING_SHOWN else None
    if call.cancelled_at is not None and now - call.cancelled_at <= RECENT:
        return call
    return None


def ruling_points(call: DirectorCall) -> dict | None:
    """The points a resolved call's ruling put on the sheet ({"seat", "points", "game",
    "round"}, from its audit row), or None."""
    after = db.session.scalar(
        select(AuditEvent.after).where(AuditEvent.subject == f"call:{call.id}",
                                       AuditEvent.action == "call.resolve")
        .order_by(AuditEvent.id.desc()).limit(1))
    return after.get("adjustment") if isinstance(after, dict) else None


def table_version(call: DirectorCall | None) -> str:
    """What a table's phone shows, as a short string: it polls with it and gets 204 while
    it is still current."""
    return "none" if call is None else f"{call.id}.{call.version}"


def queue_version(tournament: Tournament) -> str:
    """A cheap version of the queue: the number of the tournament's calls and claims, the
    latest change among them, and the round clocks (shown beside each call)."""
    calls = db.session.execute(
        select(func.count(DirectorCall.id), func.max(DirectorCall.updated_at),
               func.coalesce(func.sum(DirectorCall.version), 0))
        .where(DirectorCall.tournament_id == tournament.id)
    ).one()
    clocks = db.session.scalar(
        select(func.coalesce(func.sum(Round.clock_version), 0))
        .where(Round.tournament_id == tournament.id)
    )
    latest = calls[1].strftime("%Y%m%d%H%M%S%f") if calls[1] else "0"
    return f"{calls[0]}-{calls[2]}-{latest}-{clocks}"


@dataclass
class QueueItem:
    call: DirectorCall
    table_number: int
    round_no: int | None
    waited: int
    level: int
    claimers: list[str]
    mine: bool  # the viewer has an active claim on it


def open_calls(tournament: Tournament, user: User | None = None,
               now: datetime | None = None) -> list[QueueItem]:
    """The queue: open and claimed calls, oldest first."""
    now = now or utcnow()
    rows = db.session.execute(
        select(DirectorCall, Table.number, Round.number)
        .join(Table, Table.id == DirectorCall.table_id)
        .outerjoin(Round, Round.id == DirectorCall.round_id)
        .options(selectinload(DirectorCall.claims).selectinload(CallClaim.user))
        .where(DirectorCall.tournament_id == tournament.id,
               DirectorCall.state.in_(OPEN_STATES))
        .order_by(DirectorCall.called_at, DirectorCall.id)
    ).all()
    items = []
    for call, table_number, round_no in rows:
        waited = waited_seconds(call, now)
        claims = active_claims(call)
        items.append(QueueItem(
            call=call, table_number=table_number, round_no=round_no, waited=waited,
            level=wait_level(waited), claimers=[c.user.name for c in claims],
            mine=user is not None and any(c.user_id == user.id for c in claims),
        ))
    return items


# ---------------------------------------------------------------- the table's actions


def _table_actor(table: Table) -> str:
    return f"Table {table.number}"


def place_call(table: Table, reason: str = "", note: str = "",
               request_key: str | None = None) -> tuple[DirectorCall, bool]:
    """Call the director from a table. Returns (call, created): a table with an open call
    gets that call back (a second tap, or a second phone at the table), never another.

    One transaction: the table's row is locked first (a no-op UPDATE, which serialises
    writers on SQLite and PostgreSQL alike), then the open call and the flood limit are
    checked against the database. A request key already applied (a resend) changes
    nothing. Raises CallError for a bad reason or note, TooManyCalls for a flood."""
    reason = (reason or "").strip()
    note = (note or "").strip()
    # Stored as 64 characters (AppliedRequest.key): cut once, so the resend's lookup finds
    # what the first request stored.
    request_key = (request_key or "")[:64] or None
    if reason and reason not in CALL_REASONS:
        raise CallError("Please choose one of the reasons shown.", "reason", 422)
    if len(note) > NOTE_MAX:
        raise CallError(f"Please keep the note to {NOTE_MAX} characters or fewer "
                        f"(this one has {len(note)}).", "note", 422)
    if unstorable(note, lines=True):
        raise CallError(UNSTORABLE.format(what="The note"), "note", 422)
    now = utcnow()
    try:
        db.session.execute(update(Table).where(Table.id == table.id).values(token=Table.token))
        if request_key and db.session.get(AppliedRequest, request_key) is not None:
            db.session.rollback()
            return table_call(table) or _latest_call(table), False
        existing = db.session.scalar(
            select(DirectorCall).where(DirectorCall.table_id == table.id,
                                       DirectorCall.state.in_(OPEN_STATES))
            .order_by(DirectorCall.called_at).limit(1)
        )
        if existing is not None:
            db.session.rollback()
            return existing, False
        recent = db.session.scalar(
            select(func.count()).select_from(DirectorCall)
            .where(DirectorCall.table_id == table.id,
                   DirectorCall.called_at >= now - FLOOD_WINDOW)
        )
        if recent >= FLOOD_LIMIT:
            db.session.rollback()
            raise TooManyCalls(recent)
        rnd = call_round(table)
        call = DirectorCall(
            tournament_id=table.tournament_id, table_id=table.id,
            round_id=rnd.id if rnd else None, reason=reason, note=note, state="open",
            called_at=now, updated_at=now, version=1,
        )
        db.session.add(call)
        if request_key:
            db.session.add(AppliedRequest(key=request_key))
        db.session.flush()
        record("call.place", tournament_id=table.tournament_id, subject=f"call:{call.id}",
               after={"table": table.number, "reason": reason, "note": note,
                      "round": rnd.number if rnd else None},
               actor=_table_actor(table))
        db.session.commit()
        return call, True
    except IntegrityError:
        # The same request key from a resend that raced this one.
        db.session.rollback()
        return table_call(table) or _latest_call(table), False


def _latest_call(table: Table) -> DirectorCall | None:
    return db.session.scalar(
        select(DirectorCall).where(DirectorCall.table_id == table.id)
        .order_by(DirectorCall.called_at.desc()).limit(1)
    )


def _set(call: DirectorCall, states: tuple[str, ...], **values) -> bool:
    """Compare-and-set: change the call only if it is still in one of `states`; bump its
    version. False when someone else changed its state first."""
    result = db.session.execute(
        update(DirectorCall)
        .where(DirectorCall.id == call.id, DirectorCall.state.in_(states))
        .values(version=DirectorCall.version + 1, updated_at=utcnow(), **values)
        .execution_options(synchronize_session=False)
    )
    return result.rowcount == 1


def _refuse_closed(call: DirectorCall) -> CallError:
    db.session.rollback()
    db.session.refresh(call)
    if call.state == "resolved":
        who = db.session.get(User, call.resolved_by_id) if call.resolved_by_id else None
        by = f" by {who.name}" if who else ""
        return CallError(f"This call was already resolved{by}: {call.ruling}")
    if call.state == "cancelled":
        return CallError("The table cancelled this call.")
    return CallError("Someone changed this call first. Here it is as it stands now.")


def cancel_call(table: Table, call_id: int | None = None) -> DirectorCall:
    """The table cancels its open call."""
    call = db.session.scalar(
        select(DirectorCall).where(DirectorCall.table_id == table.id,
                                   DirectorCall.state.in_(OPEN_STATES))
        .order_by(DirectorCall.called_at).limit(1)
    )
    if call is None or (call_id is not None and call.id != call_id):
        raise CallError("This table has no open call to cancel.", status=409)
    before = call.state
    now = utcnow()
    if not _set(call, OPEN_STATES, state="cancelled", cancelled_at=now):
        raise _refuse_closed(call)
    db.session.execute(update(CallClaim).where(CallClaim.call_id == call.id,
                                               CallClaim.released_at.is_(None))
                       .values(released_at=now))
    record("call.cancel", tournament_id=table.tournament_id, subject=f"call:{call.id}",
           before={"state": before}, after={"state": "cancelled"}, actor=_table_actor(table))
    db.session.commit()
    db.session.refresh(call)
    return call


# ---------------------------------------------------------------- staff actions


def _staff_actor(user: User, role: str | None) -> str:
    return f"{user.name} ({role})" if role else user.name


def claim_call(call: DirectorCall, user: User, role: str | None = None) -> DirectorCall:
    """ "I'm going": add this person to the call's claimers (several may go)."""
    if call.state not in OPEN_STATES:
        raise _refuse_closed(call)
    now = utcnow()
    values = {"state": "claimed"}
    if call.first_claimed_at is None:
        values["first_claimed_at"] = now
    before = call.state
    if not _set(call, OPEN_STATES, **values):
        raise _refuse_closed(call)
    # Checked after the UPDATE holds the row, so a double tap adds one claim, not two.
    already = db.session.scalar(
        select(CallClaim.id).where(CallClaim.call_id == call.id, CallClaim.user_id == user.id,
                                   CallClaim.released_at.is_(None))
    )
    if already is not None:
        db.session.rollback()
        db.session.refresh(call)
        return call
    db.session.add(CallClaim(call_id=call.id, user_id=user.id, claimed_at=now))
    record("call.claim", tournament_id=call.tournament_id, subject=f"call:{call.id}",
           before={"state": before}, after={"state": "claimed", "by": user.name},
           actor=_staff_actor(user, role), actor_user_id=user.id)
    db.session.commit()
    db.session.refresh(call)
    return call


def release_call(call: DirectorCall, user: User, role: str | None = None,
                 reason: str = "") -> DirectorCall:
    """Take back one's "I'm going"; the call is open again when nobody else is going."""
    mine = [c for c in active_claims(call) if c.user_id == user.id]
    if call.state not in OPEN_STATES:
        raise _refuse_closed(call)
    if not mine:
        raise CallError("You have not claimed this call.", status=409)
    now = utcnow()
    others = [c for c in active_claims(call) if c.user_id != user.id]
    state = "claimed" if others else "open"
    if not _set(call, OPEN_STATES, state=state):
        raise _refuse_closed(call)
    for claim in mine:
        claim.released_at = now
    record("call.release", tournament_id=call.tournament_id, subject=f"call:{call.id}",
           before={"state": call.state}, after={"state": state, "by": user.name},
           reason=reason, actor=_staff_actor(user, role), actor_user_id=user.id)
    db.session.commit()
    db.session.refresh(call)
    return call


def hand_to_director(call: DirectorCall, user: User, role: str | None = None) -> DirectorCall:
    """A table guide hands the call on: "Needs a director". Their own claim is released;
    the call stays in the queue, highlighted."""
    if call.state not in OPEN_STATES:
        raise _refuse_closed(call)
    now = utcnow()
    mine = [c for c in active_claims(call) if c.user_id == user.id]
    others = [c for c in active_claims(call) if c.user_id != user.id]
    state = "claimed" if others else "open"
    if not _set(call, OPEN_STATES, state=state, needs_director=True):
        raise _refuse_closed(call)
    for claim in mine:
        claim.released_at = now
    record("call.needs_director", tournament_id=call.tournament_id, subject=f"call:{call.id}",
           before={"needs_director": call.needs_director}, after={"needs_director": True},
           actor=_staff_actor(user, role), actor_user_id=user.id)
    db.session.commit()
    db.session.refresh(call)
    return call


@dataclass
class Adjustment:
    seat: str
    points: int
    game_no: int | None = None


# One-tap rulings: key -> the words the table reads. Penalties and dead hands name a seat
# (and its player), so they are built per seat by quick_ruling.
QUICK_RULINGS = {"no-change": "No change to the scores", "replayed": "Game replayed"}
QUICK_PENALTY = -10


def seat_label(seat: str, players: dict[str, str]) -> str:
    """"North (Ann Lee)", or "North" when nobody is seated there."""
    name = SEAT_NAMES[seat]
    return f"{name} ({players[seat]})" if players.get(seat) else name


def quick_ruling(key: str, players: dict[str, str]) -> tuple[str, Adjustment | None]:
    """The ruling and adjustment of a one-tap choice: "no-change", "replayed",
    "dead:<seat>" or "penalty:<seat>" (-10 to that seat in the game in progress)."""
    if key in QUICK_RULINGS:
        return QUICK_RULINGS[key], None
    kind, _, seat = (key or "").partition(":")
    if seat in ("E", "S", "W", "N"):
        if kind == "dead":
            return f"Dead hand: {seat_label(seat, players)}", None
        if kind == "penalty":
            return (f"Penalty {QUICK_PENALTY} to {seat_label(seat, players)}",
                    Adjustment(seat, QUICK_PENALTY))
    raise CallError("Please choose one of the rulings shown, or write the ruling.",
                    "ruling", 422)


def resolve_call(call: DirectorCall, user: User, ruling: str, role: str | None = None,
                 adjustment: Adjustment | None = None) -> DirectorCall:
    """Resolve the call with the ruling in words; with an adjustment, enter it on the
    table's sheet for the call's round with the ruling as its reason. One transaction:
    blueprints.table.service.add_adjustment only adds to the session (it does not commit),
    and this function commits once, so the ruling and the points land together or not at
    all. A refused adjustment (ValueError from the sheet) changes nothing. An
    IntegrityError (the sheet created by the table at the same moment) rolls back and is
    tried once more; a second one is a plain 409 CallError."""
    ruling = (ruling or "").strip()
    if not ruling:
        raise CallError("Please write the ruling in words.", "ruling", 422)
    if len(ruling) > RULING_MAX:
        raise CallError(f"Please keep the ruling to {RULING_MAX} characters or fewer.",
                        "ruling", 422)
    if unstorable(ruling, lines=True):
        raise CallError(UNSTORABLE.format(what="The ruling"), "ruling", 422)
    if call.state not in OPEN_STATES:
        raise _refuse_closed(call)
    table = db.session.get(Table, call.table_id)
    round_no = round_number(call)
    if adjustment is not None:
        if adjustment.seat not in ("E", "S", "W", "N"):
            raise CallError("Please choose the seat whose points change.", "seat", 422)
        if not adjustment.points or abs(adjustment.points) > ADJUSTMENT_MAX:
            raise CallError(f"Points must be a whole number between -{ADJUSTMENT_MAX} and "
                            f"{ADJUSTMENT_MAX}, not 0.", "points", 422)
        if round_no is None:
            raise CallError("This call has no round, so there is no sheet to adjust.",
                            "seat", 422)
    for attempt in (1, 2):
        try:
            return _resolve(call, user, ruling, role, adjustment, table, round_no)
        except IntegrityError as error:
            # add_adjustment created the table's sheet while East's phone created it too
            # (the sheet's unique round and table): nothing was written; read the call and
            # the sheet again and try once more.
            db.session.rollback()
            db.session.refresh(call)
            if call.state not in OPEN_STATES:
                raise _refuse_closed(call) from error
            if attempt == 2:
                raise CallError("The table's sheet changed at the same moment. Nothing was "
                                "saved; please resolve the call again.") from error
    raise AssertionError("unreachable")  # pragma: no cover


def _resolve(call: DirectorCall, user: User, ruling: str, role: str | None,
             adjustment: Adjustment | None, table: Table, round_no: int | None
             ) -> DirectorCall:
    """One attempt at resolve_call's transaction (see there); commits."""
    before = call.state
    now = utcnow()
    if not _set(call, OPEN_STATES, state="resolved", resolved_at=now,
                resolved_by_id=user.id, ruling=ruling):
        raise _refuse_closed(call)
    after = {"state": "resolved", "ruling": ruling}
    if adjustment is not None:
        try:
            sheets.add_adjustment(table, round_no, adjustment.seat, adjustment.points,
                                         ruling, user, game_no=adjustment.game_no)
        except ValueError as error:
            db.session.rollback()
            raise CallError(str(error), _adjustment_field(str(error)), 422) from error
        after["adjustment"] = {"seat": adjustment.seat, "points": adjustment.points,
                               "game": adjustment.game_no, "round": round_no}
    record("call.resolve", tournament_id=call.tournament_id, subject=f"call:{call.id}",
           before={"state": before}, after=after, reason=ruling,
           actor=_staff_actor(user, role), actor_user_id=user.id)
    db.session.commit()
    db.session.refresh(call)
    return call


def _adjustment_field(message: str) -> str:
    text = message.lower()
    if "game" in text:
        return "game_no"
    if "point" in text:
        return "points"
    return "seat"


# ---------------------------------------------------------------- history


@dataclass
class HistoryRow:
    call: DirectorCall
    table_number: int
    round_no: int | None
    claimers: list[str]
    resolved_by: str
    to_claim: int | None
    to_resolve: int | None
    adjustment: dict | None = None  # {"seat", "points", "game", "round"} from the audit row


@dataclass
class RoundStats:
    round_no: int | None
    calls: int
    median_claim: float | None
    longest_claim: int | None
    median_resolve: float | None
    longest_resolve: int | None


def history(tournament: Tournament) -> list[HistoryRow]:
    """Every call of the tournament, newest first, with its waits in seconds."""
    rows = db.session.execute(
        select(DirectorCall, Table.number, Round.number)
        .join(Table, Table.id == DirectorCall.table_id)
        .outerjoin(Round, Round.id == DirectorCall.round_id)
        .options(selectinload(DirectorCall.claims).selectinload(CallClaim.user))
        .where(DirectorCall.tournament_id == tournament.id)
        .order_by(DirectorCall.called_at.desc(), DirectorCall.id.desc())
    ).all()
    users = {u.id: u.name for u in db.session.scalars(
        select(User).where(User.id.in_({c.resolved_by_id for c, _, _ in rows
                                        if c.resolved_by_id})))}
    adjustments = {}
    for subject, after in db.session.execute(
            select(AuditEvent.subject, AuditEvent.after)
            .where(AuditEvent.tournament_id == tournament.id,
                   AuditEvent.action == "call.resolve")):
        if isinstance(after, dict) and after.get("adjustment"):
            adjustments[subject] = after["adjustment"]
    out = []
    for call, table_number, round_no in rows:
        seen = []
        for claim in call.claims:
            if claim.user.name not in seen:
                seen.append(claim.user.name)
        out.append(HistoryRow(
            call=call, table_number=table_number, round_no=round_no, claimers=seen,
            resolved_by=users.get(call.resolved_by_id, ""),
            to_claim=_seconds(call.called_at, call.first_claimed_at),
            to_resolve=_seconds(call.called_at, call.resolved_at),
            adjustment=adjustments.get(f"call:{call.id}"),
        ))
    return out


def _seconds(start: datetime, end: datetime | None) -> int | None:
    return None if end is None else max(0, int((end - start).total_seconds()))


def round_stats(rows: list[HistoryRow]) -> list[RoundStats]:
    """Per round: the median and longest wait to claim and to resolve, over calls that
    were not cancelled (a call resolved without a claim counts only for resolving)."""
    by_round: dict[int | None, list[HistoryRow]] = {}
    for row in rows:
        if row.call.state != "cancelled":
            by_round.setdefault(row.round_no, []).append(row)
    stats = []
    for round_no in sorted(by_round, key=lambda n: (n is None, n or 0)):
        group = by_round[round_no]
        claims = [r.to_claim for r in group if r.to_claim is not None]
        resolves = [r.to_resolve for r in group if r.to_resolve is not None]
        stats.append(RoundStats(
            round_no=round_no, calls=len(group),
            median_claim=statistics.median(claims) if claims else None,
            longest_claim=max(claims) if claims else None,
            median_resolve=statistics.median(resolves) if resolves else None,
            longest_resolve=max(resolves) if resolves else None,
        ))
    return stats
