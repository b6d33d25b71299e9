"""Two things at the same moment: a score saved while the director edits the rules, two
screens adding the same player number or seating round 1 together. Each ends in a plain
answer at the field (409 or 422) with nothing changed, never a 500.

A race is staged by making the first, quick check miss what the other request did (as it
would when the other request lands between that check and the write)."""

from __future__ import annotations

import os
import threading
from contextlib import contextmanager

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from blueprints.director import players, seating, tournaments
from blueprints.director.common import GAMES_FIXED
from core.rounds import ensure_round, round_row
from models import AuditEvent, GameEntry, Player, Round, Scoresheet, Tournament, db
from tests.director.conftest import enter_a_game, error_at
from tests.director.test_tournament import rules_data
from tests.row_locks import waits_on


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


ROW_LOCKS = pytest.mark.skipif(os.environ.get("MAHJTABLE_TEST_BACKEND") != "postgres",
                               reason="row locks: SQLite lets one writer in at a time")


@contextmanager
def first_game_being_saved(tournament):
    """The event's first game being saved on another connection, as save_game saves it:
    the tournament row locked FOR SHARE, the game inserted on table 1's round-1 sheet
    (round 1 not started: tables may enter scores before the clock starts), committed when
    the block ends. Yields that connection."""
    tournament_id = tournament.id
    sheet = Scoresheet(round_id=ensure_round(tournament, 1).id,
                       table_id=tournament.tables[0].id)
    db.session.add(sheet)
    db.session.commit()
    with db.engine.connect() as saving:
        save = Session(bind=saving)
        save.scalar(select(Tournament.id).where(Tournament.id == tournament_id)
                    .with_for_update(read=True))
        save.add(GameEntry(sheet_id=sheet.id, number=1, record={"outcome": "wall"},
                           points_e=0, points_s=0, points_w=0, points_n=0))
        save.flush()
        yield saving
        save.commit()


def answer_while_saving(tournament, send):
    """The answer to `send()` (a director's request) sent while the first game is being
    saved: it must wait for that save, which then commits."""
    answers = []
    with first_game_being_saved(tournament) as saving:
        director = threading.Thread(target=lambda: answers.append(send()))
        director.start()
        assert waits_on(saving, director), "the director's change did not wait for the save"
    director.join(30)
    assert answers, "no answer"
    return answers[0]


@ROW_LOCKS
def test_rules_edit_waiting_on_the_first_save_is_refused_once_it_lands(client, tournament):
    """The director saves new rules while the event's first game is being saved: the edit
    waits, then is refused, as the game was scored under the rules it keeps."""
    before = dict(tournament.rules)
    tournament_id = tournament.id
    data = rules_data(tournament, self_pick_bonus="20")
    response = answer_while_saving(tournament, lambda: client.post(
        f"/director/t/{tournament_id}/rules", data=data))
    assert response.status_code == 409
    db.session.expire_all()
    assert db.session.get(Tournament, tournament_id).rules == before


@ROW_LOCKS
def test_redraw_waiting_on_the_first_save_is_refused_and_the_game_stays(client, tournament):
    """A redraw of round 1 while its first game is being saved (before the clock starts):
    deleting the unplayed rounds would take that game with its round. The redraw waits,
    then is refused at its field; the game and the seats stay."""
    tournament_id = tournament.id
    seats = {(s.table_id, s.seat, s.player_id) for s in round_row(tournament, 1).seats}
    response = answer_while_saving(tournament, lambda: client.post(
        f"/director/t/{tournament_id}/seating", data={"method": "draw", "seed": "5"}))
    assert response.status_code == 422, response.status_code
    assert error_at(response.get_data(as_text=True), "method") == (
        "Round 1 has scores entered, so the seating can no longer be redrawn.")
    db.session.expire_all()
    assert db.session.scalar(select(func.count()).select_from(GameEntry)) == 1
    tournament = db.session.get(Tournament, tournament_id)
    assert {(s.table_id, s.seat, s.player_id) for s in round_row(tournament, 1).seats} == seats


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
