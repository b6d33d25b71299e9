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
    # every step is on the page at once
    expect(page.locator("#step-winner")).to_be_visible()
    expect(page.locator("#step-thrower")).to_be_visible()
    page.locator("label[for=outcome-mahjong]").click()
    page.locator("label[for=winner-W]").click()
    page.locator("label[for=win_by-self]").click()
    page.locator("#initials").fill("CC")
    page.get_by_role("button", name="Save game 1").click()
    # refused at the field, nothing lost
    expect(page.locator("#err-value")).to_contain_text("worth on the card")
    expect(page.locator("#winner-W")).to_be_checked()
    expect(page.locator("#initials")).to_have_value("CC")
    screenshot(page, "table-nojs-refused")  # (axe itself needs JavaScript to run)
    page.locator("label[for=value-35]").click()
    page.get_by_role("button", name="Show the scores first").click()
    expect(page.locator("#live-scores")).to_contain_text("self-picked +10 (TNT)")
    expect(page.locator("label[for=initials]")).to_contain_text(
        "Hand the phone to Carol Chen (West) to initial game 1")
    page.get_by_role("button", name="Save game 1").click()
    expect(page.get_by_text("Game 1 saved.")).to_be_visible()
    row = page.locator("#sheet .game-card").first
    expect(row.locator(".score-points").nth(2)).to_have_text("45")
