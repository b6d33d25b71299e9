"""What the front desk may write: a scorer keys in only a table scoring on paper; a
director may key in any table, with a written reason; a director's ruling on a game binds
the desk as it binds the table; the desk never submits a table still on its phone; a save
that changes nothing leaves the sheet's version alone."""

from __future__ import annotations

import pytest

from blueprints.table.desk_writes import set_on_paper
from blueprints.table.sheet_writes import save_game
from core.rounds import ensure_round
from models import AuditEvent, RoundSignoff, db
from tests.conftest import make_tournament
from tests.paper.test_front_desk import GAMES, _staff, form_of, sheet_data, stored, url


@pytest.fixture
def tnt(director):
    tournament = make_tournament(director, players=8, rounds=2)
    ensure_round(tournament, 1)
    db.session.commit()
    return tournament


def on_paper(tournament, director, table=1):
    set_on_paper(tournament.tables[table - 1], ensure_round(tournament, 1), True,
                 user=director, role="director")


def test_a_scorer_cannot_write_a_table_on_its_phone(app, tnt):
    scorer = _staff(app, tnt, "scorer", "sue@example.com")
    page = scorer.get(url(tnt)).get_data(as_text=True)
    response = scorer.post(url(tnt), data=sheet_data(form_of(page), {0: GAMES[0]},
                                                     action="save"))
    assert response.status_code == 409
    assert "Table 1 scores this round on its phone" in response.get_data(as_text=True)
    assert stored(tnt) is None or stored(tnt).games == []


def test_a_scorer_cannot_submit_a_table_on_its_phone_with_paper_initials(app, tnt):
    scorer = _staff(app, tnt, "scorer", "sue@example.com")
    page = scorer.get(url(tnt, table=2)).get_data(as_text=True)
    games = {**GAMES, 3: {"winner": "N", "value": "25", "thrower": "E", "exposures": "1"}}
    response = scorer.post(url(tnt, table=2), data=sheet_data(form_of(page), games,
                                                              action="submit", initialled="y"))
    assert response.status_code == 409
    sheet = stored(tnt, 2)
    assert sheet is None or (sheet.state == "open" and sheet.games == [])
    assert db.session.scalar(db.select(db.func.count()).select_from(RoundSignoff)) == 0


def test_a_director_keys_in_a_phone_table_only_with_a_reason_and_never_submits_it(
        client, tnt):
    page = client.get(url(tnt)).get_data(as_text=True)
    response = client.post(url(tnt), data=sheet_data(form_of(page), {0: GAMES[0]},
                                                     action="save"))
    assert response.status_code == 422
    assert "Write the reason" in response.get_data(as_text=True)
    assert stored(tnt) is None or stored(tnt).games == []
    response = client.post(url(tnt), data=sheet_data(form_of(page), {0: GAMES[0]},
                                                     action="save", reason="phone died"))
    assert response.status_code == 303
    game = stored(tnt).games[0]
    assert game.initials != "paper" and game.ruled_at is not None
    page = client.get(url(tnt)).get_data(as_text=True)
    response = client.post(url(tnt), data=sheet_data(form_of(page), action="submit",
                                                     initialled="y", reason="phone died"))
    assert response.status_code == 409
    assert stored(tnt).state == "open"


def test_a_ruling_binds_the_desk_as_it_binds_the_table(app, client, tnt, director):
    rnd = ensure_round(tnt, 1)
    save_game(tnt.tables[0], rnd, 1, {"outcome": "wall"}, initials="DD", version=1,
              key="ruling", actor="director", user=director, reason="tile count",
              director=True)
    on_paper(tnt, director)
    scorer = _staff(app, tnt, "scorer", "sue@example.com")
    page = scorer.get(url(tnt)).get_data(as_text=True)
    version = stored(tnt).version
    response = scorer.post(url(tnt), data=sheet_data(form_of(page), {0: GAMES[0]},
                                                     action="save"))
    assert response.status_code == 409
    assert "The director ruled on this game" in response.get_data(as_text=True)
    sheet = stored(tnt)
    assert sheet.games[0].record["outcome"] == "wall" and sheet.version == version


def test_a_scorer_keys_in_a_table_on_paper(app, tnt, director):
    on_paper(tnt, director)
    scorer = _staff(app, tnt, "scorer", "sue@example.com")
    page = scorer.get(url(tnt)).get_data(as_text=True)
    response = scorer.post(url(tnt), data=sheet_data(form_of(page), action="submit",
                                                     initialled="y"))
    assert response.status_code == 303
    assert stored(tnt).state == "submitted"


