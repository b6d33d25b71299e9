"""A table's scoresheet: reaching a table by its link, which round it plays, saving games,
initials, submitting, verifying, director amendments, time called and adjustments.

The only bridge between the table's pages and tournament/: every game record is checked
and scored by tournament.scoring under the tournament's own RuleSet, and the points stored
on GameEntry are always the EFFECTIVE points (round_lines applied to the whole sheet, so a
round voided by time called stores 0 everywhere). Standings are then a plain sum.

Writes: one transaction each. A write first bumps the sheet's version with a conditional
UPDATE (version = the version the form showed), which also takes the write lock on SQLite
and the row lock on PostgreSQL; a stale version raises StaleSheet. The form's idempotency
key is stored (models.AppliedRequest) in the same transaction, so a resent save is
recognised (Replayed) and applied once.

Which round is current for a table (`current_round`): the latest round whose clock is
running (started, not ended); with no clock running, the first seated round whose sheet at
this table is not submitted; when every seated round is submitted, the last seated round.
Scores may be entered whenever the round is seated and its sheet is open, whether or not
the clock has started (the director may run no clock) and also after time is up or the
round has ended: the table still has to record the unfinished games and submit.

Who initials a game: under EVERY rule set one person initials each game, the seat
tournament.scoring.signer names (the winner; West when East wins, for a wall game or when
nobody won). RuleSet.game_signoff is not read here: Destination's "every player signs
each game" (game_signoff "all") is shown on the entry form as a reminder to check the
scores together, and a rule set with no per-game initials still has the signer initial,
as the table issue asks (one signature per game). The round total is initialled by every
player where RuleSet.round_signoff_all says so."""

from __future__ import annotations

import functools
import hashlib
import unicodedata
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from blueprints.common import SEAT_NAMES
from core.lookup import movement_of, rules_of
from core.rounds import imported_plan, round_row
from core.sheets import (
    clear_changed_signoffs,
    ensure_sheet,
    rescore,
    sheet_for,
    subject_of,
    totals,
    unverify,
)
from core.words import OUTCOME_LABELS, ruling_label
from models import (
    AppliedRequest,
    GameEntry,
    Player,
    Round,
    RoundSignoff,
    Scoresheet,
    Seating,
    Table,
    Tournament,
    User,
    db,
    record,
    utcnow,
)
from tournament.movement import table_for
from tournament.rules import RuleSet
from tournament.scoring import (
    PENALTY_RULES,
    Game,
    InvalidGame,
    ScoreLine,
    check_after_time_called,
    round_lines,
    score_lines,
    signer,
)

SEATS = ("E", "S", "W", "N")
KEY_LENGTH = 64  # models.AppliedRequest.key
PENALTY_LABELS = {
    "blind_pass_peek": "Looked at a blind-pass tile",
    "misnamed_exposure": "Misnamed a tile called for an exposure",
}


class SheetError(Exception):
    """A write refused in plain words; `field` names the form field it concerns."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
        self.message = message


class StaleSheet(Exception):
    """The form showed an older version of the sheet than the stored one."""

    def __init__(self, sheet: Scoresheet | None = None):
        super().__init__("stale sheet")
        self.sheet = sheet


class Replayed(Exception):
    """This request's key was applied before: answer as if it succeeded."""

    def __init__(self, sheet: Scoresheet | None = None):
        super().__init__("replayed request")
        self.sheet = sheet


# ---- reading ----------------------------------------------------------------------------


def table_by_number(tournament: Tournament, number: int) -> Table | None:
    return db.session.scalar(
        select(Table).where(Table.tournament_id == tournament.id, Table.number == number)
    )


def seats_of(round_: Round, table: Table) -> dict[str, Player]:
    """{seat: player} at this table in this round, in E, S, W, N order."""
    rows = db.session.execute(
        select(Seating.seat, Player).join(Player, Player.id == Seating.player_id)
        .where(Seating.round_id == round_.id, Seating.table_id == table.id)
    )
    found = {seat: player for seat, player in rows}
    return {seat: found[seat] for seat in SEATS if seat in found}


