"""Two phones at one table: the second save of the same game shows what the other phone
saved beside what this one has (409), keeps what was tapped with its game, and East
chooses."""

from __future__ import annotations

import re

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
    other.locator("label[for=no_dead]").click()
    other.locator(".sign-button").click()
    expect(other.get_by_text("Game 1 saved.")).to_be_visible()
    # this phone, still showing the old sheet, saves its own game 1
    page.locator("label[for='outcome-mahjong\\:N']").click()
    page.locator("label[for=value-40]").click()
    page.locator("label[for=win_by-self]").click()
    expect(page.locator(".sign-button")).to_have_text("Dolores Ortiz: 50 is right")
    page.locator(".sign-button").click()
    # the other phone's game 1 beside this one's; the answers stay with game 1
    expect(page.get_by_role("alert")).to_contain_text("Another phone saved game 1")
    expect(page.locator("#conflict")).to_contain_text("Wall game")
    expect(page.locator("#outcome-mahjong\\:N")).to_be_checked()
    expect(page.locator("#value-40")).to_be_checked()
    expect(page.locator("#mine")).to_contain_text("Dolores Ortiz (North): 50")
    screenshot(page, "table-conflict")
    assert_accessible(page)
    # East reads both and decides this phone's is right: one tap corrects game 1
    page.get_by_role("button", name="Dolores Ortiz: correct game 1 with mine").click()
    expect(page.get_by_text("Game 1 saved.")).to_be_visible()
    rows = page.locator("#sheet .game-card")
    expect(rows).to_have_count(1)
    expect(rows.nth(0).locator(".score-points").nth(3)).to_have_text("50")


def test_a_save_lost_to_the_wifi_keeps_the_entry_and_saves_once_when_back(live_server,
                                                                         page):
    code, token = seed(live_server, "tnt")
    page.goto(f"{live_server.url}/t/{code}/1/game?k={token}")
    page.locator("label[for=outcome-wall]").click()
    page.locator("label[for=no_dead]").click()
    expect(page.locator(".sign-button")).to_have_text("Carol Chen: these are right")
    page.context.set_offline(True)
    page.locator(".sign-button").click()
    expect(page.locator("#step-sign .send-note")).to_contain_text(
        re.compile("No answer from the server.*by itself"))
    expect(page.locator("#outcome-wall")).to_be_checked()
    expect(page.locator("#no_dead")).to_be_checked()
    page.context.set_offline(False)  # the browser's "online": the phone sends it again
    expect(page.get_by_text("Game 1 saved.")).to_be_visible()
    expect(page.locator("#sheet .game-card")).to_have_count(1)
    expect(page.locator("#sheet .game-card .initials")).to_contain_text("CC")
