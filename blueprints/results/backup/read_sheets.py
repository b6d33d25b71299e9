"""Reader of the scoresheets: each game read as the table's entry form reads it and its
points scored again under the file's rules (a file's own "points" are never trusted), and
the players' initials."""

from __future__ import annotations

from core.words import SEATS
from models import (
    GameEntry,
    RoundSignoff,
    Scoresheet,
    db,
)
from tournament.scoring import Game, round_lines, signer

from .checks import (
    LONG_TEXT,
    SHEET_STATES,
    BackupError,
    _choice,
    _entries,
    _instant,
    _int,
    _pending,
    _seat_initials,
    _text,
)
from .read_tournament import Into


def read_sheets(data: dict, into: Into) -> None:
    rules, games_per_round = into.rules, into.games_per_round
    tables, rounds, sheets = into.tables, into.rounds, into.sheets
    for entry in _entries(data, "sheets"):
        sheet = Scoresheet(
            round_id=rounds[entry["round"]].id, table_id=tables[entry["table"]].id,
            version=_int(entry.get("version"), "A sheet's version", 1),
            state=_choice(entry.get("state"), "A sheet's state", SHEET_STATES),
            submitted_at=_instant(entry.get("submitted_at")),
            submitted_by=_text(entry.get("submitted_by"), "Who submitted a sheet", 80),
            verified_at=_instant(entry.get("verified_at")),
            amended_at=_instant(entry.get("amended_at")),
            amend_reason=_text(entry.get("amend_reason"), "An amendment's reason", LONG_TEXT,
                               lines=True),
            pending_adjustments=_pending(entry.get("pending_adjustments"), games_per_round),
            west_checked_at=_instant(entry.get("west_checked_at")),
            west_initials=_text(entry.get("west_initials"), "West's initials", 8),
            updated_at=_instant(entry.get("updated_at")))
        games = entry.get("games")
        if not isinstance(games, list) or len(games) > games_per_round:
            raise BackupError(f"A sheet in this backup has more than {games_per_round} "
                              "games.")
        parsed = []
        for game in games:
            # The record is read as the table's entry form reads it, and its points are
            # scored again: a file's own "points" are never trusted.
            checked = Game.from_dict(game["record"], rules)
            parsed.append(checked)
            sheet.games.append(GameEntry(
                number=_int(game.get("number"), "A game number", 1, games_per_round),
                record=checked.to_dict(), signer=signer(rules, checked),
                initials=_text(game.get("initials"), "A game's initials", 8),
                seat_initials=_seat_initials(game.get("seat_initials")),
                note=_text(game.get("note"), "A game's note", 280),
                ruled_at=_instant(game.get("ruled_at"), "A game's ruling time"),
                ruling=_text(game.get("ruling"), "A game's ruling", LONG_TEXT, lines=True),
                ruled_by=_text(game.get("ruled_by"), "Who ruled on a game", 120),
                created_at=_instant(game.get("created_at")),
                updated_at=_instant(game.get("updated_at"))))
        for stored, lines in zip(sheet.games, round_lines(rules, parsed), strict=True):
            points = dict.fromkeys(SEATS, 0)
            for line in lines:
                points[line.seat] += line.points
            stored.points = points
        signoffs = entry.get("signoffs", [])
        if not isinstance(signoffs, list):
            raise BackupError("A sheet's initials in this backup are damaged.")
        for signoff in signoffs:
            sheet.signoffs.append(RoundSignoff(
                seat=_choice(signoff["seat"], "A seat", SEATS),
                initials=_text(signoff["initials"], "A player's initials", 8, required=True),
                signed_at=_instant(signoff.get("signed_at"))))
        db.session.add(sheet)
        sheets[f"{entry['round']}.{entry['table']}"] = sheet