def next_tables(round_: Round, table: Table) -> dict[str, int | None]:
    """{seat: table number next round} for this table's players (None after the last
    round). The next round's stored seating when it exists, else tournament.movement."""
    tournament = table.tournament
    if round_.number >= tournament.rounds:
        return dict.fromkeys(SEATS)
    nxt = round_row(tournament, round_.number + 1)
    seats = seats_of(round_, table)
    answer: dict[str, int | None] = {}
    stored: dict[int, int] = {}
    if nxt is not None:
        rows = db.session.execute(
            select(Seating.player_id, Table.number).join(Table, Table.id == Seating.table_id)
            .where(Seating.round_id == nxt.id)
        )
        stored = dict(rows.all())
    # Counted, not loaded: every table page would otherwise load all the event's tables.
    tables = db.session.scalar(select(func.count(Table.id))
                               .where(Table.tournament_id == tournament.id))
    imported = None
    if nxt is None and movement_of(tournament) == "imported":
        plan = imported_plan(tournament, round_.number + 1) or {}
        imported = {pid: number for number, by_seat in plan.items()
                    for pid in by_seat.values()}
    for seat in SEATS:
        player = seats.get(seat)
        if player is not None and player.id in stored:
            answer[seat] = stored[player.id]
        elif imported is not None:
            answer[seat] = imported.get(player.id) if player is not None else None
        else:
            answer[seat] = table_for(seat, table.number, 2, tables)
    return answer


# ---- the sheet as shown -----------------------------------------------------------------


@dataclass
class GameRow:
    number: int
    outcome: str
    label: str
    detail: str
    points: dict[str, int]
    lines: list[ScoreLine]
    signer: str | None
    initials: str
    note: str
    record: dict[str, Any]
    seat_initials: dict[str, str] = field(default_factory=dict)
    sentence: str = ""

    @property
    def adjustments(self) -> list[dict[str, Any]]:
        """The director's rulings on this game: [{"seat", "points", "reason"}]."""
        return list(self.record.get("adjustments") or [])


def _with_ruling_labels(lines: list[ScoreLine], adjustments: list[Any]) -> list[ScoreLine]:
    """tournament.scoring puts a game's adjustments last, one line each: word them as the
    table reads them (ruling_label)."""
    if not adjustments or len(lines) < len(adjustments):
        return lines
    head = lines[:len(lines) - len(adjustments)]
    tail = lines[len(lines) - len(adjustments):]
    return head + [replace(line, label=ruling_label(line.points, _reason(adj)))
                   for line, adj in zip(tail, adjustments, strict=True)]


def _reason(adjustment: Any) -> str:
    return adjustment["reason"] if isinstance(adjustment, dict) else adjustment.reason


@dataclass
class SheetView:
    """Everything a page shows about one table's sheet for one round."""

    tournament: Tournament
    table: Table
    round: Round
    rules: RuleSet
    sheet: Scoresheet | None
    seats: dict[str, Player]
    games: list[GameRow] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    signoffs: dict[str, str] = field(default_factory=dict)
    pending: list[dict[str, Any]] = field(default_factory=list)
    amended_by: str = ""
    verified_by: str = ""

    @property
    def state(self) -> str:
        return self.sheet.state if self.sheet else "open"

    @property
    def version(self) -> int:
        return self.sheet.version if self.sheet else 1

    @property
    def games_per_round(self) -> int:
        return self.tournament.games_per_round

    @property
    def complete(self) -> bool:
        return len(self.games) >= self.games_per_round

    @property
    def next_game(self) -> int | None:
        return None if self.complete else len(self.games) + 1

    @property
    def is_open(self) -> bool:
        return self.state == "open"

    @property
    def all_initialled(self) -> bool:
        return all(seat in self.signoffs for seat in self.seats)

    @property
    def initials_required(self) -> bool:
        return self.rules.round_signoff_all

    @property
    def every_player_initials_games(self) -> bool:
        return self.rules.game_signoff == "all"

    @property
    def games_to_initial(self) -> list[tuple[int, list[str]]]:
        """(game, seats still to initial it) where every player initials each game."""
        if not self.every_player_initials_games:
            return []
        return [(row.number, [seat for seat in self.seats if seat not in row.seat_initials])
                for row in self.games if any(seat not in row.seat_initials
                                             for seat in self.seats)]

    @property
    def west_check_needed(self) -> bool:
        return self.rules.west_checks_sheet and not (self.sheet and self.sheet.west_checked_at)

    @property
    def can_submit(self) -> bool:
        return self.is_open and self.complete and (
            self.all_initialled or not self.initials_required) and not (
            self.games_to_initial or self.west_check_needed)

    @property
    def change_is_ruling(self) -> bool:
        """A director's change now is a ruling: the sheet is submitted and the rule set says
        no changes after submission."""
        return self.state != "open" and self.rules.changes_after_submit == "ruling"

    @property
    def amended_as_ruling(self) -> bool:
        """The last director's change came after submission under such a rule set."""
        sheet = self.sheet
        return bool(sheet and sheet.amended_at and sheet.submitted_at
                    and sheet.amended_at >= sheet.submitted_at
                    and self.rules.changes_after_submit == "ruling")

    @property
    def round_voided(self) -> bool:
        return self.rules.time_called_zeroes == "round" and any(
            g.outcome == "time" for g in self.games)

    @property
    def time_called_in(self) -> int | None:
        """The first game entered as time called: no game after it was played."""
        return next((g.number for g in self.games if g.outcome == "time"), None)

    def name(self, seat: str) -> str:
        player = self.seats.get(seat)
        return player.name if player else SEAT_NAMES[seat]

    def person(self, seat: str) -> str:
        """"Ruth Abrams (West)"."""
        return f"{self.name(seat)} ({SEAT_NAMES[seat]})"

    def game(self, number: int) -> GameRow | None:
        for row in self.games:
            if row.number == number:
                return row
        return None

    def adjustments_for(self, number: int | None) -> list[dict[str, Any]]:
        """The rulings that will be on game `number` once it is saved: those already on
        the entered game (a correction keeps them) and those waiting for it."""
        row = self.game(number) if number else None
        kept = row.adjustments if row is not None else []
        waiting = [{"seat": p["seat"], "points": p["points"], "reason": p["reason"]}
                   for p in self.pending if p.get("game") == number]
        return kept + waiting


