"""The director's actions on the round clock: start, pause, resume, add or take away
minutes, end, and seat the next round.

Each action reads the round, lets tournament.clock.RoundClock decide, then writes the new
instants with a conditional UPDATE on clock_version (so two directors tapping at once, or
one double tap, change the clock once) and an audit row, in one unit of work
(core.writes). The phones are told by their next poll; nothing lives in a worker's memory.
The clock as every phone reads it is core.clock."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select, update

from blueprints.common import unstorable
from core.clock import round_clock
from core.errors import Conflict, Refused
from core.lookup import movement_words, rules_of
from core.rounds import ensure_round, round_row
from core.words import staff_actor
from core.writes import write
from models import Round, Tournament, User, db, record, utcnow
from tournament.clock import NOT_STARTED, ClockError, RoundClock

MAX_ADJUST_MINUTES = 60
UNSTORABLE = "{what} has a character that cannot be stored; please type it again."
STALE_MESSAGE = ("Someone changed the clock just now (another director, or a second tap). "
                 "Nothing was changed; here is the clock as it is now.")


class ClockRefused(Refused):
    """The action does not apply now: a plain message for the director about the whole
    form (no one field), 422."""

    def __init__(self, message: str):
        super().__init__(None, message)


class StaleClock(Conflict):
    """Someone changed the clock since the director's page was drawn (409); `current` is
    the round."""

    def __init__(self, current: Round | None = None):
        super().__init__(current, STALE_MESSAGE)


def _snapshot(rnd, now: datetime) -> dict:
    clock = round_clock(rnd)
    return {
        "round": rnd.number, "state": clock.state(now), "remaining": clock.remaining(now),
        "duration_seconds": rnd.duration_seconds,
        "started_at": rnd.started_at.isoformat() if rnd.started_at else None,
        "paused_at": rnd.paused_at.isoformat() if rnd.paused_at else None,
        "paused_seconds": rnd.paused_seconds,
        "ended_at": rnd.ended_at.isoformat() if rnd.ended_at else None,
        "pause_reason": rnd.pause_reason, "clock_version": rnd.clock_version,
    }


def next_round_number(tournament: Tournament) -> int | None:
    """The round that would start next: one after the last started round (1 at first);
    None once every round has started."""
    last = db.session.scalar(
        select(func.max(Round.number)).where(Round.tournament_id == tournament.id,
                                             Round.started_at.is_not(None))
    ) or 0
    return last + 1 if last < tournament.rounds else None


def round_in_play(tournament: Tournament) -> Round | None:
    return db.session.scalar(
        select(Round).where(Round.tournament_id == tournament.id,
                            Round.started_at.is_not(None), Round.ended_at.is_(None))
        .order_by(Round.number.desc()).limit(1)
    )


def _store(rnd: Round, new: RoundClock, expected_version: int, **extra) -> None:
    """Write the new instants only if nobody changed the clock meanwhile."""
    values = dict(duration_seconds=new.duration_seconds, started_at=new.started_at,
                  paused_at=new.paused_at, paused_seconds=new.paused_seconds,
                  ended_at=new.ended_at, clock_version=expected_version + 1, **extra)
    result = db.session.execute(
        update(Round).where(Round.id == rnd.id, Round.clock_version == expected_version)
        .values(**values).execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:
        raise StaleClock(rnd)
    db.session.expire(rnd)


@write
def _act(tournament: Tournament, round_no: int, version: int, user: User, role: str | None,
         action: str, change, reason: str = "", **extra) -> Round:
    """Apply `change(clock, now)` to round `round_no` at `version`, audited, one unit."""
    if unstorable(reason):
        raise ClockRefused(UNSTORABLE.format(what="The reason"))
    rnd = round_row(tournament, round_no)
    if rnd is None:
        raise ClockRefused(f"Round {round_no} has no seating yet.")
    if rnd.clock_version != version:
        raise StaleClock(rnd)
    now = utcnow()
    before = _snapshot(rnd, now)
    try:
        new = change(round_clock(rnd), now)
    except ClockError as error:
        message = str(error)
        raise ClockRefused(message[:1].upper() + message[1:] + ".") from error
    _store(rnd, new, version, **extra)
    after = _snapshot(rnd, now)
    record(action, tournament_id=tournament.id, subject=f"round:{rnd.id}", before=before,
           after=after, reason=reason, actor=staff_actor(user, role), actor_user_id=user.id)
    return rnd


def start_round(tournament: Tournament, round_no: int, version: int, user: User,
                role: str | None = None) -> Round:
    """Start round `round_no`: only the next round, only once its seating exists, and only
    after the round before it has ended.

    The version is checked before those rules: a second director pressing "Start round 3"
    just after the first gets "someone changed the clock just now" (409), not "round 3 is
    still in play"."""
    rnd = round_row(tournament, round_no)
    if rnd is not None and rnd.clock_version != version:
        raise StaleClock(rnd)
    playing = round_in_play(tournament)
    if playing is not None:
        raise ClockRefused(f"Round {playing.number} is still in play. End it before "
                           f"starting another round.")
    expected = next_round_number(tournament)
    if expected is None:
        raise ClockRefused("Every round of this tournament has already been played.")
    if round_no != expected:
        raise ClockRefused(f"Only round {expected} can start next.")
    if rnd is None:
        raise ClockRefused(f"Round {round_no} has no seating yet. Seat it first, then start "
                           f"it.")
    return _act(tournament, round_no, version, user, role, "clock.start",
                lambda clock, now: clock.start(now))


