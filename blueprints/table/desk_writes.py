"""Writes of the paper fallback: the director marks a table (or every table) as scoring a
round on paper, and the front desk keys a paper sheet in and submits it for the table.

The same steps as every sheet write (blueprints.table.sheet_writes): the version bump,
the request key, the rules read locked, every game checked and scored by
tournament.scoring under the tournament's rules, the effective points stored
(core.sheets.rescore), one unit of work with its audit rows.

A paper sheet not yet submitted needs no reason: it is what the table wrote, and the
audit says who keyed it in. The initials are on the paper: the scorer's tick that the
sheet is initialled as the rules require stands for them ("paper"). Changing a sheet
already submitted is an amendment, only a director's, with a written reason."""

from __future__ import annotations

from typing import Any

from core.lookup import rules_of
from core.sheets import clear_changed_signoffs, rescore, subject_of, totals, unverify
from core.words import PAPER_INITIALS, SEATS, SheetState, staff_actor
from models import GameEntry, Round, RoundSignoff, Table, User, record, utcnow
from tournament.scoring import Game, InvalidGame, check_after_time_called, signer

from .desk_forms import field_name
from .sheet_writes import (
    RULED,
    TEXT_MAX,
    SheetError,
    _merge_pending,
    _rules_locked,
    begin_write,
    printable,
    sheet_and_key,
    sheet_write,
)

# The record keys a desk row has an input for (a refusal is shown at that input).
INPUT_OF = {"outcome": "winner", "winner": "winner", "value": "value",
            "discarder": "thrower", "exposures": "exposures", "self_picked": "self",
            "jokerless": "jokerless", "dead": "dead", "penalties": "peek",
            "heavenly": "winner", "in_error": "winner", "intact": "winner",
            "misnamer": "winner", "quint": "value", "singles_and_pairs": "jokerless"}


def desk_field(number: int, key: str | None) -> str:
    """The desk form's input for record key `key` of game `number`."""
    return field_name(number, INPUT_OF.get(key or "", "winner"))


def check_games(rules, records: dict[int, dict[str, Any]]) -> dict[int, Game]:
    """Every record as a Game under `rules`, in game order, or SheetError at the row's
    input: the messages are the rules engine's own, as at the table."""
    games: dict[int, Game] = {}
    for number in sorted(records):
        try:
            games[number] = Game.from_dict(records[number], rules)
        except InvalidGame as error:
            raise SheetError(desk_field(number, error.field), error.message) from None
    ordered = [games[n] for n in sorted(games)]
    for position, number in enumerate(sorted(games), 1):
        try:
            check_after_time_called(rules, ordered, position)
        except InvalidGame as error:
            raise SheetError(desk_field(number, error.field), error.message) from None
    return games


@sheet_write
def set_on_paper(table: Table, round_: Round, on: bool, *, user: User, role: str,
                 key: str | None = None) -> bool:
    """Mark (or unmark) this table's round as scored on paper; False when it already was."""
    sheet, key = sheet_and_key(round_, table, key, "paper", on)
    if sheet.on_paper == on:
        return False
    sheet = begin_write(sheet, sheet.version, key, locked=None)
    sheet.on_paper = on
    record("sheet.paper" if on else "sheet.phone", tournament_id=table.tournament_id,
           subject=subject_of(sheet), before={"on_paper": not on}, after={"on_paper": on},
           actor=staff_actor(user, role), actor_user_id=user.id)
    return True


