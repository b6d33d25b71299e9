"""The round clock as every page reads it: the current round's clock of a tournament (one
indexed query, once per request), the clock by a tournament's public code for the public
pages and polls, whether a poll's clock is still right, and the versions of the big
screen's parts (announcements, leaders).

The director's actions on the clock are the clock blueprint's (blueprints.clock.actions);
what every audience only reads lives here, below them all."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, bindparam, case, func, select

from core.codes import plain_code
from core.rows import read_rows, request_reads
from core.words import SheetState, clock_text
from models import Announcement, Round, Scoresheet, Tiebreak, Tournament, db, utcnow
from tournament.clock import (
    ENDED,
    NOT_STARTED,
    PAUSED,
    RUNNING,
    TIME_UP,
    RoundClock,
)

STATE_WORDS = {
    NOT_STARTED: "Not started",
    RUNNING: "Running",
    PAUSED: "Paused",
    TIME_UP: "Time",
    ENDED: "Ended",
}
# "or less": the words agree with the digits at every second (at 2:50, not "5 minutes")
WARNING_WORDS = {10: "10 minutes or less", 5: "5 minutes or less", 1: "1 minute or less",
                 0: "Time"}
@dataclass(frozen=True)
class ClockView:
    """What a phone shows of the current round's clock at one instant.

    `version` changes whenever what is shown would change other than by ticking: a clock
    action (clock_version), another round, or a change of state (e.g. running -> time up).
    Polls send it back; the same version (and the same seconds, give or take) means 204."""

    tournament_id: int
    round_no: int
    state: str
    remaining: int
    duration: int
    clock_version: int
    pause_reason: str
    warning: int | None

    @property
    def version(self) -> str:
        return clock_version(self.round_no, self.clock_version, self.state)

    @property
    def remaining_text(self) -> str:
        return clock_text(self.remaining)

    @property
    def state_words(self) -> str:
        return STATE_WORDS[self.state]

    @property
    def status_text(self) -> str:
        """The line under the digits, in words (the colour is never the only sign)."""
        if self.state == RUNNING:
            return WARNING_WORDS.get(self.warning, "Running")
        if self.state == PAUSED:
            return f"Paused: {self.pause_reason}" if self.pause_reason else "Paused"
        if self.state == TIME_UP:
            return "Time is up: stop play and enter your scores"
        if self.state == ENDED:
            return f"Round {self.round_no} has ended"
        return f"Round {self.round_no} has not started yet"

    @property
    def warning_class(self) -> str:
        if self.state == TIME_UP:
            return "clock--time"
        if self.warning in (10, 5, 1) and self.state in (RUNNING, PAUSED):
            return f"clock--warn-{self.warning}"
        return ""

    @property
    def in_play(self) -> bool:
        return self.state in (RUNNING, PAUSED, TIME_UP)


def clock_version(round_no: int, version: int, state: str) -> str:
    """ClockView.version, also built without a view (reading_unchanged)."""
    return f"{round_no}.{version}.{state}"


def round_clock(rnd) -> RoundClock:
    return RoundClock.stored(duration_seconds=rnd.duration_seconds, started_at=rnd.started_at,
                             paused_at=rnd.paused_at, paused_seconds=rnd.paused_seconds,
                             ended_at=rnd.ended_at)


def _view(tournament_id: int, rnd, now: datetime) -> ClockView | None:
    if rnd is None or rnd.number is None:
        return None
    clock = round_clock(rnd)
    return ClockView(
        tournament_id=tournament_id, round_no=rnd.number, state=clock.state(now),
        remaining=clock.remaining(now), duration=rnd.duration_seconds,
        clock_version=rnd.clock_version, pause_reason=rnd.pause_reason or "",
        warning=clock.warning(now),
    )


_CURRENT_ORDER = (
    # The round in play (started, not ended) first; then the next round to start
    # (lowest number); then the latest ended round (between rounds).
    case(
        (and_(Round.started_at.is_not(None), Round.ended_at.is_(None)), 0),
        (Round.started_at.is_(None), 1),
        else_=2,
    ),
    case((Round.started_at.is_(None), Round.number), else_=-Round.number),
)
CLOCK_COLUMNS = (Round.number, Round.duration_seconds, Round.started_at, Round.paused_at,
                  Round.paused_seconds, Round.ended_at, Round.pause_reason,
                  Round.clock_version)


# Built once per process (building a statement and its cache key costs more than running
# it); parameters are bound at each execution.
_CLOCK = (select(*CLOCK_COLUMNS).where(Round.tournament_id == bindparam("tournament_id"))
          .order_by(*_CURRENT_ORDER).limit(1))
_CLOCK_BY_CODE = (
    select(Tournament.id, Tournament.code, Tournament.name, Tournament.rounds, *CLOCK_COLUMNS)
    .outerjoin(Round, Round.tournament_id == Tournament.id)
    .where(Tournament.code == bindparam("code"))
    .order_by(*_CURRENT_ORDER).limit(1)
)


def current_round_id():
    """The id of the tournament's current round (the one clock_view reads) as a scalar
    subquery correlated to Tournament, for a statement that reads the tournament itself."""
    return (select(Round.id).where(Round.tournament_id == Tournament.id)
            .order_by(*_CURRENT_ORDER).limit(1).correlate(Tournament).scalar_subquery())


def remember(tournament_id: int, rnd, now: datetime) -> None:
    """The clock of `tournament_id` as read by a query of the caller's (its current round's
    CLOCK_COLUMNS, ordered by _CURRENT_ORDER): clock_view then answers from it, for the
    rest of this request, without a query."""
    request_reads()[("clock", tournament_id)] = _view(tournament_id, rnd, now)


def clock_view(tournament) -> ClockView | None:
    """The current round's clock for `tournament` (a row or its id), or None when no round
    exists yet. The "current" round is the one in play, else the next to start, else the
    last one ended. One indexed query, once per request."""
    if tournament is None:
        return None
    tournament_id = tournament if isinstance(tournament, int) else tournament.id
    cache, key = request_reads(), ("clock", tournament_id)
    if key not in cache:
        row = read_rows(_CLOCK, {"tournament_id": tournament_id}).first()
        cache[key] = _view(tournament_id, row, utcnow())
    return cache[key]


@dataclass(frozen=True)
class PublicTournament:
    """The little the public clock and display polls need of a tournament."""

    id: int
    code: str
    name: str
    rounds: int


def clock_by_code(code: str) -> tuple[PublicTournament, ClockView | None] | None:
    """A tournament (by its public code) and its clock, in one query; None if unknown."""
    code = plain_code(code)
    if code is None:
        return None
    row = db.session.execute(_CLOCK_BY_CODE, {"code": code}).first()
    if row is None:
        return None
    tournament = PublicTournament(row.id, row.code, row.name, row.rounds)
    view = _view(row.id, row, utcnow())
    request_reads()[("clock", row.id)] = view
    return tournament, view


def unchanged(view: ClockView | None, version: str | None, shown: str | None) -> bool:
    """True when a poll that shows `version` and `shown` seconds is still right (-> 204).

    `shown` is what the phone's own countdown says now; if it has drifted more than two
    seconds from the server's count (a phone that slept), the phone gets a fresh clock."""
    if view is None:
        return _still_right("none", None, 0, version, shown)
    return _still_right(view.version, view.state, view.remaining, version, shown)


