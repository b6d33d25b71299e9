"""The director's event on one phone (390x844), counting taps: start the round, take a
call, pause from the bar with a one-tap reason, resolve with a one-tap ruling, resume,
end the round. The flow is asserted; the tap count is printed (and kept in docs/testing.md),
never asserted as a timing. axe checks each new page state."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from e2e.conftest import (
    WITHIN_ONE_POLL,
    assert_accessible,
    committed_tournament,
    screenshot,
    sign_in,
)


class Taps:
    """Counts the director's taps; typing is never needed in this walk."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def __call__(self, locator):
        locator.tap()
        self.count += 1


def seed(live_server, director_email):
    made = committed_tournament(live_server, director_email, "One Hand Open", 32)
    return {"id": made["id"], "code": made["code"], "token": made["tokens"][3]}


def test_the_directors_event_from_one_hand(live_server, director_account, page, new_phone):
    email, password = director_account
    t = seed(live_server, email)
    sign_in(page, live_server, email, password)
    page.goto(f"{live_server.url}/director/t/{t['id']}")
    tap = Taps(page)
    bar = page.locator("#director-bar")

    # Round 1 is seated: "Run the event" comes first, above the fold, and the bar is there.
    run = page.get_by_role("heading", name="Run the event")
    assert run.bounding_box()["y"] < 844
    expect(bar).to_contain_text("Round 1")
    screenshot(page, "director-phone-overview")
    assert_accessible(page)

    # Start the round: the clock cell of the bar leads to the console's Start button.
    tap(bar.get_by_role("link", name=re.compile("Round 1")))
    tap(page.get_by_role("button", name="Start round 1"))
    expect(page.locator("#clock")).to_contain_text("Running")
    expect(bar).to_contain_text("Pause")

    # A table calls; the bar counts it within one poll with the oldest wait.
    table = new_phone()
    table.goto(f"{live_server.url}/t/{t['code']}/4?k={t['token']}")
    table.get_by_role("button", name="Call the director").click()
    calls = bar.locator(".bar-calls")
    expect(calls).to_contain_text("1 open", timeout=WITHIN_ONE_POLL)
    expect(calls).to_contain_text("wait 0:")

    # Take the call from the bar.
    tap(calls.get_by_role("link"))
    page.wait_for_url(f"**/calls/director/{t['id']}")
    card = page.locator(".call-card", has_text="Table 4")
    tap(card.get_by_role("button", name="I'm going"))
    expect(card).to_contain_text("Going: Dee Director")
    expect(bar.locator('button[value="Ruling at table 4"]')).to_have_count(1)

    # Pause from the bar: the call in hand is the first reason offered.
    tap(bar.locator("summary"))
    reason = bar.get_by_role("button", name="Ruling at table 4")
    expect(reason).to_be_visible()
    screenshot(page, "director-phone-pause-reasons")
    assert_accessible(page)
    tap(reason)
    page.wait_for_url(f"**/calls/director/{t['id']}")
    expect(page.get_by_text("The clock is paused.")).to_be_visible()
    expect(bar).to_contain_text("Paused")
    expect(table.locator("#clock")).to_contain_text("Ruling at table 4",
                                                    timeout=WITHIN_ONE_POLL)

    # Resolve with a one-tap ruling: -10 to North, named.
    tap(page.get_by_role("link", name="Resolve table 4"))
    north = page.get_by_role("button", name=re.compile(r"^-10 to North \(Player \d+\)$"))
    expect(north).to_be_visible()
    screenshot(page, "director-phone-one-tap-ruling")
    assert_accessible(page)
    tap(north)
    page.wait_for_url(f"**/calls/director/{t['id']}")
    expect(page.get_by_text(re.compile(r"Table 4: resolved, -10 to North \(Player \d+\)"))
           ).to_be_visible()
    expect(page.get_by_role("heading", name="No open calls")).to_be_visible()
    expect(calls).to_contain_text("none open")

    # Resume from the bar: one tap.
    tap(bar.get_by_role("button", name=re.compile("Resume")))
    expect(page.get_by_text("The clock is running again.")).to_be_visible()
    expect(bar).to_contain_text("Pause")

    # End the round: the console, then a confirmation that names the tables still playing.
    tap(bar.locator("summary"))
    tap(bar.get_by_role("link", name=re.compile("Clock console")))
    tap(page.get_by_text("End round 1"))
    confirm = page.locator(".still-playing")
    expect(confirm).to_contain_text("8 tables still playing")
    screenshot(page, "director-phone-end-round")
    assert_accessible(page)
    tap(page.get_by_role("button", name="End the round now"))
    expect(page.get_by_text("Round 1 has ended.")).to_be_visible()
    expect(bar).to_contain_text("Ended")

    print(f"\nDirector's event on one phone: {tap.count} taps, no typing")
    assert tap.count == 13

    # Everything the director did is on the audit trail, filterable by table.
    page.goto(f"{live_server.url}/director/t/{t['id']}/audit?table=4")
    expect(page.locator(".audit-item").first).to_contain_text("Director calls: resolve")
    expect(page.locator(".audit-list")).to_contain_text("Why: Penalty -10 to North")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "director-phone-audit")
    assert_accessible(page)