@sheet_write
def enter_paper_sheet(table: Table, round_: Round, records: dict[int, dict[str, Any]], *,
                      user: User, role: str, initialled: bool, submit: bool,
                      may_amend: bool, reason: str = "", version: int | None,
                      key: str | None):
    """Store the games of a paper sheet (`records`: {game number: record}, games 1..n in
    order) and, with `submit`, submit it for the table. Games already stored as they are
    on paper are left alone. On a submitted sheet only a director (`may_amend`) changes
    games, each change with `reason`."""
    tournament = _rules_locked(table)
    rules = rules_of(tournament)
    per_round = tournament.games_per_round
    if sorted(records) != list(range(1, len(records) + 1)) or len(records) > per_round:
        missing = next(n for n in range(1, per_round + 1) if n not in records)
        raise SheetError(field_name(missing, "winner"), f"Game {missing} is empty: enter the games "
                         "in order, as on the paper sheet.")
    games = check_games(rules, records)
    reason = printable(reason, "reason", "The reason", lines=True, longest=TEXT_MAX)
    sheet, key = sheet_and_key(round_, table, key, "desk", games=True,
                               content=[records, initialled, submit, reason])
    if not _changed(sheet, records, games) and not (submit and sheet.state == SheetState.OPEN):
        # What is typed is what is stored: nothing to write, and no new version that
        # would tell the other phones "someone changed this sheet".
        return sheet, []
    sheet = begin_write(sheet, version, key, locked=None)
    submitted = sheet.state != SheetState.OPEN
    existing = {e.number: e for e in sheet.games}
    if len(records) < len(existing):
        gone = len(records) + 1
        raise SheetError(field_name(gone, "winner"), f"Game {gone} is entered already: keep it (a "
                         "game cannot be taken off a sheet here).")
    changed = _changed(sheet, records, games)
    on_paper = sheet.on_paper
    if not on_paper and not may_amend and (changed or submit):
        raise SheetError("sheet", f"Table {table.number} scores this round on its phone: its "
                         "games are entered there. The desk keys in a table only once the "
                         "director has put it on paper. Nothing was saved.", status=409)
    if not on_paper and submit and not submitted:
        raise SheetError("sheet", f"Table {table.number} scores this round on its phone: its "
                         "players confirm and submit the sheet there (or the director puts "
                         "the table on paper first). Nothing was submitted.", status=409)
    ruled = [n for n in changed if n in existing and existing[n].ruled_at is not None]
    if ruled and not may_amend:
        raise SheetError(field_name(ruled[0], "winner"), f"Game {ruled[0]}: {RULED}",
                         status=409)
    if submitted and changed and not may_amend:
        raise SheetError("sheet", "This sheet was submitted. Only a director can change "
                         "it now.", status=409)
    # A director's own change (a submitted sheet, a table on its phone, a game ruled on)
    # is a ruling: it says why, and the table's phone may no longer change it.
    ruling = bool(changed) and (submitted or not on_paper or bool(ruled))
    if ruling and not reason:
        raise SheetError("reason", "Write the reason for this change; it is shown to "
                         "the table and kept in the record.")
    if submit and not submitted:
        if len(records) < per_round:
            raise SheetError(field_name(len(records) + 1, "winner"), f"Game {len(records) + 1} is "
                             "empty: enter every game of the sheet (or time called) first.")
        if not initialled:
            raise SheetError("initialled", "Tick that the paper sheet is initialled as the "
                             "rules require, or hand it back to the table to initial.")
    initialled = initialled and on_paper
    before_totals = totals(sheet)
    who = staff_actor(user, role)
    why = reason if ruling else f"entered from the paper sheet by {user.name}"
    befores: dict[int, dict[str, Any] | None] = {}
    for number in changed:
        clean = games[number].to_dict()
        entry = existing.get(number)
        if entry is not None and entry.record.get("adjustments"):
            clean["adjustments"] = entry.record["adjustments"]  # the director's rulings stay
        clean = _merge_pending(sheet, number, clean)
        Game.from_dict(clean, rules)
        befores[number] = None
        if entry is None:
            entry = GameEntry(number=number, record=clean, signer=signer(rules, games[number]),
                              initials=PAPER_INITIALS if initialled else "", note="")
            sheet.games.append(entry)
        else:
            befores[number] = {"record": entry.record, "points": entry.points,
                               "initials": entry.initials}
            entry.record, entry.signer = clean, signer(rules, games[number])
            if initialled:
                entry.initials = PAPER_INITIALS
        if ruling:
            entry.ruled_at, entry.ruling, entry.ruled_by = utcnow(), reason, user.name
    rescore(sheet, rules)
    cleared = clear_changed_signoffs(sheet, before_totals)
    if ruling:
        sheet.amended_at, sheet.amended_by_id, sheet.amend_reason = utcnow(), user.id, reason
        unverify(sheet)
    for number in changed:
        entry = next(e for e in sheet.games if e.number == number)
        record("sheet.amend" if ruling else "game.paper", tournament_id=tournament.id,
               subject=subject_of(sheet), before=befores[number],
               after={"game": number, "record": entry.record, "points": entry.points,
                      "initials": entry.initials, "signoffs_cleared": cleared},
               reason=why, actor=who, actor_user_id=user.id)
    if submit and not submitted:
        _initial_on_paper(sheet, rules)
        sheet.state, sheet.submitted_at = SheetState.SUBMITTED, utcnow()
        sheet.submitted_by = f"front desk: {user.name}"[:80]
        record("sheet.submit", tournament_id=tournament.id, subject=subject_of(sheet),
               before={"state": SheetState.OPEN},
               after={"state": SheetState.SUBMITTED, "totals": totals(sheet),
                      "initials": "on the paper sheet"},
               reason=f"submitted from the paper sheet by {user.name}", actor=who,
               actor_user_id=user.id)
    return sheet, changed


def _changed(sheet, records: dict[int, dict[str, Any]], games: dict[int, Game]) -> list[int]:
    """The games that differ from the sheet as stored. The director's rulings on a game
    are not the paper's: a game differs only in what the table wrote."""
    existing = {e.number: e for e in sheet.games}
    return [n for n in sorted(records) if n not in existing
            or _without_adjustments(existing[n].record)
            != _without_adjustments(games[n].to_dict())]


def _without_adjustments(record_: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record_.items() if k != "adjustments"}


def _initial_on_paper(sheet, rules) -> None:
    """The initials the rule set asks for, written on the paper sheet: the scorer ticked
    that they are there."""
    signed = {s.seat for s in sheet.signoffs}
    if rules.round_signoff_all:
        for seat in SEATS:
            if seat not in signed:
                sheet.signoffs.append(RoundSignoff(seat=seat, initials=PAPER_INITIALS,
                                                   signed_at=utcnow()))
    if rules.game_signoff in ("all", "across"):
        for entry in sheet.games:
            entry.seat_initials = dict.fromkeys(SEATS, PAPER_INITIALS)
    if rules.west_checks_sheet and sheet.west_checked_at is None:
        sheet.west_checked_at, sheet.west_initials = utcnow(), PAPER_INITIALS
