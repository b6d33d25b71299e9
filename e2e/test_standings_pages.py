"""A large event's public standings on a phone: 200 lines a page, a link to the next
page, Find me opening the page that holds the player, and the page's poll keeping it."""

from __future__ import annotations

from playwright.sync_api import expect

from e2e.conftest import WITHIN_ONE_POLL, assert_accessible, committed_tournament, screenshot
from e2e.test_results_public import submit, win


def open_large_event(live_server, director_account, page, name: str) -> str:
    """A 204-player event with one sheet submitted, its public standings open on the
    phone; its code."""
    email, _password = director_account
    code = committed_tournament(live_server, email, name, 204)["code"]
    submit(live_server, code, 1, 1, [win("E"), {"outcome": "wall"}])
    page.goto(f"{live_server.url}/results/{code}")
    return code


def test_a_large_event_s_standings_page_by_page_on_a_phone(live_server, director_account,
                                                           page):
    code = open_large_event(live_server, director_account, page, "Large Open")
    expect(page.locator("table.standings tbody tr")).to_have_count(200)
    expect(page.locator(".pager")).to_contain_text("Players 1 to 200 of 204")
    page.get_by_role("link", name="Players 201 to 204").tap()
    expect(page.locator("table.standings tbody tr")).to_have_count(4)
    expect(page.locator(".pager")).to_contain_text("Players 201 to 204 of 204")
    screenshot(page, "standings-390-second-page")

    # Find me from the first page: the player's page opens, their line marked
    page.get_by_role("link", name="Players 1 to 200").tap()
    page.get_by_label("Find me: your player number").fill("203")
    page.get_by_role("button", name="Find me").tap()
    expect(page.locator("#s-player-203")).to_have_attribute("aria-current", "true")
    expect(page.locator(".pager")).to_contain_text("Players 201 to 204 of 204")
    # a result arrives: the poll brings the same page back, the line still marked
    version = page.locator("#standings").get_attribute("data-version")
    submit(live_server, code, 1, 2, [win("S")])
    expect(page.locator("#standings")).not_to_have_attribute("data-version", version,
                                                             timeout=WITHIN_ONE_POLL)
    expect(page.locator(".pager")).to_contain_text("Players 201 to 204 of 204")
    expect(page.locator("#s-player-203")).to_have_attribute("aria-current", "true")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert_accessible(page)


def test_find_me_with_the_network_cut_says_so_at_the_form(live_server, director_account,
                                                          page):
    open_large_event(live_server, director_account, page, "Cut Open")
    page.get_by_label("Find me: your player number").fill("203")
    page.context.set_offline(True)
    page.get_by_role("button", name="Find me").tap()
    note = page.locator(".find-me .send-note")
    expect(note).to_have_text("No answer from the server: the Wi-Fi may be down. Tap again.")
    expect(note).to_be_in_viewport()
    expect(page.get_by_label("Find me: your player number")).to_have_value("203")
    page.context.set_offline(False)
    page.get_by_role("button", name="Find me").tap()
    expect(page.locator("#s-player-203")).to_have_attribute("aria-current", "true")
    expect(page.locator(".find-me__result")).to_be_in_viewport()
    assert "me=203" in page.url
    screenshot(page, "standings-find-me-after-cut", full_page=False)
