"""The round clock live, with a director's phone, a table's phone and the big screen.

The director starts round 1 on the console and the table page and the big screen show it
running; the director pauses with a reason and both show "paused" with the same time left
within one poll; resume; minutes taken away bring the warnings and, at zero, "Time" and the
chime on the big screen (after its "Tap to enable sound"). axe checks the console and the
display; screenshots of both are kept."""

from __future__ import annotations

import re
from types import SimpleNamespace

from playwright.sync_api import expect

from e2e.conftest import (
    WITHIN_ONE_POLL,
    assert_accessible,
    screenshot,
    seat_new_tournament,
    sign_in,
)


def seed(live_server, director_email):
    """A seated 4-table tournament run by the director, with one game on table 2."""
    from models import GameEntry, Scoresheet, db

    with live_server.app_context():
        tournament, rnd = seat_new_tournament(director_email, "Clock Classic", 16)
        sheet = Scoresheet(round_id=rnd.id, table_id=tournament.tables[1].id)
        sheet.games.append(GameEntry(number=1, record={"outcome": "wall"}))
        db.session.add(sheet)
        db.session.commit()
        return {"id": tournament.id, "code": tournament.code,
                "token": tournament.tables[0].token}


def assert_landmarks_unique(page) -> None:
    """axe's landmark-unique (a best practice, so not in assert_accessible's WCAG tags):
    no two landmarks of one role share a name."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options={"runOnly": {"type": "rule",
                                                   "values": ["landmark-unique"]}})
    assert not results.response["violations"], results.generate_report()


def clock_time(page) -> str:
    return page.locator("#clock [data-clock-time]").inner_text().strip()


def seconds(text: str) -> int:
    minutes, secs = text.split(":")
    return int(minutes) * 60 + int(secs)


def test_director_runs_the_clock_and_every_screen_follows(live_server, director_account,
                                                         new_phone, browser):
    email, password = director_account
    t = seed(live_server, email)
    console_url = f"{live_server.url}/clock/director/{t['id']}"

    director = new_phone()
    sign_in(director, live_server, email, password)
    director.goto(console_url)
    expect(director.get_by_role("heading", name="Round clock", level=1)).to_be_visible()
    expect(director.locator("#clock")).to_have_attribute("data-state", "not_started")

    table = new_phone()
    table.goto(f"{live_server.url}/t/{t['code']}/1?k={t['token']}")
    expect(table.locator("#clock")).to_have_attribute("data-state", "not_started")

    big = browser.new_context(viewport={"width": 1280, "height": 720})
    display = big.new_page()
    display.set_default_timeout(10_000)
    try:
        display.goto(f"{live_server.url}/display/{t['code']}")
        expect(display.get_by_text("Find your seat for round 1.")).to_be_visible()
        # No sheet is in yet: no list of everyone tied first with X.
        expect(display.locator(".leaders")).to_contain_text("No results yet")
        expect(display.locator(".leaders-list")).to_have_count(0)
        assert_landmarks_unique(display)
        sound = display.get_by_role("button", name="Tap to enable sound")
        sound.click()
        expect(display.get_by_role("button", name="Sound on (tap to mute)")).to_have_attribute(
            "aria-pressed", "true")

        # Start: the table and the big screen show it running within one poll.
        director.get_by_role("button", name="Start round 1").click()
        expect(director.get_by_text("Round 1 has started.")).to_be_visible()
        for screen in (table, display):
            expect(screen.locator("#clock")).to_have_attribute("data-state", "running",
                                                               timeout=WITHIN_ONE_POLL)
        # The countdown ticks in the browser between polls.
        shown = clock_time(table)
        table.wait_for_function(
            "shown => document.querySelector('#clock [data-clock-time]').innerText.trim()"
            " !== shown", arg=shown, timeout=5000)
        assert seconds(clock_time(table)) < seconds(shown) <= 50 * 60

        # A phone waking from sleep asks at once ("clock:sync"), sending what it shows.
        with table.expect_request(lambda r: "/live/" in r.url and "shown=" in r.url,
                                  timeout=1000):
            table.evaluate("htmx.trigger(document.querySelector('#clock'), 'clock:sync')")

        # The console's grid: table 2 has a game; links to each table's sheet.
        tile = director.locator("a.tile", has_text="Table 2")
        expect(tile).to_contain_text("1 of 4 games")
        assert tile.get_attribute("href") == f"/t/director/{t['id']}/2/1"
        screenshot(director, "clock-console-running")
        assert_accessible(director)

        # Pause with a reason: every screen shows it, with the same time left.
        director.get_by_label("Why pause?").fill("Ruling at table 3")
        director.get_by_role("button", name="Pause the clock").click()
        expect(director.get_by_text("The clock is paused.")).to_be_visible()
        for screen in (table, display):
            expect(screen.locator("#clock")).to_have_attribute("data-state", "paused",
                                                               timeout=WITHIN_ONE_POLL)
            expect(screen.locator("#clock")).to_contain_text("Paused: Ruling at table 3")
        screenshot(table, "clock-table-paused")
        paused_at = clock_time(director)
        assert clock_time(table) == paused_at == clock_time(display)
        table.wait_for_timeout(1200)  # more than a tick
        assert clock_time(table) == paused_at  # frozen while paused

        # Resume: running again on the table from where it stopped.
        director.get_by_role("button", name="Resume the clock").click()
        expect(table.locator("#clock")).to_have_attribute("data-state", "running",
                                                          timeout=WITHIN_ONE_POLL)
        assert seconds(clock_time(table)) <= seconds(paused_at)

        # Take away minutes: the 5-minute warning, in colour and in words.
        left = seconds(clock_time(director))
        director.get_by_label("Minutes").fill(str(left // 60 - 4))
        director.get_by_role("button", name="Take minutes away").click()
        expect(director.get_by_text(re.compile(r"Took \d+ minutes away"))).to_be_visible()
        for screen in (table, display):
            expect(screen.locator("#clock")).to_have_class(re.compile(r"clock--warn-5"),
                                                           timeout=WITHIN_ONE_POLL)
            expect(screen.locator("#clock")).to_contain_text("5 minutes or less")
        screenshot(display, "clock-display-warning")
        assert_accessible(display)

        # Take the rest away: "Time" everywhere, and the chime on the big screen.
        director.get_by_label("Minutes").fill("5")
        director.get_by_role("button", name="Take minutes away").click()
        for screen in (table, display):
            expect(screen.locator("#clock")).to_have_attribute("data-state", "time_up",
                                                               timeout=WITHIN_ONE_POLL)
            expect(screen.locator("#clock [data-clock-time]")).to_have_text("Time")
        expect(display.locator("body")).to_have_attribute("data-chimed-round", "1")
        screenshot(display, "clock-display-time")
        assert_accessible(display)

        # End the round: the big screen tells everyone how to move.
        director.get_by_text("End round 1").click()
        director.get_by_role("button", name="End the round now").click()
        expect(director.get_by_text("Round 1 has ended.").first).to_be_visible()
        expect(display.get_by_text("Move to your next table:")).to_be_visible(
            timeout=WITHIN_ONE_POLL)
        expect(display.locator(".display-move")).to_contain_text(
            "East stays, South down 1, West up 2, North up 1")
        screenshot(display, "clock-display-between-rounds")
        assert_accessible(display)
        assert_landmarks_unique(display)
        # Before seating round 2 the console says which tables have not submitted round 1
        # (none has), beside the button; seating is still the director's call.
        warning = director.locator("#unsubmitted-warning")
        expect(warning).to_contain_text(
            "4 tables have not submitted round 1: tables 1, 2, 3 and 4.")
        seat = director.get_by_role("button", name="Seat round 2")
        expect(seat).to_have_attribute("aria-describedby", "unsubmitted-warning")
        screenshot(director, "clock-console-ended")
        assert_accessible(director)
        seat.click()
        expect(director.get_by_role("button", name="Start round 2")).to_be_visible()
        expect(warning).to_contain_text("4 tables have not submitted round 1")
        assert_accessible(director)
    finally:
        big.close()


def test_announcements_reach_the_big_screen(live_server, director_account, new_phone):
    email, password = director_account
    t = seed(live_server, email)
    director = new_phone()
    sign_in(director, live_server, email, password)
    director.goto(f"{live_server.url}/clock/director/{t['id']}")
    display = new_phone()
    display.goto(f"{live_server.url}/display/{t['code']}")

    director.get_by_label("Announcement for the big screen").fill("Lunch in the foyer at 12:30")
    director.get_by_role("button", name="Post on the big screen").click()
    expect(director.get_by_text("The announcement is on the big screen.")).to_be_visible()
    expect(display.get_by_text("Lunch in the foyer at 12:30")).to_be_visible(
        timeout=WITHIN_ONE_POLL)
    screenshot(display, "clock-display-phone")
    assert_accessible(display)

    director.get_by_role("button", name=re.compile("^Clear")).click()
    expect(display.get_by_text("Lunch in the foyer at 12:30")).to_be_hidden(
        timeout=WITHIN_ONE_POLL)


def test_a_tap_with_the_wifi_down_keeps_the_console_and_says_nothing_was_sent(
        live_server, director_account, new_phone):
    """The director taps "Start round 1" as her phone loses the Wi-Fi: no browser "no
    internet" page, the console stays and says nothing was sent; back online, the same tap
    starts the round."""
    email, password = director_account
    t = seed(live_server, email)
    director = new_phone()
    # The phone reaches the laptop by its venue address, not the loopback one (where the
    # page never takes itself for offline: the laptop's own browser, with no network)
    venue = live_server.url.replace("127.0.0.1", "venue.test")
    sign_in(director, SimpleNamespace(url=venue), email, password)
    director.goto(f"{venue}/clock/director/{t['id']}")
    console = director.url
    start = director.get_by_role("button", name="Start round 1")
    director.context.set_offline(True)
    start.click()
    note = director.locator(".offline-note")
    expect(note).to_have_text("No connection: nothing was sent. Tap again when the Wi-Fi "
                              "is back.")
    expect(note).to_be_in_viewport()
    assert director.url == console
    expect(director.locator("#clock")).to_have_attribute("data-state", "not_started")
    screenshot(director, "clock-console-offline-tap", full_page=False)
    director.context.set_offline(False)
    expect(note).to_have_count(0)
    start.click()
    expect(director.get_by_text("Round 1 has started.")).to_be_visible()
