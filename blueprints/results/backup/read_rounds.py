"""Readers of the room and its rounds: the tables (with their links) and each round with
its clock and its seats."""

from __future__ import annotations

from core.rounds import missing_table
from core.words import SEATS
from models import (
    Round,
    Seating,
    Table,
    db,
)

from .checks import (
    BackupError,
    _choice,
    _entries,
    _instant,
    _int,
    _text,
    round_clock,
)
from .read_tournament import Into


def read_tables(data: dict, into: Into) -> None:
    tid, tables, tokens = into.tid, into.tables, into.tokens
    for entry in data["tables"]:
        table = Table(tournament_id=tid, number=entry["number"], token=tokens[entry["number"]],
                      token_rotated_at=_instant(entry.get("token_rotated_at")))
        db.session.add(table)
        tables[entry["number"]] = table
    db.session.flush()


def read_rounds(data: dict, into: Into) -> None:
    tid, rounds_count = into.tid, into.rounds_count
    players, tables, rounds = into.players, into.tables, into.rounds
    for entry in _entries(data, "rounds"):
        number = _int(entry.get("number"), "A round number", 1, rounds_count)
        rnd = Round(
            tournament_id=tid, number=number, **round_clock(entry, number),
            pause_reason=_text(entry.get("pause_reason"), "A pause reason", 200),
            clock_version=_int(entry.get("clock_version", 0), "A clock version"))
        seats = entry.get("seats")
        if not isinstance(seats, list):
            raise BackupError("A round's seats in this backup are damaged.")
        for seat in seats:
            if not isinstance(seat, dict) or seat.get("table") not in tables:
                where = seat.get("table") if isinstance(seat, dict) else None
                raise BackupError(f"Round {number} of this backup seats a player at table "
                                  f"{where}, which the backup does not list. Nothing was "
                                  "imported.")
        gap = missing_table(s["table"] for s in seats)
        if gap is not None:
            raise BackupError(f"Round {number} of this backup seats no one at table {gap} "
                              "but seats a higher table: the players would move to tables "
                              "that are not there. Nothing was imported.")
        rnd.seats = [Seating(table_id=tables[s["table"]].id,
                             seat=_choice(s["seat"], "A seat", SEATS),
                             player_id=players[s["player"]].id) for s in seats]
        db.session.add(rnd)
        rounds[number] = rnd
    db.session.flush()
