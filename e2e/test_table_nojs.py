"""The table works without JavaScript: one long form of radio buttons, plain posts and
redirects; a refused game comes back with East's answers and the message at the field."""

from __future__ import annotations

from playwright.sync_api import expect

from e2e.conftest import screenshot
from e2e.test_table_round import seed


def test_east_enters_games_without_javascript(live_server, plain_phone):
    page = plain_phone
    code, token = seed(live_server, "tnt")
    page.goto(f"{live_server.url}/t/{code}/1?k={token}")
    page.get_by_role("link", name="Enter game 1").click()
    # every step is on the page at once; no winner or thrower step of their own
    expect(page.locator("#step-value")).to_be_visible()
    expect(page.locator("#step-win_by")).to_be_visible()
    expect(page.locator("#step-winner")).to_have_count(0)
    expect(page.locator("#step-thrower")).to_have_count(0)
    expect(page.locator("#entry input[type=text][name*=initials]")).to_have_count(0)
    page.locator("label[for='outcome-mahjong\\:W']").click()
    page.locator("label[for=win_by-self]").click()
    page.get_by_role("button", name="Show the scores").click()
    # asked again, nothing lost, and nothing to sign yet
    expect(page.locator("#live-scores")).to_contain_text(
        "Next: what is the hand worth on the card?")
    expect(page.locator("#outcome-mahjong\\:W")).to_be_checked()
    expect(page.locator("#win_by-self")).to_be_checked()
    expect(page.locator(".sign-button")).to_have_count(0)
    screenshot(page, "table-nojs-refused")  # (axe itself needs JavaScript to run)
    page.locator("label[for=value-35]").click()
    page.get_by_role("button", name="Show the scores").click()
    expect(page.locator("#live-scores .score-points").nth(2)).to_have_text("45")
    page.get_by_text("How these points were counted").click()
    expect(page.locator("#step-sign details.why")).to_contain_text("self-picked +10 (TNT)")
    expect(page.locator("#sign-hint")).to_contain_text("Hand the phone to Carol Chen")
    screenshot(page, "table-nojs-sign")
    # West's win: the winner signs with one tap on their own name
    page.get_by_role("button", name="Carol Chen: 45 is right").click()
    expect(page.get_by_text("Game 1 saved.")).to_be_visible()
    row = page.locator("#sheet .game-card").first
    expect(row.locator(".score-points").nth(2)).to_have_text("45")
    expect(row.locator(".initials")).to_have_text(
        "Carol Chen (West) initialled the scores: CC.")
