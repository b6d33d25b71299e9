"""A table's scoresheet as every audience reads and rules on it: which round a table plays
now (`current_round`, and the versions its page's poll compares), the sheet of a table in
a round, and the pieces every sheet write shares (creating the sheet race-free, storing
every game's effective points, clearing initials whose total changed). The director's
ruling from a call (`add_adjustment`) lives here too: the calls blueprint makes it, in the
same unit of work as the resolved call.

Which round is current for a table (`current_round`): the latest round whose clock is
running (started, not ended); with no clock running, the first seated round whose sheet at
this table is not submitted; when every seated round is submitted, the last seated round.

Points stored on GameEntry are always the EFFECTIVE points (tournament.scoring.round_lines
applied to the whole sheet, so a round voided by time called stores 0 everywhere):
standings are then a plain sum."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from types import SimpleNamespace

from sqlalchemy import bindparam, case, exists, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Row
from sqlalchemy.orm import joinedload

from core.clock import round_clock
from core.lookup import rules_of
from core.rounds import round_row
from core.rows import read_rows, request_reads
from core.words import SEATS, SheetState
from models import (
    Round,
    Scoresheet,
    Seating,
    Table,
    User,
    db,
    record,
    utcnow,
)
from tournament.clock import PAUSED, RUNNING
from tournament.rules import RuleSet
from tournament.scoring import Game, InvalidGame, round_lines

# The statements of the table pages' reads, built once per process (building one and its
# cache key costs more than running it); parameters are bound at each execution.
_OPEN_ROUNDS_BEFORE = (
    select(Round.id, Round.number)
    .outerjoin(Scoresheet, (Scoresheet.round_id == Round.id)
               & (Scoresheet.table_id == bindparam("table_id")))
    .where(Round.tournament_id == bindparam("tournament_id"),
           Round.number < bindparam("number"),
           exists().where(Seating.round_id == Round.id,
                          Seating.table_id == bindparam("table_id")),
           Scoresheet.id.is_(None) | (Scoresheet.state == SheetState.OPEN))
    .order_by(Round.number)
)
_SHEET = select(Scoresheet).where(Scoresheet.round_id == bindparam("round_id"),
                                  Scoresheet.table_id == bindparam("table_id"))
# A write reads its sheet with the rows it changes joined in, not a round trip for each
# collection when first touched: the initials always (any change may clear them, and
# the review's writes check them), the games when asked. During the games no one has
# initialled yet, so the join adds no rows.
_SHEET_TO_WRITE = {games: _SHEET.options(joinedload(Scoresheet.signoffs), *(
    (joinedload(Scoresheet.games),) if games else ())) for games in (False, True)}


def _round_choice(query, numbered: bool, table_id, number):
    """`query` (over Round, outer-joined to the table's Scoresheet) narrowed to the
    table's round as round_and_version chooses it: round `number` if the table has seats
    in it; else the latest running round, else the first seated round whose sheet here is
    not submitted, else the last seated round."""
    # correlate_except: the round (and a table read around it) are the enclosing query's;
    # left to itself, the EXISTS would take its own copy of "table" and ask whether any
    # table sits in the round.
    if numbered:
        return query.where(Round.number == number, exists().where(
            Seating.round_id == Round.id, Seating.table_id == table_id
        ).correlate_except(Seating))
    running = Round.started_at.is_not(None) & Round.ended_at.is_(None)
    unfinished = Scoresheet.id.is_(None) | (Scoresheet.state == SheetState.OPEN)
    return query.where(exists().where(Seating.round_id == Round.id)
                       .correlate_except(Seating)).order_by(
        case((running, 0), (unfinished, 1), else_=2),
        case((running, -Round.number), (unfinished, Round.number), else_=-Round.number))


def _round_and_version_query(numbered: bool, entity: bool = True):
    """The round (the entity, or its columns as a plain row with the sheet's version as
    `sheet_version`) and its sheet's version at this table."""
    query = (
        (select(Round, Scoresheet.version) if entity else
         select(*Round.__table__.c, Scoresheet.version.label("sheet_version"),
                Scoresheet.draft_at.label("sheet_draft_at")))
        .outerjoin(Scoresheet, (Scoresheet.round_id == Round.id)
                   & (Scoresheet.table_id == bindparam("table_id")))
        .where(Round.tournament_id == bindparam("tournament_id"))
    )
    return _round_choice(query, numbered, bindparam("table_id"), bindparam("number")).limit(1)


def table_round_id(numbered: bool):
    """The id of the table's round (as round_and_version chooses it) as a scalar subquery
    correlated to Table, for a statement that reads the table itself; round_and_version's
    `number` is the parameter `round_no`."""
    query = (select(Round.id)
             .outerjoin(Scoresheet, (Scoresheet.round_id == Round.id)
                        & (Scoresheet.table_id == Table.id))
             .where(Round.tournament_id == Table.tournament_id))
    return (_round_choice(query, numbered, Table.id, bindparam("round_no")).limit(1)
            .correlate(Table).scalar_subquery())


_ROUND_NUMBERED = _round_and_version_query(numbered=True)
_ROUND_CURRENT = _round_and_version_query(numbered=False)
_ROUND_ROW_NUMBERED = _round_and_version_query(numbered=True, entity=False)
_ROUND_ROW_CURRENT = _round_and_version_query(numbered=False, entity=False)


def open_rounds_before(table: Table, number: int) -> list:
    """Seated rounds before round `number` whose sheet at this table is not submitted
    (none entered, or open), in one query: rows of (id, number), for a page to show."""
    return read_rows(_OPEN_ROUNDS_BEFORE, {
        "table_id": table.id, "tournament_id": table.tournament_id, "number": number}).all()


def sheet_for(round_: Round, table: Table, *, to_write: bool = False,
              games: bool = False) -> Scoresheet | None:
    """The round's sheet at this table, or None. `to_write`: with its initials loaded,
    and `games` (which implies to_write) its games too, in the same query
    (_SHEET_TO_WRITE)."""
    params = {"round_id": round_.id, "table_id": table.id}
    if not (to_write or games):
        return db.session.scalar(_SHEET, params)
    return db.session.scalars(_SHEET_TO_WRITE[games], params).unique().first()


def round_and_version(table: Table, number: int | None = None) -> tuple[Round, int] | None:
    """(round, its sheet's version at this table: 1 when no sheet yet) in ONE query.

    `number` given: that round, if this table has seats in it. Else the current round:
    the latest running one; with no clock running, the first seated round whose sheet
    here is not submitted; when every one is submitted, the last seated round."""
    params = {"table_id": table.id, "tournament_id": table.tournament_id}
    if number is not None:
        row = db.session.execute(_ROUND_NUMBERED, {**params, "number": number}).first()
    else:
        row = db.session.execute(_ROUND_CURRENT, params).first()
    if row is None:
        return None
    return row[0], row[1] or 1


def current_round(table: Table) -> Round | None:
    """The round this table plays now (see the module docstring for the reading)."""
    found = round_and_version(table)
    return found[0] if found else None


# How long East's answers so far for a game (Scoresheet.draft) stay on the players' own
# phones after East's last tap: a draft older than this was left behind (East went back
# to the table's page, or put the phone down), not one East is still entering.
DRAFT_SHOWN_FOR = timedelta(minutes=3)


def draft_live(draft_at: datetime | None, now: datetime) -> bool:
    """Whether a draft stored at `draft_at` is still shown (DRAFT_SHOWN_FOR)."""
    return draft_at is not None and now - draft_at < DRAFT_SHOWN_FOR


def draft_mark(draft_at: datetime | None, now: datetime) -> str:
    """The draft's part of the panel's poll token: empty without a live draft, so a table
    whose players have no own phones keeps the token it had; else when it was stored, so
    each new answer, and the draft going stale, changes the token once."""
    if not draft_live(draft_at, now):
        return ""
    return f"-d{round(draft_at.timestamp() * 1_000_000)}"


@dataclass(frozen=True)
class PollState:
    """What the table panel's poll compares: the round, its sheet's version and its clock
    (version and state), and East's draft (draft_mark), read without building the page.

    `round` is the round's row, not the entity: the table page and its poll only show it
    (its columns, as the entity's attributes), and the row costs a fraction of the
    entity's load. A write takes its round from round_and_version."""

    round: Row | SimpleNamespace  # a row of its own read, or of core.table_pages' read
    sheet_version: int
    clock_version: int
    clock_state: str
    players_version: int = 0  # the tournament's: the panel names the players
    draft: str = ""  # draft_mark of the sheet's draft, as read

    @property
    def token(self) -> str:
        return (f"{self.round.number}-{self.sheet_version}-{self.clock_version}"
                f"-{self.clock_state}-{self.players_version}{self.draft}")


def poll_state(table: Table, number: int | None = None) -> PollState | None:
    """The table's round (`number`, or the current one, read as round_and_version reads
    it) and its versions, in one query (none when this request read them with the table:
    remember_round); None when there is no such seated round."""
    # Read here when nothing was remembered: a caller that did not read the table through
    # core.table_pages.
    remembered = request_reads().get(("round", table.id, number), _UNREAD)
    if remembered is not _UNREAD:
        row = remembered
    elif number is not None:
        params = {"table_id": table.id, "tournament_id": table.tournament_id}
        row = read_rows(_ROUND_ROW_NUMBERED, {**params, "number": number}).first()
    else:
        params = {"table_id": table.id, "tournament_id": table.tournament_id}
        row = read_rows(_ROUND_ROW_CURRENT, params).first()
    if row is None:
        return None
    now = utcnow()
    return PollState(round=row, sheet_version=row.sheet_version or 1,
                     clock_version=row.clock_version, clock_state=clock_state(row, now),
                     players_version=table.tournament.players_version,
                     draft=draft_mark(row.sheet_draft_at, now))


_UNREAD = object()


def remember_round(table_id: int, number: int | None, row) -> None:
    """The table's round `number` (None: the current one) as a statement of the caller's
    read it (its columns, `sheet_version` and `sheet_draft_at`, as table_round_id chooses
    it; None: no such seated round): poll_state answers from it for the rest of this
    request."""
    request_reads()[("round", table_id, number)] = row


def clock_state(round_: Round, now=None) -> str:
    """This round's clock state (core.clock.round_clock reads its instants).
    Not the tournament's current clock (clock_for): a table may still be on an earlier
    round."""
    return round_clock(round_).state(now or utcnow())


# The clock's last minute: a table whose phone shows 0:00 a few seconds before the
# server's clock does, or a director who calls time as the clock runs out, is not refused.
TIME_CALL_GRACE_SECONDS = 60


def minutes_still_on_clock(round_: Round, now=None) -> int | None:
    """The whole minutes left while this round's clock still runs or is paused with more
    than its last minute to go: time has not been called. None when the clock is out,
    ended, or was never started (some directors keep time on a wall clock)."""
    clock, now = round_clock(round_), now or utcnow()
    if clock.state(now) not in (RUNNING, PAUSED):
        return None
    left = clock.remaining(now)
    return left // 60 if left > TIME_CALL_GRACE_SECONDS else None


def _insert_sheet(round_: Round, table: Table) -> None:
    """Add this round's sheet for this table unless it exists, inside the caller's
    transaction (never committed here). On SQLite and PostgreSQL an INSERT .. ON CONFLICT
    DO NOTHING, so a sheet another request created meanwhile is simply kept and nothing
    fails; elsewhere a plain insert (a race then raises IntegrityError)."""
    values = dict(round_id=round_.id, table_id=table.id, version=1, state=SheetState.OPEN,
                  submitted_by="", amend_reason="", pending_adjustments=[],
                  updated_at=utcnow())
    dialect = db.session.get_bind().dialect.name
    if dialect in ("sqlite", "postgresql"):
        insert = sqlite.insert if dialect == "sqlite" else postgresql.insert
        db.session.execute(insert(Scoresheet).values(**values)
                           .on_conflict_do_nothing(index_elements=["round_id", "table_id"]))
    else:
        db.session.add(Scoresheet(**values))
        db.session.flush()


def ensure_sheet(round_: Round, table: Table, *, games: bool = False) -> Scoresheet:
    """This round's sheet for this table, created if missing: flushed in the write's own
    transaction (never committed on its own), so a write refused later leaves no sheet.
    Read to be written (sheet_for's to_write; `games`: with its games)."""
    sheet = sheet_for(round_, table, to_write=True, games=games)
    if sheet is not None:
        return sheet
    _insert_sheet(round_, table)
    sheet = sheet_for(round_, table, to_write=True, games=games)
    assert sheet is not None
    return sheet


def rescore(sheet: Scoresheet, rules: RuleSet) -> None:
    """Store every game's effective points (time called applied to the whole round)."""
    entries = sorted(sheet.games, key=lambda e: e.number)
    if not entries:
        return
    games = [Game.from_dict(entry.record) for entry in entries]
    for entry, lines in zip(entries, round_lines(rules, games), strict=True):
        points = dict.fromkeys(SEATS, 0)
        for line in lines:
            points[line.seat] += line.points
        if entry.points != points:
            # Initials confirm scores: scores that changed are confirmed again.
            entry.seat_initials = {}
            sheet.west_checked_at, sheet.west_initials = None, ""
        entry.points = points


def totals(sheet: Scoresheet) -> dict[str, int]:
    sums = dict.fromkeys(SEATS, 0)
    for entry in sheet.games:
        for seat in SEATS:
            sums[seat] += entry.points[seat]
    return sums


def stored_totals(sheet: Scoresheet) -> dict[str, int]:
    """`totals` as the sheet's summed columns hold them (models.sheet keeps them on every
    flush that changes a game): for a write that changes no game, without loading them."""
    return {seat: getattr(sheet, f"total_{seat.lower()}") for seat in SEATS}


def clear_changed_signoffs(sheet: Scoresheet, before: dict[str, int]) -> list[str]:
    """A player's initials stand for a total; drop those whose total changed."""
    after = totals(sheet)
    cleared = []
    if after == before:
        return cleared  # no total changed: the initials (not even loaded) all stand
    # read without flushing the write's changes first: they flush once, at its commit
    with db.session.no_autoflush:
        signoffs = list(sheet.signoffs)
    for signoff in signoffs:
        if before.get(signoff.seat) != after.get(signoff.seat):
            cleared.append(signoff.seat)
            sheet.signoffs.remove(signoff)
    return cleared


def subject_of(sheet: Scoresheet) -> str:
    return f"sheet:{sheet.id}"


def unverify(sheet: Scoresheet) -> bool:
    """A verified sheet that a director changes goes back to awaiting verification: the
    table guide verified other scores than it now holds. True when it did."""
    if sheet.state != SheetState.VERIFIED:
        return False
    sheet.state, sheet.verified_at, sheet.verified_by_id = SheetState.SUBMITTED, None, None
    return True


def add_adjustment(table: Table, round_no: int, seat: str, points: int, reason: str,
                   user: User | None, game_no: int | None = None) -> Scoresheet:
    """A director's ruling worth `points` to `seat` in game `game_no` of round `round_no`
    (None: the game in progress, i.e. games entered + 1, at most games_per_round).

    On a game already entered: appended to its record's "adjustments" and the sheet is
    re-scored. On a game not entered yet: kept in sheet.pending_adjustments and merged
    into the record when East saves that game. Bumps the version and writes an audit row.
    Raises InvalidGame (bad seat, 0 points, no reason) or ValueError (no such round).

    Does NOT commit: the caller commits it with its own change (e.g. the resolved call),
    so the ruling and its points are one transaction. A sheet created meanwhile by the
    table (ensure_sheet in another request) is found and used, never an IntegrityError
    (on SQLite and PostgreSQL; on another database the caller rolls back and retries)."""
    tournament = table.tournament
    rules = rules_of(tournament)
    round_ = round_row(tournament, round_no)
    if round_ is None:
        raise ValueError(f"There is no round {round_no} yet.")
    adjustment = {"seat": seat, "points": points, "reason": (reason or "").strip()}
    Game.from_dict({"outcome": "wall", "adjustments": [adjustment]})  # checks seat/points/reason
    # The sheet may be created by East's phone at this very moment: the insert keeps
    # theirs (no IntegrityError in the caller's transaction) and we read it back.
    sheet = ensure_sheet(round_, table)
    # a new version (a new sheet goes to 2: a page that showed "no sheet yet", version 1,
    # is stale now)
    db.session.execute(
        update(Scoresheet).where(Scoresheet.id == sheet.id)
        .values(version=Scoresheet.version + 1, content_version=Scoresheet.version + 1,
                updated_at=utcnow())
        .execution_options(synchronize_session=False))
    db.session.expire(sheet)
    sheet = db.session.get(Scoresheet, sheet.id, populate_existing=True)
    count = len(sheet.games)
    if game_no is None:
        game_no = min(count + 1, tournament.games_per_round)
    if not 1 <= game_no <= tournament.games_per_round:
        raise InvalidGame("adjustments", f"This round has games 1 to "
                          f"{tournament.games_per_round}.")
    entry = next((e for e in sheet.games if e.number == game_no), None)
    if entry is not None:
        before = {"record": entry.record, "points": entry.points}
        new_record = dict(entry.record)
        new_record["adjustments"] = list(entry.record.get("adjustments", [])) + [adjustment]
        Game.from_dict(new_record, rules)
        before_totals = totals(sheet)
        entry.record = new_record
        rescore(sheet, rules)
        clear_changed_signoffs(sheet, before_totals)
        after = {"game": game_no, "record": new_record, "points": entry.points}
    else:
        before = {"pending": list(sheet.pending_adjustments or [])}
        sheet.pending_adjustments = list(sheet.pending_adjustments or []) + [
            {"game": game_no, **adjustment}]
        after = {"pending": sheet.pending_adjustments}
    if sheet.state != SheetState.OPEN:
        sheet.amended_at = utcnow()
        sheet.amended_by_id = user.id if user else None
        sheet.amend_reason = adjustment["reason"]
        if unverify(sheet):
            after["state"] = sheet.state
    record("sheet.adjust", tournament_id=tournament.id, subject=subject_of(sheet),
           before=before, after=after, reason=adjustment["reason"],
           actor=user.name if user else "director", actor_user_id=user.id if user else None)
    db.session.flush()
    return sheet
