"""Readers of the people of an import: players (and the organiser's own seating, by
player number), substitutions, and the competitions they enter."""

from __future__ import annotations

from core.words import SEATS
from models import (
    Competition,
    CompetitionEntry,
    Player,
    Substitution,
    db,
)

from .checks import (
    MAX_PLAYER,
    BackupError,
    _bool,
    _choice,
    _entries,
    _instant,
    _int,
    _text,
)
from .read_tournament import Into


def read_players(data: dict, info: dict, into: Into) -> None:
    tid, rounds_count, players = into.tid, into.rounds_count, into.players
    for entry in _entries(data, "players"):
        number = _int(entry.get("number"), "A player number", 1, MAX_PLAYER)
        player = Player(
            tournament_id=tid, number=number,
            name=_text(entry.get("name"), "A player's name", 120, required=True).strip(),
            is_substitute=_bool(entry.get("is_substitute"), "Substitute"),
            withdrawn_from_round=_int(entry.get("withdrawn_from_round"), "A withdrawal round",
                                      1, rounds_count, optional=True),
            created_at=_instant(entry.get("created_at")))
        db.session.add(player)
        players[number] = player
    if info.get("imported_seating"):
        db.session.flush()
        into.tournament.imported_seating = _seating_by_id(info["imported_seating"], into)


def read_substitutions(data: dict, into: Into) -> None:
    tid, rounds_count, players = into.tid, into.rounds_count, into.players
    for entry in _entries(data, "substitutions"):
        db.session.add(Substitution(
            tournament_id=tid, player_id=players[entry["player"]].id,
            substitute_id=players[entry["substitute"]].id,
            from_round=_int(entry.get("from_round"), "A substitution's round", 1,
                            rounds_count),
            created_at=_instant(entry.get("created_at"))))


def read_competitions(data: dict, into: Into) -> None:
    tid, rounds_count, players = into.tid, into.rounds_count, into.players
    competitions = into.competitions
    for entry in _entries(data, "competitions"):
        first = _int(entry.get("first_round"), "A competition's first round", 1, rounds_count)
        competition = Competition(
            tournament_id=tid, kind=_choice(entry.get("kind"), "A competition's kind",
                                            ("session", "mini")),
            name=_text(entry.get("name"), "A competition's name", 80, required=True),
            first_round=first,
            last_round=_int(entry.get("last_round"), "A competition's last round", first,
                            rounds_count),
            entrants_only=_bool(entry.get("entrants_only"), "Entrants only"))
        entrants = entry.get("entrants", [])
        if not isinstance(entrants, list):
            raise BackupError("A competition's entrants in this backup are damaged.")
        competition.entries = [CompetitionEntry(player_id=players[n].id) for n in entrants]
        db.session.add(competition)
        competitions.append(competition)


def _seating_by_id(value, into: Into) -> dict:
    """The imported seating back from player numbers, refused unless it has the shape the
    seating import makes: every table and player page reads it, so a table "x" or a seat
    nobody holds would break them all."""
    what = "The organiser's seating in this backup"
    if not isinstance(value, dict):
        raise BackupError(f"{what} is damaged.")
    out: dict[str, dict] = {}
    for round_key, tables in value.items():
        round_no = _number_key(round_key)
        if round_no is None or not 1 <= round_no <= into.rounds_count:
            raise BackupError(f"{what} has a round “{round_key[:20]}”: a round is a number "
                              f"from 1 to {into.rounds_count}.")
        if not isinstance(tables, dict):
            raise BackupError(f"{what} is damaged (round {round_no}).")
        seated: set[int] = set()
        out[str(round_no)] = by_table = {}
        for table_key, seats in tables.items():
            table = _number_key(table_key)
            if table is None or table not in into.tokens:
                raise BackupError(f"{what} has a table “{table_key[:20]}” in round {round_no}:"
                                  " a table is the number of one of the backup's tables.")
            if not isinstance(seats, dict):
                raise BackupError(f"{what} is damaged (round {round_no}, table {table}).")
            by_table[str(table)] = {}
            for seat, number in seats.items():
                if seat not in SEATS:
                    raise BackupError(f"{what} has a seat “{str(seat)[:20]}”: a seat is one "
                                      "of E, S, W, N.")
                if isinstance(number, bool) or number not in into.players:
                    raise BackupError(f"{what} seats a player who is not in the backup "
                                      f"(round {round_no}, table {table}).")
                if number in seated:
                    raise BackupError(f"{what} seats player {number} twice in round "
                                      f"{round_no}.")
                seated.add(number)
                by_table[str(table)][seat] = into.players[number].id
    return out


def _number_key(key: str) -> int | None:
    """A JSON key that is a table's or a round's number as the seating import writes it."""
    text = str(key)
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else None
