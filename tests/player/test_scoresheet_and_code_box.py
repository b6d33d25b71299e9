"""Player pages: rulings on the personal scoresheet, provisional
points marked, "–" for rounds not played, one friendly message for a bad number, the home
page's tournament code box and the tournaments it lists."""

from __future__ import annotations

import html
import re
from datetime import date, timedelta

from core import sheets
from models import Round, db, utcnow
from tests.conftest import make_tournament
from tests.table.conftest import TableClient


def text_of(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def test_a_ruling_shows_on_the_players_scoresheet(client, tournament, director):
    east = TableClient(client, tournament)
    east.save(1, outcome="wall")
    sheets.add_adjustment(east.table, 1, "S", -10, "tile count", director, game_no=1)
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


# ---- the tournament code box and the tournaments listed ---------------------------


def test_the_code_box_leads_to_the_tournaments_page_with_a_seat_lookup(client, tournament):
    response = client.get(f"/p?code={tournament.code.lower()}%20")
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/p/{tournament.code}")
    page = text_of(client.get(f"/p/{tournament.code}"))
    assert f'action="/p/{tournament.code}/seat"' in page and 'name="number"' in page
    home = text_of(client.get("/"))
    assert 'action="/p"' in home and 'name="code"' in home and "Tournament code" in home


def test_an_unknown_or_empty_code_is_answered_at_the_field(client, tournament):
    response = client.get("/p?code=NOPE42")
    assert response.status_code == 404
    assert "No tournament has the code “NOPE42”" in text_of(response)
    assert 'id="code-error"' in text_of(response)
    assert client.get("/p?code=").status_code == 422


def test_home_lists_only_tournaments_on_now(client, director):
    today = date.today()
    on_dates = make_tournament(director, name="Dated Today", seated=False)
    on_dates.starts_on, on_dates.ends_on = today - timedelta(days=2), today
    tomorrow = make_tournament(director, name="Starts Tomorrow", seated=False)
    tomorrow.starts_on = today + timedelta(days=1)
    long_ago = make_tournament(director, name="Started Long Ago", rounds=2)
    long_ago.starts_on = date(2020, 3, 1)
    old = db.session.scalar(db.select(Round).where(Round.tournament_id == long_ago.id))
    old.started_at = utcnow() - timedelta(days=400)
    old.ended_at = utcnow() - timedelta(days=400)
    clock_today = make_tournament(director, name="Clock Ran Today", rounds=2)
    ran = db.session.scalar(db.select(Round).where(Round.tournament_id == clock_today.id))
    ran.started_at = utcnow() - timedelta(hours=3)
    ran.ended_at = utcnow() - timedelta(hours=1)
    db.session.commit()
    page = text_of(client.get("/"))
    assert "Dated Today" in page and "Starts Tomorrow" in page and "Clock Ran Today" in page
    assert "Started Long Ago" not in page