def game_detail(record_: dict[str, Any], view: SheetView) -> str:
    """Who won and how, in a few words: "Bea Goldberg, self-picked"; "thrown by Ruth
    Abrams (South)" (the seat and the full name: first names repeat)."""
    if record_.get("outcome") != "mahjong" or not record_.get("winner"):
        dead = [view.person(seat) for seat in record_.get("dead", [])]
        return ("dead: " + ", ".join(dead)) if dead else ""
    how = ("joker exchange (Finesse), self-picked" if record_.get("joker_exchange") else
           "self-picked" if record_.get("self_picked") else
           "heavenly hand" if record_.get("heavenly") else
           f"thrown by {view.person(record_['discarder'])}"
           if record_.get("discarder") else "")
    return ", ".join(part for part in (view.name(record_["winner"]), how) if part)


def game_sentence(record_: dict[str, Any], view: SheetView) -> str:
    """Who won and how as a sentence for the sheet's game card, the winner named with the
    seat so the thrower's name is never read as the subject: "Bea Goldberg (South) won,
    thrown by Ruth Abrams (East)."; "Dead hands: Ruth Abrams (East)."."""
    if record_.get("outcome") != "mahjong" or not record_.get("winner"):
        dead = [view.person(seat) for seat in record_.get("dead", [])]
        return f"Dead hand{'s' if len(dead) > 1 else ''}: {', '.join(dead)}." if dead else ""
    how = (" by joker exchange (Finesse), self-picked" if record_.get("joker_exchange") else
           ", self-picked" if record_.get("self_picked") else
           " with a heavenly hand" if record_.get("heavenly") else
           f", thrown by {view.person(record_['discarder'])}"
           if record_.get("discarder") else "")
    return f"{view.person(record_['winner'])} won{how}."


def sheet_view(table: Table, round_: Round) -> SheetView:
    tournament = table.tournament
    rules = rules_of(tournament)
    sheet = sheet_for(round_, table)
    view = SheetView(tournament=tournament, table=table, round=round_, rules=rules,
                     sheet=sheet, seats=seats_of(round_, table))
    view.totals = dict.fromkeys(SEATS, 0)
    if sheet is None:
        return view
    entries = list(sheet.games)
    try:
        all_lines = round_lines(rules, [Game.from_dict(e.record) for e in entries])
    except InvalidGame:  # rules edited after play began: show the stored points alone
        all_lines = [[] for _ in entries]
    for entry, lines in zip(entries, all_lines, strict=True):
        view.games.append(GameRow(
            number=entry.number, outcome=entry.record.get("outcome", ""),
            label=OUTCOME_LABELS.get(entry.record.get("outcome"), ""),
            detail=game_detail(entry.record, view), points=entry.points,
            lines=_with_ruling_labels(lines, entry.record.get("adjustments") or []),
            signer=entry.signer, initials=entry.initials, note=entry.note,
            record=entry.record, seat_initials=dict(entry.seat_initials or {}),
            sentence=game_sentence(entry.record, view),
        ))
        for seat in SEATS:
            view.totals[seat] += entry.points[seat]
    view.signoffs = {s.seat: s.initials for s in sheet.signoffs}
    view.pending = list(sheet.pending_adjustments or [])
    if sheet.amended_by_id:
        user = db.session.get(User, sheet.amended_by_id)
        view.amended_by = user.name if user else "a director"
    if sheet.verified_by_id:
        user = db.session.get(User, sheet.verified_by_id)
        view.verified_by = user.name if user else "a table guide"
    return view


# ---- previewing a game ------------------------------------------------------------------


