"""What the director still waits for: the tables whose sheet is not in (or not yet
verified), and the sheets changed by a ruling after submission."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select

from core.lookup import rules_of
from core.words import SEATS, SheetState
from models import (
    GameEntry,
    Player,
    Round,
    Scoresheet,
    Seating,
    Table,
    Tournament,
    User,
    db,
)

from .totals import OFFICIAL_STATES


@dataclass
class MissingTable:
    table_id: int
    table_no: int
    state: str            # "none" (no sheet yet), "open", or "submitted" (awaiting a
                          # table guide's verification, when the rules ask for one)
    games_entered: int
    east_name: str
    east_number: int | None


@dataclass
class RoundMissing:
    round_no: int
    started: bool
    ended: bool
    tables: int
    missing: list[MissingTable]

    @property
    def not_submitted(self) -> int:
        return sum(m.state != SheetState.SUBMITTED for m in self.missing)

    @property
    def awaiting_verification(self) -> int:
        return sum(m.state == SheetState.SUBMITTED for m in self.missing)


def missing_results(tournament: Tournament) -> list[RoundMissing]:
    """Per round that has started (or has any sheet): the tables whose sheet is not yet
    submitted, with East's name so the director can walk to the table. When the rule set
    has a table guide verify every sheet (`table_guide_verifies`, Hidden Tile), submitted
    sheets still awaiting that verification are listed too (state "submitted"); standings
    still count them, as they count every submitted sheet. Three queries."""
    done = (SheetState.VERIFIED,) if rules_of(tournament).table_guide_verifies else OFFICIAL_STATES
    rounds = db.session.execute(
        select(Round.id, Round.number, Round.started_at, Round.ended_at)
        .where(Round.tournament_id == tournament.id).order_by(Round.number)
    ).all()
    sheets = {
        (round_id, table_id): (state, games)
        for round_id, table_id, state, games in db.session.execute(
            select(Scoresheet.round_id, Scoresheet.table_id, Scoresheet.state,
                   func.count(GameEntry.id))
            .join(Round, Round.id == Scoresheet.round_id)
            .outerjoin(GameEntry, GameEntry.sheet_id == Scoresheet.id)
            .where(Round.tournament_id == tournament.id)
            .group_by(Scoresheet.id, Scoresheet.round_id, Scoresheet.table_id,
                      Scoresheet.state)
        )
    }
    seats: dict[int, dict[int, tuple[int, str | None, int | None]]] = {}
    for round_id, table_id, table_no, seat, name, number in db.session.execute(
        select(Seating.round_id, Table.id, Table.number, Seating.seat, Player.name,
               Player.number)
        .join(Table, Table.id == Seating.table_id)
        .join(Player, Player.id == Seating.player_id)
        .join(Round, Round.id == Seating.round_id)
        .where(Round.tournament_id == tournament.id)
    ):
        tables = seats.setdefault(round_id, {})
        known = tables.get(table_id, (table_no, None, None))
        if seat == SEATS[0]:  # East: who the director asks for at the table
            known = (table_no, name, number)
        tables[table_id] = known
    report = []
    for round_id, number, started_at, ended_at in rounds:
        has_sheet = any(key[0] == round_id for key in sheets)
        if started_at is None and not has_sheet:
            continue
        missing = []
        for table_id, (table_no, east_name, east_number) in sorted(
                seats.get(round_id, {}).items(), key=lambda item: item[1][0]):
            state, games = sheets.get((round_id, table_id), ("none", 0))
            if state in done:
                continue
            missing.append(MissingTable(table_id, table_no, state, games, east_name or "",
                                        east_number))
        report.append(RoundMissing(number, started_at is not None, ended_at is not None,
                                   len(seats.get(round_id, {})), missing))
    return report


@dataclass(frozen=True)
class SheetRuling:
    """A director's change to a sheet after it was submitted: to one game (`game_no`), or
    to no one game (a table's round ended by the director: None)."""

    round_no: int
    table_no: int
    by: str
    at: object
    reason: str
    game_no: int | None = None


def rulings(tournament: Tournament) -> list[SheetRuling]:
    """The changes a director made to submitted sheets, latest first, where the rule set
    says no changes after submission (each such change is a ruling): each game's own
    ruling (a second ruling on a sheet does not hide the first), and a sheet's change to
    no one game. Two queries."""
    if rules_of(tournament).changes_after_submit != "ruling":
        return []
    submitted = (Round.tournament_id == tournament.id, Scoresheet.submitted_at.is_not(None))
    games = db.session.execute(
        select(Round.number, Table.number, GameEntry.ruled_by, GameEntry.ruled_at,
               GameEntry.ruling, GameEntry.number)
        .join(Scoresheet, Scoresheet.id == GameEntry.sheet_id)
        .join(Round, Round.id == Scoresheet.round_id)
        .join(Table, Table.id == Scoresheet.table_id)
        .where(*submitted, GameEntry.ruling != "",
               GameEntry.ruled_at >= Scoresheet.submitted_at)
    ).all()
    said = {(round_no, table_no, reason) for round_no, table_no, _, _, reason, _ in games}
    sheets = db.session.execute(
        select(Round.number, Table.number, User.name, Scoresheet.amended_at,
               Scoresheet.amend_reason)
        .join(Round, Round.id == Scoresheet.round_id)
        .join(Table, Table.id == Scoresheet.table_id)
        .outerjoin(User, User.id == Scoresheet.amended_by_id)
        .where(*submitted, Scoresheet.amended_at >= Scoresheet.submitted_at)
    ).all()
    found = [SheetRuling(round_no, table_no, by or "a director", at, reason or "", game_no)
             for round_no, table_no, by, at, reason, game_no in games]
    found += [SheetRuling(round_no, table_no, name or "a director", at, reason or "")
              for round_no, table_no, name, at, reason in sheets
              if (round_no, table_no, reason) not in said]
    return sorted(found, key=lambda ruling: ruling.at, reverse=True)
