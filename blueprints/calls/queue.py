"""The staff's side of a call: the queue, "I'm going", release, hand a call to a director,
and resolve it with a ruling (and, where the ruling changes points, an adjustment on the
table's sheet in the same unit of work)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from blueprints.common import unstorable
from core import sheets
from core.errors import Conflict, Refused, Replay
from core.words import OPEN_STATES, SEAT_NAMES, SEATS, CallState, staff_actor
from core.writes import write
from models import (
    CallClaim,
    DirectorCall,
    Round,
    Table,
    Tournament,
    User,
    db,
    record,
    utcnow,
)
from tournament.scoring import InvalidGame

from .state import (
    active_claims,
    closed,
    round_number,
    set_state,
    subject,
    wait_level,
    waited_seconds,
)
from .table_calls import UNSTORABLE

RULING_MAX = 1000
ADJUSTMENT_MAX = 500
SHEET_RACE = ("The table's sheet changed at the same moment. Nothing was saved; please "
              "resolve the call again.")
# The ruling form's field for what the sheet still refuses of an adjustment: its seat and
# points are checked here first, with their own fields, so what is left is the game.
SHEET_FIELDS = {"adjustments": "game_no"}


# ---------------------------------------------------------------- the queue


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


# ---------------------------------------------------------------- going to the table


def claim_call(call: DirectorCall, user: User, role: str | None = None) -> DirectorCall:
    """ "I'm going": add this person to the call's claimers (several may go)."""
    try:
        return _claim(call, user, role)
    except Replay as replay:
        return replay.current


@write
def _claim(call: DirectorCall, user: User, role: str | None) -> DirectorCall:
    if call.state not in OPEN_STATES:
        raise closed(call)
    now = utcnow()
    # Kept in SQL, not from the row as this request read it: two claims at once both read
    # "never claimed", and the later one must not overwrite the first's time.
    values = {"state": CallState.CLAIMED,
              "first_claimed_at": func.coalesce(DirectorCall.first_claimed_at, now)}
    before = call.state
    if not set_state(call, OPEN_STATES, **values):
        raise closed(call)
    # Checked after the UPDATE holds the row, so a double tap adds one claim, not two
    # (the second changes nothing: its unit rolls back).
    already = db.session.scalar(
        select(CallClaim.id).where(CallClaim.call_id == call.id, CallClaim.user_id == user.id,
                                   CallClaim.released_at.is_(None))
    )
    if already is not None:
        raise Replay(call)
    db.session.add(CallClaim(call_id=call.id, user_id=user.id, claimed_at=now))
    record("call.claim", tournament_id=call.tournament_id, subject=subject(call),
           before={"state": before}, after={"state": CallState.CLAIMED, "by": user.name},
           actor=staff_actor(user, role), actor_user_id=user.id)
    return call


def _state_without(call: DirectorCall, user: User) -> CallState:
    """The call's state once this person's claims are released."""
    others = [c for c in active_claims(call) if c.user_id != user.id]
    return CallState.CLAIMED if others else CallState.OPEN


def _release_mine(call: DirectorCall, user: User) -> None:
    now = utcnow()
    for claim in active_claims(call):
        if claim.user_id == user.id:
            claim.released_at = now


@write
def release_call(call: DirectorCall, user: User, role: str | None = None,
                 reason: str = "") -> DirectorCall:
    """Take back one's "I'm going"; the call is open again when nobody else is going."""
    mine = [c for c in active_claims(call) if c.user_id == user.id]
    if call.state not in OPEN_STATES:
        raise closed(call)
    if not mine:
        raise Conflict(call, "You have not claimed this call.")
    state = _state_without(call, user)
    if not set_state(call, OPEN_STATES, state=state):
        raise closed(call)
    _release_mine(call, user)
    record("call.release", tournament_id=call.tournament_id, subject=subject(call),
           before={"state": call.state}, after={"state": state, "by": user.name},
           reason=reason, actor=staff_actor(user, role), actor_user_id=user.id)
    return call


@write
def hand_to_director(call: DirectorCall, user: User, role: str | None = None) -> DirectorCall:
    """A table guide hands the call on: "Needs a director". Their own claim is released;
    the call stays in the queue, highlighted."""
    if call.state not in OPEN_STATES:
        raise closed(call)
    state = _state_without(call, user)
    if not set_state(call, OPEN_STATES, state=state, needs_director=True):
        raise closed(call)
    _release_mine(call, user)
    record("call.needs_director", tournament_id=call.tournament_id, subject=subject(call),
           before={"needs_director": call.needs_director}, after={"needs_director": True},
           actor=staff_actor(user, role), actor_user_id=user.id)
    return call


