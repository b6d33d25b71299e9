"""A played round (clock started, or any game entered even before the clock) is never
deleted or re-seated: no redraw, no swap, no cutting the rounds below it, no substitute
in it. Unplayed rounds are still rebuilt."""

from __future__ import annotations

from sqlalchemy import func, select

from blueprints.director.common import played_rounds, round_played
from core.rounds import ensure_round, round_row
from models import AuditEvent, GameEntry, Player, Round, Scoresheet, Substitution, db
from tests.director.conftest import enter_a_game, error_at


def seats_of(tournament, number):
    rnd = round_row(tournament, number)
    return {(s.table.number, s.seat): s.player_id for s in rnd.seats}


def games_in_db():
    return db.session.scalar(select(func.count()).select_from(GameEntry))


def test_round_played_means_clock_started_or_a_game_entered(tournament):
    rnd = round_row(tournament, 1)
    assert not round_played(rnd)
    # An empty sheet (opened, nothing saved) does not make the round played.
    db.session.add(Scoresheet(round_id=rnd.id, table_id=tournament.tables[1].id))
    db.session.commit()
    assert not round_played(rnd)
    enter_a_game(tournament)
    assert round_played(rnd)
    assert played_rounds(tournament) == {1: "has scores entered"}
    assert not round_played(None)


def test_no_redraw_once_round_one_has_scores_before_its_clock(client, tournament):
    enter_a_game(tournament)
    before = seats_of(tournament, 1)
    response = client.post(f"/director/t/{tournament.id}/seating",
                           data={"method": "draw", "seed": "9"})
    assert response.status_code == 422
    assert error_at(response.get_data(as_text=True), "method") == \
        "Round 1 has scores entered, so the seating can no longer be redrawn."
    db.session.expire_all()
    assert seats_of(tournament, 1) == before
    assert games_in_db() == 1
    # The page no longer offers the redraw or the swap.
    page = client.get(f"/director/t/{tournament.id}/seating").get_data(as_text=True)
    assert "Round 1 has scores entered, so the seats are final." in page
    assert "Redo the seating" not in page and "Swap two players" not in page


def test_no_redraw_when_a_later_round_has_scores(client, tournament):
    enter_a_game(tournament, round_no=2)
    before = seats_of(tournament, 2)
    response = client.post(f"/director/t/{tournament.id}/seating", data={"method": "number"})
    assert response.status_code == 422
    assert "Round 2 has scores entered" in response.get_data(as_text=True)
    db.session.expire_all()
    assert seats_of(tournament, 2) == before and games_in_db() == 1


def test_no_swap_once_round_one_has_scores(client, tournament):
    enter_a_game(tournament)
    before = seats_of(tournament, 1)
    response = client.post(f"/director/t/{tournament.id}/seating/swap",
                           data={"first": "1", "second": "6"})
    assert response.status_code == 422
    assert error_at(response.get_data(as_text=True), "first") == \
        "Round 1 has scores entered, so seats can no longer be swapped."
    db.session.expire_all()
    assert seats_of(tournament, 1) == before and games_in_db() == 1
    assert not db.session.scalar(select(AuditEvent).where(AuditEvent.action == "seating.swap"))


def test_swap_keeps_a_later_played_round(client, tournament):
    enter_a_game(tournament, round_no=2)
    response = client.post(f"/director/t/{tournament.id}/seating/swap",
                           data={"first": "1", "second": "6"})
    assert response.status_code == 422
    db.session.expire_all()
    assert round_row(tournament, 2) is not None and games_in_db() == 1


def test_fewer_rounds_never_cut_a_round_with_scores(client, tournament):
    enter_a_game(tournament, round_no=3)   # round 3's clock never started
    response = client.post(f"/director/t/{tournament.id}/edit", data={
        "name": "Test Open", "rounds": "2", "games_per_round": "4", "round_minutes": "50",
        "prize_places": "3"})
    assert response.status_code == 422
    assert error_at(response.get_data(as_text=True), "rounds") == \
        "Round 3 has scores entered, so the tournament needs at least 3 rounds."
    db.session.expire_all()
    assert tournament.rounds == 3
    assert round_row(tournament, 3) is not None and games_in_db() == 1


def test_fewer_rounds_drop_only_unplayed_rounds(client, tournament):
    enter_a_game(tournament, round_no=2)
    ensure_round(tournament, 3)
    db.session.commit()
    response = client.post(f"/director/t/{tournament.id}/edit", data={
        "name": "Test Open", "rounds": "2", "games_per_round": "4", "round_minutes": "50",
        "prize_places": "3"})
    assert response.status_code == 302
    db.session.expire_all()
    assert [r.number for r in tournament.round_list] == [1, 2] and games_in_db() == 1


def test_no_substitute_in_a_round_with_scores(client, tournament):
    enter_a_game(tournament)    # table 1, round 1: players 1-4
    before = seats_of(tournament, 1)
    leaver = next(p for p in tournament.players if p.number == 1)
    response = client.post(f"/director/t/{tournament.id}/players/{leaver.id}/withdraw",
                           data={"from_round": "1", "new_substitute": "Sue Sub"})
    assert response.status_code == 422
    assert error_at(response.get_data(as_text=True), "from_round") == \
        "Round 1 has scores entered, so it keeps its players; the substitute can take " \
        "over from round 2."
    db.session.expire_all()
    assert seats_of(tournament, 1) == before
    assert leaver.withdrawn_from_round is None
    assert db.session.scalar(select(Substitution)) is None
    assert db.session.scalar(select(Player).where(Player.name == "Sue Sub")) is None


def test_no_substitute_from_before_a_later_played_round(client, tournament):
    enter_a_game(tournament, round_no=2)
    leaver = next(p for p in tournament.players if p.number == 1)
    before = seats_of(tournament, 2)
    response = client.post(f"/director/t/{tournament.id}/players/{leaver.id}/withdraw",
                           data={"from_round": "1", "new_substitute": "Sue Sub"})
    assert response.status_code == 422
    assert "Round 2 has scores entered" in response.get_data(as_text=True)
    db.session.expire_all()
    assert seats_of(tournament, 2) == before


def test_substitute_form_suggests_the_round_after_the_last_played(client, tournament):
    enter_a_game(tournament, round_no=2)
    leaver = tournament.players[5]
    page = client.get(f"/director/t/{tournament.id}/players/{leaver.id}/withdraw")
    assert 'value="3"' in page.get_data(as_text=True)
    response = client.post(f"/director/t/{tournament.id}/players/{leaver.id}/withdraw",
                           data={"from_round": "3", "new_substitute": "Sue Sub"})
    assert response.status_code == 302
    db.session.expire_all()
    sub = db.session.scalar(select(Player).where(Player.name == "Sue Sub"))
    assert leaver.id in seats_of(tournament, 2).values()
    ensure_round(tournament, 3)
    assert sub.id in seats_of(tournament, 3).values()


def test_unplayed_rounds_are_still_rebuilt_by_a_redraw(client, tournament):
    ensure_round(tournament, 2)
    rnd1 = round_row(tournament, 1)
    db.session.add(Scoresheet(round_id=rnd1.id, table_id=tournament.tables[0].id))
    db.session.commit()
    response = client.post(f"/director/t/{tournament.id}/seating",
                           data={"method": "draw", "seed": "3"})
    assert response.status_code == 302
    db.session.expire_all()
    assert [r.number for r in db.session.scalars(select(Round))] == [1]
