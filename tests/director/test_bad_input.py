"""Bad input on every director form: a plain answer (4xx), never a 500, nothing changed."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from models import AuditEvent, Player, db
from tests.director.test_access import director_urls

GARBAGE = [
    {},
    {"name": "x" * 5000, "number": "99999999999999999999", "rounds": "-3",
     "games_per_round": "²", "round_minutes": "1e9", "prize_places": "abc",
     "starts_on": "yesterday", "ends_on": "2026-13-45", "sessions": "1-2-3, x",
     "mini": "y", "mini_first": "9", "mini_last": "2", "preset": "nope",
     "method": "coin", "seed": "-1", "first": "٣", "second": "", "from_round": "0",
     "substitute": "999999", "new_substitute": "", "email": "@@", "role": "king",
     "text": "\x00\x01,\n,,,", "confirm": "yes", "names": "\n\n",
     "self_pick_bonus": "ten", "thrower_penalty_0": "", "heavenly": "maybe"},
    # every box holding only spaces: no number at all, said at the field
    {name: " " for name in ("name", "number", "rounds", "games_per_round", "round_minutes",
                            "prize_places", "from_round", "mini_first", "mini_last", "seed",
                            "first", "second", "substitute", "text", "names", "email")},
]


@pytest.mark.parametrize("data", GARBAGE)
def test_no_director_form_answers_500(app, client, tournament, data):
    players_before = db.session.scalar(select(func.count()).select_from(Player))
    for method, path in director_urls(app, tournament):
        if method != "POST" or path.endswith("/remove"):
            continue
        response = client.post(path, data=data)
        assert response.status_code < 500, (path, response.status_code)
        # An empty post (no CSRF in tests) re-saves what is there: no change, no audit row.
        if data and "/rotate" not in path and "/preset" not in path:
            assert response.status_code in (400, 403, 404, 409, 422), (path, response.status_code)
    db.session.expire_all()
    assert db.session.scalar(select(func.count()).select_from(Player)) == players_before
    assert not db.session.scalar(select(AuditEvent).where(AuditEvent.action.in_(
        ["player.add", "player.edit", "player.import", "seating.swap", "rules.update",
         "tournament.update", "staff.add", "player.substitute"])))


def test_control_characters_are_refused_in_names(client, tournament):
    response = client.post(f"/director/t/{tournament.id}/players", data={"name": "Ann\x00Lee"})
    assert response.status_code == 422
    assert "cannot be shown" in response.get_data(as_text=True)
    response = client.post(f"/director/t/{tournament.id}/players/import",
                           data={"text": "90,Bea\x00\n"})
    assert response.status_code == 422
    assert "cannot be shown" in response.get_data(as_text=True)
    assert db.session.scalar(select(func.count()).select_from(Player)) == 32


@pytest.mark.parametrize("first, last", [("2", ""), ("", "3"), ("2", " "), (" ", "3")])
def test_a_mini_tournament_needs_both_its_rounds_or_neither(client, tournament, first, last):
    data = {"name": "Spring", "preset": "destination", "rounds": "3", "games_per_round": "4",
            "round_minutes": "50", "prize_places": "3", "mini": "y", "mini_first": first,
            "mini_last": last}
    for path in ("/director/new", f"/director/t/{tournament.id}/edit"):
        response = client.post(path, data=data)
        assert response.status_code == 422, path
        assert "Enter both the first and the last round" in response.get_data(as_text=True)
    db.session.refresh(tournament)
    assert tournament.name == "Test Open"


def test_withdrawing_from_a_round_of_spaces_is_refused_at_the_field(client, tournament):
    player = tournament.players[0]
    response = client.post(f"/director/t/{tournament.id}/players/{player.id}/withdraw",
                           data={"from_round": " "})
    assert response.status_code == 422
    assert "from which round the player leaves" in response.get_data(as_text=True)
    db.session.refresh(player)
    assert player.withdrawn_from_round is None
