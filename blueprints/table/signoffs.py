"""The players' confirmations of a table's sheet and the staff's check of it: a player's
initials beside their round total or (where every player signs each game) beside one game,
West's check of East's sheet, East submitting the round and a table guide verifying it.

Each is one unit of work with the steps every sheet write shares (the version bump, the
request key and the refusals of blueprints.table.sheet_writes)."""

from __future__ import annotations

from blueprints.common import points_text
from core.errors import Replay
from core.lookup import rules_of
from core.sheets import stored_totals, subject_of
from core.words import SEAT_NAMES, SEATS, SheetState, staff_actor, table_actor
from core.writes import applied
from models import Round, RoundSignoff, Scoresheet, Table, User, record, utcnow
from tournament.rules import score_checker

from .sheet_reads import seats_of
from .sheet_writes import (
    SheetError,
    begin_write,
    check_initials,
    player_initials,
    scoped,
    sheet_and_key,
    sheet_write,
)


def _every_game_entered(sheet: Scoresheet, table: Table, field: str, message: str) -> None:
    # the summed column, not the games: these writes change no game, so need none loaded
    if sheet.games_count < table.tournament.games_per_round:
        raise SheetError(field, message)


@sheet_write
def sign_round(table: Table, round_: Round, seat: str, initials: str, *,
               version: int | None, key: str | None,
               shown_total: int | None = None, where: str = "") -> Scoresheet:
    """A player's initials beside their round total (every game must be entered).

    The initials confirm `shown_total`, the total the page showed them. When the sheet
    changed since (the usual case: the other players initialling at the same moment on
    their own phones), they still apply if that total stands; if it does not, they are
    refused at the player's box with the total as it now is. `where`: which phone, for
    the audit row ("on their own phone")."""
    if seat not in SEATS:
        raise SheetError("seat", "Choose your seat.")
    sheet, key = sheet_and_key(round_, table, key, "initial", seat,
                               content=[(initials or "").strip(), shown_total])
    if not (initials or "").strip():  # the player's one tap on their own button
        initials = player_initials(seats_of(round_, table).get(seat), seat)
    initials = check_initials(initials, f"initials_{seat}")
    if shown_total is not None and version != sheet.version and \
            sheet.state == SheetState.OPEN:
        total = stored_totals(sheet)[seat]
        if total != shown_total:
            raise SheetError(f"initials_{seat}", f"A game was changed meanwhile: your total "
                             f"is now {points_text(total)}. Check it, then initial again.",
                             status=409)
        # the bump below still fails if anything changes the sheet from here on
        version = sheet.version
    sheet = begin_write(sheet, version, key, confirmation=True)
    _every_game_entered(sheet, table, f"initials_{seat}", "Enter every game first (or record "
                        "the rest as time called), then initial the round total.")
    current = next((s for s in sheet.signoffs if s.seat == seat), None)
    before = current.initials if current else None
    if current is None:
        sheet.signoffs.append(RoundSignoff(seat=seat, initials=initials, signed_at=utcnow()))
    else:
        current.initials, current.signed_at = initials, utcnow()
    record("round.initial", tournament_id=table.tournament_id, subject=subject_of(sheet),
           before={"seat": seat, "initials": before},
           after={"seat": seat, "initials": initials, "total": stored_totals(sheet)[seat]},
           actor=table_actor(table.number, seat) + (f", {where}" if where else ""))
    return sheet


@sheet_write
def initial_game(table: Table, round_: Round, number: int, seat: str, *,
                 version: int | None, key: str | None) -> Scoresheet:
    """`seat`'s score in game `number` is confirmed with one tap on East's phone, where the
    rule set has each score checked: by its own player, or by the player across
    (tournament.rules.score_checker); the checker's initials go beside that score."""
    rules = rules_of(table.tournament)
    if seat not in SEATS:
        raise SheetError("seat", "Choose your seat.")
    checker = score_checker(rules, seat)
    if checker is None:
        raise SheetError("sheet", f"Under {rules.short_name} rules one player initials each "
                         "game when it is saved.", status=409)
    sheet, key = sheet_and_key(round_, table, key, "game-initial", number, seat,
                               games=True)
    sheet = begin_write(sheet, version, key, confirmation=True)
    entry = next((e for e in sheet.games if e.number == number), None)
    if entry is None:
        raise SheetError("game", f"Game {number} is not entered yet.")
    initials = player_initials(seats_of(round_, table).get(checker), checker)
    before = dict(entry.seat_initials or {})
    entry.seat_initials = {**before, seat: initials}
    record("game.initial", tournament_id=table.tournament_id, subject=subject_of(sheet),
           before={"game": number, "seat_initials": before},
           after={"game": number, "seat_initials": entry.seat_initials,
                  "points": entry.points[seat]},
           actor=table_actor(table.number, checker))
    return sheet


