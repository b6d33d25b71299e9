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


def test_lookups_with_the_network_cut_say_so_at_the_form(live_server, page):
    """At a venue's busy Wi-Fi a player's lookup may get no answer: the page stays, with
    a note at the form and what they typed kept, instead of the browser's "no internet"
    page; a refused number is said at the box; the answer's address can be reloaded."""
    code, _token = seed(live_server, "tnt")
    page.goto(live_server.url + "/")
    page.get_by_label("Tournament code").fill(code.lower())
    page.context.set_offline(True)
    page.get_by_role("button", name="Go to the tournament").click()
    note = page.locator("form .send-note")
    expect(note).to_have_text("No answer from the server: the Wi-Fi may be down. Tap again.")
    expect(note).to_be_in_viewport()
    expect(page.get_by_label("Tournament code")).to_have_value(code.lower())
    page.context.set_offline(False)
    page.get_by_role("button", name="Go to the tournament").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("tnt Classic")
    expect(page.locator(".send-note")).to_have_count(0)

    page.get_by_label("Your player number").fill("999")
    page.get_by_role("button", name="Show my seat").click()
    expect(page.locator("#number-error")).to_contain_text("There is no player 999")
    page.get_by_label("Your player number").fill("3")
    page.context.set_offline(True)
    page.get_by_role("button", name="Show my seat").click()
    expect(page.locator("form .send-note")).to_contain_text("Tap again.")
    expect(page.get_by_label("Your player number")).to_have_value("3")
    screenshot(page, "player-seat-not-sent", full_page=False)
    page.context.set_offline(False)
    page.get_by_role("button", name="Show my seat").click()
    expect(page.get_by_role("heading", name="Carol Chen, player 3")).to_be_visible()
    assert "number=3" in page.url
    page.reload()
    expect(page.get_by_role("heading", name="Carol Chen, player 3")).to_be_visible()
    # Back and Forward show each address's own answer, the refused number's included
    page.go_back()
    expect(page.locator("#number-error")).to_contain_text("There is no player 999")
    expect(page.get_by_role("heading", name="Carol Chen, player 3")).to_have_count(0)
    page.go_forward()
    expect(page.get_by_role("heading", name="Carol Chen, player 3")).to_be_visible()
