"""Round clock as a value computed from stored instants.

A round clock is five stored facts (the Round row's columns of the same names): how long
the round is, when it started, when it was paused, how long it has spent paused so far,
and when it ended. Everything shown (seconds remaining, state, warnings) is computed from
them and the `now` the caller passes, so a server restart or a second worker loses nothing
and no timer or thread runs anywhere.

Actions (start, pause, resume, adjust, end) return a new RoundClock for the caller to
store; an action the clock's state does not allow raises ClockError with a plain message.

Knows nothing of requests, the database or the wall clock: the caller passes `now`
(a timezone-aware datetime), stores what comes back and writes the audit row. Chimes,
polling and what "time up" means for an unfinished game are left to the web layer and the
rule set.

Times are counted in whole seconds, rounded down. If an action's `now` is a little before
the last stored instant (two hosts whose clocks differ slightly), the action treats it as
that instant, and a `now` before the start shows the full duration remaining.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

NOT_STARTED = "not_started"
RUNNING = "running"
PAUSED = "paused"
TIME_UP = "time_up"
ENDED = "ended"
STATES: tuple[str, ...] = (NOT_STARTED, RUNNING, PAUSED, TIME_UP, ENDED)

WARNING_MINUTES: tuple[int, ...] = (10, 5, 1, 0)
"""Minutes left at which the room is warned; 0 means time is up."""

_SECOND = timedelta(seconds=1)


class ClockError(ValueError):
    """An action the round clock cannot take in its current state, or a bad stored value."""


def _check_aware(name: str, instant: datetime | None) -> None:
    if instant is None:
        return
    if not isinstance(instant, datetime):
        raise ClockError(f"{name} must be a date and time, not {instant!r}")
    if instant.tzinfo is None or instant.utcoffset() is None:
        raise ClockError(f"{name} must carry its time zone (a timezone-aware datetime)")


def _whole_seconds(later: datetime, earlier: datetime) -> int:
    """Whole seconds from `earlier` to `later`, never negative."""
    return max(0, (later - earlier) // _SECOND)


@dataclass(frozen=True)
class RoundClock:
    """One round's clock: the stored instants, and what they mean at a given `now`.

    duration_seconds: the round's length, changed by `adjust`.
    started_at: when the round started (None before it starts).
    paused_at: when the current pause began (None when not paused).
    paused_seconds: seconds spent in earlier, finished pauses.
    ended_at: when the director ended the round (None until then).
    """

    duration_seconds: int
    started_at: datetime | None = None
    paused_at: datetime | None = None
    paused_seconds: int = 0
    ended_at: datetime | None = None

    def __post_init__(self) -> None:
        for name in ("duration_seconds", "paused_seconds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ClockError(f"{name} must be a whole number of seconds, 0 or more")
        for name in ("started_at", "paused_at", "ended_at"):
            _check_aware(name, getattr(self, name))
        if self.started_at is None and (
            self.paused_at is not None or self.ended_at is not None or self.paused_seconds
        ):
            raise ClockError("a round that has not started cannot be paused or ended")
        if self.paused_at is not None and self.ended_at is not None:
            raise ClockError("an ended round cannot also be paused")

    @classmethod
    def stored(cls, duration_seconds: int, started_at: datetime | None = None,
               paused_at: datetime | None = None, paused_seconds: int = 0,
               ended_at: datetime | None = None) -> RoundClock:
        """The clock as stored, read as the nearest state a clock can be in: a round never
        started is not started (its pause and end dropped), an ended round is not also
        paused. Only actions make states, but a stored row may come from a damaged file
        or a hand edit, and every page shows the clock; the next action stores it whole."""
        if started_at is None:
            paused_at = ended_at = None
            paused_seconds = 0
        if ended_at is not None:
            paused_at = None
        return cls(duration_seconds=max(0, duration_seconds or 0), started_at=started_at,
                   paused_at=paused_at, paused_seconds=max(0, paused_seconds or 0),
                   ended_at=ended_at)

    # ---- what the clock shows ---------------------------------------------------------

    def elapsed(self, now: datetime) -> int:
        """Seconds of play so far: not counting pauses, frozen while paused and once ended.

        Not capped at the duration: after time is up it keeps counting the overrun.
        """
        _check_aware("now", now)
        if self.started_at is None:
            return 0
        until = self.ended_at or self.paused_at or now
        return max(0, _whole_seconds(until, self.started_at) - self.paused_seconds)

    def remaining(self, now: datetime) -> int:
        """Seconds left in the round: never negative, frozen while paused and once ended."""
        return max(0, self.duration_seconds - self.elapsed(now))

    def state(self, now: datetime) -> str:
        """One of NOT_STARTED, RUNNING, PAUSED, TIME_UP, ENDED.

        A paused clock is PAUSED even with no time left; it becomes TIME_UP on resume.
        """
        return self.reading(now)[0]

    def reading(self, now: datetime) -> tuple[str, int]:
        """(state(now), remaining(now)), the play so far counted once."""
        _check_aware("now", now)
        return _reading(self.duration_seconds, self.started_at, self.paused_at,
                        self.paused_seconds, self.ended_at, now)

    def warning(self, now: datetime) -> int | None:
        """The warning reached, in minutes left (10, 5, 1; 0 when time is up), or None.

        None before the start, once ended, and while more than 10 minutes remain. A level
        is reached at its exact minute: 600 seconds left is the 10-minute warning.
        """
        if self.state(now) in (NOT_STARTED, ENDED):
            return None
        left = self.remaining(now)
        reached = [minutes for minutes in WARNING_MINUTES if left <= minutes * 60]
        return min(reached) if reached else None

    # ---- what the director does -------------------------------------------------------

    def _latest(self, now: datetime) -> datetime:
        """`now`, or the last stored instant if `now` is earlier (time never runs back)."""
        _check_aware("now", now)
        stored = [instant for instant in (self.started_at, self.paused_at) if instant is not None]
        return max([now, *stored])

    def start(self, now: datetime) -> RoundClock:
        """Start the round now."""
        _check_aware("now", now)
        state = self.state(now)
        if state != NOT_STARTED:
            raise ClockError(f"the round cannot start: {_words(state)}")
        return replace(self, started_at=now)

    def pause(self, now: datetime) -> RoundClock:
        """Stop the clock; remaining time is kept until resume."""
        state = self.state(now)
        if state != RUNNING:
            raise ClockError(f"the clock cannot pause: {_words(state)}")
        return replace(self, paused_at=self._latest(now))

    def resume(self, now: datetime) -> RoundClock:
        """Restart a paused clock; the pause does not count against the round."""
        state = self.state(now)
        if state != PAUSED:
            raise ClockError(f"the clock cannot resume: {_words(state)}")
        assert self.paused_at is not None
        paused_for = _whole_seconds(self._latest(now), self.paused_at)
        return replace(self, paused_at=None, paused_seconds=self.paused_seconds + paused_for)

    def adjust(self, seconds: int, now: datetime) -> RoundClock:
        """Add time to the round (seconds > 0) or take it away (seconds < 0).

        The change applies to the time left as shown now: after time is up, adding five
        minutes gives five minutes left. Taking away more than is left leaves 0 left (time
        is up, or a paused clock sits at 0 until resumed). Before the start it changes the
        round's length, never below 0. Works while running, paused or time up, not once
        the round has ended.
        """
        if isinstance(seconds, bool) or not isinstance(seconds, int):
            raise ClockError(f"the adjustment must be a whole number of seconds, not {seconds!r}")
        state = self.state(now)
        if state == ENDED:
            raise ClockError(f"the clock cannot change: {_words(state)}")
        left = max(0, self.remaining(now) + seconds)
        return replace(self, duration_seconds=self.elapsed(now) + left)

    def end(self, now: datetime) -> RoundClock:
        """End the round now (a pause in progress counts as pause, not play)."""
        state = self.state(now)
        if state in (NOT_STARTED, ENDED):
            raise ClockError(f"the round cannot end: {_words(state)}")
        ended_at = self._latest(now)
        if self.paused_at is not None:
            paused_for = _whole_seconds(ended_at, self.paused_at)
            return replace(
                self,
                paused_at=None,
                paused_seconds=self.paused_seconds + paused_for,
                ended_at=ended_at,
            )
        return replace(self, ended_at=ended_at)


def stored_reading(duration_seconds: int, started_at: datetime | None,
                   paused_at: datetime | None, paused_seconds: int,
                   ended_at: datetime | None, now: datetime) -> tuple[str, int]:
    """RoundClock.stored(...).reading(now) without building the clock: what a poll that
    finds nothing new compares, many times a second. A stored value no clock can hold (a
    time without its zone) raises TypeError, where the clock would raise ClockError."""
    if started_at is None:
        return NOT_STARTED, max(0, duration_seconds or 0)
    if ended_at is not None:
        paused_at = None
    return _reading(max(0, duration_seconds or 0), started_at, paused_at,
                    max(0, paused_seconds or 0), ended_at, now)


def _reading(duration_seconds: int, started_at: datetime | None,
             paused_at: datetime | None, paused_seconds: int, ended_at: datetime | None,
             now: datetime) -> tuple[str, int]:
    if started_at is None:
        return (ENDED if ended_at is not None else NOT_STARTED), max(0, duration_seconds)
    until = ended_at or paused_at or now
    remaining = max(0, duration_seconds
                    - max(0, _whole_seconds(until, started_at) - paused_seconds))
    if ended_at is not None:
        return ENDED, remaining
    if paused_at is not None:
        return PAUSED, remaining
    return (TIME_UP if remaining == 0 else RUNNING), remaining


def _words(state: str) -> str:
    return {
        NOT_STARTED: "the round has not started",
        RUNNING: "the clock is running",
        PAUSED: "the clock is paused",
        TIME_UP: "time is up",
        ENDED: "the round has ended",
    }[state]
