"""Writes of a table's games: saving a game (East, or a director amending it), time
called and the director's end of one table's round; and the steps every sheet write
shares (blueprints.table.signoffs has the players' and the staff's confirmations).

The only bridge between the table's pages and tournament/ for a write: every game record
is checked and scored by tournament.scoring under the tournament's own RuleSet, and the
points stored on GameEntry are always the EFFECTIVE points (core.sheets.rescore).

Each write is one unit of work (core.writes, through `sheet_write`): nothing of it stays
when it is refused, and it commits once, with its audit row. It first bumps the sheet's
version with a conditional UPDATE (version = the version the form showed), which also
takes the write lock on SQLite and the row lock on PostgreSQL; a stale version raises
StaleSheet. The form's request key, bound to the sheet and to what the write does, is
claimed in the same unit, so a resent write is recognised (core.errors.Replay) and
applied once.

Who initials a game: under EVERY rule set one person initials each game, the seat
tournament.scoring.signer names (the winner; West when East wins, for a wall game or when
nobody won). RuleSet.game_signoff is not read for that: Destination's "every player signs
each game" (game_signoff "all") adds each player's one-tap confirmation (signoffs.initial_game),
and a rule set with no per-game initials still has the signer initial (one signature per
game). The round total is initialled by every player where RuleSet.round_signoff_all
says so."""

from __future__ import annotations

import functools
from typing import Any

from sqlalchemy import inspect, select, update
from sqlalchemy.orm.attributes import set_committed_value

from blueprints.common import unstorable
from core.errors import Conflict, Replay
from core.lookup import rules_of
from core.sheets import (
    clear_changed_signoffs,
    minutes_still_on_clock,
    rescore,
    subject_of,
    totals,
    unverify,
)
from core.words import SEAT_NAMES, SheetState, table_actor
from core.writes import applied, write
from models import (
    AppliedRequest,
    GameEntry,
    Player,
    Round,
    Scoresheet,
    Table,
    Tournament,
    User,
    db,
    record,
    utcnow,
)
from tournament.scoring import Game, check_after_time_called, signer

from .sheet_keys import KeyReused, SheetError, scoped, sheet_and_key
from .sheet_reads import seats_of

# Re-exported: the keys and the refusal live in sheet_keys, and the writes' modules
# (signoffs, desk_writes, the views) import them with the rest from here.
__all__ = ["KeyReused", "SheetError", "scoped", "sheet_and_key"]

LOCKED = "This sheet was submitted; it is locked."
ON_PAPER = ("This round is scored on paper: write the games on the paper sheet and hand "
            "it to the front desk. Nothing was saved here.")


def check_time_was_called(round_: Round, sheet: Scoresheet, field: str) -> None:
    """A table records time called only once the round's clock is out (or was never run),
    or once a game of its sheet is time called already: while the app's clock still runs,
    a tap on "time called" is a mistake that would zero games. A director who stopped one
    table early enters it on her phone."""
    if any(entry.record.get("outcome") == "time" for entry in sheet.games):
        return
    minutes = minutes_still_on_clock(round_)
    if minutes is not None:
        raise SheetError(field, f"Time has not been called: the round's clock still shows "
                         f"{minutes} minute{'s' if minutes != 1 else ''}. Nothing was "
                         f"recorded. Play on; if the director stopped your table early, "
                         f"she enters it.", status=409)


class StaleSheet(Conflict):
    """The form showed an older version of the sheet than the stored one. It carries no
    sheet: the caller reads the sheet once the write's unit has rolled back. `key`: the
    request's stored key (a stale version may be this request's own first send)."""

    def __init__(self, key: str | None = None):
        super().__init__(None, "This sheet was changed meanwhile.")
        self.key = key


def sheet_write(function):
    """A sheet write: one unit of work (core.writes.write), run once more from the start
    on an integrity conflict (a sheet another phone created between our read and our
    insert). A stale version whose request key is applied when read after the rollback
    is this request's own first send, committed meanwhile: Replay."""
    run = write(retry=True)(function)

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any):
        try:
            return run(*args, **kwargs)
        except StaleSheet as error:
            if applied(error.key):
                if applied(getattr(error.key, "content_key", error.key)):
                    raise Replay() from None
                raise KeyReused() from None
            raise

    return wrapper


# ---- the steps every write shares --------------------------------------------------------


