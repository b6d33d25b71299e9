"""Readers of the people of an import: players (and the organiser's own seating, by
player number), substitutions, and the competitions they enter."""

from __future__ import annotations

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
        into.tournament.imported_seating = _seating_by_id(info["imported_seating"], players)


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


def _seating_by_id(value, players: dict) -> dict | None:
    """The imported seating back from player numbers; anything unreadable is dropped (the
    director imports the seating again)."""
    if not isinstance(value, dict):
        return None
    try:
        return {str(round_no): {str(table): {seat: players[number].id
                                             for seat, number in seats.items()}
                                for table, seats in tables.items()}
                for round_no, tables in value.items()}
    except (AttributeError, KeyError, TypeError):
        return None
