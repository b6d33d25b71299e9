"""Two phones at one table: the second save of the same game shows what the other phone
saved beside what this one has (409), keeps what was tapped with its game, and East
chooses."""

from __future__ import annotations

from playwright.sync_api import expect

from e2e.conftest import assert_accessible, screenshot
from e2e.test_table_round import seed


def test_a_stale_save_shows_the_current_sheet_and_keeps_the_entry(live_server, page,
                                                                   new_phone):
    code, token = seed(live_server, "tnt")
    entry_url = f"{live_server.url}/t/{code}/1/game?k={token}"
    other = new_phone()
    page.goto(entry_url)
    other.goto(entry_url)
    # the other phone saves game 1 first
    other.locator("label[for=outcome-wall]").click()
    other.locator("#initials").fill("CC")
    other.get_by_role("button", name="Save game 1").click()
    expect(other.get_by_text("Game 1 saved.")).to_be_visible()
    # this phone, still showing the old sheet, saves its own game 1
    page.locator("label[for=outcome-mahjong]").click()
    page.locator("label[for=winner-N]").click()
    page.locator("label[for=value-40]").click()
    page.locator("label[for=win_by-self]").click()
    page.locator("#initials").fill("DO")
    page.get_by_role("button", name="Save game 1").click()
    # the other phone's game 1 beside this one's; the answers stay with game 1
    expect(page.get_by_role("alert")).to_contain_text("Another phone saved game 1")
    expect(page.locator("#conflict")).to_contain_text("Wall game")
    expect(page.locator("#winner-N")).to_be_checked()
    expect(page.locator("#initials")).to_have_value("DO")
    screenshot(page, "table-conflict")
    assert_accessible(page)
    # East reads both and decides this phone's is right: one tap corrects game 1
    page.get_by_role("button", name="Correct game 1 with mine").click()
    expect(page.get_by_text("Game 1 saved.")).to_be_visible()
    rows = page.locator("#sheet .game-card")
    expect(rows).to_have_count(1)
    expect(rows.nth(0).locator(".score-points").nth(3)).to_have_text("50")


def test_a_save_lost_to_the_wifi_keeps_the_entry_and_saves_once_on_retry(live_server, page):
    code, token = seed(live_server, "tnt")
    page.goto(f"{live_server.url}/t/{code}/1/game?k={token}")
    page.locator("label[for=outcome-wall]").click()
    expect(page.locator("#step-sign")).to_be_visible()
    page.locator("#initials").fill("CC")
    page.context.set_offline(True)
    page.get_by_role("button", name="Save game 1").click()
    expect(page.locator("#step-sign .send-note")).to_contain_text("Tap Save again")
    expect(page.locator("#outcome-wall")).to_be_checked()
    expect(page.locator("#initials")).to_have_value("CC")
    page.context.set_offline(False)
    page.get_by_role("button", name="Save game 1").click()
    expect(page.get_by_text("Game 1 saved.")).to_be_visible()
    expect(page.locator("#sheet .game-card")).to_have_count(1)
