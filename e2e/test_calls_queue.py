"""Calling the director with three phones: a table and two directors.

The table calls; both directors see it within one poll; one says "I'm going" and the other
sees who; the table sees the name; the director resolves with a ruling and a -10
adjustment; the table sees the ruling and the table's sheet shows the adjustment with its
reason. axe checks the queue and the table page."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from e2e.conftest import (
    WITHIN_ONE_POLL,
    assert_accessible,
    screenshot,
    seat_new_tournament,
    sign_in,
)
from e2e.test_clock_live import assert_landmarks_unique


def seed(live_server, director_email):
    """A seated 8-table tournament run by the director, plus a co-director."""
    from blueprints.auth.service import create_user
    from models import TournamentStaff, db

    with live_server.app_context():
        tournament, _round = seat_new_tournament(director_email, "Calls Open", 32)
        email = director_email.replace("director-", "codirector-")
        co, _ = create_user(email, "Cy Codirector", "e2e-password-2")
        db.session.add(TournamentStaff(tournament=tournament, user=co, role="co-director"))
        db.session.commit()
        table = tournament.tables[0]
        return {"id": tournament.id, "code": tournament.code, "token": table.token,
                "co_email": email}


def test_a_call_from_the_table_to_two_directors_and_back(live_server, director_account,
                                                         new_phone):
    email, password = director_account
    t = seed(live_server, email)
    queue_url = f"{live_server.url}/calls/director/{t['id']}"

    dee, cy, table = new_phone(), new_phone(), new_phone()
    sign_in(dee, live_server, email, password)
    sign_in(cy, live_server, t["co_email"], "e2e-password-2")
    for director in (dee, cy):
        director.goto(queue_url)
        expect(director.get_by_role("heading", name="No open calls")).to_be_visible()
    dee.get_by_role("button", name="Enable sound").click()
    expect(dee.get_by_role("button", name="Sound on (tap to mute)")).to_be_visible()
    assert_accessible(dee)
    # The queue and the director's bar come with the page's one poll.
    polled = []
    dee.on("request", lambda request: polled.append(request.url)
           if request.resource_type in ("xhr", "fetch") and request.method == "GET" else None)

    # The table: one tap calls (here with a reason and a note).
    table.goto(f"{live_server.url}/t/{t['code']}/1?k={t['token']}")
    call_button = table.get_by_role("button", name="Call the director")
    expect(call_button).to_be_visible()
    assert_accessible(table)
    table.get_by_text("Add a reason (optional)").click()
    table.get_by_label("Tile count").check()
    table.get_by_label(re.compile("^Note")).fill("North has 12 tiles")
    screenshot(table, "calls-table-before")
    call_button.click()
    expect(table.locator("#table-call")).to_contain_text("Waiting 0:0")
    # Nobody has claimed it yet: one message, "has been called", not "has your call".
    expect(table.locator("#table-call")).to_contain_text("The director has been called")
    expect(table.locator(".call-bar")).not_to_contain_text("has your call")
    expect(table.get_by_role("button", name="Cancel the call")).to_be_visible()

    # Both directors see it within one poll, with the reason, the note and the wait.
    for director in (dee, cy):
        card = director.locator(".call-card", has_text="Table 1")
        expect(card).to_be_visible(timeout=WITHIN_ONE_POLL)
        expect(card).to_contain_text("Tile count")
        expect(card).to_contain_text("North has 12 tiles")
        expect(card).to_contain_text("Round 1")
        expect(card.locator(".wait-badge")).to_contain_text("Waiting 0:")
    assert polled and all(f"/live/director/{t['id']}?" in url for url in polled), polled
    # The new call rang on the phone whose sound is on.
    expect(dee.locator("#enable-sound")).to_have_attribute("data-alerts", "1")
    expect(dee.locator('[data-announcer="queue"]')).to_have_text("New call: Table 1")
    screenshot(dee, "calls-queue-new")
    assert_accessible(dee)

    # Dee is going; Cy sees who; the table sees the name.
    dee.locator(".call-card", has_text="Table 1").get_by_role(
        "button", name="I'm going").click()
    expect(dee.locator(".call-card", has_text="Table 1")).to_contain_text(
        "Going: Dee Director")
    expect(dee.get_by_role("button", name="Release")).to_be_visible()
    expect(cy.locator(".call-card", has_text="Table 1")).to_contain_text(
        "Going: Dee Director", timeout=WITHIN_ONE_POLL)
    expect(table.locator("#table-call")).to_contain_text("Dee Director is on the way",
                                                         timeout=WITHIN_ONE_POLL)
    expect(table.locator('[data-announcer="table-call"]')).to_have_text(
        "Dee Director is on the way. The director has your call.")
    expect(table.locator(".call-bar")).not_to_contain_text("has been called")
    screenshot(dee, "calls-queue-claimed")
    screenshot(table, "calls-table-on-the-way")
    assert_accessible(table)

    # Dee resolves with a ruling and -10 for North.
    dee.get_by_role("link", name="Resolve table 1").click()
    ruling = "North had 12 tiles: dead hand, -10"
    dee.get_by_label("Ruling").fill(ruling)
    dee.get_by_label("Seat whose points change").select_option("N")
    dee.get_by_label("Points (for example -10)").fill("-10")
    screenshot(dee, "calls-resolve")
    assert_accessible(dee)
    dee.get_by_role("button", name="Resolve with this ruling").click()
    dee.wait_for_url(queue_url)
    expect(dee.get_by_role("heading", name="No open calls")).to_be_visible()
    expect(cy.get_by_role("heading", name="No open calls")).to_be_visible(
        timeout=WITHIN_ONE_POLL)

    # The table sees the whole ruling and the points it put on the sheet until it taps OK,
    # the page keeps room below equal to the bar, and OK brings back the button.
    expect(table.locator("#table-call")).to_contain_text(f"Resolved: {ruling}",
                                                         timeout=WITHIN_ONE_POLL)
    expect(table.locator("#table-call")).to_contain_text("Points: North -10")
    screenshot(table, "calls-table-resolved")
    assert_accessible(table)
    bar = table.locator(".call-bar")
    ok = table.get_by_role("button", name="OK, we have read it").bounding_box()
    assert ok["y"] + ok["height"] <= 844
    table.wait_for_function("""() => {
        const bar = document.querySelector(".call-bar").getBoundingClientRect().height;
        const room = parseFloat(getComputedStyle(document.body).paddingBottom);
        return Math.abs(room - bar) <= 1;
    }""")
    # Scrolled to the end, nothing of the page is under the bar.
    table.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    last = table.locator("main > :not(.call-bar):not(link):not(script)").last.bounding_box()
    assert last["y"] + last["height"] <= bar.bounding_box()["y"] + 1
    table.get_by_role("button", name="OK, we have read it").click()
    expect(table.get_by_role("button", name="Call the director")).to_be_visible()
    expect(table.locator("#table-call")).not_to_contain_text("Resolved")
    table.reload()  # the OK holds for this phone
    expect(table.get_by_role("button", name="Call the director")).to_be_visible()

    # The table's sheet shows the adjustment and its reason.
    dee.goto(f"{live_server.url}/t/director/{t['id']}/1/1")
    expect(dee.locator("main")).to_contain_text("-10")
    expect(dee.locator("main")).to_contain_text(ruling)
    screenshot(dee, "calls-sheet-adjusted")

    # And the history has the call with its times.
    dee.goto(f"{queue_url}/history")
    expect(dee.locator(".history-item")).to_contain_text(ruling)
    expect(dee.locator(".history-item")).to_contain_text("by Dee Director")
    screenshot(dee, "calls-history")
    assert_accessible(dee)
    assert_landmarks_unique(dee)

    # The database agrees.
    from sqlalchemy import select

    from models import DirectorCall, Scoresheet, db

    with live_server.app_context():
        [call] = db.session.scalars(select(DirectorCall).where(
            DirectorCall.tournament_id == t["id"])).all()
        assert call.state == "resolved" and call.ruling == ruling
        sheet = db.session.scalar(select(Scoresheet).where(Scoresheet.table_id == call.table_id))
        assert sheet.pending_adjustments[0]["points"] == -10
        assert ruling in sheet.pending_adjustments[0]["reason"]


def test_the_queue_at_phone_size_shows_long_waits_and_hand_offs(live_server,
                                                                 director_account, page):
    """Waits over 2 and 5 minutes change colour and words; a guide's hand-off stands out."""
    from datetime import timedelta

    from sqlalchemy import select

    from blueprints.auth.service import create_user
    from blueprints.calls import queue as calls_queue
    from blueprints.calls import table_calls
    from models import Tournament, TournamentStaff, db, utcnow

    email, password = director_account
    t = seed(live_server, email)
    with live_server.app_context():
        tournament = db.session.get(Tournament, t["id"])
        guide, _ = create_user(email.replace("director-", "guide-"), "Gail Guide", "pw-guide-1")
        db.session.add(TournamentStaff(tournament=tournament, user=guide, role="table-guide"))
        db.session.commit()
        ages = {3: (7, "dead_hand", "East says West's hand is dead"), 5: (3, "scoring", ""),
                6: (0, "joker_exchange", "Can I take the joker from 4 bams?")}
        for number, (minutes, reason, note) in ages.items():
            call, _ = table_calls.place_call(tournament.tables[number - 1], reason, note)
            call.called_at = utcnow() - timedelta(minutes=minutes, seconds=10)
            db.session.commit()
            if number == 5:
                calls_queue.claim_call(call, guide, "table-guide")
                calls_queue.hand_to_director(call, guide, "table-guide")
        assert db.session.scalar(select(TournamentStaff.id).where(
            TournamentStaff.user_id == guide.id))

    sign_in(page, live_server, email, password)
    page.goto(f"{live_server.url}/calls/director/{t['id']}")
    cards = page.locator(".call-card")
    expect(cards).to_have_count(3)
    expect(cards.nth(0)).to_contain_text("Table 3")  # oldest first
    expect(cards.nth(0)).to_have_class(re.compile("wait-level-2"))
    expect(cards.nth(0).locator(".wait-badge")).to_contain_text("over 5 min")
    expect(cards.nth(1)).to_contain_text("Table 5")
    expect(cards.nth(1)).to_have_class(re.compile("wait-level-1"))
    expect(cards.nth(1)).to_have_class(re.compile("needs-director"))
    expect(cards.nth(1)).to_contain_text("Needs a director")
    expect(cards.nth(1).locator(".wait-badge")).to_contain_text("over 2 min")
    expect(cards.nth(2)).to_have_class(re.compile("wait-level-0"))
    screenshot(page, "calls-queue-phone")
    assert_accessible(page)


def test_a_rotated_link_stops_the_table_bar_in_place(live_server, director_account, page):
    from models import Table, db, new_token

    email, _ = director_account
    t = seed(live_server, email)
    page.goto(f"{live_server.url}/t/{t['code']}/1?k={t['token']}")
    expect(page.get_by_role("button", name="Call the director")).to_be_visible()
    with live_server.app_context():
        table = db.session.scalar(db.select(Table).where(Table.token == t["token"]))
        table.token = new_token()
        db.session.commit()
    expect(page.locator("#table-call")).to_contain_text(
        "This table link is no longer valid", timeout=WITHIN_ONE_POLL)
    expect(page.get_by_role("button", name="Call the director")).to_have_count(0)