def begin_write(sheet: Scoresheet, version: int | None, key: str | None, *,
                 locked: str | None = LOCKED, confirmation: bool = False) -> Scoresheet:
    """Bump the version if it is still `version` (None or 0: a form without one, always
    stale) and claim the request key. Raises StaleSheet, Replay, or (with `locked`) a
    409 SheetError when the sheet is no longer open. Returns the sheet as it now stands.

    Every caller has found the key not applied (sheet_and_key) in this unit: a send of
    the same request committed since then bumped this sheet's version (the key is bound
    to this sheet), so the bump below fails for this one; the key's unique row is the
    last guard (core.writes: the commit's IntegrityError becomes a Replay).

    `confirmation`: a player's confirmation of what the sheet says, which changes none
    of it; every other write also moves Scoresheet.content_version."""
    sheet_id = sheet.id
    now = utcnow()
    values = dict(version=Scoresheet.version + 1, updated_at=now)
    if not confirmation:
        values["content_version"] = Scoresheet.version + 1
    result = db.session.execute(
        update(Scoresheet).where(Scoresheet.id == sheet_id, Scoresheet.version == (version or 0))
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:
        raise StaleSheet(key)
    if key:
        db.session.add(AppliedRequest(key=key, sheet_id=sheet_id))
        if getattr(key, "content_key", None):
            db.session.add(AppliedRequest(key=key.content_key, sheet_id=sheet_id))
    if inspect(sheet).dict.get("version") == version and not db.session.is_modified(sheet):
        # Loaded at the version the bump matched: every change of a sheet bumps its
        # version, so nothing read of it in this unit (its games, its initials) changed
        # since; only the bump's own columns are new.
        set_committed_value(sheet, "version", version + 1)
        set_committed_value(sheet, "updated_at", now)
        if not confirmation:
            set_committed_value(sheet, "content_version", version + 1)
    else:
        db.session.expire(sheet)
        sheet = db.session.get(Scoresheet, sheet_id, populate_existing=True)
    if locked and sheet.state != SheetState.OPEN:
        raise SheetError("sheet", locked, status=409)
    # The table's own writes (those with `locked`) wait while the round is on paper.
    if locked and sheet.on_paper:
        raise SheetError("sheet", ON_PAPER, status=409)
    return sheet


def _hand_the_phone(round_: Round, table: Table, seat: str, number: int) -> str:
    """The missing game initials, said to East, who holds the phone."""
    player = seats_of(round_, table).get(seat)
    who = f"{player.name} ({SEAT_NAMES[seat]})" if player else SEAT_NAMES[seat]
    return (f"Game {number} is not saved yet: hand the phone to {who} to check the scores "
            "and tap their name.")


def player_initials(player: Player | None, seat: str) -> str:
    """What a one-tap confirmation writes for a player: the first letters of their name
    ("Ruth Abrams" -> "RA"); the seat's letter for an empty seat."""
    if player is None:
        return seat
    letters = "".join(word[0] for word in player.name.replace("-", " ").split() if word)
    return letters.upper()[:8] or seat


# A reason or a note is read aloud at the table and shown on every phone there: a
# paragraph, never a pasted page.
TEXT_MAX = 280


def printable(text: str | None, field_name: str, what: str, lines: bool = False,
              longest: int | None = None) -> str:
    """The text trimmed; SheetError when it holds a control character (a NUL byte, which
    PostgreSQL refuses to store), line breaks only where the field has several lines, or
    when it is longer than `longest` characters."""
    text = (text or "").strip()
    if unstorable(text, lines):
        raise SheetError(field_name, f"{what} has a character that cannot be stored; please "
                         "type it again.")
    if longest is not None and len(text) > longest:
        raise SheetError(field_name, f"{what} is {len(text)} characters long; please keep it "
                         f"under {longest}.")
    return text


def check_initials(initials: str, field_name: str = "initials", missing=None) -> str:
    """`missing`: what to say when there are none (a function: it reads the seats)."""
    initials = printable(initials, field_name, "The initials")
    if not initials:
        raise SheetError(field_name, (missing() if missing else "")
                         or "Please write your initials.")
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


# ---- the games ----------------------------------------------------------------------------

SUBMITTED = "This sheet was submitted. Only the director can change it now."
RULED = "The director ruled on this game; only the director can change it now."


@sheet_write
def save_game(table: Table, round_: Round, number: int, record_: dict[str, Any], *,
              initials: str, note: str = "", version: int | None, key: str | None,
              actor: str = "", user: User | None = None, reason: str = "",
              director: bool = False, expect_new: bool = False,
              signed_by: str | None = None, confirm_later: str | None = None) -> Scoresheet:
    """Save game `number` (the next game, or a correction of an entered one).

    The signer confirms with a tap on their own button (`signed_by`: their seat, which
    must be the seat that signs the game as it is now); their initials come from their
    name. Typed `initials` are taken as they are (a paper sheet keyed in).
    `confirm_later` (the signer's seat): East saves the game to be confirmed on the
    signer's own phone (blueprints.table.own_phone_writes.confirm_game); it has no
    initials until then, and the round cannot be submitted without them.

    Checks the record under the tournament's rules (InvalidGame), the signer's initials
    (SheetError), the version (StaleSheet) and the key (Replay); then stores the game
    and every game's effective points, and audits before/after, all in one unit.
    A director (`director=True`, `actor` their label) may change a submitted sheet, with
    a written reason. `expect_new`: the form entered a new game, so an existing game
    `number` (saved from another phone meanwhile) is a conflict, never overwritten.

    The rules are read from the tournament row locked FOR SHARE (PostgreSQL; SQLite has
    no row locks and its write lock serialises writers anyway): a director's rules edit
    committing meanwhile waits for this save, or this save reads the edited rules; the
    game is never scored under rules that are no longer the tournament's."""
    tournament = _rules_locked(table)
    rules = rules_of(tournament)
    sheet, key = sheet_and_key(round_, table, key, "game", number,
                                "director" if director else "table", games=True,
                                content=[record_, initials, note, reason, signed_by])
    if director and not (reason or "").strip():
        raise SheetError("reason", "Write the reason for this change; it is shown to the "
                         "table and kept in the record.")
    game = Game.from_dict(record_, rules)
    clean = game.to_dict()
    # Adjustments already on the game are the director's call rulings: neither East's
    # correction nor a director's amendment (whose form has no adjustment fields) drops them.
    existing = next((e for e in sheet.games if e.number == number), None)
    if not director and game.outcome == "time":
        check_time_was_called(round_, sheet, "outcome")
    if not director and "ended" in (game.outcome, (existing.record if existing else {}).get(
            "outcome")):
        raise SheetError("outcome", "The director ended this table's round; only the "
                         "director can change its games.")
    if not director and existing is not None and existing.ruled_at is not None:
        raise SheetError("game", RULED, status=409)
    if existing is not None and existing.record.get("adjustments"):
        clean["adjustments"] = existing.record["adjustments"]
    who_signs = signer(rules, game)
    note = printable(note, "note", "The note", lines=True, longest=TEXT_MAX)
    reason = (printable(reason, "reason", "The reason", lines=True, longest=TEXT_MAX)
              if director else reason)
    if director:
        initials = printable(initials, "initials", "The initials")[:8] \
            or (existing.initials if existing else "")
    elif confirm_later and not (initials or "").strip():
        if confirm_later != who_signs:
            raise SheetError("sign", "The answers changed since the button was shown: "
                             "check the scores again, then tap it again.")
        initials = ""
    else:
        if not (initials or "").strip() and signed_by:
            if signed_by != who_signs:
                raise SheetError("sign", "The answers changed since the button was shown: "
                                 "check the scores again, then the player named on the "
                                 "button taps it.")
            initials = player_initials(seats_of(round_, table).get(who_signs), who_signs)
        initials = check_initials(initials, missing=lambda: _hand_the_phone(
            round_, table, who_signs, number))
    if (director and existing is not None and existing.record == clean
            and existing.initials == initials and existing.note == (note or "").strip()[:280]):
        # Saved as it stands: nothing to write, and no new version that would tell the
        # table's phones "someone changed this sheet".
        raise SheetError("game", f"Nothing changed: game {number} is as it was, so nothing "
                         "was saved. Change an answer to amend it, or go back to the sheet.")
    if (expect_new and not director and version and version < sheet.version
            and (sheet.content_version or 0) <= version
            and len(sheet.games) + 1 == number):
        # Only confirmations came since the form was shown (players confirming on their
        # own phones while East entered this game): nothing this game depends on. The
        # bump still fails if anything changes the sheet from here on.
        version = sheet.version
    sheet = begin_write(sheet, version, key, locked=None if director else SUBMITTED)
    count = len(sheet.games)
    if number < 1 or number > min(count + 1, tournament.games_per_round):
        if number == count + 1 or number > tournament.games_per_round:
            raise SheetError("game", f"This round has {tournament.games_per_round} games; "
                             "they are all entered.", status=409)
        raise StaleSheet()
    if expect_new and any(e.number == number for e in sheet.games):
        raise StaleSheet()
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
    if director:
        entry.ruled_at, entry.ruling = utcnow(), reason.strip()
        entry.ruled_by = user.name if user else ""
    forget_draft(sheet)
    # scored before the flush: the new game is inserted with its points, in one flush
    rescore(sheet, rules)
    cleared = clear_changed_signoffs(sheet, before_totals)
    ruling = (director and sheet.state != SheetState.OPEN
              and rules.changes_after_submit == "ruling")
    unverified = director and unverify(sheet)
    if director:
        sheet.amended_at, sheet.amended_by_id = utcnow(), user.id if user else None
        sheet.amend_reason = reason.strip()
    action = ("sheet.ruling" if ruling else "sheet.amend" if director else
              "game.correct" if before is not None else "game.save")
    record(action, tournament_id=tournament.id, subject=subject_of(sheet),
           before=before, after={"game": number, "record": clean, "points": entry.points,
                                 "initials": initials, "signoffs_cleared": cleared,
                                 **({"state": sheet.state} if unverified else {})},
           reason=(reason or "").strip(), actor=actor or table_actor(table.number),
           actor_user_id=user.id if user else None)
    return sheet


def forget_draft(sheet: Scoresheet) -> None:
    """East's answers so far (own_phone_writes.store_draft) end with any game saved: East
    was entering that game, or has left it to save another."""
    if sheet.draft is not None or sheet.draft_at is not None:
        sheet.draft, sheet.draft_at = None, None
