"""Scores that must never be silently wrong: an unanswered question that changes a score,
a game saved after time was called, and a request key another table already used."""

from __future__ import annotations

import pytest
from werkzeug.datastructures import MultiDict

from blueprints.table import sheet_writes
from blueprints.table.forms import GameForm, Unanswered
from models import Round, db
from tests.table.conftest import TableClient
from tournament.rules import PRESETS
from tournament.scoring import InvalidGame

HX = {"HX-Request": "true"}
THROWN = dict(outcome="mahjong", winner="E", value="25", win_by="thrown", thrower="N")


def games(east, round_no=1):
    sheet = east.sheet(round_no)
    return sorted(sheet.games, key=lambda g: g.number) if sheet else []


def round_one(client: TableClient) -> Round:
    return db.session.scalar(db.select(Round).where(
        Round.tournament_id == client.tournament.id, Round.number == 1))


# ---- the winner's exposures are answered, never defaulted ------------------------------


def test_a_thrown_win_with_the_exposures_unanswered_is_refused_at_that_question(east):
    # tnt: "No penalty to player throwing the winning tile to 0 or 1 exposure. ... -10 for
    # throwing the winning tile to a hand with two exposures. ... -25 for throwing the
    # winning tile to a hand with three or more exposures." Unanswered is not 0.
    response = east.save(1, initials="WW", **THROWN)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'id="err-exposures"' in page
    assert "How many exposures did the winner have?" in page
    assert "saved" not in page.lower().split("</h1>")[0]
    assert games(east) == []


@pytest.mark.parametrize("answer", ["-1", str(2**64), "two", "5", "²", " "])
def test_an_exposures_answer_that_is_no_number_from_0_to_4_is_refused(east, answer):
    response = east.save(1, initials="WW", exposures=answer, **THROWN)
    assert response.status_code == 422
    assert 'id="err-exposures"' in response.get_data(as_text=True)
    assert games(east) == []


@pytest.mark.parametrize("exposures, thrower", [("0", 0), ("1", 0), ("2", -10), ("3", -25),
                                                 ("4", -25)])
def test_the_answered_exposures_set_the_thrower_penalty(east, exposures, thrower):
    # tnt: "No penalty to player throwing the winning tile to 0 or 1 exposure. ... -10 for
    # throwing the winning tile to a hand with two exposures. ... -25 for throwing the
    # winning tile to a hand with three or more exposures."
    assert east.save(1, initials="WW", exposures=exposures, **THROWN).status_code == 303
    assert games(east)[0].points["N"] == thrower


def test_the_live_scores_ask_for_the_exposures_instead_of_showing_no_penalty(east):
    data = {"round_no": 1, "version": 1, "game_no": 1, **THROWN}
    page = east.post("/game/preview", data, headers=HX).get_data(as_text=True)
    assert "Next: how many exposures did the winner have?" in page
    assert "no penalty" not in page
    assert 'id="err-exposures"' not in page  # a question not yet reached is no error


def test_the_form_reads_an_unanswered_exposures_as_unanswered(app):
    rules = PRESETS["tnt"]
    with app.test_request_context(method="POST"):
        form = GameForm(formdata=MultiDict(THROWN), meta={"csrf": False})
        with pytest.raises(Unanswered) as refused:
            form.record(rules)
        assert refused.value.field == "exposures"
        form = GameForm(formdata=MultiDict({**THROWN, "exposures": "3"}),
                        meta={"csrf": False})
        assert form.record(rules)["exposures"] == 3


# ---- nothing scores after time is called ------------------------------------------------


def test_a_game_after_a_time_called_game_is_refused_and_says_why(east):
    # tnt: "all players at that table receive a score of zero for each game that was not
    # completed": a game after time was called was never played.
    assert east.save(1, initials="WW", outcome="wall").status_code == 303
    assert east.save(2, initials="WW", outcome="time").status_code == 303
    response = east.save(3, initials="SS", outcome="mahjong", winner="S", value="30",
                         win_by="self")
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'id="err-outcome"' in page
    assert "Time was called in game 2" in page
    assert [g.number for g in games(east)] == [1, 2]
    assert east.save(3, initials="WW", outcome="time").status_code == 303
    assert games(east)[2].points == {"E": 0, "S": 0, "W": 0, "N": 0}


