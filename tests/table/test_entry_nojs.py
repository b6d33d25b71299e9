"""The entry page as a phone without JavaScript gets it: the signer confirms only the
scores they were shown; a question the rule set does not ask is not drawn; "Show the
scores" opens the answer page at the question; a game after time called offers no
signer's button."""

from __future__ import annotations

import re

import pytest

from tests.conftest import make_tournament
from tests.table.conftest import TableClient


def sign_button(body: str) -> bool:
    return 'name="signed_by"' in body


def shown_scores(body: str) -> str:
    found = re.search(r'name="shown_scores" value="([^"]*)"', body)
    assert found, "the signer's button carries the scores it shows"
    return found.group(1)


def test_a_correction_is_confirmed_only_for_the_scores_shown(east):
    assert east.save(1, outcome="wall").status_code == 303
    page = east.get("/game", g=1).get_data(as_text=True)
    assert sign_button(page)
    shown = shown_scores(page)  # the wall game: 10 each (tnt)
    # East changes the answers without "Show the scores" and West taps the old button
    data = east.game_data(1, initials="", outcome="mahjong", winner="E", value="30",
                          win_by="self", signed_by="W", shown_scores=shown)
    data["no_dead"] = "y"
    response = east.post("/game", data)
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert "The scores changed" in body
    assert east.sheet().games[0].record["outcome"] == "wall"
    # the page now shows the new scores on the button: that tap saves
    assert sign_button(body) and shown_scores(body) != shown
    data["shown_scores"] = shown_scores(body)
    assert east.post("/game", data).status_code == 303
    # tnt: East self-picked 30, +10 self-pick... as the preview showed
    assert east.sheet().games[0].record["outcome"] == "mahjong"


@pytest.mark.parametrize("preset, asked", [("rules-of-the-road", False), ("tnt", True)])
def test_a_question_the_rules_do_not_ask_is_not_drawn(client, director, preset, asked):
    # rules-of-the-road: no Mah Jongg in error, no misnamed-tile game on its sheet
    tournament = make_tournament(director, players=8, rounds=2, preset=preset,
                                 code="ROAD01")
    body = TableClient(client, tournament).get("/game").get_data(as_text=True)
    assert ("Who declared Mah Jongg in error?" in body) is asked
    assert ("Whose hand is the one still intact?" in body) is asked
    assert ("Who misnamed the discard?" in body) is asked


def test_show_the_scores_opens_at_the_question(east):
    page = east.get("/game").get_data(as_text=True)
    assert re.search(r'formaction="[^"]*/game/preview\?[^"]*#next-step"', page)
    data = east.game_data(1, initials="", outcome="mahjong", winner="S", value="25",
                          win_by="thrown:W")
    body = east.post("/game/preview", data).get_data(as_text=True)
    # the next question (how many exposures) carries the anchor
    assert re.search(r'<span id="next-step"></span><fieldset[^>]*id="step-exposures"', body)
    assert body.count('id="next-step"') == 1


def test_after_time_called_a_later_mah_jongg_offers_no_signers_button(east):
    assert east.save(1, outcome="time").status_code == 303
    data = east.game_data(2, initials="", outcome="mahjong", winner="S", value="25",
                          win_by="self")
    data["no_dead"] = "y"
    body = east.post("/game/preview", data).get_data(as_text=True)
    assert "Time was called in game 1" in body
    assert not sign_button(body)
