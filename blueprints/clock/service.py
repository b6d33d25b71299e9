"""The round clock as rows: what every phone shows, and what the director does to it.

The only bridge between models.Round's clock columns and tournament.clock.RoundClock.
Reading (`clock_view`) is one query per request, cached on flask.g, because it runs on
every table page and every poll. Each action reads the round, lets RoundClock decide,
then writes the new instants with a conditional UPDATE on clock_version (so two directors
tapping at once, or one double tap, change the clock once) and an audit row, in one
transaction. The phones are told by their next poll; nothing lives in a worker's memory.

Also here: the director's grid of tables (games entered per table this round, and which
tables are behind the clock) and the announcements on the big screen."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from flask import has_request_context, request, url_for
from sqlalchemy import and_, case, func, select, update

from blueprints.common import unstorable
from core.lookup import plain_code, rules_of
from core.rounds import ensure_round, round_row
from core.words import MOVEMENT_WORDS
from models import (
    Announcement,
    GameEntry,
    Round,
    Scoresheet,
    Seating,
    Table,
    Tiebreak,
    Tournament,
    User,
    db,
    record,
    utcnow,
)
from tournament.clock import (
    ENDED,
    NOT_STARTED,
    PAUSED,
    RUNNING,
    TIME_UP,
    ClockError,
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
MAX_ADJUST_MINUTES = 60
MAX_ROW_NUMBER = 2**31 - 1  # the largest integer column value on PostgreSQL


class ClockRefused(Exception):
    """The action does not apply now (a plain message for the director; 422)."""


UNSTORABLE = "{what} has a character that cannot be stored; please type it again."


class StaleClock(Exception):
    """Someone changed the clock since the director's page was drawn (409)."""


STALE_MESSAGE = ("Someone changed the clock just now (another director, or a second tap). "
                 "Nothing was changed; here is the clock as it is now.")


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
        return f"{self.round_no}.{self.clock_version}.{self.state}"

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


def clock_text(seconds: int | None) -> str:
    """Seconds as M:SS (minutes are not capped at 59: a 75-minute round shows 75:00); ""
    for None. The one M:SS of the app: the clock, and the waits of the calls."""
    if seconds is None:
        return ""
    minutes, secs = divmod(max(0, int(seconds)), 60)
    return f"{minutes}:{secs:02d}"


def round_clock(rnd) -> RoundClock:
    return RoundClock(duration_seconds=rnd.duration_seconds, started_at=rnd.started_at,
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
_CLOCK_COLUMNS = (Round.number, Round.duration_seconds, Round.started_at, Round.paused_at,
                  Round.paused_seconds, Round.ended_at, Round.pause_reason,
                  Round.clock_version)


def _cache() -> dict:
    """Views already read in this request (none outside a request). Kept on the request,
    not on flask.g: an app context can outlive a request (tests, CLI)."""
    if not has_request_context():
        return {}
    return request.__dict__.setdefault("_clock_views", {})


def clock_view(tournament) -> ClockView | None:
    """The current round's clock for `tournament` (a row or its id), or None when no round
    exists yet. The "current" round is the one in play, else the next to start, else the
    last one ended. One indexed query, once per request."""
    if tournament is None:
        return None
    tournament_id = tournament if isinstance(tournament, int) else tournament.id
    cache = _cache()
    if tournament_id not in cache:
        row = db.session.execute(
            select(*_CLOCK_COLUMNS).where(Round.tournament_id == tournament_id)
            .order_by(*_CURRENT_ORDER).limit(1)
        ).first()
        cache[tournament_id] = _view(tournament_id, row, utcnow())
    return cache[tournament_id]


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
    row = db.session.execute(
        select(Tournament.id, Tournament.code, Tournament.name, Tournament.rounds,
               *_CLOCK_COLUMNS)
        .outerjoin(Round, Round.tournament_id == Tournament.id)
        .where(Tournament.code == code)
        .order_by(*_CURRENT_ORDER).limit(1)
    ).first()
    if row is None:
        return None
    tournament = PublicTournament(row.id, row.code, row.name, row.rounds)
    view = _view(row.id, row, utcnow())
    _cache()[row.id] = view
    return tournament, view


def unchanged(view: ClockView | None, version: str | None, shown: str | None) -> bool:
    """True when a poll that shows `version` and `shown` seconds is still right (-> 204).

    `shown` is what the phone's own countdown says now; if it has drifted more than two
    seconds from the server's count (a phone that slept), the phone gets a fresh clock."""
    current = view.version if view is not None else "none"
    if version != current:
        return False
    if view is None or view.state != RUNNING or not shown:
        return True
    try:
        return abs(int(shown) - view.remaining) <= 2
    except ValueError:
        return True


# ---- the director's actions ----------------------------------------------------------------

def _actor(user: User, role: str | None) -> str:
    return f"{user.name} ({role})" if role else user.name


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
        db.session.rollback()
        raise StaleClock(STALE_MESSAGE)
    db.session.expire(rnd)


def _act(tournament: Tournament, round_no: int, version: int, user: User, role: str | None,
         action: str, change, reason: str = "", **extra) -> Round:
    """Apply `change(clock, now)` to round `round_no` at `version`, audited, one transaction."""
    if unstorable(reason):
        raise ClockRefused(UNSTORABLE.format(what="The reason"))
    rnd = round_row(tournament, round_no)
    if rnd is None:
        raise ClockRefused(f"Round {round_no} has no seating yet.")
    if rnd.clock_version != version:
        raise StaleClock(STALE_MESSAGE)
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
           after=after, reason=reason, actor=_actor(user, role), actor_user_id=user.id)
    db.session.commit()
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
        raise StaleClock(STALE_MESSAGE)
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
    return _act(tournament, round_no, version, user, role, "clock.adjust",
                lambda clock, now: clock.adjust(minutes * 60, now), reason=reason.strip())


