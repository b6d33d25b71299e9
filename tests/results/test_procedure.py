"""The standings follow each rule set's procedure: which sheets are final, how ties for a
prize place are settled, and whether games won count in a round voided by time."""

from __future__ import annotations

import pytest

from blueprints.results import standings, tiebreaks
from models import Tiebreak, Tournament, db
from tests.conftest import make_tournament
from tests.results.conftest import add_sheet, win


def with_rules(tournament, **changes):
    db.session.execute(db.update(Tournament).where(Tournament.id == tournament.id)
                       .values(rules={**tournament.rules, **changes}))
    db.session.commit()
    db.session.expire_all()


def by_number(lines):
    return {line.player.number: line for line in lines}


def test_hidden_tile_counts_only_verified_sheets_as_final(director):
    # hidden-tile: "after verification, scores are final."
    tournament = make_tournament(director, players=8, preset="hidden-tile")
    add_sheet(tournament, 1, 1, [win("E")], state="verified")
    add_sheet(tournament, 1, 2, [win("E")])                       # submitted, not verified
    board = standings.board(tournament)
    assert board.final_word == "verified" and board.open_games == 1
    assert by_number(board.main.lines)[5].total == 0
    assert by_number(board.main.provisional)[5].total == 35
    assert [line.player.number for line in standings.leaders(tournament)][:1] == [1]


def test_under_tnt_a_submitted_sheet_is_final(tournament):
    add_sheet(tournament, 1, 2, [win("E")])
    board = standings.board(tournament)
    assert board.final_word == "submitted" and board.open_games == 0
    assert by_number(board.main.lines)[5].total == 35


def test_players_page_calls_an_unverified_round_provisional(client, director):
    tournament = make_tournament(director, players=8, preset="hidden-tile")
    add_sheet(tournament, 1, 1, [win("E")])
    page = client.get(f"/p/{tournament.code}/player/1").get_data(as_text=True)
    assert "provisional" in page and "not verified by a table guide yet" in page


TIME = {"outcome": "time"}


@pytest.mark.parametrize("preset, voided_round_wins, games_won", [
    ("hidden-tile", None, 0),   # hidden-tile: "every player at that table receives 0 points for
                                # the round": no game of it was won either
    ("hidden-tile", True, 1),   # the director's own choice on the Rules page
    ("tnt", None, 1),           # tnt: time zeroes only "each game that was not completed"
])
def test_games_won_in_a_round_voided_by_time(director, preset, voided_round_wins, games_won):
    tournament = make_tournament(director, players=8, preset=preset)
    if voided_round_wins is not None:
        with_rules(tournament, voided_round_wins=voided_round_wins)
    add_sheet(tournament, 1, 1, [win("E"), TIME, TIME, TIME], state="verified")
    add_sheet(tournament, 1, 2, [win("E")], state="verified")            # not voided
    lines = by_number(standings.board(tournament).main.lines)
    assert lines[1].games_won == games_won
    assert lines[5].games_won == 1


def tie_of_two(tournament):
    add_sheet(tournament, 1, 1, [win("E")])
    add_sheet(tournament, 1, 2, [win("E")])
    return [line.player.id for line in standings.board(tournament).main.lines[:2]]


def test_hidden_tile_offers_the_tile_bag_draw_only(client, director):
    # hidden-tile: "the tied players will draw from a tile bag"
    tournament = make_tournament(director, players=8, preset="hidden-tile")
    add_sheet(tournament, 1, 1, [win("E")], state="verified")
    add_sheet(tournament, 1, 2, [win("E")], state="verified")
    ids = [line.player.id for line in standings.board(tournament).main.lines[:2]]
    page = client.get(f"/results/director/{tournament.id}").get_data(as_text=True)
    assert "Record the tile-bag draw's order" in page
    assert 'value="shared"' not in page and "settled by a tile-bag draw" in page
    response = client.post(f"/results/director/{tournament.id}/ties",
                           data={"competition": "main", "group": ",".join(map(str, ids)),
                                 "decision": "shared"})
    assert response.status_code == 422 and "tile-bag draw" in response.get_data(as_text=True)
    assert db.session.query(Tiebreak).count() == 0
    tiebreaks.decide_tie(tournament, "main", ids, list(reversed(ids)), director)
    page = client.get(f"/results/director/{tournament.id}").get_data(as_text=True)
    assert "Tile-bag draw recorded" in page


def test_where_the_sheet_is_silent_the_director_chooses(client, tournament, director):
    ids = tie_of_two(tournament)
    page = client.get(f"/results/director/{tournament.id}").get_data(as_text=True)
    assert 'value="shared"' in page and 'value="draw"' in page
    assert "tile-bag" not in page
    tiebreaks.decide_tie(tournament, "main", ids, None, director)
    assert db.session.query(Tiebreak).count() == 1


def test_a_rule_of_shared_places_refuses_a_draw(client, tournament, director):
    with_rules(tournament, tiebreak="shared")
    ids = tie_of_two(tournament)
    page = client.get(f"/results/director/{tournament.id}").get_data(as_text=True)
    assert 'value="draw"' not in page and "share the place" in page
    with pytest.raises(tiebreaks.ResultsError, match="share the place"):
        tiebreaks.decide_tie(tournament, "main", ids, ids, director)
    assert db.session.query(Tiebreak).count() == 0
