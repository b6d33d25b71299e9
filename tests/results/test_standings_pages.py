"""The public standings of a large event, a page of lines at a time: the same rows, ranks
and order as one long list, "Find me" opening the page that holds the player, and the
poll re-sending only the page shown."""

from __future__ import annotations

import re

import pytest

from blueprints.results import standings_rows
from tests.results.conftest import add_sheet, win

ROW = re.compile(r'<tr id="s-player-\d+".*?</tr>', re.S)


@pytest.fixture
def ranked(tournament):
    """Six of the eight tables' sheets submitted, each won by East for a different value:
    24 players ranked, 8 with no result yet (listed last)."""
    for number in range(1, 7):
        add_sheet(tournament, 1, number, [win("E", value=25 + 5 * number)])
    return tournament


def _page(app, tournament, query: str = "", headers=None) -> str:
    answer = app.test_client().get(f"/results/{tournament.code}{query}", headers=headers)
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


def test_the_pages_together_are_the_one_long_list(app, ranked, monkeypatch):
    whole = ROW.findall(_page(app, ranked))
    assert len(whole) == 32
    monkeypatch.setattr(standings_rows, "PAGE_LINES", 10)
    pages = [ROW.findall(_page(app, ranked, f"?page={n}")) for n in (1, 2, 3, 4)]
    assert [len(rows) for rows in pages] == [10, 10, 10, 2]
    assert sum(pages, []) == whole  # ranks, ties, prize marks and "no result" all kept


def test_the_pager_says_where_you_are_and_links_both_ways(app, ranked, monkeypatch):
    monkeypatch.setattr(standings_rows, "PAGE_LINES", 10)
    first = _page(app, ranked)
    assert "Players 1 to 10 of 32, in standings order." in first
    assert f"/results/{ranked.code}?c=main&amp;view=official&amp;page=2#standings" in first
    assert "Players 11 to 20 &rarr;" in first and "&larr;" not in first
    middle = _page(app, ranked, "?page=2")
    assert "&larr; Players 1 to 10" in middle and "Players 21 to 30 &rarr;" in middle
    last = _page(app, ranked, "?page=4")
    assert "Players 31 to 32 of 32" in last and "&rarr;" not in last


@pytest.mark.parametrize("asked, shown", [("99", 4), ("0", 1), ("abc", 1), ("-2", 1),
                                          ("", 1)])
def test_a_page_out_of_range_or_not_a_number_shows_the_nearest(app, ranked, monkeypatch,
                                                               asked, shown):
    monkeypatch.setattr(standings_rows, "PAGE_LINES", 10)
    html = _page(app, ranked, f"?page={asked}")
    first = (shown - 1) * 10 + 1
    assert f"Players {first} to {min(first + 9, 32)} of 32" in html


def test_find_me_opens_the_page_that_holds_the_player(app, ranked, monkeypatch):
    monkeypatch.setattr(standings_rows, "PAGE_LINES", 10)
    rows = ROW.findall(_page(app, ranked, "?page=3"))
    number = int(re.search(r's-player-(\d+)', rows[4]).group(1))
    html = _page(app, ranked, f"?me={number}")
    assert f'<tr id="s-player-{number}" class="me" aria-current="true">' in html
    assert "Players 21 to 30 of 32" in html
    # the poll asks for the same page, and keeps the highlight
    poll = re.search(r'hx-get="([^"]+)"', html).group(1)
    assert "page=3" in poll and f"me={number}" in poll
    # a page asked for wins over the jump
    assert "Players 1 to 10 of 32" in _page(app, ranked, f"?me={number}&page=1")


def test_the_poll_re_sends_only_its_page(app, ranked, monkeypatch):
    monkeypatch.setattr(standings_rows, "PAGE_LINES", 10)
    partial = _page(app, ranked, "?page=2&v=old", headers={"HX-Request": "true"})
    assert partial.lstrip().startswith("<section") and len(ROW.findall(partial)) == 10
    poll = re.search(r'hx-get="([^"]+)"', partial).group(1)
    assert "page=2" in poll


def test_an_event_on_one_page_has_no_pager_and_its_poll_no_page(app, ranked):
    html = _page(app, ranked)
    assert 'class="pager' not in html
    assert "page=" not in re.search(r'hx-get="([^"]+)"', html).group(1)


def test_the_provisional_view_is_paged_the_same_way(app, tournament, monkeypatch):
    add_sheet(tournament, 1, 1, [win("E")], state="open")
    monkeypatch.setattr(standings_rows, "PAGE_LINES", 10)
    html = _page(app, tournament, "?view=provisional&page=2")
    assert len(ROW.findall(html)) == 10 and "Players 11 to 20 of 32" in html
    assert "view=provisional&amp;page=3" in html