def end_round(tournament: Tournament, round_no: int, version: int, user: User,
              role: str | None = None) -> Round:
    return _act(tournament, round_no, version, user, role, "clock.end",
                lambda clock, now: clock.end(now), pause_reason="")


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
        db.session.rollback()
        raise ClockRefused(str(error)) from error
    record("round.seat", tournament_id=tournament.id, subject=f"round:{rnd.id}",
           after={"round": round_no,
                  "movement": MOVEMENT_WORDS[rules_of(tournament).movement]},
           actor=_actor(user, role), actor_user_id=user.id)
    db.session.commit()
    return rnd


@dataclass(frozen=True)
class Unsubmitted:
    """An earlier round with tables whose sheet is not submitted yet."""

    round_no: int
    tables: tuple[int, ...]

    SHOWN = 12  # table numbers named before "and N more"

    @property
    def text(self) -> str:
        """ "7 tables have not submitted round 1: tables 2, 3, 5, 6, 7, 8 and 9." """
        count = len(self.tables)
        named = [str(number) for number in self.tables[:self.SHOWN]]
        if count > self.SHOWN:
            listed = ", ".join(named) + f" and {count - self.SHOWN} more"
        elif count > 1:
            listed = ", ".join(named[:-1]) + f" and {named[-1]}"
        else:
            listed = named[0]
        if count == 1:
            return f"1 table has not submitted round {self.round_no}: table {listed}."
        return f"{count} tables have not submitted round {self.round_no}: tables {listed}."


def unsubmitted_before(tournament: Tournament, round_no: int | None) -> list[Unsubmitted]:
    """The rounds before `round_no` with seated tables whose sheet is not submitted (no
    sheet yet, or still open), for the warning beside "Seat round N" / "Start round N".
    Only a warning: the director decides. Submitted or verified sheets count as done (a
    table guide's verification is the results page's business). One query."""
    if not round_no or round_no <= 1:
        return []
    rows = db.session.execute(
        select(Round.number, Table.number, Scoresheet.state)
        .select_from(Seating)
        .join(Round, Round.id == Seating.round_id)
        .join(Table, Table.id == Seating.table_id)
        .outerjoin(Scoresheet, and_(Scoresheet.round_id == Seating.round_id,
                                    Scoresheet.table_id == Seating.table_id))
        .where(Round.tournament_id == tournament.id, Round.number < round_no)
        .distinct().order_by(Round.number, Table.number)
    )
    missing: dict[int, list[int]] = {}
    for number, table_no, state in rows:
        if state not in ("submitted", "verified"):
            missing.setdefault(number, []).append(table_no)
    return [Unsubmitted(number, tuple(tables)) for number, tables in missing.items()]


# ---- announcements on the big screen -------------------------------------------------------

def announcements(tournament_id: int) -> list[Announcement]:
    return list(db.session.scalars(
        select(Announcement).where(Announcement.tournament_id == tournament_id,
                                   Announcement.active.is_(True))
        .order_by(Announcement.created_at.desc(), Announcement.id.desc())
    ))


def post_announcement(tournament: Tournament, text: str, user: User,
                      role: str | None = None) -> Announcement:
    text = " ".join(text.split())
    if not text:
        raise ClockRefused("Write the announcement first.")
    if unstorable(text):
        raise ClockRefused(UNSTORABLE.format(what="The announcement"))
    item = Announcement(tournament_id=tournament.id, text=text[:280], created_by_id=user.id)
    db.session.add(item)
    db.session.flush()
    record("announcement.post", tournament_id=tournament.id, subject=f"announcement:{item.id}",
           after={"text": item.text}, actor=_actor(user, role), actor_user_id=user.id)
    db.session.commit()
    return item