def pause_refusal(tournament: Tournament) -> str:
    """Why the rule set does not pause the clock ("" where it does)."""
    rules = rules_of(tournament)
    if rules.pause_for_rulings:
        return ""
    return (f"Under {rules.short_name} rules the clock is not paused: each round ends when "
            "the chime sounds. To pause anyway, tick the override and write why; it is kept "
            "in the audit trail.")


def extension_refusal(tournament: Tournament) -> str:
    """Why the rule set gives no extra minutes ("" where it does)."""
    rules = rules_of(tournament)
    if rules.clock_extensions:
        return ""
    return (f"Under {rules.short_name} rules no extensions are provided: minutes cannot be "
            "added to a round (they can still be taken away to correct the clock).")


def pause(tournament: Tournament, round_no: int, version: int, reason: str, user: User,
          role: str | None = None, override: bool = False) -> Round:
    """Pause the clock with a reason every table sees. Under a rule set that does not pause
    for rulings, only as the director's override (audited as such)."""
    reason = reason.strip()
    if not reason:
        raise ClockRefused("Say why the clock is paused; every table will see it.")
    refusal = pause_refusal(tournament)
    if refusal and not override:
        raise ClockRefused(refusal)
    return _act(tournament, round_no, version, user, role,
                "clock.pause_override" if refusal else "clock.pause",
                lambda clock, now: clock.pause(now), reason=reason, pause_reason=reason[:200])


def resume(tournament: Tournament, round_no: int, version: int, reason: str, user: User,
           role: str | None = None) -> Round:
    return _act(tournament, round_no, version, user, role, "clock.resume",
                lambda clock, now: clock.resume(now), reason=reason.strip(), pause_reason="")


def adjust(tournament: Tournament, round_no: int, version: int, minutes: int, reason: str,
           user: User, role: str | None = None) -> Round:
    """Add minutes to the round (minutes > 0) or take them away (minutes < 0)."""
    if minutes == 0 or abs(minutes) > MAX_ADJUST_MINUTES:
        raise ClockRefused(f"Add or take away between 1 and {MAX_ADJUST_MINUTES} minutes.")
    if minutes > 0 and extension_refusal(tournament):
        raise ClockRefused(extension_refusal(tournament))

    def change(clock: RoundClock, now: datetime) -> RoundClock:
        if minutes < 0 and clock.state(now) != NOT_STARTED:
            _check_not_more_than_left(clock.remaining(now), -minutes)
        return clock.adjust(minutes * 60, now)

    return _act(tournament, round_no, version, user, role, "clock.adjust", change,
                reason=reason.strip())


def _check_not_more_than_left(left: int, minutes: int) -> None:
    """Taking away more minutes than are left would call time at every table at once: a
    typed 60 for 6 must not do that. Taking away what is left, rounded up, still does, on
    purpose (a minute's slack: the clock runs on while the director types)."""
    if left == 0:
        raise ClockError("time is up already: there is nothing to take away")
    whole = -(-left // 60)
    if minutes * 60 >= left + 120:
        shown = f"{left // 60}:{left % 60:02d}"
        raise ClockError(f"only {shown} is left, less than {minutes} minutes: nothing was "
                         f"changed. To call time at every table now, take away {whole} "
                         f"minute{'s' if whole != 1 else ''}")


def end_round(tournament: Tournament, round_no: int, version: int, user: User,
              role: str | None = None) -> Round:
    return _act(tournament, round_no, version, user, role, "clock.end",
                lambda clock, now: clock.end(now), pause_reason="")


@write
def seat_round(tournament: Tournament, round_no: int, user: User,
               role: str | None = None) -> Round:
    """Create round `round_no`'s seating (the movement from round 1) so it can be started.

    Only the next round; seating is a separate act from starting, as directors announce
    the movement first."""
    expected = next_round_number(tournament)
    if expected is None or round_no != expected:
        raise ClockRefused(f"Only round {expected} can be seated here." if expected else
                           "Every round of this tournament has already been played.")
    if round_row(tournament, round_no) is not None:
        raise ClockRefused(f"Round {round_no} is already seated.")
    try:
        rnd = ensure_round(tournament, round_no)
    except ValueError as error:
        raise ClockRefused(str(error)) from error
    record("round.seat", tournament_id=tournament.id, subject=f"round:{rnd.id}",
           after={"round": round_no,
                  "movement": movement_words(tournament)},
           actor=staff_actor(user, role), actor_user_id=user.id)
    return rnd
