"""Round-1 seating (draw with its seed kept, or by number), swaps before round 1 starts,
later rounds by tournament.movement, and substitutions from a given round on."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from sqlalchemy import func, select

from blueprints.director.common import player_count, ranked_players
from blueprints.director.players import substitutes_needed
from core.rounds import ensure_round, round_row
from models import AuditEvent, Player, Round, Seating, Substitution, db, utcnow
from tests.conftest import make_tournament


def seats_of(tournament, number):
    rnd = round_row(tournament, number)
    return {(s.table.number, s.seat): s.player_id for s in rnd.seats}


@pytest.mark.parametrize("tables, rounds", [(8, 3), (37, 9)])
def test_every_seat_is_filled_once_in_every_round(client, director, tables, rounds):
    tournament = make_tournament(director, players=tables * 4, rounds=rounds, seated=False)
    response = client.post(f"/director/t/{tournament.id}/seating",
                           data={"method": "draw", "seed": "4242"})
    assert response.status_code == 302
    page = client.get(f"/director/t/{tournament.id}/schedule")
    assert page.status_code == 200
    everyone = {p.id for p in tournament.players}
    for number in range(1, rounds + 1):
        ensure_round(tournament, number)
        seats = seats_of(tournament, number)
        assert len(seats) == tables * 4
        assert set(seats) == {(t, s) for t in range(1, tables + 1) for s in "ESWN"}
        assert sorted(seats.values()) == sorted(everyone)  # each player exactly once
    body = page.get_data(as_text=True)
    assert body.count('class="round-sheet page-break"') == rounds
    assert f"Round {rounds}" in body


def test_the_draw_keeps_its_seed_and_the_same_seed_redoes_it(client, director):
    tournament = make_tournament(director, players=32, seated=False)
    client.post(f"/director/t/{tournament.id}/seating", data={"method": "draw", "seed": "77"})
    first = seats_of(tournament, 1)
    assert tournament.seating_seed == 77 and tournament.seating_method == "draw"
    assert "draw number 77" in client.get(f"/director/t/{tournament.id}/seating").get_data(
        as_text=True)
    client.post(f"/director/t/{tournament.id}/seating", data={"method": "draw"})
    db.session.expire_all()
    assert tournament.seating_seed is not None
    client.post(f"/director/t/{tournament.id}/seating", data={"method": "draw", "seed": "77"})
    db.session.expire_all()
    assert seats_of(tournament, 1) == first


def test_seating_by_number(client, director):
    tournament = make_tournament(director, players=8, seated=False)
    client.post(f"/director/t/{tournament.id}/seating", data={"method": "number"})
    by_id = {p.id: p.number for p in tournament.players}
    seats = {k: by_id[v] for k, v in seats_of(tournament, 1).items()}
    assert seats[(1, "E")] == 1 and seats[(1, "N")] == 4 and seats[(2, "E")] == 5


def test_seating_needs_a_multiple_of_four(client, director):
    tournament = make_tournament(director, players=30, seated=False)
    response = client.post(f"/director/t/{tournament.id}/seating", data={"method": "draw"})
    assert response.status_code == 422
    assert "Add 2 substitute(s) first" in response.get_data(as_text=True)
    assert round_row(tournament, 1) is None


def test_substitutes_needed_are_shown_and_added(client, director):
    tournament = make_tournament(director, players=30, seated=False)
    page = client.get(f"/director/t/{tournament.id}/players").get_data(as_text=True)
    assert "2 substitutes needed" in page
    response = client.post(f"/director/t/{tournament.id}/players/substitutes",
                           data={"names": ""})
    assert response.status_code == 302
    subs = list(db.session.scalars(select(Player).where(Player.is_substitute)))
    assert [s.number for s in subs] == [31, 32]
    assert substitutes_needed(tournament) == 0
    assert client.post(f"/director/t/{tournament.id}/seating",
                       data={"method": "draw"}).status_code == 302
    # Substitutes play but are never ranked.
    assert all(not p.is_substitute for p in ranked_players(tournament))
    assert len(ranked_players(tournament)) == 30


def test_swap_two_players_before_round_one(client, tournament):
    ensure_round(tournament, 2)
    db.session.commit()
    before = seats_of(tournament, 1)
    one = next(p for p in tournament.players if p.number == 1)
    six = next(p for p in tournament.players if p.number == 6)
    response = client.post(f"/director/t/{tournament.id}/seating/swap",
                           data={"first": "1", "second": "6"})
    assert response.status_code == 302
    db.session.expire_all()
    after = seats_of(tournament, 1)
    assert after[(1, "E")] == six.id and after[(2, "S")] == one.id
    assert {k: v for k, v in after.items() if k not in {(1, "E"), (2, "S")}} == \
        {k: v for k, v in before.items() if k not in {(1, "E"), (2, "S")}}
    # Round 2 was rebuilt from the new round 1: player 6 (now East of table 1) stays there.
    round2 = seats_of(tournament, 2) if round_row(tournament, 2) else None
    if round2 is None:
        ensure_round(tournament, 2)
        round2 = seats_of(tournament, 2)
    assert round2[(1, "E")] == six.id
    assert db.session.scalar(select(AuditEvent).where(AuditEvent.action == "seating.swap"))


@pytest.mark.parametrize("data, message", [
    ({"first": "1", "second": "1"}, "two different players"),
    ({"first": "1", "second": "999"}, "No player number 999"),
    ({"first": "one", "second": "2"}, "whole number"),
])
def test_swap_bad_input_changes_nothing(client, tournament, data, message):
    before = seats_of(tournament, 1)
    response = client.post(f"/director/t/{tournament.id}/seating/swap", data=data)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    db.session.expire_all()
    assert seats_of(tournament, 1) == before


def test_no_swap_or_redraw_once_round_one_started(client, tournament):
    round_row(tournament, 1).started_at = utcnow()
    db.session.commit()
    before = seats_of(tournament, 1)
    swap = client.post(f"/director/t/{tournament.id}/seating/swap",
                       data={"first": "1", "second": "6"})
    assert swap.status_code == 422 and "has started" in swap.get_data(as_text=True)
    redraw = client.post(f"/director/t/{tournament.id}/seating", data={"method": "draw"})
    assert redraw.status_code == 422
    db.session.expire_all()
    assert seats_of(tournament, 1) == before


def test_substitution_from_a_round_updates_made_rounds_and_later_ones(client, tournament):
    # Rounds 1 and 2 exist already; round 1 has been played.
    ensure_round(tournament, 2)
    round_row(tournament, 1).started_at = utcnow()
    round_row(tournament, 1).ended_at = utcnow()
    db.session.commit()
    leaver = next(p for p in tournament.players if p.number == 7)
    response = client.post(
        f"/director/t/{tournament.id}/players/{leaver.id}/withdraw",
        data={"from_round": "2", "substitute": "", "new_substitute": "Hal House"})
    assert response.status_code == 302, response.get_data(as_text=True)
    db.session.expire_all()
    sub = db.session.scalar(select(Player).where(Player.name == "Hal House"))
    assert sub.is_substitute and sub.number == 33
    assert leaver.withdrawn_from_round == 2
    assert db.session.scalar(select(Substitution)).from_round == 2
    # Round 1 (played) keeps the leaver; round 2 (made, not started) and round 3 (made
    # later) seat the substitute in the leaver's seat.
    assert leaver.id in seats_of(tournament, 1).values()
    assert sub.id not in seats_of(tournament, 1).values()
    for number in (2, 3):
        ensure_round(tournament, number)
        seats = seats_of(tournament, number)
        assert sub.id in seats.values() and leaver.id not in seats.values()
        assert len(set(seats.values())) == 32
    # The substitute is never ranked.
    assert sub not in ranked_players(tournament)
    event = db.session.scalar(select(AuditEvent).where(AuditEvent.action == "player.substitute"))
    assert event.after["from_round"] == 2 and event.after["rounds_updated"] == [2]


def test_substitution_seat_carries_the_later_points(client, tournament):
    """Points follow the seat: the leaver's later games are the substitute's, so the
    leaver scores 0 for them."""
    from tests.director.conftest import enter_a_game

    leaver = next(p for p in tournament.players if p.number == 1)  # table 1 East
    client.post(f"/director/t/{tournament.id}/players/{leaver.id}/withdraw",
                data={"from_round": "1", "new_substitute": "Sue Sub"})
    db.session.expire_all()
    enter_a_game(tournament)
    sub = db.session.scalar(select(Player).where(Player.name == "Sue Sub"))
    east = db.session.scalar(select(Seating.player_id).join(Round).where(
        Round.number == 1, Seating.seat == "E", Seating.table_id == tournament.tables[0].id))
    assert east == sub.id


def test_substitution_cannot_change_a_started_round(client, tournament):
    round_row(tournament, 1).started_at = utcnow()
    db.session.commit()
    leaver = tournament.players[0]
    response = client.post(f"/director/t/{tournament.id}/players/{leaver.id}/withdraw",
                           data={"from_round": "1", "new_substitute": "Late Sub"})
    assert response.status_code == 422
    assert "Round 1 has started, so it keeps its players; the substitute can take over " \
        "from round 2" in response.get_data(as_text=True)
    db.session.expire_all()
    assert leaver.withdrawn_from_round is None
    assert db.session.scalar(select(Player).where(Player.name == "Late Sub")) is None


def test_substitution_needs_a_substitute(client, tournament):
    leaver = tournament.players[0]
    response = client.post(f"/director/t/{tournament.id}/players/{leaver.id}/withdraw",
                           data={"from_round": "2"})
    assert response.status_code == 422
    assert "Choose a substitute" in response.get_data(as_text=True)


def test_an_existing_free_substitute_can_be_chosen(client, tournament):
    spare = Player(number=50, name="Spare Sue", is_substitute=True)
    tournament.players.append(spare)
    db.session.commit()
    leaver = tournament.players[3]
    page = client.get(f"/director/t/{tournament.id}/players/{leaver.id}/withdraw")
    assert "Spare Sue" in page.get_data(as_text=True)
    response = client.post(f"/director/t/{tournament.id}/players/{leaver.id}/withdraw",
                           data={"from_round": "2", "substitute": str(spare.id)})
    assert response.status_code == 302
    ensure_round(tournament, 2)
    assert spare.id in seats_of(tournament, 2).values()


def test_withdraw_before_seating_just_leaves_the_field(client, director):
    tournament = make_tournament(director, players=9, seated=False)
    leaver = tournament.players[8]
    assert client.post(f"/director/t/{tournament.id}/players/{leaver.id}/withdraw",
                       data={"from_round": "1"}).status_code == 302
    assert player_count(tournament) == 8
    assert substitutes_needed(tournament) == 0


def test_itineraries_and_meetings(client, director):
    tournament = make_tournament(director, players=24, rounds=5)
    page = client.get(f"/director/t/{tournament.id}/itineraries").get_data(as_text=True)
    assert page.count('class="slip"') == 24
    meetings = client.get(f"/director/t/{tournament.id}/meetings").get_data(as_text=True)
    # 6 tables: West and South of the same table meet again in round 3 (movement docstring).
    assert "Player 2" in meetings and "1, 3, 5" in meetings


def test_schedule_before_seating_points_to_seating(client, director):
    tournament = make_tournament(director, players=8, seated=False)
    response = client.get(f"/director/t/{tournament.id}/schedule")
    assert response.status_code == 302 and response.headers["Location"].endswith("/seating")


def test_round_counts_in_the_db(client, tournament):
    client.get(f"/director/t/{tournament.id}/schedule")
    # Viewing the schedule makes no rows: only round 1 (seated by its POST) is stored.
    assert db.session.scalar(select(func.count()).select_from(Round)) == 1
    assert Counter(db.session.scalars(select(Seating.round_id))).most_common(1)[0][1] == 32


def test_players_added_after_the_draw_are_flagged(client, tournament):
    for n in (33, 34, 35, 36):
        client.post(f"/director/t/{tournament.id}/players", data={"name": f"Late {n}"})
    page = client.get(f"/director/t/{tournament.id}/seating").get_data(as_text=True)
    assert "4 players joined after the draw" in page
    client.post(f"/director/t/{tournament.id}/seating", data={"method": "number"})
    page = client.get(f"/director/t/{tournament.id}/seating").get_data(as_text=True)
    assert "joined after the draw" not in page and "Table 9" in page


def test_no_redraw_once_a_player_is_replaced_from_a_later_round(client, tournament):
    leaver = tournament.players[0]
    client.post(f"/director/t/{tournament.id}/players/{leaver.id}/withdraw",
                data={"from_round": "2", "new_substitute": "Sam Sub"})
    response = client.post(f"/director/t/{tournament.id}/seating", data={"method": "draw"})
    assert response.status_code == 422
    assert "replaced from round 2" in response.get_data(as_text=True)


def test_a_redraw_for_fewer_players_leaves_no_table_that_seats_nobody(client, director):
    """Round 1 drawn for 32 players, then four are withdrawn as no-shows and it is drawn
    again: 7 tables, and no eighth card to print whose page would seat nobody."""
    tournament = make_tournament(director, players=32, seated=False)
    client.post(f"/director/t/{tournament.id}/seating", data={"method": "draw", "seed": "5"})
    assert len(tournament.tables) == 8
    for player in sorted(tournament.players, key=lambda p: p.number)[-4:]:
        player.withdrawn_from_round = 1
    db.session.commit()
    response = client.post(f"/director/t/{tournament.id}/seating",
                           data={"method": "draw", "seed": "6"})
    assert response.status_code == 302
    db.session.expire_all()
    assert sorted(t.number for t in tournament.tables) == list(range(1, 8))
    assert {table for table, _ in seats_of(tournament, 1)} == set(range(1, 8))
    cards = client.get(f"/director/t/{tournament.id}/cards").get_data(as_text=True)
    assert 'id="table-7"' in cards and 'id="table-8"' not in cards


def test_substitutes_on_the_players_page_never_repeat_a_name(client, director):
    """A second batch of unnamed substitutes goes on from the first ("Substitute 3", not
    "Substitute 1" again); a typed name already on the list is refused at the box, and
    nothing is added."""
    tournament = make_tournament(director, players=30, seated=False)
    add = f"/director/t/{tournament.id}/players/substitutes"
    assert client.post(add, data={"names": ""}).status_code == 302
    assert client.post(add, data={"names": "\n"}).status_code == 422  # the field is full
    tournament.players.append(Player(number=40, name="Leaving Lou"))
    db.session.commit()
    assert client.post(add, data={"names": ""}).status_code == 302  # 3 more for 32 + 1
    names = [s.name for s in db.session.scalars(
        select(Player).where(Player.is_substitute).order_by(Player.number))]
    assert names == ["Substitute 1", "Substitute 2", "Substitute 3", "Substitute 4",
                     "Substitute 5"]
    count = len(tournament.players)
    response = client.post(add, data={"names": "Spare Sue\n  substitute 2 "})
    assert response.status_code == 422
    assert re.search(r'id="names-error"[^>]*>substitute 2 is already a name on the list',
                     response.get_data(as_text=True))
    db.session.expire_all()
    assert len(tournament.players) == count


def test_a_new_substitute_for_a_withdrawal_is_not_a_name_on_the_list(client, tournament):
    leaver, other = tournament.players[0], tournament.players[1]
    response = client.post(f"/director/t/{tournament.id}/players/{leaver.id}/withdraw",
                           data={"from_round": "2", "new_substitute": other.name.upper()})
    assert response.status_code == 422
    assert f"{other.name.upper()} is already a name on the list" in \
        response.get_data(as_text=True)
    db.session.expire_all()
    assert leaver.withdrawn_from_round is None
