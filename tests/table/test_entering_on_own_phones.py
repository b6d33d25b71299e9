"""The game East is entering, on each player's own phone: every answer East taps (the
entry's preview) is kept on the sheet while a seat has its own phone, and that phone's one
poll brings it, said to be not saved yet; a saved game ends it; a table with no own phone
writes nothing on a preview."""

from __future__ import annotations

import html
import re
from datetime import timedelta

from models import db
from tests.live.test_live_poll import _both_ways, live_parts, poll
from tests.table.conftest import count_queries
from tests.table.test_entry import HX, games, name_seat
from tests.table.test_own_phone import claim, phone

# Tapped in this order on the entry page (tnt): South wins, 25, thrown by West, 2 exposures.
ANSWERS = [("outcome", "mahjong:S"), ("value", "25"), ("win_by", "thrown:W"),
           ("exposures", "2")]


def answered(east, number, upto, **more):
    """What East's entry posts for game `number` once the first `upto` answers of ANSWERS
    are tapped (`more`: other fields, as posted)."""
    data = east.game_data(number, initials="")
    data.update(dict(ANSWERS[:upto]), **more)
    return data


def text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def seated(app, tnt, east):
    name_seat(east, "S", "Bea Goldberg")
    name_seat(east, "W", "Carol Chen")
    south = phone(app, tnt)
    claim(south, "S")
    return south


def test_easts_answers_reach_an_own_phone_in_its_one_poll_marked_not_saved(app, tnt, east):
    south = seated(app, tnt, east)
    shown = live_parts(south.get().get_data(as_text=True))
    assert poll(south, shown).status_code == 204
    before = east.sheet()
    version, updated_at = before.version, before.updated_at

    assert east.post("/game/preview", answered(east, 1, 3), headers=HX).status_code == 200
    sheet = east.sheet()
    assert sheet.draft == {"game": 1, "points": None, "record": {
        "outcome": "mahjong", "winner": "S", "value": 25, "discarder": "W"}}
    # East's entry stays current, and the standings and big screen see no change
    assert (sheet.version, sheet.updated_at) == (version, updated_at)
    answer = poll(south, shown)
    assert answer.status_code == 200
    parts = live_parts(answer.get_data(as_text=True))
    assert set(parts) == {"panel"} and parts["panel"] != shown["panel"]
    words = text(answer)
    assert "East is entering game 1" in words and "(not saved yet)" in words
    assert "Bea Goldberg (South) won, thrown by Carol Chen (West). Hand: 25." in words
    assert "Your points if East saves it so" not in words  # the exposures still to come
    shown.update(parts)
    assert poll(south, shown).status_code == 204  # quiet until East taps again

    east.post("/game/preview", answered(east, 1, 4), headers=HX)
    answer = poll(south, shown)
    assert re.search(r"Your points if East saves it so: <strong[^>]*>25<", text(answer))
    shown.update(live_parts(answer.get_data(as_text=True)))

    assert east.save(1, initials="", confirm_later="S", **dict(ANSWERS)).status_code == 303
    assert east.sheet().draft is None and east.sheet().draft_at is None
    words = text(poll(south, shown))
    assert "East is entering" not in words and "not saved yet" not in words
    assert "Bea Goldberg: 25 is right" in words  # the saved game, as before


def test_a_table_without_own_phones_writes_nothing_on_a_preview(east):
    east.save(1, outcome="wall", initials="ab")
    shown = live_parts(east.get().get_data(as_text=True))
    with count_queries() as preview:
        response = east.post("/game/preview", answered(east, 2, 4), headers=HX)
    assert response.status_code == 200
    assert all(s.lstrip().upper().startswith("SELECT") for s in preview.statements)
    assert east.sheet().draft is None
    assert poll(east, shown).status_code == 204


