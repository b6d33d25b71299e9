"""Every page that follows live state asks the server once per interval: one element with
a timed trigger (`hx-trigger="every ..."`), never two polls side by side. Where a page
shows live parts (`data-live`), that one poll is the page's live poll (`id="live"`),
which carries their versions (static/js/app.js)."""

from __future__ import annotations

import re

import pytest

from blueprints.calls import table_calls
from models import db
from tests.clock.conftest import started
from tests.conftest import make_tournament

TIMED = re.compile(r'\bhx-trigger="([^"]*)"')

# Pages a table's phone or a player opens ({code}, {k}: the table's link).
PUBLIC = [
    "/t/{code}/1?k={k}",                        # the table page
    "/t/{code}/1/game?k={k}&r=1",               # entering a game
    "/t/{code}/1/review?k={k}&r=1",             # the round review
    "/p/{code}/seat",                           # a player's seat lookup
    "/p/{code}/seat?number=5",
    "/p/{code}/player/5",                       # a player's scores
    "/results/{code}",                          # the public standings
    "/display/{code}",                          # the big screen
]

# Staff pages ({id}: the tournament, {call}: an open call), a director signed in.
STAFF = [
    "/clock/director/{id}",                     # the console
    "/calls/director/{id}",                     # the queue
    "/calls/director/{id}/{call}",              # one call
    "/calls/director/{id}/history",
    "/results/director/{id}",
    "/director/t/{id}",                         # the overview, and every page with the bar
    "/director/t/{id}/edit",
    "/director/t/{id}/rules",
    "/director/t/{id}/players",
    "/director/t/{id}/players/import",
    "/director/t/{id}/staff",
    "/director/t/{id}/seating",
    "/director/t/{id}/schedule",
    "/director/t/{id}/audit",
]

# Before round 1 is seated there is no director's bar to bring a poll.
UNSEATED = ["/director/t/{id}", "/calls/director/{id}", "/clock/director/{id}",
            "/results/{code}", "/display/{code}"]


def polls(html: str) -> list[str]:
    """The page's timed triggers: each is one request per interval."""
    return [trigger for trigger in TIMED.findall(html) if re.search(r"\bevery\b", trigger)]


def assert_one_poll(response, path: str) -> None:
    assert response.status_code == 200, path
    html = response.get_data(as_text=True)
    assert len(polls(html)) == 1, f"{path}: {len(polls(html))} polls per interval"
    if "data-live=" in html:
        poller = re.search(r'<[^>]*\bid="live"[^>]*>', html)
        assert poller and re.search(r"\bevery\b", poller.group(0)), \
            f"{path}: live parts without the page's live poll"


@pytest.fixture
def in_play(director):
    """A tournament whose round 1 is running, with an open call from table 2."""
    tournament = make_tournament(director, players=16)
    started(tournament, minutes_ago=10)
    call, _ = table_calls.place_call(tournament.tables[1], "ruling")
    db.session.commit()
    return tournament, call


@pytest.mark.parametrize("path", PUBLIC)
def test_a_public_page_polls_once(client, in_play, path):
    # The director's own phone: these pages show no staff part, signed in or not.
    tournament, _ = in_play
    url = path.format(code=tournament.code, k=tournament.tables[0].token)
    assert_one_poll(client.get(url), path)


@pytest.mark.parametrize("path", STAFF)
def test_a_staff_page_polls_once(client, in_play, path):
    tournament, call = in_play
    assert_one_poll(client.get(path.format(id=tournament.id, call=call.id)), path)


@pytest.mark.parametrize("path", UNSEATED)
def test_before_round_one_is_seated_a_page_polls_once(client, director, path):
    tournament = make_tournament(director, seated=False, code="EARLY")
    assert_one_poll(client.get(path.format(id=tournament.id, code=tournament.code)), path)


def test_two_polls_on_a_page_are_counted():
    """The count itself: a page with a second timed poll beside its live poll fails."""
    page = ('<div id="live" hidden hx-get="/live/x" hx-trigger="every 10s, live:sync"></div>'
            '<section hx-get="/x" hx-trigger="every 10s" hx-swap="outerHTML"></section>'
            '<form hx-trigger="change"></form>')
    assert len(polls(page)) == 2
