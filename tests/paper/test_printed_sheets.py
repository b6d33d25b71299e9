"""The printed score sheets: every seated name on its table's sheet, the columns and the
initials boxes each organiser's sheet asks for, and who may print them."""

from __future__ import annotations

import re

import pytest

from models import TournamentStaff, db
from tests.conftest import make_tournament, make_user, sign_in
from tournament.paper import paper_sheet
from tournament.rules import PRESETS


def sheets_of(body: str) -> list[str]:
    return re.findall(r'<section class="score-sheet".*?</section>', body, re.S)


def test_every_table_of_the_round_has_its_sheet_with_every_seated_name(client, director):
    tournament = make_tournament(director, players=16, rounds=2)
    response = client.get(f"/director/t/{tournament.id}/rounds/2/sheets")
    assert response.status_code == 200
    sheets = sheets_of(response.get_data(as_text=True))
    assert len(sheets) == 4
    from blueprints.director.seating import schedule
    planned = dict((rnd.number, tables) for rnd, tables in schedule(tournament))[2]
    for sheet, (table, seats) in zip(sheets, planned, strict=True):
        assert f"Round 2 · Table {table.number}" in sheet
        for player in seats.values():
            assert f"<td class=\"sheet-name\">{player.name}</td>" in sheet


def test_one_table_alone(client, tournament):
    body = client.get(f"/director/t/{tournament.id}/rounds/1/sheets/3").get_data(as_text=True)
    assert [s.count("Table 3") for s in sheets_of(body)] == [1]
    assert client.get(f"/director/t/{tournament.id}/rounds/1/sheets/99").status_code == 404
    assert client.get(f"/director/t/{tournament.id}/rounds/9/sheets").status_code == 404


def test_tnt_sheet_asks_the_winners_initials_west_for_east_and_walls_and_every_total():
    # tnt: "The player who has Mahjong initials ... West must initial East's score when
    # East wins and ... for all wall games"; "each player initial the box next to their
    # round total"; "Use an X to indicate zero points"
    sheet = paper_sheet(PRESETS["tnt"])
    assert sheet.game_initials == ("Winner's initials (West's when East wins and for wall "
                                   "games)")
    assert sheet.round_initials and not sheet.game_initials_per_seat
    assert "Write X for zero points, never O." in sheet.key
    assert "Heavenly or earthly hand (East): +10." in sheet.key
    assert "Misnamed a tile called for an exposure: -10." in sheet.key


def test_city_mahj_sheet_has_the_winners_initials_and_no_round_total_initials():
    # city-mahj: "the player who made Mah Jongg signs the score sheet - except in a wall
    # game, or whenever East wins, when West signs instead"
    sheet = paper_sheet(PRESETS["city-mahj"])
    assert sheet.game_initials.startswith("Winner's initials")
    assert not sheet.round_initials
    assert "Thrower: 0-1 exposures nothing, 2 exposures -10, 3 or more -25, 2 exposures in "\
           "a Quint hand -25." in sheet.key


def test_hidden_tile_sheet_is_verified_by_a_table_guide_and_pays_more():
    # hidden-tile: "A Table Guide will verify ... at the end of each round"; "+20" no
    # jokers; "-10 points for 0-1 exposures"; time called: "0 for the whole round"
    sheet = paper_sheet(PRESETS["hidden-tile"])
    assert sheet.guide_verifies and not sheet.game_initials
    assert "No jokers +20" in sheet.columns
    assert sheet.key[1].startswith("Thrower: 0-1 exposures -10, 2 exposures -20")
    assert "Time called before a game ends: every game of the round scores X." in sheet.key


def test_destination_sheet_has_every_player_initial_each_game_and_west_check_east():
    # destination: "East will fill it out and give it back to you to confirm your score by
    # signing"; "West will also receive Easts sheet to verify their score"
    sheet = paper_sheet(PRESETS["destination"])
    assert sheet.game_initials_per_seat and sheet.west_checks
    assert "Heavenly or earthly hand (East): counts as self-picked." in sheet.key


def test_rules_of_the_road_asks_for_no_initials_and_has_no_penalty_column():
    # rules-of-the-road: the sheet says nothing of sign-off or Charleston penalties
    sheet = paper_sheet(PRESETS["rules-of-the-road"])
    assert not (sheet.game_initials or sheet.round_initials or sheet.west_checks)
    assert "Penalties (seat, what)" not in sheet.columns


def test_the_printed_tnt_sheet_shows_its_boxes(client, tournament):
    body = client.get(f"/director/t/{tournament.id}/rounds/1/sheets/1").get_data(as_text=True)
    assert "Winner&#39;s initials (West&#39;s when East wins and for wall games)" in body
    assert "Each player initials their round total" in body
    assert "Write X for zero points, never O." in body


def test_an_imported_seating_prints_as_seated(client, director):
    tournament = make_tournament(director, players=8, rounds=2, preset="hidden-tile")
    tournament.rules = {**tournament.rules, "movement": "imported"}
    tournament.imported_seating = {"2": {"1": {"E": tournament.players[7].id,
                                               "S": tournament.players[6].id,
                                               "W": tournament.players[5].id,
                                               "N": tournament.players[4].id},
                                         "2": {"E": tournament.players[0].id,
                                               "S": tournament.players[1].id,
                                               "W": tournament.players[2].id,
                                               "N": tournament.players[3].id}}}
    db.session.commit()
    body = client.get(f"/director/t/{tournament.id}/rounds/2/sheets/1").get_data(as_text=True)
    names = re.findall(r'<td class="sheet-name">(.*?)</td>', body)
    assert names == ["Player 8", "Player 7", "Player 6", "Player 5"]


@pytest.mark.parametrize("role, status", [("table-guide", 200), ("scorer", 200)])
def test_any_staff_may_print(app, client, tournament, role, status):
    user = make_user("sam@example.com", "Sam Staff", "staff password")
    db.session.add(TournamentStaff(tournament_id=tournament.id, user_id=user.id, role=role))
    db.session.commit()
    other = app.test_client()
    sign_in(other, "sam@example.com", "staff password")
    assert other.get(f"/director/t/{tournament.id}/rounds/1/sheets").status_code == status


def test_another_directors_tournament_is_not_found(app, tournament):
    make_user("bob@example.com", "Bob Other", "other password")
    other = app.test_client()
    sign_in(other, "bob@example.com", "other password")
    assert other.get(f"/director/t/{tournament.id}/rounds/1/sheets").status_code == 404