def test_printing_from_the_laptop_warns_and_the_poster_fits_a_phone(live_server,
                                                                     director_account, page):
    """The e2e server's BASE_URL is its loopback address, as when printing from the venue
    laptop: the cards page says so and offers the laptop's addresses; the poster's QR code
    fits a phone's width."""
    email, password = director_account
    t = seed(live_server, email)
    sign_in(page, live_server, email, password)
    page.goto(f"{live_server.url}/director/t/{t['id']}/cards")
    expect(page.locator("#public-address")).to_contain_text("which only this computer can open")
    screenshot(page, "director-phone-cards-loopback")
    assert_accessible(page)
    page.goto(f"{live_server.url}/director/t/{t['id']}/poster")
    box = page.locator(".poster .qr svg").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["width"] > 200
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_schedule_reads_on_a_320_px_phone(live_server, director_account, browser):
    """One block per table on a narrow phone: no sideways scrolling, no text under 16 px."""
    from e2e.conftest import sign_in as sign_in_phone
    from e2e.test_standings_phone import SMALL_TEXT

    email, password = director_account
    t = seed(live_server, email)
    context = browser.new_context(viewport={"width": 320, "height": 640}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    try:
        sign_in_phone(page, live_server, email, password)
        page.goto(f"{live_server.url}/director/t/{t['id']}/schedule")
        expect(page.locator(".schedule-table td").first).to_have_css("display", "block")
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
        assert page.evaluate(SMALL_TEXT.replace("main *", ".schedule-table *")) == []
        screenshot(page, "schedule-320")
        assert_accessible(page)
    finally:
        context.close()


def test_the_import_preview_reads_on_a_320_px_phone(live_server, director_account, browser):
    """A file with problems: every row and its problem, no sideways scrolling."""
    email, password = director_account
    with live_server.app_context():
        from blueprints.director.tournaments import create_tournament
        from models import User, db

        director = db.session.query(User).filter_by(email=email).one()
        tournament = create_tournament(director, name="Import Open", preset="tnt",
                                               rounds=3)
        db.session.commit()
        tournament_id = tournament.id
    context = browser.new_context(viewport={"width": 320, "height": 640}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    try:
        sign_in(page, live_server, email, password)
        page.goto(f"{live_server.url}/director/t/{tournament_id}/players/import")
        page.get_by_label("paste the lines here", exact=False).fill(
            "number,name\n1,Margaret Featherstonehaugh-Worthington\n1,Ann\nx,Bea\n4,")
        page.get_by_role("button", name="Check the file").click()
        expect(page.locator(".import-table tr.bad").first).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
        screenshot(page, "import-preview-320")
        assert_accessible(page)
    finally:
        context.close()


def test_the_overview_follows_round_one_seated_from_another_screen(live_server,
                                                                  director_account, page):
    """A co-director seats round 1 at the desk: the overview open on this phone reloads
    itself, "Run the event" first and the director's bar shown, with no tap."""
    email, password = director_account
    tournament_id = committed_tournament(live_server, email, "Desk Seated Open", 8,
                                         seated=False)["id"]
    sign_in(page, live_server, email, password)
    page.goto(f"{live_server.url}/director/t/{tournament_id}")
    expect(page.locator("#director-bar")).to_have_count(0)
    with live_server.app_context():
        from blueprints.director.seating import seat_round_one
        from models import Tournament, db

        tournament = db.session.get(Tournament, tournament_id)
        director = tournament.staff[0].user
        seat_round_one(tournament, method="number", user=director)
        db.session.commit()
    expect(page.locator("#director-bar")).to_contain_text("Round 1", timeout=WITHIN_ONE_POLL)
    run = page.get_by_role("heading", name="Run the event")
    assert run.bounding_box()["y"] < 844


@pytest.mark.parametrize("width, height", [(375, 667), (320, 568)])
def test_the_bars_words_are_whole_on_an_iphone_8_and_an_se(live_server, director_account,
                                                         browser, width, height):
    """Each cell's words fit their cell: at 16px an iPhone 8 showed "Sound is…" and
    "none op…"."""
    email, password = director_account
    t = seed(live_server, email)
    context = browser.new_context(viewport={"width": width, "height": height},
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        sign_in(page, live_server, email, password)
        page.goto(f"{live_server.url}/clock/director/{t['id']}")
        words = page.locator(".director-bar .bar-label, .director-bar .bar-action, "
                             ".director-bar .bar-sound")
        expect(words.first).to_be_visible()
        cut = page.evaluate("[...document.querySelectorAll('.director-bar .bar-label, "
                            ".director-bar .bar-action, .director-bar .bar-sound')]"
                            ".filter(e => e.scrollWidth > e.clientWidth)"
                            ".map(e => e.textContent.trim())")
        assert cut == []
        assert words.count() >= 5
    finally:
        context.close()
