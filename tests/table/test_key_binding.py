"""A request key is bound to what it first sent: a resend is applied once, and the same
key with other answers is refused in plain words (never answered "saved" while the first
answers stay stored). At the table (the front desk's: tests/paper/test_desk_authority.py)."""

from __future__ import annotations

import re

ANSWERED = "These answers are not the ones this page first sent"


def test_a_resend_with_the_same_answers_is_applied_once(east):
    data = east.game_data(1, key="same-key", outcome="wall")
    first, again = east.post("/game", data), east.post("/game", data)
    assert first.status_code == again.status_code == 303
    assert len(east.sheet().games) == 1


def test_the_same_key_with_other_answers_is_refused_in_plain_words(east):
    version = east.version()
    data = east.game_data(1, key="same-key", version=version, outcome="wall")
    assert east.post("/game", data).status_code == 303
    # the same wall game, now with North's hand dead, sent again under the first key
    other = {k: v for k, v in data.items() if k != "no_dead"} | {"dead": "N"}
    response = east.post("/game", other)
    assert response.status_code == 409
    assert ANSWERED in response.get_data(as_text=True)
    assert east.sheet().games[0].record["outcome"] == "wall"
    # the page is ready to send these answers as a correction, with a key of its own
    body = response.get_data(as_text=True)
    assert 'name="request_key" value="same-key"' not in body
    assert 'name="entered_as" value="correction"' in body
    key = re.search(r'name="request_key" value="([^"]+)"', body).group(1)
    again = {**other, "request_key": key, "entered_as": "correction",
             "version": east.version()}
    assert east.post("/game", again).status_code == 303
    assert east.sheet().games[0].record["dead"] == ["N"]


def test_a_round_initial_resent_with_other_initials_is_refused_and_keeps_the_first(east):
    """The round's initials are bound to their key too: typed initials sent again under the
    first key with other letters are refused, not answered "initialled" while the first
    letters stay."""
    from tests.table.test_round import play_round

    play_round(east)
    data = {"round_no": 1, "version": east.version(), "request_key": "initial-key",
            "seat": "S", "initials": "BG"}
    assert east.post("/initial", data).status_code == 303
    assert east.post("/initial", data).status_code == 303  # a true resend: applied once
    response = east.post("/initial", {**data, "initials": "XY"})
    assert response.status_code == 409
    assert ANSWERED in response.get_data(as_text=True)
    assert {s.seat: s.initials for s in east.sheet().signoffs} == {"S": "BG"}
