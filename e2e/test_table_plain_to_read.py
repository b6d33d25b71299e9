"""What an older player stumbled on at the table, at the smallest phone (360x640): the
folded answers must look like something to tap, Submit is not green before it can be
used, and names with long surnames are said as the seat and as much of the name as fits
("West", "Dorothy"), never half a surname cut off, and in one form for the four."""

from __future__ import annotations

import re
import secrets

from playwright.sync_api import expect

from e2e.conftest import assert_accessible, screenshot

SMALL = {"width": 360, "height": 640}
LONG_NAMES = ["Ruth Abrams", "Beatrice Goldberg-Whitfield", "Dorothy Davenport",
              "Dolores Montgomery-Ortiz", "Edith Klein", "Fran Weiss", "Gloria Park",
              "Harriet Stone"]


def seed(live_server):
    from blueprints.auth.service import create_user
    from blueprints.director.seating import seat_round_one
    from blueprints.director.tournaments import create_tournament
    from models import Player, db

    with live_server.app_context():
        user, _ = create_user(f"td-{secrets.token_hex(3)}@example.com", "Tess", "pw-1234567")
        code = "L" + secrets.token_hex(2).upper()
        tournament = create_tournament(user, name="Long Names Classic", preset="tnt",
                                       rounds=2, code=code)
        for number, name in enumerate(LONG_NAMES, start=1):
            tournament.players.append(Player(number=number, name=name))
        db.session.flush()
        seat_round_one(tournament, method="number", user=user)
        db.session.commit()
        return code, tournament.tables[0].token


def fits(locator) -> bool:
    """The element's text is shown whole: not cut by an ellipsis or its box."""
    return locator.evaluate("e => e.scrollWidth <= e.clientWidth + 1")


def test_names_answers_and_submit_read_plainly_at_360(live_server, browser):
    code, token = seed(live_server)
    context = browser.new_context(viewport=SMALL)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/t/{code}/1/game?k={token}")
        page.locator("label[for=outcome-wall]").click()
        expect(page.locator("#step-dead")).to_be_visible()
        screenshot(page, "table-360-dead-hands", full_page=False)
        # the dead-hand buttons: the seat, then the name as fits, never cut inside a word
        west = page.locator("label[for=dead-W]")
        expect(west).to_have_text(re.compile(r"^\s*West\s+Dorothy\s*$"))
        expect(page.locator("label[for=dead-E]")).to_have_text(
            re.compile(r"^\s*East\s+Ruth\s*$"))  # as her neighbours are named
        for seat in "ESWN":
            label = page.locator(f"label[for=dead-{seat}] .who")
            assert fits(label), seat
            assert label.evaluate("e => e.getClientRects().length") == 1  # one line
        page.locator("label[for=dead-N]").click()
        # the live scores: each player's seat and name as fits beside the points
        rows = page.locator("#live-scores .score-who")
        expect(rows).to_have_count(4)
        screenshot(page, "table-360-dead-hand-chosen", full_page=False)
        expect(rows.nth(0)).to_have_text(re.compile(r"^EEast\s+Ruth$"))  # E, for eyes
        expect(rows.nth(2)).to_have_text(re.compile(r"^WWest\s+Dorothy$"))
        for index in range(4):
            assert fits(rows.nth(index)), index
        # the folded answer looks like a button to change: an outline and the word
        chip = page.locator("#entry ul.answers button").first
        expect(chip.locator(".pencil")).to_be_visible()
        assert chip.evaluate("e => getComputedStyle(e).borderTopStyle") != "none"
        assert chip.evaluate("e => getComputedStyle(e).boxShadow") != "none"  # raised
        assert_accessible(page)

        # the review before anyone confirmed: Submit is not green, and says why not
        page.goto(f"{live_server.url}/t/{code}/1/review?k={token}")
        submit = page.get_by_role("button", name="Submit round 1")
        expect(submit).to_have_class(re.compile(r"\bis-waiting\b"))
        expect(submit).not_to_have_class(re.compile(r"\bprimary\b"))
        expect(page.locator("#submit-why")).to_contain_text("Enter every game first")
        submit.scroll_into_view_if_needed()
        screenshot(page, "table-360-review-waiting", full_page=False)
        assert_accessible(page)
    finally:
        context.close()
