"""A director on a phone chooses the MahjCon movement on the Seating page, sees the
schedule it gives for her field (every round, every table, the repeat meetings) before
using it, and uses it; a two-table field is warned that players meet again. Taps, typed
characters and scrolls are counted and printed (kept in docs/testing.md), never timed."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from e2e.conftest import assert_accessible, committed_tournament, screenshot, sign_in


def below_the_fold(page, locator, height) -> bool:
    """Whether reaching `locator` from where the page is now takes a scroll."""
    box = locator.bounding_box()
    return box["y"] + box["height"] > height


def test_choosing_a_pattern_shows_its_schedule_first(live_server, director_account, browser):
    email, password = director_account
    t = committed_tournament(live_server, email, "Movement Open", 28)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    try:
        sign_in(page, live_server, email, password)
        page.goto(f"{live_server.url}/director/t/{t['id']}/seating")
        taps = scrolls = 0
        expect(page.locator("#movement-now")).to_contain_text("East stays; South moves down 1")

        pattern = page.get_by_label("How players move after each round")
        scrolls += below_the_fold(page, pattern, 844)
        pattern.select_option("mahjcon")
        taps += 2                        # open the list, choose MahjCon
        page.locator("#movement-card").scroll_into_view_if_needed()
        screenshot(page, "movement-card-390", full_page=False)
        show = page.get_by_role("button", name="Show the schedule")
        scrolls += below_the_fold(page, show, 844)
        show.tap()
        taps += 1

        preview = page.locator("#movement-preview")
        expect(preview).to_contain_text("West moves down 2 tables")
        expect(preview.locator(".preview-round")).to_have_count(3)
        # seven tables, three rounds: the seating by number, round 2 by MahjCon
        expect(preview.locator(".preview-round").nth(1).locator("tbody tr")).to_have_count(7)
        expect(preview).to_contain_text("Nobody meets anyone twice.")
        use = page.get_by_role("button", name="Use this movement")
        # the page opens at the schedule (#movement-preview): the button is in view
        assert not below_the_fold(page, use, 844)
        screenshot(page, "movement-preview-390", full_page=False)
        assert_accessible(page)
        use.tap()
        taps += 1
        expect(page.get_by_text("Movement saved: East stays; South moves down 1 table; "
                                "West moves down 2 tables")).to_be_visible()
        expect(page.locator("#movement-now")).to_contain_text("West moves down 2 tables")
        print(f"\nmovement chosen at 390x844: {taps} taps, 0 characters typed, "
              f"{scrolls} scrolls")
        assert taps == 4
    finally:
        context.close()


def test_two_tables_are_warned_at_360(live_server, director_account, browser):
    email, password = director_account
    t = committed_tournament(live_server, email, "Two Table Club", 8)
    context = browser.new_context(viewport={"width": 360, "height": 640}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    try:
        sign_in(page, live_server, email, password)
        page.goto(f"{live_server.url}/director/t/{t['id']}/seating?pattern=east-stays"
                  "#movement-preview")
        warnings = page.locator("#movement-warnings")
        expect(warnings).to_contain_text("With 2 tables, East and West land on one table")
        expect(warnings).to_contain_text(re.compile(r"8 of the 8 players meet someone again"))
        expect(page.locator("#repeats-by-player tbody tr")).to_have_count(8)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        screenshot(page, "movement-warnings-360", full_page=False)
        assert_accessible(page)
    finally:
        context.close()