@dataclass
class Preview:
    """A game record as East has it so far: its scores, lines and signer, or the problem."""

    points: dict[str, int] | None = None
    lines: list[ScoreLine] = field(default_factory=list)
    signer: str | None = None
    error: InvalidGame | None = None


def preview(rules: RuleSet, record_: dict[str, Any],
            adjustments: list[dict[str, Any]] | None = None) -> Preview:
    """Score a record without storing it (the live scores while East enters), with the
    director's rulings that save_game will put on this game (SheetView.adjustments_for),
    so the scores the signer initials are the scores saved."""
    if adjustments:
        record_ = dict(record_, adjustments=list(record_.get("adjustments") or [])
                       + list(adjustments))
    try:
        game = Game.from_dict(record_, rules)
    except InvalidGame as error:
        return Preview(error=error)
    lines = _with_ruling_labels(score_lines(rules, game), list(game.adjustments))
    points = dict.fromkeys(SEATS, 0)
    for line in lines:
        points[line.seat] += line.points
    return Preview(points=points, lines=lines, signer=signer(rules, game))


# ---- writing ----------------------------------------------------------------------------


def one_transaction(write):
    """A table write: whatever it raises, nothing of it stays in the session.

    The idempotency key (keyword `key`) is cut to what models.AppliedRequest stores, once,
    here, so the lookup and the insert use the same key (a longer key would never be
    recognised on a resend). An IntegrityError (a sheet created by another phone between
    our read and our insert) rolls the whole write back and runs it once more, from the
    start, on the rows as they are now."""

    @functools.wraps(write)
    def wrapper(*args, **kwargs):
        if kwargs.get("key"):
            kwargs["key"] = str(kwargs["key"])[:KEY_LENGTH]
        for attempt in (1, 2):
            try:
                return write(*args, **kwargs)
            except IntegrityError:
                db.session.rollback()
                if attempt == 2:
                    raise
            except BaseException:
                db.session.rollback()
                raise
        raise AssertionError("unreachable")  # pragma: no cover

    return wrapper


def _scoped(key: str | None, sheet: Scoresheet, *request: Any) -> str | None:
    """The stored form of a form's key: bound to this sheet and this request (what it
    writes), so a key that another table (or another write here) already used is a new
    request, never a "replay" that silently drops this one. A hash fits the 64 characters
    of AppliedRequest.key and never equals a raw key another blueprint stores there."""
    if not key:
        return None
    scope = "|".join(str(part) for part in (sheet.id, *request, key))
    return hashlib.sha256(scope.encode()).hexdigest()


def _applied(key: str | None) -> bool:
    return bool(key) and db.session.get(AppliedRequest, key) is not None


