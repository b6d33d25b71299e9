"""A director's own rule set at the table and after it: her name in every game's breakdown
(the sheet, the player's page), the sign-off where the player across verifies each score, and a
backup that carries both (an older backup still loads)."""

from __future__ import annotations

import json

from blueprints.results import backup
from models import AuditEvent, Tournament, db
from tests.conftest import make_user
from tests.results.test_backup import as_text, wipe
from tests.table.conftest import TableClient
from tests.table.test_director import sheet_url, staff_form
from tournament.rules import RuleSet, named


def crak_table(client, director, **changes):
    """A seated 2-table tournament under "Crak Your Bags" rules started from Destination
    (8 players: table 1 seats players 1-4 East to North)."""
    from tests.conftest import make_tournament

    tournament = make_tournament(director, players=8, rounds=2, preset="destination",
                                 code="CRAK22")
    rules = RuleSet.from_dict({**named(RuleSet.from_dict(tournament.rules),
                                       "Crak Your Bags").to_dict(), **changes})
    db.session.execute(db.update(Tournament).where(Tournament.id == tournament.id)
                       .values(rules=rules.to_dict()))
    db.session.commit()
    db.session.expire_all()
    return TableClient(client, tournament)


def tap(table, game_no, seat):
    return table.post("/game-initial", staff_form(table, game_no=game_no, seat=seat))


def test_every_games_breakdown_names_her_rules(client, director):
    table = crak_table(client, director)
    table.save(1, outcome="mahjong", winner="S", value="25", win_by="thrown", thrower="W",
               exposures="1")
    sheet = client.get(sheet_url(table.tournament)).get_data(as_text=True)
    assert "threw to 1 exposure -10 (Crak Your Bags)" in sheet
    assert "Destination" not in sheet
    # the player's own page: her name wherever the rules are named, never the preset's
    player = client.get(f"/p/{table.tournament.code}/player/3").get_data(as_text=True)
    assert "Destination" not in player


def test_the_player_across_verifies_each_score(client, director):
    # her sheet: "the player across verifies each score" (East's by West, South's by North)
    table = crak_table(client, director, game_signoff="across", west_checks_sheet=False)
    for number in range(1, 5):
        table.save(number, outcome="wall")
    review = table.get("/review").get_data(as_text=True)
    assert "The player across checks each score" in review
    assert "Player 3 (West): Player 1's 10 is right" in review
    assert "Player 4 (North): Player 2's 10 is right" in review
    refused = table.post("/submit", staff_form(table))
    assert refused.status_code == 422
    assert ("The player across checks every score first. Still to initial: game 1"
            in refused.get_data(as_text=True))
    for number in range(1, 5):
        for seat in "ESWN":
            assert tap(table, number, seat).status_code == 303
    # beside each score, the initials of the player across
    assert table.sheet().games[0].seat_initials == {"E": "P3", "S": "P4", "W": "P1",
                                                     "N": "P2"}
    event = db.session.scalar(db.select(AuditEvent).where(
        AuditEvent.action == "game.initial").order_by(AuditEvent.id))
    assert "West" in event.actor or "W" in event.actor  # East's score, tapped by West
    assert table.post("/submit", staff_form(table)).status_code == 303


def test_her_name_and_blank_start_survive_a_backup_and_an_old_backup_loads(client, director):
    table = crak_table(client, director, game_signoff="across")
    tournament = table.tournament
    db.session.execute(db.update(Tournament).where(Tournament.id == tournament.id)
                       .values(preset="blank"))
    db.session.commit()
    first = backup.export_tournament(db.session.get(Tournament, tournament.id))
    assert first["tournament"]["rules"]["name"] == "Crak Your Bags"
    old = json.loads(as_text(first))
    del old["tournament"]["rules_checked_at"]  # a backup made before the to-do's mark
    wipe()
    result = backup.import_tournament(json.loads(as_text(first)), make_user())
    imported = db.session.get(Tournament, result.tournament.id)
    assert imported.preset == "blank"
    assert RuleSet.from_dict(imported.rules).short_name == "Crak Your Bags"
    assert imported.rules["game_signoff"] == "across"
    wipe()
    result = backup.import_tournament(old, make_user("other@example.com"))
    imported = db.session.get(Tournament, result.tournament.id)
    assert imported.rules["name"] == "Crak Your Bags" and imported.rules_checked_at is None
