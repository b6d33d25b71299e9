"""A game's save and a director's setup change at the same moment, on PostgreSQL: the save
holds the tournament's row FOR SHARE from its first statement to its commit, the change
takes it FOR UPDATE before it checks (blueprints.director.common.lock_tournament). This
side of it: a save that starts while new rules are being written waits for them and
scores the game under them. (The director's side: tests/director/test_races.py.) SQLite
lets one writer in at a time, so these run on PostgreSQL only."""

from __future__ import annotations

import os
import threading

import pytest
from sqlalchemy.orm import Session

from models import Tournament, db
from tests.row_locks import waits_on
from tournament.rules import RuleSet
from tournament.scoring import Game, score_game

pytestmark = pytest.mark.skipif(os.environ.get("MAHJTABLE_TEST_BACKEND") != "postgres",
                                reason="row locks: SQLite lets one writer in at a time")


def test_a_save_during_a_rules_edit_waits_and_scores_under_the_new_rules(east, tnt):
    old_rules = dict(tnt.rules)
    new_rules = {**old_rules, "self_pick_bonus": old_rules["self_pick_bonus"] + 15}
    # read here: the phone's thread has no app context to read the sheet in
    game = east.game_data(1, outcome="mahjong", winner="S", value="25", win_by="self")
    answers = []
    with db.engine.connect() as editing:
        # The director's edit in progress: the row locked as lock_tournament locks it,
        # the new rules written, not committed yet.
        edit = Session(bind=editing)
        edit.get(Tournament, tnt.id, with_for_update=True).rules = new_rules
        edit.flush()
        phone = threading.Thread(target=lambda: answers.append(east.post("/game", game)))
        phone.start()
        assert waits_on(editing, phone), "the save did not wait for the rules being written"
        edit.commit()
    phone.join(30)
    assert answers and answers[0].status_code == 303, answers and answers[0].status_code
    saved = east.sheet().games[0]
    expected = score_game(RuleSet.from_dict(new_rules),
                          Game.from_dict({"outcome": "mahjong", "winner": "S", "value": 25,
                                          "self_picked": True}))
    assert saved.points == expected
    old = score_game(RuleSet.from_dict(old_rules), Game.from_dict(saved.record))
    assert saved.points != old  # the rule changed the score: the test can tell them apart
