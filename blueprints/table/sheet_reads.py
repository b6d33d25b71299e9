"""The reads under a table's pages: who sits where (with their initials beside the round
total, and where each goes next round) and the sheet with its games, each one statement
built once per process, run on the driver's cursor for the pages that only show.

Read only, and plain rows: blueprints.table.sheet_view turns them into what the pages
show."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import aliased

from core.lookup import movement_plan
from core.rounds import planned_spots, round_row
from core.rows import PrecompiledRead, read_rows
from core.words import SEATS
from models import (
    GameEntry,
    Player,
    Round,
    RoundSignoff,
    Scoresheet,
    Seating,
    Table,
    Tournament,
    db,
)
from tournament.movement import table_for
from tournament.rules import RuleSet


def table_by_number(tournament: Tournament, number: int) -> Table | None:
    return db.session.scalar(
        select(Table).where(Table.tournament_id == tournament.id, Table.number == number)
    )


# The statements every table page runs, built once per process (building one and its
# cache key costs more than running it); parameters are bound at each execution.
_SEATS = (select(Seating.seat, Player).join(Player, Player.id == Seating.player_id)
          .where(Seating.round_id == bindparam("round_id"),
                 Seating.table_id == bindparam("table_id")))
# The reads of the pages that only show the sheet: Core statements on the tables (not the
# mapped classes), run by core.rows.read_rows or, for those every table page runs, by
# core.rows.PrecompiledRead.
_SEATING, _PLAYER = Seating.__table__, Player.__table__
_SHEET_T, _GAME_T, _SIGNOFF_T = (Scoresheet.__table__, GameEntry.__table__,
                                 RoundSignoff.__table__)
# The seated players with their initials beside their round total (one per seat).
_SEAT_ROWS = (
    select(_SEATING.c.seat, _PLAYER.c.id, _PLAYER.c.number, _PLAYER.c.name,
           _SIGNOFF_T.c.initials)
    .join(_PLAYER, _PLAYER.c.id == _SEATING.c.player_id)
    .outerjoin(_SHEET_T, (_SHEET_T.c.round_id == _SEATING.c.round_id)
               & (_SHEET_T.c.table_id == _SEATING.c.table_id))
    .outerjoin(_SIGNOFF_T, (_SIGNOFF_T.c.sheet_id == _SHEET_T.c.id)
               & (_SIGNOFF_T.c.seat == _SEATING.c.seat))
    .where(_SEATING.c.round_id == bindparam("round_id"),
           _SEATING.c.table_id == bindparam("table_id"))
)
_GAME_COLUMNS = ("number", "record", "points_e", "points_s", "points_w", "points_n",
                 "signer", "initials", "note", "seat_initials", "ruled_at", "ruling", "ruled_by")
# The sheet with its games in game order (one row with no game when none is entered).
_SHEET_ROWS = (
    select(_SHEET_T, *(_GAME_T.c[name].label(f"game_{name}") for name in _GAME_COLUMNS))
    .outerjoin(_GAME_T, _GAME_T.c.sheet_id == _SHEET_T.c.id)
    .where(_SHEET_T.c.round_id == bindparam("round_id"),
           _SHEET_T.c.table_id == bindparam("table_id"))
    .order_by(_GAME_T.c.number)
)


_NEXT_TABLE = aliased(Table)
# These players' seats next round (not the whole round's), and the number of tables
# (counted, not loaded: every table page would otherwise load them all).
_TABLES_COUNT = (select(func.count(Table.id))
                 .where(Table.tournament_id == bindparam("tournament_id")).scalar_subquery())
_TABLES_ALONE = select(_TABLES_COUNT)
_NEXT_SEATS = (
    select(Player.id, _NEXT_TABLE.number, _TABLES_COUNT).select_from(Player)
    .outerjoin(Seating, (Seating.player_id == Player.id) & (Seating.round_id == (
        select(Round.id).where(Round.tournament_id == bindparam("tournament_id"),
                               Round.number == bindparam("number")).scalar_subquery())))
    .outerjoin(_NEXT_TABLE, _NEXT_TABLE.id == Seating.table_id)
    .where(Player.id.in_(bindparam("ids", expanding=True)))
)
# The seat rows with each player's table next round and the number of tables, for the
# pages that show where each goes next: one statement instead of two (next_tables).
_NEXT_SEATING, _NEXT_TABLE_T = _SEATING.alias("next_seating"), Table.__table__.alias("next_table")
_ROUND_T = Round.__table__
_SEAT_ROWS_NEXT = (
    _SEAT_ROWS.add_columns(_NEXT_TABLE_T.c.number, _TABLES_COUNT)
    .outerjoin(_NEXT_SEATING, (_NEXT_SEATING.c.player_id == _PLAYER.c.id) & (
        _NEXT_SEATING.c.round_id == select(_ROUND_T.c.id).where(
            _ROUND_T.c.tournament_id == bindparam("tournament_id"),
            _ROUND_T.c.number == bindparam("number")).scalar_subquery()))
    .outerjoin(_NEXT_TABLE_T, _NEXT_TABLE_T.c.id == _NEXT_SEATING.c.table_id)
)
# Every table page reads its seats and its sheet: on the driver's cursor.
_SEATED = {False: PrecompiledRead(_SEAT_ROWS), True: PrecompiledRead(_SEAT_ROWS_NEXT)}
_SHEET = PrecompiledRead(_SHEET_ROWS)


def seats_of(round_: Round, table: Table) -> dict[str, Player]:
    """{seat: player} at this table in this round, in E, S, W, N order."""
    rows = db.session.execute(_SEATS, {"round_id": round_.id, "table_id": table.id})
    found = {seat: player for seat, player in rows}
    return {seat: found[seat] for seat in SEATS if seat in found}


class SeatedPlayer(NamedTuple):
    """A seated player as the pages show them (read only)."""

    id: int
    number: int
    name: str


@dataclass
class SheetGame:
    """An entered game as read for the pages (read only)."""

    number: int
    record: dict[str, Any]
    points: dict[str, int]
    signer: str | None
    initials: str
    note: str
    seat_initials: dict[str, str]
    ruled_at: Any = None  # when a director last changed it (None: never)
    ruling: str = ""
    ruled_by: str = ""

    @property
    def ruled(self) -> bool:
        return self.ruled_at is not None


def _seated(round_: Round, table: Table, with_next: bool):
    """seats_of as plain rows, for a page: ({seat: (id, number, name)} in E, S, W, N
    order, {seat: the initials beside the round total}, and with `with_next` (the
    players' tables in the next round's stored seating {player id: table number}, the
    number of tables) as next_tables reads them; else, or when no one is seated, None)."""
    params = {"round_id": round_.id, "table_id": table.id}
    if with_next:
        params.update(tournament_id=table.tournament.id, number=round_.number + 1)
    found, signed, stored = {}, {}, {}
    tables = None
    for seat, pid, number, name, initials, *next_seat in _SEATED[with_next].rows(params):
        found[seat] = SeatedPlayer(pid, number, name)
        if initials is not None:
            signed[seat] = initials
        if next_seat:
            next_number, tables = next_seat
            if next_number is not None:
                stored[pid] = next_number
    return ({seat: found[seat] for seat in SEATS if seat in found}, signed,
            None if tables is None else (stored, tables))


def _sheet_with_games(round_: Round, table: Table):
    """(the sheet's row, its games in order), or (None, []) when there is no sheet yet."""
    rows = _SHEET.rows({"round_id": round_.id, "table_id": table.id})
    if not rows:
        return None, []
    games = [SheetGame(number=row.game_number, record=row.game_record,
                       points={"E": row.game_points_e, "S": row.game_points_s,
                               "W": row.game_points_w, "N": row.game_points_n},
                       signer=row.game_signer, initials=row.game_initials,
                       note=row.game_note, seat_initials=row.game_seat_initials,
                       ruled_at=row.game_ruled_at,
                       ruling=row.game_ruling or "", ruled_by=row.game_ruled_by or "")
             for row in rows if row.game_number is not None]
    return rows[0], games


def next_tables(round_: Round, table: Table,
                seats: dict[str, Player] | dict[str, SeatedPlayer] | None = None,
                rules: RuleSet | None = None,
                seating: tuple[dict[int, int], int] | None = None) -> dict[str, int | None]:
    """{seat: table number next round} for this table's players (None after the last
    round). The next round's stored seating when it exists, else tournament.movement.
    `seats` and `rules`: this round's seats and the tournament's rules, when the caller
    has them already (a page's SheetView); `seating`: the stored seating and the number
    of tables, when read with the seats (SheetView.next_seating)."""
    tournament = table.tournament
    if round_.number >= tournament.rounds:
        return dict.fromkeys(SEATS)
    if seats is None:
        seats = seats_of(round_, table)
    movement = movement_plan(tournament, rules)
    ids = [player.id for player in seats.values()]
    stored: dict[int, int] = {}
    if seating is not None:
        stored, tables = seating
    elif ids:
        rows = read_rows(_NEXT_SEATS, {
            "tournament_id": tournament.id, "number": round_.number + 1, "ids": ids}).all()
        stored = {pid: number for pid, number, _ in rows if number is not None}
        tables = rows[0][2] if rows else 0
    else:
        tables = read_rows(_TABLES_ALONE, {"tournament_id": tournament.id}).scalar()
    planned = None
    if movement.kind != "moves" and round_row(tournament, round_.number + 1) is None:
        # The organiser's seating or the draw, not one seat's arithmetic, says where.
        planned = {pid: spot[0] for pid, spot in
                   planned_spots(tournament, round_.number + 1, movement).items()}
    answer: dict[str, int | None] = {}
    for seat in SEATS:
        player = seats.get(seat)
        if player is not None and player.id in stored:
            answer[seat] = stored[player.id]
        elif planned is not None:
            answer[seat] = planned.get(player.id) if player is not None else None
        else:
            answer[seat] = table_for(seat, table.number, 2, tables, movement.moves)
    return answer


@dataclass
class NextStop:
    """Where one player goes next round: `table` and `seat` (None when the next round's
    seating is not made yet: `planned` is then the table the movement gives), and when
    that round started (None: not yet)."""

    round_no: int
    table: int | None
    seat: str | None
    planned: int | None
    started_at: Any


def next_stop(round_, table: Table, player_id: int, planned: int | None) -> NextStop | None:
    """Player `player_id`'s table and seat in the round after `round_` (None after the
    last round), read from the next round's stored seating; `planned`: next_tables'
    answer for them, said as planned when that seating is not stored yet."""
    tournament = table.tournament
    if round_.number >= tournament.rounds:
        return None
    found = db.session.execute(
        select(Round.started_at, Table.number, Seating.seat)
        .select_from(Round)
        .outerjoin(Seating, (Seating.round_id == Round.id) & (Seating.player_id == player_id))
        .outerjoin(Table, Table.id == Seating.table_id)
        .where(Round.tournament_id == tournament.id, Round.number == round_.number + 1)
    ).first()
    if found is None or found.number is None:
        return NextStop(round_.number + 1, None, None, planned,
                        found.started_at if found else None)
    return NextStop(round_.number + 1, found.number, found.seat, None, found.started_at)
