"""The table's pages in Chromium with the APIs newer than the browser floor taken away
before the page loads, as on an iPhone 7 (iOS 15, Safari 15): form.requestSubmit (Safari
16), SubmitEvent.submitter (15.4), AbortSignal.timeout (16) and a few more. The round
still works, a lost save and a lost call are sent again by themselves, "Saving..." still
shows, and no script error is thrown."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from e2e.conftest import PHONE
from e2e.test_table_round import enter_round, seed

REMOVED = """
delete HTMLFormElement.prototype.requestSubmit;
delete SubmitEvent.prototype.submitter;
delete AbortSignal.timeout;
delete window.structuredClone;
delete Array.prototype.at;
delete Object.hasOwn;
delete String.prototype.replaceAll;
delete Element.prototype.replaceChildren;
"""


@pytest.fixture
def old_page(browser):
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(REMOVED)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    yield page
    context.close()


def test_the_apis_are_gone_before_the_pages_script_runs(live_server, old_page):
    code, token = seed(live_server, "tnt")
    old_page.goto(f"{live_server.url}/t/{code}/1?k={token}")
    assert old_page.evaluate("typeof HTMLFormElement.prototype.requestSubmit") == "undefined"
    assert old_page.evaluate("'submitter' in SubmitEvent.prototype") is False
    assert old_page.evaluate("typeof AbortSignal.timeout") == "undefined"


def test_a_whole_round_without_the_newer_apis(live_server, old_page):
    code, token = seed(live_server, "tnt")
    numbers = {"key": "tnt-older", "g1_south": 50, "g2_thrower": -10,
               "jokerless_words": "jokerless +10 (TNT)", "time_words": "",
               "total_south": "60", "player_g1": "50"}
    enter_round(old_page, live_server, code, token, numbers, time_via_button=True)
    assert old_page.errors == []


def test_a_lost_save_is_sent_again_as_first_sent(live_server, old_page):
    page = old_page
    code, token = seed(live_server, "tnt")
    page.goto(f"{live_server.url}/t/{code}/1/game?k={token}")
    page.locator("label[for=outcome-wall]").click()
    page.locator("label[for=no_dead]").click()
    expect(page.locator("label[for=no_dead]")).to_have_class(re.compile(r"\bis-checked\b"))
    expect(page.locator(".sign-button")).to_have_text("Carol Chen: these are right")
    # "Saving..." is said on the tapped button, though the event cannot name it
    page.evaluate("""window.sawSaving = false;
      new MutationObserver(function () {
        var button = document.querySelector('.sign-button.is-busy');
        if (button && button.textContent === 'Saving\\u2026') { window.sawSaving = true; }
      }).observe(document.body, {subtree: true, childList: true, characterData: true,
                                 attributes: true});""")
    page.context.set_offline(True)
    page.locator(".sign-button").click()
    expect(page.locator("#step-sign .send-note")).to_contain_text(
        re.compile("No answer from the server.*by itself"))
    assert page.evaluate("window.sawSaving")
    # East changes an answer while the note shows: the save sent again is the one the
    # signer confirmed (its request key stands for it), not the form as it is now
    page.locator("label[for=dead-N]").click()
    expect(page.locator("#dead-N")).to_be_checked()
    page.wait_for_timeout(5500)  # one try of the phone's own, still offline
    assert page.errors == []
    page.context.set_offline(False)
    expect(page.get_by_text("Game 1 saved.")).to_be_visible()
    card = page.locator("#sheet .game-card")
    expect(card).to_have_count(1)
    expect(card.locator(".score-points").nth(3)).to_have_text("10")  # North not dead
    expect(card.locator(".initials")).to_contain_text("CC")
    assert page.errors == []


def test_a_lost_call_is_sent_again_by_itself(live_server, old_page):
    page = old_page
    code, token = seed(live_server, "tnt")
    page.goto(f"{live_server.url}/t/{code}/1?k={token}")
    page.context.set_offline(True)
    page.get_by_role("button", name="Call the director").click()
    expect(page.locator("#table-call")).to_contain_text("keeps trying by itself")
    page.wait_for_timeout(5500)  # one try of the phone's own, still offline
    page.context.set_offline(False)
    expect(page.locator("#table-call")).to_contain_text("The director has been called")
    assert page.errors == []
