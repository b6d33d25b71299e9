"""The writes that end a table's round before its games are played: the table's "time
called" (every game not yet played recorded as time called) and the director's end of one
table's round (Hidden Tile). Each is one unit of work, as sheet_writes' are."""

from __future__ import annotations

from typing import Any

from core.lookup import rules_of
from core.sheets import clear_changed_signoffs, rescore, subject_of, totals
from core.words import SEATS, SheetState, staff_actor, table_actor
from models import GameEntry, Round, Scoresheet, Table, User, db, record, utcnow
from tournament.scoring import Game

from .sheet_writes import (
    SUBMITTED,
    TEXT_MAX,
    SheetError,
    _merge_pending,
    begin_write,
    check_time_was_called,
    forget_draft,
    printable,
    sheet_and_key,
    sheet_write,
)


def _fill_the_round(sheet: Scoresheet, table: Table, record_of, note: str = "") -> list[int]:
    """Enter every game not yet played with the record `record_of(number)` gives (the
    rulings waiting for that game merged in) and store every game's effective points.
    Returns the games added."""
    rules = rules_of(table.tournament)
    added = []
    for number in range(len(sheet.games) + 1, table.tournament.games_per_round + 1):
        clean = _merge_pending(sheet, number, record_of(number))
        Game.from_dict(clean, rules)
        sheet.games.append(GameEntry(number=number, record=clean, signer=None, initials="",
                                     note=note))
        added.append(number)
    forget_draft(sheet)
    db.session.flush()
    rescore(sheet, rules)
    return added



@sheet_write
def record_time_called(table: Table, round_: Round, *, version: int | None,
                       key: str | None) -> Scoresheet:
    """Enter every game not yet played as "time called"; under a rule set where time
    called zeroes the round, every game of this sheet then stores 0."""
    sheet, key = sheet_and_key(round_, table, key, "time", games=True)
    sheet = begin_write(sheet, version, key, locked=SUBMITTED)
    if len(sheet.games) >= table.tournament.games_per_round:
        raise SheetError("time", "Every game of this round is already entered.", status=409)
    check_time_was_called(round_, sheet, "time")
    before_totals = totals(sheet)
    before_points = {e.number: e.points for e in sheet.games}
    added = _fill_the_round(sheet, table, lambda number: {"outcome": "time"})
    cleared = clear_changed_signoffs(sheet, before_totals)
    record("game.time_called", tournament_id=table.tournament_id, subject=subject_of(sheet),
           before={"points": before_points},
           after={"games": added, "points": {e.number: e.points for e in sheet.games},
                  "zeroes": rules_of(table.tournament).time_called_zeroes,
                  "signoffs_cleared": cleared},
           actor=table_actor(table.number))
    return sheet


@sheet_write
def end_table_round(table: Table, round_: Round, *, reason: str, points: dict[str, int],
                    user: User, version: int | None, key: str | None) -> Scoresheet:
    """The director ends this table's round (Hidden Tile: "the round ends and the remaining
    score is determined by the Tournament Director"): every game not yet played is entered
    as ended by the director, scoring 0, and the director's `points` per seat (what they
    decided the rest of the round is worth) go on the first of them as adjustments with the
    reason. The games already played keep their scores."""
    rules = rules_of(table.tournament)
    if not rules.director_ends_round:
        raise SheetError("end", f"Under {rules.short_name} rules the director does not end one "
                         "table's round.")
    reason = printable(reason, "end_reason", "The reason", longest=TEXT_MAX)
    if not reason:
        raise SheetError("end_reason", "Write the reason for ending this table's round; it is "
                         "shown to the table and kept in the record.")
    adjustments = [{"seat": seat, "points": points[seat], "reason": reason}
                   for seat in SEATS if points.get(seat)]
    Game.from_dict({"outcome": "ended", "adjustments": adjustments}, rules)
    sheet, key = sheet_and_key(round_, table, key, "end-round", games=True)
    sheet = begin_write(sheet, version, key, locked=None)
    if sheet.state != SheetState.OPEN:
        raise SheetError("end", "This sheet was submitted; amend its games instead.")
    count = len(sheet.games)
    if count >= table.tournament.games_per_round:
        raise SheetError("end", "Every game of this round is already entered.")
    before_totals = totals(sheet)

    def ended(number: int) -> dict[str, Any]:
        return ({"outcome": "ended", "adjustments": adjustments}
                if number == count + 1 and adjustments else {"outcome": "ended"})

    added = _fill_the_round(sheet, table, ended, note=reason[:280])
    cleared = clear_changed_signoffs(sheet, before_totals)
    sheet.amended_at, sheet.amended_by_id, sheet.amend_reason = utcnow(), user.id, reason
    record("sheet.director_end", tournament_id=table.tournament_id, subject=subject_of(sheet),
           before={"games": count, "totals": before_totals},
           after={"games": added, "adjustments": adjustments, "totals": totals(sheet),
                  "signoffs_cleared": cleared},
           reason=reason, actor=staff_actor(user, "director"), actor_user_id=user.id)
    return sheet