def reading_unchanged(round_no: int | None, version_no: int, reading: tuple[str, int],
                      version: str | None, shown: str | None) -> bool:
    """unchanged() for round `round_no`'s clock (None: no round) at version `version_no`
    as `reading` (tournament.clock.stored_reading) has it, without building its view: the unchanged
    poll's, which reads the columns of its one statement itself."""
    if round_no is None:
        return _still_right("none", None, 0, version, shown)
    state, remaining = reading
    return _still_right(clock_version(round_no, version_no, state), state, remaining,
                        version, shown)


def _still_right(current: str, state: str | None, remaining: int, version: str | None,
                 shown: str | None) -> bool:
    if version != current:
        return False
    if state != RUNNING or not shown:
        return True
    try:
        return abs(int(shown) - remaining) <= 2
    except ValueError:
        return True


def announcements(tournament_id: int) -> list[Announcement]:
    return list(db.session.scalars(
        select(Announcement).where(Announcement.tournament_id == tournament_id,
                                   Announcement.active.is_(True))
        .order_by(Announcement.created_at.desc(), Announcement.id.desc())
    ))


def fingerprint(*parts) -> str:
    """A short version string for a polled part made of several things."""
    return hashlib.sha1(repr(parts).encode()).hexdigest()[:12]


def leaders_fingerprint(tournament_id: int) -> tuple:
    """Changes when the leaders can change: a sheet submitted, verified, amended or
    reopened (only submitted and verified sheets count for the leaders, and any change to
    one bumps its version), or a tie-break recorded or undone. A game saved on an open
    sheet does not change it. One query."""
    official = (Scoresheet.round_id.in_(select(Round.id)
                                        .where(Round.tournament_id == tournament_id))
                & Scoresheet.state.in_((SheetState.SUBMITTED, SheetState.VERIFIED)))
    breaks = Tiebreak.tournament_id == tournament_id
    row = db.session.execute(select(
        select(func.count(Scoresheet.id)).where(official).scalar_subquery(),
        select(func.coalesce(func.sum(Scoresheet.version), 0)).where(official)
        .scalar_subquery(),
        select(func.max(Scoresheet.updated_at)).where(official).scalar_subquery(),
        select(func.count(Tiebreak.id)).where(breaks).scalar_subquery(),
        select(func.max(Tiebreak.id)).where(breaks).scalar_subquery(),
    )).first()
    return tuple(str(value) for value in row)
