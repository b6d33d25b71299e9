"""The director's bar: one strip on every director page while the event is in play, so the
director can run it from one hand without hunting through pages. It shows the round clock
(tap to pause with a one-tap reason, tap to resume), the open calls with the oldest wait
(tap to the queue) and the round's sheets in / total (tap to the missing results).

Read-only: pausing and resuming go through the clock's own forms and views. Four small
queries; its poll gets 204 while `version` is unchanged."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, func, select

from core.clock import ClockView, clock_view, fingerprint
from core.words import OPEN_STATES, SheetState
from models import CallClaim, DirectorCall, Round, Scoresheet, Seating, Table, User, db, utcnow

# The one-tap pause reasons besides "Ruling at table N" (filled from the calls in hand).
PAUSE_CHOICES = ("Announcement", "Break")


@dataclass(frozen=True)
class Bar:
    tournament_id: int
    clock: ClockView | None
    open_calls: int
    oldest_wait: int             # seconds the oldest open call has waited (0 with none)
    handling: tuple[int, ...]    # tables of the calls this director is handling
    sheets_in: int
    sheets_total: int
    can_control: bool
    version: str

    def pause_choices(self, table: int | None = None) -> list[str]:
        """The one-tap reasons: a ruling at each table this director is handling (and at
        `table`, the call on screen), then the usual ones."""
        tables = sorted(set(self.handling) | ({table} if table else set()))
        return [f"Ruling at table {number}" for number in tables] + list(PAUSE_CHOICES)


def _calls(tournament_id: int, user: User | None, now: datetime) -> tuple[int, int, tuple]:
    count, oldest, latest, versions = db.session.execute(
        select(func.count(DirectorCall.id), func.min(DirectorCall.called_at),
               func.max(DirectorCall.updated_at), func.coalesce(func.sum(DirectorCall.version), 0))
        .where(DirectorCall.tournament_id == tournament_id,
               DirectorCall.state.in_(OPEN_STATES))
    ).one()
    handling: tuple[int, ...] = ()
    if user is not None and count:
        handling = tuple(db.session.scalars(
            select(Table.number).join(DirectorCall, DirectorCall.table_id == Table.id)
            .join(CallClaim, and_(CallClaim.call_id == DirectorCall.id,
                                  CallClaim.released_at.is_(None)))
            .where(DirectorCall.tournament_id == tournament_id,
                   DirectorCall.state.in_(OPEN_STATES), CallClaim.user_id == user.id)
            .distinct().order_by(Table.number)
        ))
    wait = max(0, int((now - oldest).total_seconds())) if oldest else 0
    return count, wait, (count, str(latest), versions, handling)


def _sheets(tournament_id: int, round_no: int) -> tuple[int, int]:
    """Tables seated in the round, and how many of their sheets are submitted or verified."""
    round_id = select(Round.id).where(Round.tournament_id == tournament_id,
                                      Round.number == round_no).scalar_subquery()
    total = db.session.scalar(
        select(func.count(func.distinct(Seating.table_id))).where(Seating.round_id == round_id))
    done = db.session.scalar(
        select(func.count(Scoresheet.id)).where(
            Scoresheet.round_id == round_id,
            Scoresheet.state.in_((SheetState.SUBMITTED, SheetState.VERIFIED))))
    return done or 0, total or 0


def director_bar(tournament, user: User | None, can_control: bool) -> Bar | None:
    """The bar for `tournament` as `user` sees it; None before any round is seated (there
    is nothing to run yet)."""
    clock = clock_view(tournament)
    if clock is None:
        return None
    now = utcnow()
    count, wait, calls_key = _calls(tournament.id, user, now)
    sheets_in, sheets_total = _sheets(tournament.id, clock.round_no)
    handling = calls_key[3]
    return Bar(
        tournament_id=tournament.id, clock=clock, open_calls=count, oldest_wait=wait,
        handling=handling, sheets_in=sheets_in, sheets_total=sheets_total,
        can_control=can_control,
        version=fingerprint(clock.version, calls_key, sheets_in, sheets_total, can_control),
    )
