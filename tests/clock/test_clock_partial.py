"""The clock partial every page includes, and its poll: 204 while the version shown is
current, the new partial (and an HX-Trigger for the rest of the page) when it is not;
warnings in words as well as colour; one query for the clock."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import event

from models import db
from tests.clock.conftest import ended, started

HX = {"HX-Request": "true"}


def poll(client, tournament, version=None, shown=None):
    params = {}
    if version is not None:
        params["v"] = version
    if shown is not None:
        params["shown"] = shown
    return client.get(f"/clock/{tournament.code}", query_string=params, headers=HX)


def shown_version(html):
    return re.search(r'data-version="([^"]+)"', html).group(1)


def test_poll_with_the_current_version_gets_204(client, tournament):
    started(tournament, 1, minutes_ago=3)
    first = poll(client, tournament, "stale")
    assert first.status_code == 200
    version = shown_version(first.get_data(as_text=True))
    again = poll(client, tournament, version, shown="2820")
    assert again.status_code == 204 and again.get_data() == b""
    assert "HX-Request" in again.headers["Vary"]


def test_a_stale_version_gets_the_new_partial(client, tournament):
    rnd = started(tournament, 1, minutes_ago=3)
    old = f"1.{rnd.clock_version}.running"
    assert poll(client, tournament, old).status_code == 204
    rnd.paused_at = rnd.started_at.__class__.now(rnd.started_at.tzinfo)
    rnd.pause_reason = "Ruling at table 2"
    rnd.clock_version += 1
    db.session.commit()
    response = poll(client, tournament, old)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert html.lstrip().startswith("<section")  # only the partial, for htmx
    assert "Paused: Ruling at table 2" in html and 'data-state="paused"' in html
    assert response.headers["HX-Trigger"] == "clockChanged"
    assert "<script" not in html  # the page already has clock.js


def test_a_drifted_phone_gets_a_fresh_clock(client, tournament):
    rnd = started(tournament, 1, minutes_ago=10)
    version = f"1.{rnd.clock_version}.running"
    assert poll(client, tournament, version, shown="2400").status_code == 204
    assert poll(client, tournament, version, shown="2300").status_code == 200


def test_time_up_reaches_the_phones_without_a_clock_action(client, tournament):
    """Running -> time up changes no row, but changes the version the phones compare."""
    rnd = started(tournament, 1, minutes_ago=51)
    response = poll(client, tournament, f"1.{rnd.clock_version}.running")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert 'data-state="time_up"' in html and ">Time<" in html and "clock--time" in html


def test_no_round_yet_polls_too(client, director):
    from tests.conftest import make_tournament

    tournament = make_tournament(director, seated=False, code="NOSEAT")
    response = poll(client, tournament, "none")
    assert response.status_code == 204
    page = client.get(f"/clock/{tournament.code}").get_data(as_text=True)
    assert "once round 1 is seated" in page


def test_unknown_code_is_not_found(client, app):
    assert client.get("/clock/NOSUCH").status_code == 404


@pytest.mark.parametrize("minutes_ago, css, words", [
    (30, "", "Running"),
    (40, "clock--warn-10", "10 minutes or less"),
    (45, "clock--warn-5", "5 minutes or less"),
    (49, "clock--warn-1", "1 minute or less"),
    (50, "clock--time", "Time is up"),
])
def test_warnings_change_colour_and_words(client, tournament, minutes_ago, css, words):
    started(tournament, 1, minutes_ago=minutes_ago)
    html = poll(client, tournament, "x").get_data(as_text=True)
    classes = re.search(r'class="(clock[^"]*)"', html).group(1).split()
    for level in ("clock--warn-10", "clock--warn-5", "clock--warn-1", "clock--time"):
        assert (level in classes) == (level == css), classes
    assert words in html


def test_paused_shows_the_same_remaining_time_on_every_poll(client, tournament):
    started(tournament, 1, minutes_ago=20, paused_minutes_ago=4, reason="Tile count")
    first = poll(client, tournament, "x").get_data(as_text=True)
    second = poll(client, tournament, "y").get_data(as_text=True)
    assert "34:00" in first and first == second


def test_ended_round(client, tournament):
    started(tournament, 1, minutes_ago=48)
    ended(tournament, 1)
    html = poll(client, tournament, "x").get_data(as_text=True)
    assert "Round 1 has ended" in html and 'data-state="ended"' in html


def test_without_javascript_the_page_shows_the_time_and_a_refresh_link(client, tournament):
    started(tournament, 1, minutes_ago=10, paused_minutes_ago=0, reason="Break")
    page = client.get(f"/clock/{tournament.code}").get_data(as_text=True)
    assert "40:00" in page and "<noscript>" in page and ">Refresh</a>" in page
    assert 'src="/static/bundle/public.js?v=' in page  # static/js/clock.js inside


def test_clock_for_is_one_query(app, client, tournament):
    """clock_for runs on every table page and poll: one cheap query, once per request."""
    from core.clock import clock_view

    started(tournament, 1, minutes_ago=5)
    assert tournament.code  # loaded, as on any page that has the tournament
    statements = []

    def count(conn, cursor, statement, *args):
        statements.append(statement)

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        with app.test_request_context("/"):
            view = clock_view(tournament)
            assert clock_view(tournament) is view
        assert len(statements) == 1
        assert (view.round_no, view.state) == (1, "running")
        statements.clear()
        assert poll(client, tournament, view.version).status_code == 204
        assert len([s for s in statements if "round" in s.lower()]) == 1
    finally:
        event.remove(db.engine, "before_cursor_execute", count)


def test_the_current_round_is_the_one_in_play_else_the_next_else_the_last(app, tournament):
    from core.clock import clock_view
    from core.rounds import ensure_round

    def current():
        with app.test_request_context("/"):
            view = clock_view(tournament)
            return view.round_no, view.state

    assert current() == (1, "not_started")
    started(tournament, 1, minutes_ago=1)
    ensure_round(tournament, 2)
    db.session.commit()
    assert current() == (1, "running")
    ended(tournament, 1)
    assert current() == (2, "not_started")
    started(tournament, 2, minutes_ago=60)
    assert current() == (2, "time_up")
    ended(tournament, 2)
    assert current() == (2, "ended")


def test_the_words_under_the_clock_agree_with_its_digits_at_every_second():
    # "2:50 ... 5 minutes left" and "10 minutes left" from 9:59 to 5:00 contradicted the
    # digits: each warning now says "N minutes or less", true from its first second on.
    from datetime import UTC, datetime, timedelta

    from core.clock import ClockView
    from core.words import clock_text
    from tournament.clock import RoundClock

    start = datetime(2026, 1, 1, tzinfo=UTC)
    clock = RoundClock(duration_seconds=3000, started_at=start)
    for elapsed in range(0, 3000):
        now = start + timedelta(seconds=elapsed)
        left = clock.remaining(now)
        view = ClockView(1, 1, clock.state(now), left, 3000, 1, "", clock.warning(now))
        words = view.status_text
        found = re.fullmatch(r"(\d+) minutes? or less", words)
        if found:
            assert left <= int(found.group(1)) * 60, (clock_text(left), words)
        else:
            assert words == "Running" and left > 600, (clock_text(left), words)
