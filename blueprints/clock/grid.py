"""The director's grid of tables: games entered per table this round, which tables are
behind the clock, and the earlier rounds whose sheets are still not submitted."""

from __future__ import annotations

from dataclasses import dataclass

from flask import url_for
from sqlalchemy import and_, func, select

from core.clock import ClockView, fingerprint
from core.words import SheetState
from models import GameEntry, Round, Scoresheet, Seating, Table, Tournament, db

# A sheet the table is done with (a table guide's verification is the results' business).
DONE = (SheetState.SUBMITTED, SheetState.VERIFIED)


@dataclass(frozen=True)
class TableProgress:
    number: int
    games: int
    sheet_state: str          # "none" (nothing entered yet), open, submitted, verified
    behind: bool
    url: str

    @property
    def state_words(self) -> str:
        return {"none": "no games yet", SheetState.OPEN: "open",
                SheetState.SUBMITTED: "submitted",
                SheetState.VERIFIED: "verified"}[self.sheet_state]

    @property
    def done(self) -> bool:
        return self.sheet_state in DONE


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
        done = state in DONE
        grid.append(TableProgress(
            number=number, games=games, sheet_state=state,
            behind=is_behind(games, done, view, tournament.games_per_round),
            url=url_for("table.director_sheet", tournament_id=tournament.id,
                        table_no=number, round_no=view.round_no)))
    return grid


def grid_version(view: ClockView | None, grid: list[TableProgress]) -> str:
    return fingerprint(view.version if view else "none",
                       [(t.number, t.games, t.sheet_state, t.behind) for t in grid])


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
        if state not in DONE:
            missing.setdefault(number, []).append(table_no)
    return [Unsubmitted(number, tuple(tables)) for number, tables in missing.items()]
