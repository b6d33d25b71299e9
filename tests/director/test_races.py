"""Two things at the same moment: a score saved while the director edits the rules, two
screens adding the same player number or seating round 1 together. Each ends in a plain
answer at the field (409 or 422) with nothing changed, never a 500.

A race is staged by making the first, quick check miss what the other request did (as it
would when the other request lands between that check and the write)."""

from __future__ import annotations

import os
import threading
import time

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from blueprints.director import players, seating, tournaments
from blueprints.director.common import GAMES_FIXED
from core.rounds import ensure_round, round_row
from models import AuditEvent, GameEntry, Player, Round, Scoresheet, Tournament, db
from tests.director.conftest import enter_a_game, error_at
from tests.director.test_tournament import rules_data


def score_lands_after_the_check(monkeypatch, tournament):
    """A game is in, but the quick `scores_entered` check ran just before it landed."""
    enter_a_game(tournament)
    monkeypatch.setattr(tournaments, "scores_entered", lambda tournament: False)


def test_rules_edit_racing_the_first_score_is_refused(client, tournament, monkeypatch):
    before = dict(tournament.rules)
    data = rules_data(tournament, self_pick_bonus="20")
    score_lands_after_the_check(monkeypatch, tournament)
    response = client.post(f"/director/t/{tournament.id}/rules", data=data)
    assert response.status_code == 409
    body = response.get_data(as_text=True)
    assert "Scores have been entered, so the rules are fixed" in body
    assert "Save the rules" not in body       # shown read-only
    db.session.expire_all()
    assert tournament.rules == before
    assert not db.session.scalar(select(AuditEvent).where(AuditEvent.action == "rules.update"))


@pytest.mark.skipif(os.environ.get("MAHJTABLE_TEST_BACKEND") != "postgres",
                    reason="row locks: SQLite lets one writer in at a time")
def test_rules_edit_waiting_on_the_first_save_is_refused_once_it_lands(client, tournament):
    """The first game of the event is being saved on another connection (its tournament row
    locked FOR SHARE, as save_game locks it, the game inserted, not committed yet) while
    the director saves new rules. The edit waits for the save; once the save commits, the
    game counts and the edit is refused: the game was scored under the rules it keeps."""
    before = dict(tournament.rules)
    sheet = Scoresheet(round_id=ensure_round(tournament, 1).id,
                       table_id=tournament.tables[0].id)
    db.session.add(sheet)
    db.session.commit()
    tournament_id, sheet_id = tournament.id, sheet.id
    data = rules_data(tournament, self_pick_bonus="20")
    with db.engine.connect() as saving:
        save = Session(bind=saving)
        save.scalar(select(Tournament.id).where(Tournament.id == tournament_id)
                    .with_for_update(read=True))
        save.add(GameEntry(sheet_id=sheet_id, number=1, record={"outcome": "wall"},
                           points_e=0, points_s=0, points_w=0, points_n=0))
        save.flush()
        answers = []
        edit = threading.Thread(target=lambda: answers.append(
            client.post(f"/director/t/{tournament_id}/rules", data=data)))
        edit.start()
        waited = 0.0
        while not _waiting_on_a_lock(saving) and edit.is_alive() and waited < 10:
            time.sleep(0.05)
            waited += 0.05
        assert edit.is_alive(), "the rules edit did not wait for the save in progress"
        save.commit()
        edit.join(30)
    assert answers and answers[0].status_code == 409, answers and answers[0].status_code
    db.session.expire_all()
    assert db.session.get(Tournament, tournament_id).rules == before


def _waiting_on_a_lock(connection) -> bool:
    """Whether another connection waits on a lock this one holds (the edit, blocked)."""
    return bool(connection.exec_driver_sql(
        "SELECT count(*) FROM pg_locks WHERE NOT granted").scalar())


