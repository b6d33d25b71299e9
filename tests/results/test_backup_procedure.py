"""The backup carries every player's initials on each game and West's check, and a backup
made before they existed still loads."""

from __future__ import annotations

import json

from blueprints.results import backup
from models import Scoresheet, Tournament, db, utcnow
from tests.conftest import make_user
from tests.results.conftest import add_sheet, win
from tests.results.test_backup import as_text, rich_tournament, wipe
from tournament.rules import RuleSet


def test_game_initials_and_west_check_survive_a_backup(director):
    tournament = rich_tournament(director)
    sheet = db.session.scalars(db.select(Scoresheet)).first()
    sheet.games[0].seat_initials = {"E": "AB", "W": "CD"}
    sheet.west_checked_at, sheet.west_initials = utcnow(), "CD"
    db.session.commit()
    first = backup.export_tournament(tournament)
    wipe()
    result = backup.import_tournament(json.loads(as_text(first)), make_user(),
                                      keep_tokens=True)
    second = backup.export_tournament(db.session.get(Tournament, result.tournament.id))
    assert second["sheets"] == first["sheets"]
    assert {"E": "AB", "W": "CD"} in [g["seat_initials"] for s in second["sheets"]
                                      for g in s["games"]]
    assert "CD" in [s["west_initials"] for s in second["sheets"]]


def test_an_older_backup_without_them_loads(director):
    from tests.conftest import make_tournament

    tournament = make_tournament(director, players=8, preset="destination", code="OLDBAK")
    add_sheet(tournament, 1, 1, [win("E")])
    data = backup.export_tournament(tournament)
    for sheet in data["sheets"]:
        del sheet["west_checked_at"], sheet["west_initials"]
        for game in sheet["games"]:
            del game["seat_initials"]
    for name in ("west_checks_sheet", "mini_entry_closes", "scores_final"):
        data["tournament"]["rules"].pop(name, None)
    wipe()
    result = backup.import_tournament(data, make_user())
    imported = db.session.get(Tournament, result.tournament.id)
    # from the destination preset
    assert RuleSet.from_dict(imported.rules).west_checks_sheet is True
    [game] = db.session.scalars(db.select(Scoresheet)).one().games
    assert game.seat_initials == {}