def test_the_same_answers_again_write_nothing_more(app, tnt, east):
    seated(app, tnt, east)
    east.post("/game/preview", answered(east, 1, 2), headers=HX)
    stored = east.sheet().draft_at
    with count_queries() as again:
        east.post("/game/preview", answered(east, 1, 2), headers=HX)
    assert east.sheet().draft_at == stored
    assert all(s.lstrip().upper().startswith("SELECT") for s in again.statements)


def test_a_refused_or_unreadable_answer_keeps_nothing_new_and_never_fails(app, tnt, east):
    south = seated(app, tnt, east)
    east.post("/game/preview", answered(east, 1, 2), headers=HX)
    kept = east.sheet().draft
    for wrong in ({"win_by": "thrown:S"},             # the winner as the thrower
                  {"win_by": "thrown:X"},             # no such seat
                  {"value": "", "value_other": "7"},  # no card value
                  {"exposures": "9", "win_by": "thrown:W"},
                  {"outcome": "ended"},               # not East's to enter
                  {"outcome": "nonsense"},
                  {"game_no": "3"},                   # not the next game
                  {"game_no": "x"}):
        response = east.post("/game/preview", answered(east, 1, 2, **wrong), headers=HX)
        assert response.status_code == 200, wrong
        assert east.sheet().draft == kept, wrong
    assert south.get().status_code == 200


def test_a_correction_of_a_saved_game_is_not_shown_as_entering(app, tnt, east):
    seated(app, tnt, east)
    east.save(1, **dict(ANSWERS))
    correction = answered(east, 1, 4, value="30")
    assert correction["entered_as"] == "correction"
    east.post("/game/preview", correction, headers=HX)
    assert east.sheet().draft is None


def test_a_stale_draft_or_one_of_a_game_saved_meanwhile_is_not_shown(app, tnt, east):
    south = seated(app, tnt, east)
    east.post("/game/preview", answered(east, 1, 3), headers=HX)
    shown = live_parts(south.get().get_data(as_text=True))
    assert "East is entering game 1" in text(south.get())
    sheet = east.sheet()
    sheet.draft_at -= timedelta(minutes=10)  # East put the phone down long ago
    db.session.commit()
    answer = poll(south, shown)  # the draft going stale moves the token once
    assert answer.status_code == 200 and "East is entering" not in text(answer)
    shown.update(live_parts(answer.get_data(as_text=True)))
    assert poll(south, shown).status_code == 204

    # a preview answered after its game was saved (two requests crossing) keeps nothing
    data = answered(east, 1, 3)
    assert east.save(1, initials="", confirm_later="S", **dict(ANSWERS)).status_code == 303
    east.post("/game/preview", data, headers=HX)
    assert east.sheet().draft is None and len(games(east)) == 1
    assert "East is entering" not in text(south.get())


def test_the_one_statement_agrees_with_the_full_view_about_a_draft(app, tnt, east):
    seated(app, tnt, east)
    for upto in (1, 3):
        east.post("/game/preview", answered(east, 1, upto), headers=HX)
        db.session.expire_all()
        full, same, others, wrong_token = _both_ways(east)
        assert "-d" in full.versions["panel"]
        assert same is True and others == [False, False, False] and wrong_token is False
    sheet = east.sheet()
    sheet.draft_at -= timedelta(minutes=10)
    db.session.commit()
    full, same, _, _ = _both_ways(east)
    assert "-d" not in full.versions["panel"] and same is True


def test_a_draft_the_database_refuses_leaves_easts_entry_answered(app, tnt, east,
                                                                  monkeypatch):
    from sqlalchemy.exc import OperationalError

    from blueprints.table import own_phone_writes

    seated(app, tnt, east)

    def locked(*args, **kwargs):
        raise OperationalError("UPDATE scoresheet", {}, Exception("database is locked"))

    monkeypatch.setattr(own_phone_writes.db.session, "execute", locked)
    response = east.post("/game/preview", answered(east, 1, 4), headers=HX)
    monkeypatch.undo()
    assert response.status_code == 200 and "score-points" in response.get_data(as_text=True)
    assert east.sheet().draft is None
