"""Destination: the mini tournament "must be paid before round 10 starts": once its first
round has started, opting a player in or out needs the director's written override."""

from __future__ import annotations

import pytest

from blueprints.director.players import in_mini
from core.rounds import ensure_round
from models import AuditEvent, Competition, db, utcnow
from tests.conftest import make_tournament


def with_mini(tournament, first_round=2, last_round=3):
    db.session.add(Competition(tournament_id=tournament.id, kind="mini", name="Mini",
                               first_round=first_round, last_round=last_round,
                               entrants_only=True))
    db.session.commit()


def start(tournament, number):
    rnd = ensure_round(tournament, number)
    rnd.started_at = utcnow()
    db.session.commit()


@pytest.fixture
def destination(director):
    tournament = make_tournament(director, players=8, rounds=3, preset="destination")
    with_mini(tournament)
    return tournament


def edit(client, tournament, player, **data):
    return client.post(f"/director/t/{tournament.id}/players/{player.id}",
                       data={"number": player.number, "name": player.name, **data})


def test_before_the_minis_first_round_entry_is_open(client, destination):
    player = destination.players[0]
    assert edit(client, destination, player, mini="y").status_code == 302
    assert player.id in in_mini(destination)


def test_after_it_starts_entry_needs_a_written_override(client, destination):
    # destination: "The cost to be in this mini is an additional fee and must be paid before
    # round 10 starts."
    start(destination, 2)
    player = destination.players[0]
    page = client.get(f"/director/t/{destination.id}/players/{player.id}").get_data(
        as_text=True)
    assert "Entry to the mini tournament closed when round 2 started" in page
    refused = edit(client, destination, player, mini="y")
    assert refused.status_code == 422 and "write the reason" in refused.get_data(as_text=True)
    assert player.id not in in_mini(destination)
    assert edit(client, destination, player, mini="y",
                mini_override="Paid at the desk before round 2").status_code == 302
    assert player.id in in_mini(destination)
    event = db.session.scalar(db.select(AuditEvent).where(AuditEvent.action == "mini.override"))
    assert event.reason == "Paid at the desk before round 2" and event.after == {"mini": True}
    # a name change alone needs no override
    assert edit(client, destination, player, mini="y", name="Renamed").status_code == 302


def test_adding_a_player_to_a_closed_mini_needs_the_override(client, destination):
    start(destination, 2)
    url = f"/director/t/{destination.id}/players"
    refused = client.post(url, data={"name": "Late Entrant", "mini": "y"})
    assert refused.status_code == 422
    assert not any(p.name == "Late Entrant" for p in destination.players)
    assert client.post(url, data={"name": "Late Entrant", "mini": "y",
                                  "mini_override": "director's guest"}).status_code == 302


def test_where_the_rules_keep_entry_open_no_override_is_asked(client, director):
    tournament = make_tournament(director, players=8, rounds=3, preset="tnt")
    with_mini(tournament)
    start(tournament, 2)
    player = tournament.players[0]
    assert edit(client, tournament, player, mini="y").status_code == 302
    assert player.id in in_mini(tournament)
    assert not db.session.scalar(db.select(AuditEvent).where(
        AuditEvent.action == "mini.override"))


def import_lines(client, tournament, text, confirm=False):
    data = {"text": text, **({"confirm": "yes"} if confirm else {})}
    return client.post(f"/director/t/{tournament.id}/players/import", data=data)


def test_an_import_cannot_enter_players_in_a_closed_mini(client, destination):
    # destination: "must be paid before round 10 starts": the import has no override box,
    # so a player it would enter after the start is refused at their line, nothing added.
    start(destination, 2)
    text = "number,name,mini\n40,Late Comer,yes\n41,Also Late,no\n"
    for confirm in (False, True):
        response = import_lines(client, destination, text, confirm)
        assert response.status_code == 422
        body = response.get_data(as_text=True)
        assert "Entry to the mini tournament closed when round 2 started" in body
        assert "Late Comer" in body
    db.session.expire_all()
    assert len(destination.players) == 8
    assert not db.session.scalar(db.select(AuditEvent).where(
        AuditEvent.action == "player.import"))
    # the same players without mini entry import
    response = import_lines(client, destination, text.replace("yes", "no"), confirm=True)
    assert response.status_code == 302
    db.session.expire_all()
    assert len(destination.players) == 10
    assert not in_mini(destination) & {p.id for p in destination.players if p.number >= 40}


def test_before_the_minis_start_an_import_enters_players_in_it(client, destination):
    response = import_lines(client, destination, "number,name,mini\n40,Early Bird,yes\n",
                            confirm=True)
    assert response.status_code == 302
    db.session.expire_all()
    bird = next(p for p in destination.players if p.number == 40)
    assert bird.id in in_mini(destination)
