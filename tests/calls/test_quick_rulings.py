"""One-tap rulings on a call's page: the words the table reads, a -10 that lands on the
sheet naming the player, a dead hand naming the player; a guide cannot change points;
an unknown choice changes nothing; the free-text form is still there."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from models import DirectorCall, Scoresheet, db


def url(tournament, call, suffix=""):
    return f"/calls/director/{tournament.id}/{call.id}{suffix}"


def fresh(call) -> DirectorCall:
    db.session.expire_all()
    return db.session.get(DirectorCall, call.id)


def test_the_call_page_offers_one_tap_rulings_and_the_free_text_form(client, tournament, place):
    call = place("tile_count")
    page = client.get(url(tournament, call)).get_data(as_text=True)
    for words in ("No change to the scores", "Game replayed", "Dead hand",
                  "-10 to North (Player 4)", "East (Player 1)"):
        assert words in page
    assert 'name="ruling"' in page and 'name="seat"' in page


@pytest.mark.parametrize("key, ruling", [
    ("no-change", "No change to the scores"),
    ("replayed", "Game replayed"),
    ("dead:S", "Dead hand: South (Player 2). East marks it in the game's dead hands."),
])
def test_one_tap_resolves_with_those_words(client, tournament, place, key, ruling):
    call = place("ruling")
    response = client.post(url(tournament, call, "/resolve"), data={"quick": key})
    assert response.status_code == 302
    call = fresh(call)
    assert call.state == "resolved" and call.ruling == ruling
    assert db.session.scalar(select(Scoresheet)) is None  # no points changed


def test_one_tap_penalty_goes_on_the_sheet_and_names_the_player(client, tournament, place,
                                                                 table):
    call = place("tile_count")
    response = client.post(url(tournament, call, "/resolve"), data={"quick": "penalty:N"})
    assert response.status_code == 302
    assert fresh(call).ruling == "Penalty -10 to North (Player 4)"
    sheet = db.session.scalar(select(Scoresheet).where(Scoresheet.table_id == table.id))
    [pending] = sheet.pending_adjustments
    assert pending["seat"] == "N" and pending["points"] == -10
    page = client.get(f"/calls/director/{tournament.id}").get_data(as_text=True)
    assert "Table 1: resolved, -10 to North (Player 4)." in page


def test_a_typed_ruling_with_points_names_the_player_too(client, tournament, place):
    call = place("tile_count")
    client.post(url(tournament, call, "/resolve"),
                data={"ruling": "Wrong tile count", "seat": "W", "points": "-25"})
    page = client.get(f"/calls/director/{tournament.id}").get_data(as_text=True)
    assert "Table 1: resolved, -25 to West (Player 3)." in page


def test_an_unknown_choice_changes_nothing(client, tournament, place):
    call = place("ruling")
    for key in ("", "penalty:X", "nonsense", "dead:"):
        response = client.post(url(tournament, call, "/resolve"), data={"quick": key})
        assert response.status_code == 422
        assert "choose one of the rulings shown" in response.get_data(as_text=True)
    assert fresh(call).state == "open"


def test_a_guide_cannot_give_a_one_tap_penalty(tournament, place, guide):
    _user, client = guide
    call = place("ruling")
    page = client.get(url(tournament, call)).get_data(as_text=True)
    assert "penalty:N" not in page and "no-change" in page
    response = client.post(url(tournament, call, "/resolve"), data={"quick": "penalty:N"})
    assert response.status_code == 403
    assert fresh(call).state == "open"
    response = client.post(url(tournament, call, "/resolve"), data={"quick": "no-change"})
    assert response.status_code == 302 and fresh(call).state == "resolved"


def test_a_resolved_call_is_not_resolved_twice(client, tournament, place):
    call = place("ruling")
    client.post(url(tournament, call, "/resolve"), data={"quick": "no-change"})
    response = client.post(url(tournament, call, "/resolve"), data={"quick": "replayed"})
    assert response.status_code == 409
    assert fresh(call).ruling == "No change to the scores"