def _begin_write(sheet: Scoresheet, version: int | None, key: str | None) -> Scoresheet:
    """Bump the version if it is still `version` (None or 0: a form without one, always
    stale), record the key. Raises Replayed or StaleSheet. Returns the sheet, freshly
    loaded."""
    if _applied(key):
        db.session.rollback()
        raise Replayed(sheet)
    sheet_id = sheet.id
    result = db.session.execute(
        update(Scoresheet).where(Scoresheet.id == sheet_id, Scoresheet.version == (version or 0))
        .values(version=Scoresheet.version + 1, updated_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:
        db.session.rollback()
        # None when the sheet was only created by this write (rolled back with it)
        fresh = db.session.get(Scoresheet, sheet_id, populate_existing=True)
        if _applied(key):
            raise Replayed(fresh)
        raise StaleSheet(fresh)
    if key:
        db.session.add(AppliedRequest(key=key, sheet_id=sheet_id))
    db.session.expire(sheet)
    return db.session.get(Scoresheet, sheet_id, populate_existing=True)


def _commit(key: str | None, sheet: Scoresheet) -> None:
    sheet_id = sheet.id
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        if _applied(key):  # the same request, applied by a resend meanwhile
            raise Replayed(db.session.get(Scoresheet, sheet_id)) from None
        raise


def _hand_the_phone(round_: Round, table: Table, seat: str, number: int) -> str:
    """The missing game initials, said to East, who holds the phone."""
    player = seats_of(round_, table).get(seat)
    who = f"{player.name} ({SEAT_NAMES[seat]})" if player else SEAT_NAMES[seat]
    return (f"Game {number} is not saved yet: hand the phone to {who} to write their "
            "initials here, then tap Save.")


def _printable(text: str | None, field_name: str, what: str, lines: bool = False) -> str:
    """The text trimmed; SheetError when it holds a control character (a NUL byte, which
    PostgreSQL refuses to store), line breaks only where the field has several lines."""
    text = (text or "").strip()
    allowed = "\r\n\t" if lines else ""
    if any(unicodedata.category(ch) == "Cc" and ch not in allowed for ch in text):
        raise SheetError(field_name, f"{what} has a character that cannot be stored; please "
                         "type it again.")
    return text


def _check_initials(initials: str, field_name: str = "initials", missing: str = "") -> str:
    initials = _printable(initials, field_name, "The initials")
    if not initials:
        raise SheetError(field_name, missing or "Please write your initials.")
    if len(initials) > 8:
        raise SheetError(field_name, "Initials are at most 8 letters.")
    return initials


def _merge_pending(sheet: Scoresheet, number: int, record_: dict[str, Any]) -> dict[str, Any]:
    pending = list(sheet.pending_adjustments or [])
    mine = [p for p in pending if p.get("game") == number]
    if not mine:
        return record_
    merged = dict(record_)
    merged["adjustments"] = list(record_.get("adjustments", [])) + [
        {"seat": p["seat"], "points": p["points"], "reason": p["reason"]} for p in mine]
    sheet.pending_adjustments = [p for p in pending if p.get("game") != number]
    return merged


def _rules_locked(table: Table) -> Tournament:
    """The table's tournament, re-read (populate_existing: never the rules an earlier
    read left in the session) with its row locked FOR SHARE until the write commits."""
    return db.session.scalars(
        select(Tournament).where(Tournament.id == table.tournament_id)
        .with_for_update(read=True)
        .execution_options(populate_existing=True)
    ).one()


@one_transaction
def save_game(table: Table, round_: Round, number: int, record_: dict[str, Any], *,
              initials: str, note: str = "", version: int | None, key: str | None,
              actor: str = "", user: User | None = None, reason: str = "",
              director: bool = False, expect_new: bool = False) -> Scoresheet:
    """Save game `number` (the next game, or a correction of an entered one).

    Checks the record under the tournament's rules (InvalidGame), the signer's initials
    (SheetError), the version (StaleSheet) and the key (Replayed); then stores the game
    and every game's effective points, and audits before/after, all in one transaction.
    A director (`director=True`) may change a submitted sheet, with a written reason.
    `expect_new`: the form entered a new game, so an existing game `number` (saved from
    another phone meanwhile) is a conflict, never overwritten.

    The rules are read from the tournament row locked FOR SHARE (PostgreSQL; SQLite has
    no row locks and its write lock serialises writers anyway): a director's rules edit
    committing meanwhile waits for this save, or this save reads the edited rules; the
    game is never scored under rules that are no longer the tournament's."""
    tournament = _rules_locked(table)
    rules = rules_of(tournament)
    sheet = ensure_sheet(round_, table)
    key = _scoped(key, sheet, "game", number, "director" if director else "table")
    if _applied(key):
        raise Replayed(sheet)
    if director and not (reason or "").strip():
        raise SheetError("reason", "Write the reason for this change; it is shown to the "
                         "table and kept in the record.")
    game = Game.from_dict(record_, rules)
    clean = game.to_dict()
    # Adjustments already on the game are the director's call rulings: neither East's
    # correction nor a director's amendment (whose form has no adjustment fields) drops them.
    existing = next((e for e in sheet.games if e.number == number), None)
    if not director and "ended" in (game.outcome, (existing.record if existing else {}).get(
            "outcome")):
        raise SheetError("outcome", "The director ended this table's round; only the "
                         "director can change its games.")
    if existing is not None and existing.record.get("adjustments"):
        clean["adjustments"] = existing.record["adjustments"]
    who_signs = signer(rules, game)
    note = _printable(note, "note", "The note", lines=True)
    reason = _printable(reason, "reason", "The reason", lines=True) if director else reason
    if director:
        initials = _printable(initials, "initials", "The initials")[:8] \
            or (existing.initials if existing else "")
    else:
        initials = _check_initials(initials, missing=_hand_the_phone(round_, table, who_signs,
                                                                     number))
    sheet = _begin_write(sheet, version, key)
    if sheet.state != "open" and not director:
        db.session.rollback()
        raise SheetError("sheet", "This sheet was submitted. Only the director can change "
                         "it now.")
    count = len(sheet.games)
    if number < 1 or number > min(count + 1, tournament.games_per_round):
        db.session.rollback()
        if number == count + 1 or number > tournament.games_per_round:
            raise SheetError("game", f"This round has {tournament.games_per_round} games; "
                             "they are all entered.")
        raise StaleSheet(sheet)
    if expect_new and any(e.number == number for e in sheet.games):
        db.session.rollback()
        raise StaleSheet(sheet)
    clean = _merge_pending(sheet, number, clean)
    merged = Game.from_dict(clean, rules)  # the merged adjustments are checked too
    games = {e.number: Game.from_dict(e.record) for e in sheet.games} | {number: merged}
    check_after_time_called(rules, [games[n] for n in sorted(games)], number)
    before_totals = totals(sheet)
    entry = next((e for e in sheet.games if e.number == number), None)
    before = None
    if entry is None:
        entry = GameEntry(number=number, record=clean, signer=who_signs, initials=initials,
                          note=(note or "").strip()[:280])
        sheet.games.append(entry)
    else:
        before = {"record": entry.record, "points": entry.points, "initials": entry.initials}
        entry.record = clean
        entry.signer = who_signs
        entry.initials = initials
        entry.note = (note or "").strip()[:280]
    db.session.flush()
    rescore(sheet, rules)
    cleared = clear_changed_signoffs(sheet, before_totals)
    now = utcnow()
    ruling = director and sheet.state != "open" and rules.changes_after_submit == "ruling"
    unverified = director and unverify(sheet)
    if director:
        sheet.amended_at, sheet.amended_by_id = now, user.id if user else None
        sheet.amend_reason = reason.strip()
    action = ("sheet.ruling" if ruling else "sheet.amend" if director else
              "game.correct" if before is not None else "game.save")
    record(action, tournament_id=tournament.id, subject=subject_of(sheet),
           before=before, after={"game": number, "record": clean, "points": entry.points,
                                 "initials": initials, "signoffs_cleared": cleared,
                                 **({"state": sheet.state} if unverified else {})},
           reason=(reason or "").strip(), actor=actor or f"Table {table.number} (East)",
           actor_user_id=user.id if user else None)
    _commit(key, sheet)
    return sheet


@one_transaction
def record_time_called(table: Table, round_: Round, *, version: int | None, key: str | None,
                       actor: str = "") -> Scoresheet:
    """Enter every game not yet played as "time called"; under a rule set where time
    called zeroes the round, every game of this sheet then stores 0."""
    tournament = table.tournament
    rules = rules_of(tournament)
    sheet = ensure_sheet(round_, table)
    key = _scoped(key, sheet, "time")
    if _applied(key):
        raise Replayed(sheet)
    sheet = _begin_write(sheet, version, key)
    if sheet.state != "open":
        db.session.rollback()
        raise SheetError("sheet", "This sheet was submitted. Only the director can change "
                         "it now.")
    count = len(sheet.games)
    if count >= tournament.games_per_round:
        db.session.rollback()
        raise SheetError("time", "Every game of this round is already entered.")
    before_totals = totals(sheet)
    before_points = {e.number: e.points for e in sheet.games}
    added = []
    for number in range(count + 1, tournament.games_per_round + 1):
        clean = _merge_pending(sheet, number, {"outcome": "time"})
        Game.from_dict(clean, rules)
        sheet.games.append(GameEntry(number=number, record=clean, signer=None, initials=""))
        added.append(number)
    db.session.flush()
    rescore(sheet, rules)
    cleared = clear_changed_signoffs(sheet, before_totals)
    record("game.time_called", tournament_id=tournament.id, subject=subject_of(sheet),
           before={"points": before_points},
           after={"games": added, "points": {e.number: e.points for e in sheet.games},
                  "zeroes": rules.time_called_zeroes, "signoffs_cleared": cleared},
           actor=actor or f"Table {table.number} (East)")
    _commit(key, sheet)
    return sheet


@one_transaction
def sign_round(table: Table, round_: Round, seat: str, initials: str, *,
               version: int | None, key: str | None) -> Scoresheet:
    """A player's initials beside their round total (every game must be entered)."""
    if seat not in SEATS:
        raise SheetError("seat", "Choose your seat.")
    sheet = ensure_sheet(round_, table)
    key = _scoped(key, sheet, "initial", seat)
    if _applied(key):
        raise Replayed(sheet)
    initials = _check_initials(initials, f"initials_{seat}")
    sheet = _begin_write(sheet, version, key)
    if sheet.state != "open":
        db.session.rollback()
        raise SheetError("sheet", "This sheet was submitted; it is locked.")
    if len(sheet.games) < table.tournament.games_per_round:
        db.session.rollback()
        raise SheetError(f"initials_{seat}", "Enter every game first (or record the rest "
                         "as time called), then initial the round total.")
    current = next((s for s in sheet.signoffs if s.seat == seat), None)
    before = current.initials if current else None
    if current is None:
        sheet.signoffs.append(RoundSignoff(seat=seat, initials=initials, signed_at=utcnow()))
    else:
        current.initials, current.signed_at = initials, utcnow()
    record("round.initial", tournament_id=table.tournament_id, subject=subject_of(sheet),
           before={"seat": seat, "initials": before},
           after={"seat": seat, "initials": initials, "total": totals(sheet)[seat]},
           actor=f"Table {table.number} ({SEAT_NAMES[seat]})")
    _commit(key, sheet)
    return sheet


def player_initials(player: Player | None, seat: str) -> str:
    """What a one-tap confirmation writes for a player: the first letters of their name
    ("Ruth Abrams" -> "RA"); the seat's letter for an empty seat."""
    if player is None:
        return seat
    letters = "".join(word[0] for word in player.name.replace("-", " ").split() if word)
    return letters.upper()[:8] or seat


@one_transaction
def initial_game(table: Table, round_: Round, number: int, seat: str, *,
                 version: int | None, key: str | None) -> Scoresheet:
    """A player confirms their score in game `number` with one tap on East's phone, where
    the rule set has every player sign each game; their initials go beside the game."""
    rules = rules_of(table.tournament)
    if rules.game_signoff != "all":
        raise SheetError("sheet", f"Under {rules.short_name} rules one player initials each "
                         "game when it is saved.")
    if seat not in SEATS:
        raise SheetError("seat", "Choose your seat.")
    sheet = ensure_sheet(round_, table)
    key = _scoped(key, sheet, "game-initial", number, seat)
    if _applied(key):
        raise Replayed(sheet)
    sheet = _begin_write(sheet, version, key)
    if sheet.state != "open":
        db.session.rollback()
        raise SheetError("sheet", "This sheet was submitted; it is locked.")
    entry = next((e for e in sheet.games if e.number == number), None)
    if entry is None:
        db.session.rollback()
        raise SheetError("game", f"Game {number} is not entered yet.")
    initials = player_initials(seats_of(round_, table).get(seat), seat)
    before = dict(entry.seat_initials or {})
    entry.seat_initials = {**before, seat: initials}
    record("game.initial", tournament_id=table.tournament_id, subject=subject_of(sheet),
           before={"game": number, "seat_initials": before},
           after={"game": number, "seat_initials": entry.seat_initials,
                  "points": entry.points[seat]},
           actor=f"Table {table.number} ({SEAT_NAMES[seat]})")
    _commit(key, sheet)
    return sheet


@one_transaction
def west_check(table: Table, round_: Round, *, version: int | None,
               key: str | None) -> Scoresheet:
    """West has checked East's sheet (every game entered), where the rule set asks for it."""
    rules = rules_of(table.tournament)
    if not rules.west_checks_sheet:
        raise SheetError("west", f"{rules.short_name} rules do not ask West to check the "
                         "sheet.")
    sheet = ensure_sheet(round_, table)
    key = _scoped(key, sheet, "west-check")
    if _applied(key):
        raise Replayed(sheet)
    sheet = _begin_write(sheet, version, key)
    if sheet.state != "open":
        db.session.rollback()
        raise SheetError("sheet", "This sheet was submitted; it is locked.")
    if len(sheet.games) < table.tournament.games_per_round:
        db.session.rollback()
        raise SheetError("west", "Enter every game first (or record the rest as time "
                         "called), then West checks the sheet.")
    initials = player_initials(seats_of(round_, table).get("W"), "W")
    sheet.west_checked_at, sheet.west_initials = utcnow(), initials
    record("sheet.west_check", tournament_id=table.tournament_id, subject=subject_of(sheet),
           before=None, after={"west_initials": initials, "totals": totals(sheet)},
           actor=f"Table {table.number} (West)")
    _commit(key, sheet)
    return sheet


@one_transaction
def submit_sheet(table: Table, round_: Round, *, version: int | None, key: str | None,
                 actor: str = "") -> Scoresheet:
    """East submits the round: the sheet is locked (changes only by the director)."""
    rules = rules_of(table.tournament)
    sheet = ensure_sheet(round_, table)
    key = _scoped(key, sheet, "submit")
    if _applied(key):
        raise Replayed(sheet)
    sheet = _begin_write(sheet, version, key)
    if sheet.state != "open":
        db.session.rollback()
        raise SheetError("sheet", "This sheet was already submitted.")
    if len(sheet.games) < table.tournament.games_per_round:
        db.session.rollback()
        raise SheetError("submit", "Enter every game first (or record the rest as time "
                         "called).")
    signed = {s.seat for s in sheet.signoffs}
    missing = [SEAT_NAMES[s] for s in SEATS if s not in signed]
    if rules.round_signoff_all and missing:
        db.session.rollback()
        raise SheetError("submit", "Every player initials their round total first. "
                         f"Still to initial: {', '.join(missing)}.")
    if rules.game_signoff == "all":
        unsigned = [f"game {e.number} ("
                    + ", ".join(SEAT_NAMES[s] for s in SEATS if s not in (e.seat_initials or {}))
                    + ")" for e in sheet.games if set(SEATS) - set(e.seat_initials or {})]
        if unsigned:
            db.session.rollback()
            raise SheetError("submit", "Every player initials every game first. Still to "
                             f"initial: {'; '.join(unsigned)}.")
    if rules.west_checks_sheet and sheet.west_checked_at is None:
        db.session.rollback()
        raise SheetError("submit", "West checks East's sheet first: West, tap \u201cI "
                         "checked East's sheet\u201d above.")
    sheet.state, sheet.submitted_at = "submitted", utcnow()
    sheet.submitted_by = (actor or f"Table {table.number} (East)")[:80]
    record("sheet.submit", tournament_id=table.tournament_id, subject=subject_of(sheet),
           before={"state": "open"},
           after={"state": "submitted", "totals": totals(sheet)},
           actor=sheet.submitted_by)
    _commit(key, sheet)
    return sheet


@one_transaction
def verify_sheet(sheet: Scoresheet, user: User, *, version: int | None,
                 key: str | None) -> Scoresheet:
    """A table guide (or director) checked the submitted sheet at the table."""
    key = _scoped(key, sheet, "verify")
    if _applied(key):
        raise Replayed(sheet)
    sheet = _begin_write(sheet, version, key)
    if sheet.state != "submitted":
        db.session.rollback()
        raise SheetError("verify", "Only a submitted sheet can be verified."
                         if sheet.state == "open" else "This sheet is already verified.")
    sheet.state, sheet.verified_at, sheet.verified_by_id = "verified", utcnow(), user.id
    record("sheet.verify", tournament_id=sheet.table.tournament_id, subject=subject_of(sheet),
           before={"state": "submitted"}, after={"state": "verified"},
           actor=user.name, actor_user_id=user.id)
    _commit(key, sheet)
    return sheet


@one_transaction
def end_table_round(table: Table, round_: Round, *, reason: str, points: dict[str, int],
                    user: User, version: int | None, key: str | None) -> Scoresheet:
    """The director ends this table's round (Hidden Tile: "the round ends and the remaining
    score is determined by the Tournament Director"): every game not yet played is entered
    as ended by the director, scoring 0, and the director's `points` per seat (what they
    decided the rest of the round is worth) go on the first of them as adjustments with the
    reason. The games already played keep their scores."""
    tournament = table.tournament
    rules = rules_of(tournament)
    if not rules.director_ends_round:
        raise SheetError("end", f"Under {rules.short_name} rules the director does not end one "
                         "table's round.")
    reason = (reason or "").strip()
    if not reason:
        raise SheetError("end_reason", "Write the reason for ending this table's round; it is "
                         "shown to the table and kept in the record.")
    adjustments = [{"seat": seat, "points": points[seat], "reason": reason}
                   for seat in SEATS if points.get(seat)]
    Game.from_dict({"outcome": "ended", "adjustments": adjustments}, rules)
    sheet = ensure_sheet(round_, table)
    key = _scoped(key, sheet, "end-round")
    if _applied(key):
        raise Replayed(sheet)
    sheet = _begin_write(sheet, version, key)
    if sheet.state != "open":
        db.session.rollback()
        raise SheetError("end", "This sheet was submitted; amend its games instead.")
    count = len(sheet.games)
    if count >= tournament.games_per_round:
        db.session.rollback()
        raise SheetError("end", "Every game of this round is already entered.")
    before_totals = totals(sheet)
    added = []
    for number in range(count + 1, tournament.games_per_round + 1):
        record_ = {"outcome": "ended"}
        if number == count + 1 and adjustments:
            record_["adjustments"] = adjustments
        record_ = _merge_pending(sheet, number, record_)
        Game.from_dict(record_, rules)
        sheet.games.append(GameEntry(number=number, record=record_, signer=None,
                                     initials="", note=reason[:280]))
        added.append(number)
    db.session.flush()
    rescore(sheet, rules)
    cleared = clear_changed_signoffs(sheet, before_totals)
    sheet.amended_at, sheet.amended_by_id, sheet.amend_reason = utcnow(), user.id, reason
    record("sheet.director_end", tournament_id=tournament.id, subject=subject_of(sheet),
           before={"games": count, "totals": before_totals},
           after={"games": added, "adjustments": adjustments, "totals": totals(sheet),
                  "signoffs_cleared": cleared},
           reason=reason, actor=f"{user.name} (director)", actor_user_id=user.id)
    _commit(key, sheet)
    return sheet


def penalty_kinds(rules: RuleSet) -> list[tuple[str, str]]:
    """The penalties this rule set has, as (kind, label)."""
    return [(kind, PENALTY_LABELS[kind]) for kind, rule in PENALTY_RULES.items()
            if getattr(rules, rule) is not None]