def clear_announcement(tournament: Tournament, announcement_id: int, user: User,
                       role: str | None = None) -> None:
    if not 1 <= announcement_id <= MAX_ROW_NUMBER:
        raise LookupError(announcement_id)
    item = db.session.get(Announcement, announcement_id)
    if item is None or item.tournament_id != tournament.id:
        raise LookupError(announcement_id)
    if not item.active:
        return  # cleared already (a second tap): nothing to do twice
    item.active = False
    record("announcement.clear", tournament_id=tournament.id,
           subject=f"announcement:{item.id}", before={"text": item.text},
           actor=_actor(user, role), actor_user_id=user.id)
    db.session.commit()


# ---- the director's grid of tables ---------------------------------------------------------

@dataclass(frozen=True)
class TableProgress:
    number: int
    games: int
    sheet_state: str          # "none" (nothing entered yet), open, submitted, verified
    behind: bool
    url: str

    @property
    def state_words(self) -> str:
        return {"none": "no games yet", "open": "open", "submitted": "submitted",
                "verified": "verified"}[self.sheet_state]

    @property
    def done(self) -> bool:
        return self.sheet_state in ("submitted", "verified")


def is_behind(games: int, done: bool, view: ClockView, games_per_round: int) -> bool:
    """A table is behind the clock when its round is in play, its sheet is not submitted,
    and the time left for each game it still has to play is less than half an even share
    of the round (the round's own length, with minutes added or taken away, / games per
    round):

        remaining / (games_per_round - games) < (view.duration / games_per_round) / 2

    With 4 games in 50 minutes (12.5 minutes each, so the line is 6.25 minutes a game):
    2 games with 10 minutes left is behind (5 minutes for each of 2 games), 3 is not; no
    game at 25 minutes left is not yet; once time is up, every table with games still to
    play is."""
    if done or not view.in_play:
        return False
    games_left = games_per_round - games
    if games_left <= 0:
        return False
    return 2 * games_per_round * view.remaining < view.duration * games_left


def behind_minutes(round_seconds: int, games_per_round: int) -> float:
    """Half an even share of the round, in minutes: the "behind" line per game to play."""
    return round_seconds / games_per_round / 2 / 60


def table_grid(tournament: Tournament, view: ClockView | None) -> list[TableProgress]:
    """Every table's progress in the current round, from one query."""
    if view is None:
        return []
    sheet = (select(Scoresheet.table_id, Scoresheet.state,
                    func.count(GameEntry.id).label("games"))
             .join(Round, Round.id == Scoresheet.round_id)
             .outerjoin(GameEntry, GameEntry.sheet_id == Scoresheet.id)
             .where(Round.tournament_id == tournament.id, Round.number == view.round_no)
             .group_by(Scoresheet.table_id, Scoresheet.state).subquery())
    rows = db.session.execute(
        select(Table.number, sheet.c.state, sheet.c.games)
        .outerjoin(sheet, sheet.c.table_id == Table.id)
        .where(Table.tournament_id == tournament.id).order_by(Table.number)
    )
    grid = []
    for number, state, games in rows:
        games = games or 0
        state = state or "none"
        done = state in ("submitted", "verified")
        grid.append(TableProgress(
            number=number, games=games, sheet_state=state,
            behind=is_behind(games, done, view, tournament.games_per_round),
            url=url_for("table.director_sheet", tournament_id=tournament.id,
                        table_no=number, round_no=view.round_no)))
    return grid


def fingerprint(*parts) -> str:
    """A short version string for a polled part made of several things."""
    return hashlib.sha1(repr(parts).encode()).hexdigest()[:12]


def grid_version(view: ClockView | None, grid: list[TableProgress]) -> str:
    return fingerprint(view.version if view else "none",
                       [(t.number, t.games, t.sheet_state, t.behind) for t in grid])


def leaders_fingerprint(tournament_id: int) -> tuple:
    """Changes when the leaders can change: a sheet submitted, verified, amended or
    reopened (only submitted and verified sheets count for the leaders, and any change to
    one bumps its version), or a tie-break recorded or undone. A game saved on an open
    sheet does not change it. One query."""
    official = (Scoresheet.round_id.in_(select(Round.id)
                                        .where(Round.tournament_id == tournament_id))
                & Scoresheet.state.in_(("submitted", "verified")))
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
