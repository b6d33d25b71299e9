"""A player on their phone, without JavaScript: the home page's tournament code box, the
tournament's page asking for the player number, and their seat."""

from __future__ import annotations

from playwright.sync_api import expect

from e2e.conftest import assert_accessible, screenshot
from e2e.test_table_round import seed


def test_code_box_to_tournament_page_to_seat_without_javascript(live_server, plain_phone):
    page = plain_phone
    code, _token = seed(live_server, "tnt")
    page.goto(live_server.url + "/")
    page.get_by_label("Tournament code").fill("nope99")
    page.get_by_role("button", name="Go to the tournament").click()
    expect(page.locator("#code-error")).to_contain_text("No tournament has the code")
    page.get_by_label("Tournament code").fill(code.lower())
    page.get_by_role("button", name="Go to the tournament").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("tnt Classic")
    page.goto(f"{live_server.url}/p/{code}/seat?number=abc")  # (a number box refuses it)
    expect(page.locator("#number-error")).to_have_text(
        "A player number is a whole number, like 12.")
    page.get_by_label("Your player number").fill("3")
    page.get_by_role("button", name="Show my seat").click()
    expect(page.get_by_role("heading", name="Carol Chen, player 3")).to_be_visible()
    screenshot(page, "player-home-seat")


def test_home_page_with_code_box_is_accessible(live_server, page):
    code, _token = seed(live_server, "tnt")
    page.goto(live_server.url + "/")
    expect(page.get_by_label("Tournament code")).to_be_visible()
    page.get_by_label("Tournament code").fill(code)
    page.get_by_role("button", name="Go to the tournament").click()
    expect(page.get_by_label("Your player number")).to_be_visible()
    assert_accessible(page)
    page.goto(live_server.url + "/p?code=NOPE99")
    assert_accessible(page)
    screenshot(page, "player-home-code-refused")