def test_a_save_that_changes_nothing_keeps_the_version(client, tnt, director):
    on_paper(tnt, director)
    page = client.get(url(tnt)).get_data(as_text=True)
    client.post(url(tnt), data=sheet_data(form_of(page), {0: GAMES[0]}, action="save"))
    version = stored(tnt).version
    page = client.get(url(tnt)).get_data(as_text=True)
    response = client.post(url(tnt), data=sheet_data(form_of(page), {0: GAMES[0]},
                                                     action="save"))
    assert response.status_code == 303
    assert stored(tnt).version == version
    assert db.session.scalar(db.select(db.func.count()).select_from(AuditEvent).where(
        AuditEvent.action == "game.paper")) == 1


ANSWERED = "These answers are not the ones this page first sent"


def test_the_desk_key_tells_a_save_from_a_submit(client, tnt, director):
    on_paper(tnt, director)
    page = client.get(url(tnt)).get_data(as_text=True)
    hidden = form_of(page)
    assert client.post(url(tnt), data=sheet_data(hidden, action="save")).status_code == 303
    response = client.post(url(tnt), data=sheet_data(hidden, action="submit",
                                                      initialled="y"))
    assert response.status_code == 409
    assert ANSWERED in response.get_data(as_text=True)
    assert stored(tnt).state == "open"
    assert db.session.scalar(db.select(db.func.count()).select_from(AuditEvent).where(
        AuditEvent.action == "sheet.submit")) == 0


def test_the_desk_key_with_other_games_is_refused(client, tnt, director):
    on_paper(tnt, director)
    page = client.get(url(tnt)).get_data(as_text=True)
    hidden = form_of(page)
    assert client.post(url(tnt), data=sheet_data(hidden, {0: GAMES[0]},
                                                  action="save")).status_code == 303
    response = client.post(url(tnt), data=sheet_data(hidden, {0: {"winner": "wall"}},
                                                      action="save"))
    assert response.status_code == 409
    assert ANSWERED in response.get_data(as_text=True)
    assert stored(tnt).games[0].record["winner"] == "S"
    # the page carries the sheet as it is now and a key of its own: the next tap saves
    again = form_of(response.get_data(as_text=True))
    assert again["request_key"] != hidden["request_key"]
    assert client.post(url(tnt), data=sheet_data(again, {0: {"winner": "wall"}},
                                                  action="save")).status_code == 303
    assert stored(tnt).games[0].record["outcome"] == "wall"



def test_a_reason_is_bounded_at_its_box(client, tnt, director):
    on_paper(tnt, director)
    page = client.get(url(tnt)).get_data(as_text=True)
    client.post(url(tnt), data=sheet_data(form_of(page), action="submit", initialled="y"))
    page = client.get(url(tnt)).get_data(as_text=True)
    changed = {**GAMES, 2: {"winner": "wall", "dead": "N"}}
    response = client.post(url(tnt), data=sheet_data(form_of(page), changed, action="save",
                                                      reason="x" * 10_000))
    assert response.status_code == 422
    assert "please keep it under 280" in response.get_data(as_text=True)
    assert stored(tnt).games[2].points == {"E": 10, "S": 10, "W": 10, "N": 10}


def test_a_directors_amendment_and_a_games_note_are_bounded(tnt, director):
    from blueprints.table.sheet_writes import SheetError

    rnd = ensure_round(tnt, 1)
    save_game(tnt.tables[0], rnd, 1, {"outcome": "wall"}, initials="CC", version=1,
              key="first")
    version = stored(tnt).version
    with pytest.raises(SheetError) as refused:
        save_game(tnt.tables[0], rnd, 1, {"outcome": "wall", "dead": ["N"]}, initials="DD",
                  version=version, key="long", actor="director", user=director,
                  reason="x" * 10_000, director=True)
    assert refused.value.field == "reason" and "under 280" in refused.value.message
    with pytest.raises(SheetError) as refused:
        save_game(tnt.tables[0], rnd, 2, {"outcome": "wall"}, initials="CC",
                  version=version, key="note", note="y" * 10_000)
    assert refused.value.field == "note"
    sheet = stored(tnt)
    assert sheet.version == version and len(sheet.games) == 1
    assert sheet.amend_reason == ""
