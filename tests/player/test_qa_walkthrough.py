"""Player pages, from the QA walkthrough: rulings on the personal scoresheet, provisional
points marked, "–" for rounds not played, one friendly message for a bad number, the home
page's tournament code box and the tournaments it lists."""

from __future__ import annotations

import html
import re

from blueprints.table import service as table_service
from models import db
from tests.table.conftest import TableClient


def text_of(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def test_a_ruling_shows_on_the_players_scoresheet(client, tournament, director):
    east = TableClient(client, tournament)
    east.save(1, outcome="wall")
    table_service.add_adjustment(east.table, 1, "S", -10, "tile count", director, game_no=1)
    db.session.commit()
    page = text_of(client.get(f"/p/{tournament.code}/player/2"))  # player 2 sits South
    row = re.search(r"<tbody>.*?</tbody>", page, re.S).group(0)
    assert "-10 director's ruling: tile count" in row
    other = text_of(client.get(f"/p/{tournament.code}/player/1"))
    assert "director's ruling" not in other  # East's own sheet: no ruling on East


def test_points_of_an_open_sheet_are_marked_provisional(client, tournament):
    east = TableClient(client, tournament)
    east.save(1, outcome="wall")
    seat = text_of(client.get(f"/p/{tournament.code}/seat?number=1"))
    itinerary = re.search(r'<table class="itinerary">.*?</table>', seat, re.S).group(0)
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", itinerary, re.S)[1:]
    assert "10" in rows[0] and "provisional" in rows[0]
    assert "provisional" not in rows[1] and "–" in rows[1]  # round 2: not played
    scores = text_of(client.get(f"/p/{tournament.code}/player/1"))
    assert "provisional" in scores and "not submitted by the table yet" in scores


def test_a_table_with_no_game_yet_shows_a_dash_not_x(client, tournament):
    seat = text_of(client.get(f"/p/{tournament.code}/seat?number=1"))
    itinerary = re.search(r'<table class="itinerary">.*?</table>', seat, re.S).group(0)
    assert ">X<" not in itinerary and "provisional" not in itinerary


def test_a_word_for_a_number_gets_only_the_friendly_message(client, tournament):
    response = client.get(f"/p/{tournament.code}/seat?number=abc")
    page = text_of(response)
    assert response.status_code == 422
    assert "Not a valid integer value" not in page
    assert page.count("A player number is a whole number, like 12.") == 1
