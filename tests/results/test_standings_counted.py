"""Public standings mid-event: players whose tables have not submitted show "-" (no result
yet) and are not ranked with players who really scored X; "Find me" by player number."""

from __future__ import annotations

import re

from tests.results.conftest import add_sheet, win


def rows(html: str) -> dict[int, tuple[str, str]]:
    """{player number: (rank cell, total cell)} from the standings table."""
    found = {}
    pattern = re.compile(r'<tr id="s-player-(\d+)"[^>]*>\s*<td class="num">(.*?)</td>.*?'
                         r'<td class="num total">(.*?)</td>', re.S)
    for number, rank, total in pattern.findall(html):
        found[int(number)] = (re.sub(r"<[^>]+>", "", rank), re.sub(r"<[^>]+>", "", total))
    return found


def test_no_result_yet_is_a_dash_and_only_counted_games_rank(client, tournament):
    add_sheet(tournament, 1, 1, [win("E")])                     # East 35, the others X
    add_sheet(tournament, 1, 2, [win("S", discarder="E")])      # table 2's East threw
    html = client.get(f"/results/{tournament.code}").get_data(as_text=True)
    table = rows(html)
    assert table[1] == ("1", "35")
    assert table[2] == ("3=", "X") and table[3] == ("3=", "X")  # real zeros, tied among played
    assert table[5][1].startswith("-") and table[5][0] == str(len([
        n for n, cells in table.items() if cells[0] != "-"]))    # the thrower is last of 8
    assert table[9] == ("-", "-") and table[32] == ("-", "-")   # no result yet
    # The players with results come first.
    order = [int(n) for n in re.findall(r'<tr id="s-player-(\d+)"', html)]
    assert set(order[:8]) == set(range(1, 9))


def test_find_me_shows_the_players_own_line(client, tournament):
    add_sheet(tournament, 1, 1, [win("E")])
    html = client.get(f"/results/{tournament.code}?me=1").get_data(as_text=True)
    assert "Player 1</strong> (No. 1): rank 1, total 35." in html
    assert re.search(r'id="s-player-1" class="[^"]*\bme" aria-current="true"', html)
    assert "me=1" in html.split('id="standings-poll"')[1].split(">")[0]  # the poll keeps it
    html = client.get(f"/results/{tournament.code}?me=20").get_data(as_text=True)
    assert "Player 20</strong> (No. 20): no result yet." in html
    for wrong in ("999", "abc", "-1"):
        html = client.get(f"/results/{tournament.code}?me={wrong}").get_data(as_text=True)
        assert "No player number" in html or 'class="find-me__result"' not in html
    html = client.get(f"/results/{tournament.code}?me=999").get_data(as_text=True)
    assert "No player number 999 in these standings." in html
