"""The public standings on a 360 px phone mid-event: no sideways scrolling, "-" for the
players with no result yet, "Find me" by player number highlights the player's line, and
no text under 16 px. axe checks it."""

from __future__ import annotations

from playwright.sync_api import expect

from e2e.conftest import assert_accessible, screenshot
from e2e.test_results_public import seed_tournament, submit, win

SMALL_TEXT = """() => [...document.querySelectorAll("main *")].filter(el =>
  [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()) &&
  el.getClientRects().length && !el.closest(".visually-hidden") &&
  parseFloat(getComputedStyle(el).fontSize) < 16)
  .map(el => el.tagName + ": " + el.textContent.trim())"""


def test_standings_fit_a_small_phone_and_find_me(live_server, director_account, browser):
    email, _password = director_account
    seed_tournament(live_server, email, "NARROW")
    submit(live_server, "NARROW", 1, 1, [win("E"), {"outcome": "wall"}])
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/results/NARROW")
        expect(page.locator("#s-player-5")).to_contain_text("-")
        page.get_by_label("Find me: your player number").fill("1")
        page.get_by_role("button", name="Find me").tap()
        expect(page.locator(".find-me__result")).to_contain_text("Player 1")
        expect(page.locator("#s-player-1")).to_have_attribute("aria-current", "true")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        assert page.evaluate(SMALL_TEXT) == []
        screenshot(page, "standings-360-find-me")
        assert_accessible(page)
    finally:
        context.close()