# ---------------------------------------------------------------- the ruling


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
    if seat in SEATS:
        if kind == "dead":
            # the one-tap ruling writes nothing on the sheet: the table is told where to
            return (f"Dead hand: {seat_label(seat, players)}. East marks it in the game's "
                    "dead hands.", None)
        if kind == "penalty":
            return (f"Penalty {QUICK_PENALTY} to {seat_label(seat, players)}",
                    Adjustment(seat, QUICK_PENALTY))
    raise Refused("ruling", "Please choose one of the rulings shown, or write the ruling.")


def _checked_ruling(ruling: str) -> str:
    ruling = (ruling or "").strip()
    if not ruling:
        raise Refused("ruling", "Please write the ruling in words.")
    if len(ruling) > RULING_MAX:
        raise Refused("ruling", f"Please keep the ruling to {RULING_MAX} characters or fewer.")
    if unstorable(ruling, lines=True):
        raise Refused("ruling", UNSTORABLE.format(what="The ruling"))
    return ruling


def _check_adjustment(adjustment: Adjustment, round_no: int | None) -> None:
    if adjustment.seat not in SEATS:
        raise Refused("seat", "Please choose the seat whose points change.")
    if not adjustment.points or abs(adjustment.points) > ADJUSTMENT_MAX:
        raise Refused("points", f"Points must be a whole number between -{ADJUSTMENT_MAX} "
                                f"and {ADJUSTMENT_MAX}, not 0.")
    if round_no is None:
        raise Refused("seat", "This call has no round, so there is no sheet to adjust.")


def resolve_call(call: DirectorCall, user: User, ruling: str, role: str | None = None,
                 adjustment: Adjustment | None = None) -> DirectorCall:
    """Resolve the call with the ruling in words; with an adjustment, enter it on the
    table's sheet for the call's round with the ruling as its reason. The adjustment and
    the resolved call are two writes in one unit: they land together or not at all, and a
    refused adjustment changes nothing. An IntegrityError (the sheet created by the table
    at the same moment) is tried once more; a second one is a plain Conflict."""
    ruling = _checked_ruling(ruling)
    if call.state not in OPEN_STATES:
        raise closed(call)
    table = db.session.get(Table, call.table_id)
    round_no = round_number(call)
    if adjustment is not None:
        _check_adjustment(adjustment, round_no)
    try:
        return _resolve_with_points(call, user, ruling, role, adjustment, table, round_no)
    except IntegrityError as error:
        raise Conflict(call, SHEET_RACE) from error


@write(retry=True)
def _resolve_with_points(call: DirectorCall, user: User, ruling: str, role: str | None,
                         adjustment: Adjustment | None, table: Table, round_no: int | None
                         ) -> DirectorCall:
    # Read again on the second try: the first one's rollback may have met a closed call.
    if call.state not in OPEN_STATES:
        raise closed(call)
    if adjustment is not None:
        add_to_sheet(table, round_no, adjustment, ruling, user)
    return mark_resolved(call, user, ruling, role, adjustment, round_no)


def add_to_sheet(table: Table, round_no: int, adjustment: Adjustment, ruling: str,
                 user: User) -> None:
    """The ruling's points on the table's sheet (core.sheets.add_adjustment), its refusals
    tied to the ruling form's fields."""
    try:
        sheets.add_adjustment(table, round_no, adjustment.seat, adjustment.points, ruling,
                              user, game_no=adjustment.game_no)
    except InvalidGame as error:
        raise Refused(SHEET_FIELDS.get(error.field, "seat"), error.message) from error
    except ValueError as error:  # the call's round is gone
        raise Refused("seat", str(error)) from error


def mark_resolved(call: DirectorCall, user: User, ruling: str, role: str | None,
                  adjustment: Adjustment | None, round_no: int | None) -> DirectorCall:
    """The call resolved with `ruling`, audited with the points it put on the sheet."""
    before = call.state
    if not set_state(call, OPEN_STATES, state=CallState.RESOLVED, resolved_at=utcnow(),
                     resolved_by_id=user.id, ruling=ruling):
        raise closed(call)
    after = {"state": CallState.RESOLVED, "ruling": ruling}
    if adjustment is not None:
        after["adjustment"] = {"seat": adjustment.seat, "points": adjustment.points,
                               "game": adjustment.game_no, "round": round_no}
    record("call.resolve", tournament_id=call.tournament_id, subject=subject(call),
           before={"state": before}, after=after, reason=ruling,
           actor=staff_actor(user, role), actor_user_id=user.id)
    return call