def test_the_service_refuses_a_mah_jongg_after_time_under_hidden_tile(east_htm):
    # hidden-tile: "If the game is unfinished, every player at that table receives 0 points
    # for the round." and "Each round ends immediately when the chime sounds."
    table, rnd = east_htm.table, round_one(east_htm)
    sheet_writes.save_game(table, rnd, 1, {"outcome": "time"}, initials="WW", version=1, key="a")
    with pytest.raises(InvalidGame) as refused:
        sheet_writes.save_game(table, rnd, 2, {"outcome": "mahjong", "winner": "S", "value": 30,
                                          "self_picked": True},
                          initials="SS", version=2, key="b")
    assert "every game of it scores 0" in refused.value.message
    assert [g.number for g in games(east_htm)] == [1]
    assert east_htm.version() == 2  # the refused write changed nothing


def test_correcting_a_game_to_time_called_before_a_played_game_is_refused(east):
    # tnt: "0 points for every player at the table if time is called before the game is
    # finished": a later game was played, so time was not called before it.
    east.save(1, initials="WW", outcome="wall")
    east.save(2, initials="WW", outcome="wall")
    response = east.save(1, initials="WW", outcome="time")
    assert response.status_code == 422
    assert "Game 2 was played after this game" in response.get_data(as_text=True)
    assert [g.record["outcome"] for g in games(east)] == ["wall", "wall"]


# ---- a request key belongs to one sheet and one request --------------------------------


def test_a_key_used_at_another_table_saves_this_tables_game(client, tnt):
    one, two = TableClient(client, tnt, 1), TableClient(client, tnt, 2)
    assert one.save(1, initials="WW", outcome="wall", key="same-key").status_code == 303
    response = two.save(1, initials="WW", outcome="wall", key="same-key")
    assert response.status_code == 303
    assert len(games(one)) == 1 and len(games(two)) == 1
    assert "That game was already saved." not in client.get(two.url()).get_data(as_text=True)


def test_a_key_reused_for_another_game_at_the_same_table_is_a_new_request(east):
    table, rnd = east.table, round_one(east)
    sheet_writes.save_game(table, rnd, 1, {"outcome": "wall"}, initials="WW", version=1, key="k")
    sheet_writes.save_game(table, rnd, 2, {"outcome": "wall"}, initials="WW", version=2, key="k")
    assert [g.number for g in games(east)] == [1, 2]


def test_the_same_request_sent_again_is_still_a_replay_and_stores_one_game(east):
    assert east.save(1, initials="WW", outcome="wall", key="once", version=1).status_code == 303
    again = east.save(1, initials="WW", outcome="wall", key="once", version=1)
    assert again.status_code == 303
    assert len(games(east)) == 1
    page = east.client.get(east.url()).get_data(as_text=True)
    assert "Game 1 saved." in page


# ---- two phones, one game number -------------------------------------------------------


def test_a_game_saved_meanwhile_is_shown_beside_mine_and_keeps_its_number(east):
    assert east.save(1, initials="WW", outcome="wall").status_code == 303
    version = east.version()
    assert east.save(2, initials="WW", outcome="wall", version=version).status_code == 303
    response = east.save(2, initials="SS", outcome="mahjong", winner="S", value="30",
                         win_by="self", version=version, entered_as="new")
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "Another phone saved game 2" in page and 'id="theirs"' in page
    assert 'name="game_no" value="2"' in page and "Save game 3" not in page
    assert [g.record["outcome"] for g in games(east)] == ["wall", "wall"]


def test_a_stale_correction_of_another_game_is_not_called_theirs(east):
    east.save(1, initials="WW", outcome="wall")
    version = east.version()
    east.save(2, initials="WW", outcome="wall", version=version)
    response = east.save(1, initials="WW", outcome="wall", version=version,
                         entered_as="correction")
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "Someone changed this sheet" in page and "Another phone saved" not in page


def test_the_game_saved_meanwhile_says_who_won_and_how(east):
    version = east.version()
    assert east.save(1, initials="SS", outcome="mahjong", winner="S", value="30",
                     win_by="self", version=version).status_code == 303
    response = east.save(1, initials="WW", outcome="wall", version=version,
                         entered_as="new")
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert '<p class="compare-what">Mah Jongg: Player 2, self-picked</p>' in page
