"""What every part of a call shares: reaching a call, its waits and who is going, and the
one way its state changes (a compare-and-set UPDATE, so two directors tapping at once, or a
double tap, change a call once)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update

from core.errors import Conflict
from core.words import CallState
from models import (
    CALL_REASONS,
    CallClaim,
    DirectorCall,
    Player,
    Round,
    Seating,
    Tournament,
    User,
    db,
    utcnow,
)

# Waits on the queue change colour and words after these many seconds.
WAIT_LEVELS = (120, 300)


def call_in_tournament(tournament: Tournament, call_id: int) -> DirectorCall | None:
    call = db.session.get(DirectorCall, call_id)
    if call is None or call.tournament_id != tournament.id:
        return None
    return call


def subject(call: DirectorCall) -> str:
    """The call in an audit row."""
    return f"call:{call.id}"


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


def set_state(call: DirectorCall, states: tuple[str, ...], **values) -> bool:
    """Compare-and-set: change the call only if it is still in one of `states`; bump its
    version. False when someone else changed its state first."""
    result = db.session.execute(
        update(DirectorCall)
        .where(DirectorCall.id == call.id, DirectorCall.state.in_(states))
        .values(version=DirectorCall.version + 1, updated_at=utcnow(), **values)
        .execution_options(synchronize_session=False)
    )
    return result.rowcount == 1


def closed(call: DirectorCall) -> Conflict:
    """The refusal of a change to a call someone else changed first, saying how it stands
    now (read again: the row another request committed)."""
    db.session.refresh(call)
    if call.state == CallState.RESOLVED:
        who = db.session.get(User, call.resolved_by_id) if call.resolved_by_id else None
        by = f" by {who.name}" if who else ""
        return Conflict(call, f"This call was already resolved{by}: {call.ruling}")
    if call.state == CallState.CANCELLED:
        return Conflict(call, "The table cancelled this call.")
    return Conflict(call, "Someone changed this call first. Here it is as it stands now.")
