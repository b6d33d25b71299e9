"""The console's grid of tables: games entered and sheets submitted this round, tables
behind the clock (fewer games than an even pace less one), links to each sheet."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import event

from blueprints.clock.grid import behind_minutes, is_behind
from core.clock import ClockView
from models import db
from tests.clock.conftest import games_on, started

HX = {"HX-Request": "true"}


def view(remaining, duration=3000, state="running"):
    return ClockView(tournament_id=1, round_no=1, state=state, remaining=remaining,
                     duration=duration, clock_version=1, pause_reason="", warning=None)


@pytest.mark.parametrize("games, remaining, behind", [
    (2, 600, True),     # fewer than 3 games with 10 minutes left
    (3, 600, False),
    (0, 2100, False),   # 15 minutes in, no game yet: 8.75 minutes a game is left
    (0, 1500, False),   # half time, no game: exactly half a share (6.25 min) a game left
    (0, 1499, True),    # ...and just past it
    (1, 1200, False),
    (3, 375, False),    # one game left, 6.25 minutes: half a share...
    (3, 374, True),     # ...and just under it
    (3, 0, True),       # time up with a game unfinished
    (4, 0, False),      # all four entered
])
def test_behind_the_clock(games, remaining, behind):
    assert is_behind(games, False, view(remaining), 4) is behind


def test_submitted_or_not_in_play_is_never_behind():
    assert not is_behind(0, True, view(60), 4)
    assert not is_behind(0, False, view(3000, state="not_started"), 4)
    assert not is_behind(0, False, view(600, state="ended"), 4)


def test_the_line_is_the_rounds_own_length_with_minutes_added():
    # 5 minutes added to a 50-minute round (55 minutes): 6.875 minutes a game to play
    assert not is_behind(2, False, view(825, duration=3300), 4)
    assert is_behind(2, False, view(824, duration=3300), 4)
    # 10 minutes taken away (40 minutes): 5 minutes a game
    assert not is_behind(2, False, view(600, duration=2400), 4)
    assert is_behind(2, False, view(599, duration=2400), 4)


def test_grid_uses_the_rounds_length_not_the_tournaments(client, tournament):
    rnd = started(tournament, 1, minutes_ago=40)      # a 50-minute round: 10 minutes left
    rnd.duration_seconds += 10 * 60                   # the director added 10 minutes
    db.session.commit()
    games_on(tournament, 3, 1, 2)                     # 20 minutes for 2 games: on pace
    page = client.get(f"/clock/director/{tournament.id}").get_data(as_text=True)
    tile = re.search(r'<a class="tile([^"]*)" href="[^"]+/3/1">', page).group(1)
    assert "tile--behind" not in tile
    assert "less than 7.5 minutes left" in " ".join(page.split())


def test_behind_is_proportional_to_games_per_round():
    assert behind_minutes(3000, 4) == 6.25
    assert behind_minutes(3000, 5) == 5
    # 5 games in 50 minutes, 10 minutes left: 2 games left is fine, 3 is behind
    assert not is_behind(3, False, view(600), 5)
    assert is_behind(2, False, view(600), 5)


def test_grid_shows_each_tables_progress(client, tournament):
    started(tournament, 1, minutes_ago=40)
    games_on(tournament, 1, 1, 4, state="submitted")
    games_on(tournament, 2, 1, 3)
    games_on(tournament, 3, 1, 2)
    page = client.get(f"/clock/director/{tournament.id}").get_data(as_text=True)
    tiles = re.findall(r'<a class="tile([^"]*)" href="([^"]+)">(.*?)</a>', page, re.S)
    assert len(tiles) == 8
    by_table = {int(re.search(r"Table (\d+)", text).group(1)): (css, href, " ".join(
        text.split())) for css, href, text in tiles}
    assert "tile--done" in by_table[1][0] and "4 of 4 games" in by_table[1][2]
    assert "submitted" in by_table[1][2]
    assert by_table[2][0] == "" and "3 of 4 games" in by_table[2][2]
    assert "tile--behind" in by_table[3][0] and "Behind" in by_table[3][2]
    assert "tile--behind" in by_table[8][0] and "no games yet" in by_table[8][2]
    assert by_table[3][1] == f"/t/director/{tournament.id}/3/1"
    assert "6 behind the clock" in page and "1 of 8 sheets submitted" in page
    assert "less than 6.25 minutes left" in " ".join(page.split())


def test_grid_is_one_query(app, tournament):
    from blueprints.clock.grid import table_grid
    from core.clock import clock_view

    started(tournament, 1, minutes_ago=40)
    games_on(tournament, 2, 1, 3)
    assert tournament.games_per_round
    with app.test_request_context("/"):
        current = clock_view(tournament)
        statements = []

        def count(conn, cursor, statement, *args):
            statements.append(statement)

        event.listen(db.engine, "before_cursor_execute", count)
        try:
            grid = table_grid(tournament, current)
        finally:
            event.remove(db.engine, "before_cursor_execute", count)
    assert len(statements) == 1
    assert [t.games for t in grid] == [0, 3, 0, 0, 0, 0, 0, 0]


def test_grid_poll_204_until_a_table_enters_a_game(client, tournament):
    started(tournament, 1, minutes_ago=20)
    response = client.get(f"/clock/director/{tournament.id}/grid", headers=HX)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert html.lstrip().startswith("<section")
    version = re.search(r"grid\?v=([0-9a-f]+)", html).group(1)
    url = f"/clock/director/{tournament.id}/grid?v={version}"
    assert client.get(url, headers=HX).status_code == 204
    games_on(tournament, 5, 1, 1)
    response = client.get(url, headers=HX)
    assert response.status_code == 200
    assert "1 of 4 games" in response.get_data(as_text=True)


def test_a_guide_sees_the_grid(app, tournament, guide):
    from tests.conftest import sign_in

    client = app.test_client()
    sign_in(client, "gail@example.com", "guide password")
    assert client.get(f"/clock/director/{tournament.id}/grid", headers=HX).status_code == 200


def test_grid_poll_answers_204_from_the_clock_and_the_grid_alone(client, tournament):
    started(tournament, 1, minutes_ago=20)
    for table_no in (1, 2, 3):
        games_on(tournament, table_no, 1, 2)
    html = client.get(f"/clock/director/{tournament.id}/grid", headers=HX).get_data(
        as_text=True)
    version = re.search(r"grid\?v=([0-9a-f]+)", html).group(1)
    statements = []

    def count(conn, cursor, statement, *args):
        statements.append(statement)

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        response = client.get(f"/clock/director/{tournament.id}/grid?v={version}",
                              headers=HX)
    finally:
        event.remove(db.engine, "before_cursor_execute", count)
    assert response.status_code == 204
    # the signed-in user, the tournament and its staff role, the clock, the grid: nothing
    # for the console's forms, announcements or next round
    assert not any("announcement" in s.lower() for s in statements)
    assert len(statements) <= 5, statements


def test_grid_without_javascript_is_the_whole_console(client, tournament):
    started(tournament, 1, minutes_ago=20)
    page = client.get(f"/clock/director/{tournament.id}/grid").get_data(as_text=True)
    assert "<html" in page and 'id="table-grid"' in page and "Big-screen announcements" in page