def test_rules_edit_without_scores_still_saves(client, tournament):
    data = rules_data(tournament, self_pick_bonus="20")
    response = client.post(f"/director/t/{tournament.id}/rules", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    db.session.expire_all()
    assert tournament.rules["self_pick_bonus"] == 20


def test_preset_racing_the_first_score_is_refused(client, tournament, monkeypatch):
    before = (tournament.preset, dict(tournament.rules))
    score_lands_after_the_check(monkeypatch, tournament)
    response = client.post(f"/director/t/{tournament.id}/rules/preset",
                           data={"preset": "city-mahj"}, follow_redirects=True)
    assert response.status_code == 200
    assert "Scores have been entered, so the rules are fixed" in response.get_data(as_text=True)
    db.session.expire_all()
    assert (tournament.preset, tournament.rules) == before
    assert not db.session.scalar(select(AuditEvent).where(AuditEvent.action == "rules.preset"))


def test_games_per_round_racing_the_first_score_is_refused(client, tournament, monkeypatch):
    score_lands_after_the_check(monkeypatch, tournament)
    response = client.post(f"/director/t/{tournament.id}/edit", data={
        "name": "Renamed Open", "rounds": "3", "games_per_round": "6", "round_minutes": "50",
        "prize_places": "3"})
    assert response.status_code == 422
    assert error_at(response.get_data(as_text=True), "games_per_round") == \
        GAMES_FIXED
    db.session.expire_all()
    assert tournament.games_per_round == 4 and tournament.rules["games_per_round"] == 4
    assert tournament.name == "Test Open"


def test_the_same_player_number_from_two_screens(client, tournament, monkeypatch):
    # The other screen took number 5 after this request checked it was free.
    monkeypatch.setattr(players, "_number_taken", lambda *args, **kwargs: False)
    response = client.post(f"/director/t/{tournament.id}/players",
                           data={"number": "5", "name": "Late Lee"})
    assert response.status_code == 409
    assert error_at(response.get_data(as_text=True), "number") == (
        "Number 5 was just given to another player; nothing was saved. Choose another "
        "number.")
    db.session.expire_all()
    assert db.session.scalar(select(func.count()).select_from(Player)) == 32
    assert db.session.scalar(select(Player).where(Player.name == "Late Lee")) is None


def test_the_next_free_number_taken_by_another_screen(client, tournament, monkeypatch):
    # Another screen added player 32 after this request picked 32 as the next number.
    monkeypatch.setattr(players, "next_player_number", lambda tournament: 32)
    monkeypatch.setattr(players, "_number_taken", lambda *args, **kwargs: False)
    response = client.post(f"/director/t/{tournament.id}/players", data={"name": "Late Lee"})
    assert response.status_code == 409
    assert "Please add this player again" in error_at(response.get_data(as_text=True),
                                                      "number")
    response = client.post(f"/director/t/{tournament.id}/players/substitutes",
                           data={"names": "Sam Sub"})
    assert response.status_code == 409
    assert "Please add this player again" in error_at(response.get_data(as_text=True),
                                                      "names")
    db.session.expire_all()
    assert db.session.scalar(select(func.count()).select_from(Player)) == 32


def test_renumbering_onto_a_number_just_taken(client, tournament, monkeypatch):
    player = next(p for p in tournament.players if p.number == 1)
    monkeypatch.setattr(players, "_number_taken", lambda *args, **kwargs: False)
    response = client.post(f"/director/t/{tournament.id}/players/{player.id}",
                           data={"number": "2", "name": "Player 1"})
    assert response.status_code == 409
    assert "Number 2 was just given" in error_at(response.get_data(as_text=True), "number")
    db.session.expire_all()
    assert player.number == 1


def test_round_one_seated_from_two_screens_at_once(client, tournament, monkeypatch):
    """The other screen's round 1 is stored between this request's delete and insert: the
    unique (tournament, round number) refuses this one."""
    before = {s.id for s in round_row(tournament, 1).seats}
    real = seating.seat_round_one

    def seat_while_another_screen_seats(tournament, **kwargs):
        rnd = real(tournament, **kwargs)
        db.session.add(Round(tournament_id=tournament.id, number=1))
        db.session.flush()
        return rnd

    monkeypatch.setattr(seating, "seat_round_one", seat_while_another_screen_seats)
    response = client.post(f"/director/t/{tournament.id}/seating",
                           data={"method": "draw", "seed": "5"})
    assert response.status_code == 409
    assert "seated from another screen at the same moment" in error_at(
        response.get_data(as_text=True), "method")
    db.session.expire_all()
    assert {s.id for s in round_row(tournament, 1).seats} == before
    assert tournament.seating_method == "number"
