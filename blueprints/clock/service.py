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

from dataclasses import dataclass
from datetime import datetime

from flask import url_for
from sqlalchemy import and_, func, select, update

from blueprints.common import unstorable
from core.clock import ClockView, fingerprint, round_clock
from core.lookup import rules_of
from core.rounds import ensure_round, round_row
from core.words import MOVEMENT_WORDS
from models import (
    Announcement,
    GameEntry,
    Round,
    Scoresheet,
    Seating,
    Table,
    Tournament,
    User,
    db,
    record,
    utcnow,
)
from tournament.clock import (
    ClockError,
    RoundClock,
)

MAX_ADJUST_MINUTES = 60
MAX_ROW_NUMBER = 2**31 - 1  # the largest integer column value on PostgreSQL


class ClockRefused(Exception):
    """The action does not apply now (a plain message for the director; 422)."""


UNSTORABLE = "{what} has a character that cannot be stored; please type it again."


class StaleClock(Exception):
    """Someone changed the clock since the director's page was drawn (409)."""


STALE_MESSAGE = ("Someone changed the clock just now (another director, or a second tap). "
                 "Nothing was changed; here is the clock as it is now.")


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


def grid_version(view: ClockView | None, grid: list[TableProgress]) -> str:
    return fingerprint(view.version if view else "none",
                       [(t.number, t.games, t.sheet_state, t.behind) for t in grid])