@sheet_write
def west_check(table: Table, round_: Round, *, version: int | None,
               key: str | None) -> Scoresheet:
    """West has checked East's sheet (every game entered), where the rule set asks for it."""
    rules = rules_of(table.tournament)
    if not rules.west_checks_sheet:
        raise SheetError("west", f"{rules.short_name} rules do not ask West to check the "
                         "sheet.")
    sheet, key = sheet_and_key(round_, table, key, "west-check")
    sheet = begin_write(sheet, version, key, confirmation=True)
    _every_game_entered(sheet, table, "west", "Enter every game first (or record the rest "
                        "as time called), then West checks the sheet.")
    initials = player_initials(seats_of(round_, table).get("W"), "W")
    sheet.west_checked_at, sheet.west_initials = utcnow(), initials
    record("sheet.west_check", tournament_id=table.tournament_id, subject=subject_of(sheet),
           before=None, after={"west_initials": initials, "totals": stored_totals(sheet)},
           actor=table_actor(table.number, "W"))
    return sheet


@sheet_write
def submit_sheet(table: Table, round_: Round, *, version: int | None,
                 key: str | None) -> Scoresheet:
    """East submits the round: the sheet is locked (changes only by the director)."""
    rules = rules_of(table.tournament)
    sheet, key = sheet_and_key(round_, table, key, "submit")
    sheet = begin_write(sheet, version, key, locked="This sheet was already submitted.")
    _every_game_entered(sheet, table, "submit", "Enter every game first (or record the "
                        "rest as time called).")
    signed = {s.seat for s in sheet.signoffs}
    missing = [SEAT_NAMES[s] for s in SEATS if s not in signed]
    if rules.round_signoff_all and missing:
        raise SheetError("submit", "Every player initials their round total first. "
                         f"Still to initial: {', '.join(missing)}.")
    if rules.game_signoff in ("all", "across"):
        unsigned = [f"game {e.number} ("
                    + ", ".join(SEAT_NAMES[s] for s in SEATS if s not in (e.seat_initials or {}))
                    + ")" for e in sheet.games if set(SEATS) - set(e.seat_initials or {})]
        if unsigned:
            who = ("Every player initials every game first" if rules.game_signoff == "all"
                   else "The player across checks every score first")
            raise SheetError("submit", f"{who}. Still to initial: {'; '.join(unsigned)}.")
    unconfirmed = [e for e in sheet.games if e.signer and not e.initials]
    if unconfirmed:
        seats = seats_of(round_, table)
        waiting = "; ".join(f"game {e.number} ("
                            f"{seats[e.signer].name if e.signer in seats else e.signer})"
                            for e in unconfirmed)
        raise SheetError("submit", "Every game is confirmed by its signer first. Still to "
                         f"confirm: {waiting}.")
    if rules.west_checks_sheet and sheet.west_checked_at is None:
        raise SheetError("submit", "West checks East's sheet first: West, tap \u201cI "
                         "checked East's sheet\u201d above.")
    sheet.state, sheet.submitted_at = SheetState.SUBMITTED, utcnow()
    sheet.submitted_by = table_actor(table.number)[:80]
    record("sheet.submit", tournament_id=table.tournament_id, subject=subject_of(sheet),
           before={"state": SheetState.OPEN},
           after={"state": SheetState.SUBMITTED, "totals": stored_totals(sheet)},
           actor=sheet.submitted_by)
    return sheet


@sheet_write
def verify_sheet(sheet: Scoresheet, user: User, *, version: int | None,
                 key: str | None) -> Scoresheet:
    """A table guide (or director) checked the submitted sheet at the table."""
    key = scoped(key, sheet, "verify")
    if applied(key):
        raise Replay()
    sheet = begin_write(sheet, version, key, locked=None)
    if sheet.state != SheetState.SUBMITTED:
        raise SheetError("verify", "Only a submitted sheet can be verified."
                         if sheet.state == SheetState.OPEN
                         else "This sheet is already verified.", status=409)
    sheet.state, sheet.verified_at, sheet.verified_by_id = (SheetState.VERIFIED, utcnow(),
                                                            user.id)
    record("sheet.verify", tournament_id=sheet.table.tournament_id, subject=subject_of(sheet),
           before={"state": SheetState.SUBMITTED}, after={"state": SheetState.VERIFIED},
           actor=staff_actor(user), actor_user_id=user.id)
    return sheet
