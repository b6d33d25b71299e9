"""The director's bar on every director page during play: the clock (one-tap pause
reasons, one-tap resume), the open calls with the oldest wait, the round's sheets in /
total; its poll answers 204 while nothing changed; its forms come back to the page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from blueprints.calls import queue as calls_queue
from blueprints.calls import table_calls
from models import DirectorCall, db, utcnow
from tests.clock.conftest import audit, games_on, started
from tests.conftest import make_tournament, sign_in

HX = {"HX-Request": "true"}


def bar_html(page: str) -> str:
    start = page.index('id="director-bar"')
    return page[start:page.index("</section>", start)]


def live_parts(html: str) -> dict[str, str]:
    return dict(re.findall(r'data-live="(\w+)" data-live-version="([^"]*)"', html))


@pytest.mark.parametrize("path", [
    "/director/t/{id}", "/director/t/{id}/players", "/clock/director/{id}",
    "/calls/director/{id}", "/calls/director/{id}/history", "/results/director/{id}",
])
def test_every_director_page_has_the_bar_during_play(client, tournament, path):
    started(tournament, minutes_ago=10)
    page = client.get(path.format(id=tournament.id)).get_data(as_text=True)
    bar = bar_html(page)
    # Started 10 of 50 minutes ago: 40:00 left, or 39:5x when the request was slow.
    assert "Round 1" in bar and "Pause" in bar
    assert re.search(r"\b(40:00|39:[0-5]\d)\b", bar), bar
    assert f'href="/calls/director/{tournament.id}"' in bar
    assert "0/8" in bar  # sheets in / tables seated


def test_no_bar_before_round_one_is_seated(client, director):
    tournament = make_tournament(director, seated=False, code="NOSEAT")
    page = client.get(f"/director/t/{tournament.id}").get_data(as_text=True)
    assert 'id="director-bar"' not in page


def test_no_bar_for_a_signed_out_visitor_on_public_pages(app, tournament):
    started(tournament)
    page = app.test_client().get(f"/p/{tournament.code}").get_data(as_text=True)
    assert 'id="director-bar"' not in page


def test_the_bar_counts_open_calls_with_the_oldest_wait_and_sheets_in(client, tournament):
    started(tournament, minutes_ago=10)
    first, _ = table_calls.place_call(tournament.tables[2], "ruling")
    table_calls.place_call(tournament.tables[4], "scoring")
    first.called_at = utcnow() - timedelta(minutes=3, seconds=5)
    db.session.commit()
    games_on(tournament, 1, 1, 4, state="submitted")
    games_on(tournament, 2, 1, 4, state="verified")
    games_on(tournament, 3, 1, 2)
    bar = bar_html(client.get(f"/clock/director/{tournament.id}").get_data(as_text=True))
    assert '<strong class="bar-value">2<span class="visually-hidden"> open</span>' in bar
    assert "wait <span" in bar and ">3:0" in bar and "wait-level-1" in bar
    assert "2/8" in bar


def test_pause_from_the_bar_offers_the_calls_in_hand(client, tournament, director):
    started(tournament, minutes_ago=5)
    call, _ = table_calls.place_call(tournament.tables[3], "ruling")
    calls_queue.claim_call(call, director, "director")
    bar = bar_html(client.get(f"/calls/director/{tournament.id}").get_data(as_text=True))
    assert 'value="Ruling at table 4"' in bar
    assert 'value="Announcement"' in bar and 'value="Break"' in bar
    # On the call's own page, that table is offered even before "I'm going".
    other, _ = table_calls.place_call(tournament.tables[6], "ruling")
    page = client.get(f"/calls/director/{tournament.id}/{other.id}").get_data(as_text=True)
    assert 'value="Ruling at table 7"' in bar_html(page)


def test_one_tap_pause_from_the_bar_comes_back_to_the_page(client, tournament):
    rnd = started(tournament, minutes_ago=5)
    back = f"/calls/director/{tournament.id}"
    response = client.post(f"/clock/director/{tournament.id}/pause", data={
        "pause-round_no": 1, "pause-version": rnd.clock_version,
        "pause-choice": "Ruling at table 4", "back": back})
    assert response.status_code == 303 and response.headers["Location"] == back
    db.session.refresh(rnd)
    assert rnd.paused_at is not None and rnd.pause_reason == "Ruling at table 4"
    page = client.get(back).get_data(as_text=True)
    assert "The clock is paused." in page
    bar = bar_html(page)
    assert "Resume" in bar and 'name="resume-version"' in bar


def test_typed_reason_wins_over_a_choice_and_nothing_at_all_is_refused(client, tournament):
    rnd = started(tournament, minutes_ago=5)
    response = client.post(f"/clock/director/{tournament.id}/pause", data={
        "pause-round_no": 1, "pause-version": rnd.clock_version})
    assert response.status_code == 422
    db.session.refresh(rnd)
    assert rnd.paused_at is None
    client.post(f"/clock/director/{tournament.id}/pause", data={
        "pause-round_no": 1, "pause-version": rnd.clock_version, "pause-reason": "Fire drill",
        "pause-choice": "Break"})
    db.session.refresh(rnd)
    assert rnd.pause_reason == "Fire drill"


@pytest.mark.parametrize("back", ["https://evil.example/", "//evil.example/x", "/\\evil",
                                  # a header cannot carry these: a 500 after the commit
                                  "/x\r\ny", "/x\ny", "/x\x00y", "/x\x7fy", "/x\ty"])
def test_the_bar_never_sends_the_director_off_the_site(client, tournament, back):
    rnd = started(tournament, minutes_ago=5)
    response = client.post(f"/clock/director/{tournament.id}/pause", data={
        "pause-round_no": 1, "pause-version": rnd.clock_version, "pause-choice": "Break",
        "back": back})
    assert response.headers["Location"] == f"/clock/director/{tournament.id}"
    db.session.refresh(rnd)
    assert rnd.paused_at is not None  # done once, and said so with a redirect
    assert audit(tournament, "clock.pause")


def test_resume_from_the_bar_is_one_tap(client, tournament):
    rnd = started(tournament, minutes_ago=5, paused_minutes_ago=1, reason="Break")
    response = client.post(f"/clock/director/{tournament.id}/resume", data={
        "resume-round_no": 1, "resume-version": rnd.clock_version,
        "back": f"/director/t/{tournament.id}"})
    assert response.headers["Location"] == f"/director/t/{tournament.id}"
    db.session.refresh(rnd)
    assert rnd.paused_at is None


def test_the_bars_poll_is_204_until_something_changes(client, tournament):
    started(tournament, minutes_ago=5)
    url = f"/live/director/{tournament.id}"
    first = client.get(url, query_string={"bar": "old"}, headers=HX)
    assert first.status_code == 200
    version = live_parts(first.get_data(as_text=True))["bar"]
    assert client.get(url, query_string={"bar": version}, headers=HX).status_code == 204
    table_calls.place_call(tournament.tables[0], "ruling")
    changed = client.get(url, query_string={"bar": version}, headers=HX)
    assert changed.status_code == 200
    assert '<strong class="bar-value">1<span' in changed.get_data(as_text=True)


def test_a_guide_sees_the_bar_but_no_pause(app, tournament, guide):
    started(tournament, minutes_ago=5)
    client = app.test_client()
    sign_in(client, email="gail@example.com", password="guide password")
    bar = bar_html(client.get(f"/calls/director/{tournament.id}").get_data(as_text=True))
    assert "pause-choice" not in bar and "Calls" in bar


def test_run_the_event_comes_first_once_round_one_is_seated(client, director):
    seated = make_tournament(director, code="SEATED")
    page = client.get(f"/director/t/{seated.id}").get_data(as_text=True)
    assert page.index("Run the event") < page.index("Getting ready")
    unseated = make_tournament(director, seated=False, code="UNSEAT")
    page = client.get(f"/director/t/{unseated.id}").get_data(as_text=True)
    assert page.index("Getting ready") < page.index("Run the event")


def test_end_the_round_names_the_tables_still_playing(client, tournament):
    started(tournament, minutes_ago=45)
    for table in range(1, 9):
        if table not in (3, 7):
            games_on(tournament, table, 1, 4, state="submitted")
    page = " ".join(client.get(f"/clock/director/{tournament.id}").get_data(as_text=True).split())
    assert "2 tables still playing (sheets not submitted): tables 3 and 7." in page
    assert "2 tables still playing" in page and "tables 3 and 7." in page
    assert 'class="danger primary big"' in page


def test_calls_left_open_count_only_open_ones(client, tournament):
    started(tournament)
    call, _ = table_calls.place_call(tournament.tables[0], "ruling")
    db.session.execute(db.update(DirectorCall).where(DirectorCall.id == call.id)
                       .values(state="resolved", resolved_at=utcnow()))
    db.session.commit()
    bar = bar_html(client.get(f"/clock/director/{tournament.id}").get_data(as_text=True))
    assert "none open" in bar


def test_on_the_console_the_bar_is_a_part_of_the_pages_one_poll(client, tournament):
    started(tournament)
    page = client.get(f"/clock/director/{tournament.id}").get_data(as_text=True)
    assert page.count('hx-trigger="every') == 1 and page.count('id="live"') == 1
    shown = live_parts(page)
    assert "bar" in shown
    url = f"/live/console/{tournament.id}?" + "&".join(f"{k}={v}" for k, v in shown.items())
    assert client.get(url, headers=HX).status_code == 204
    table_calls.place_call(tournament.tables[0], "ruling")
    db.session.commit()
    answer = client.get(url, headers=HX).get_data(as_text=True)
    assert set(live_parts(answer)) == {"bar"} and 'hx-swap-oob="true"' in answer
    assert '<strong class="bar-value">1<span' in answer


@pytest.mark.parametrize("path", [
    "/director/t/{id}", "/calls/director/{id}", "/calls/director/{id}/history",
    "/results/director/{id}",
])
def test_elsewhere_the_bar_is_a_part_of_the_pages_one_poll(client, tournament, path):
    started(tournament)
    page = client.get(path.format(id=tournament.id)).get_data(as_text=True)
    assert page.count('hx-trigger="every') == 1, "one poll per page"
    poller = re.search(r'<div id="live"[^>]*>', page).group(0)
    assert f"/live/director/{tournament.id}?" in poller
    back = re.search(r'hx-get="([^"]*)"', poller).group(1).replace("&amp;", "&")
    version = live_parts(page)["bar"]
    assert client.get(f"{back}&bar={version}", headers=HX).status_code == 204
    table_calls.place_call(tournament.tables[0], "ruling")
    db.session.commit()
    answer = client.get(f"{back}&bar={version}", headers=HX).get_data(as_text=True)
    assert set(live_parts(answer)) == {"bar"} and "none open" not in answer
    # The bar's forms still return to the page it is on, not to the poll.
    assert "/live/" not in bar_html(answer).split('name="back" value="')[1].split('"')[0]


def test_the_directors_poll_is_for_this_tournaments_staff_only(app, tournament):
    started(tournament)
    from tests.conftest import make_user

    make_user("eve@example.com", "Eve Else")
    other = app.test_client()
    sign_in(other, email="eve@example.com")
    assert other.get(f"/live/director/{tournament.id}?bar=x", headers=HX).status_code == 404
