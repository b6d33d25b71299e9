"""The table's round in WebKit (Safari's engine, as WebKitGTK) and Firefox ESR, at phone
size: the page, a wall game with a dead hand, the signer's one tap with the save's answer
lost and the phone sending it again by itself, a call to the director, time called, every
player's confirmation and the submit. Chromium runs the same steps in the other e2e files;
here the point is the other engines' JavaScript and CSS. And a player's own phone in each
engine, East's in Chromium: "this is me", East's answers followed through the poll, the
signer's confirmation. A missing engine skips, saying which package brings it (.ci/run
installs them)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from e2e.conftest import WITHIN_ONE_POLL
from e2e.engines import ENGINES, EngineMissing
from e2e.test_table_round import seed

PHONE = (390, 844)

# The next POST of a game's save fails as a lost connection does (the XHR's "error"),
# before it leaves the phone: WebDriver cannot take a browser offline.
LOSE_NEXT_SAVE = """(function () {
  var open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
  window.savesLost = 0;
  XMLHttpRequest.prototype.open = function (method, url) {
    this.mahjLose = method === "POST" && /\\/game\\?/.test(url) && window.savesLost === 0;
    return open.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    if (!this.mahjLose) { return send.apply(this, arguments); }
    window.savesLost += 1;
    var xhr = this;
    setTimeout(function () { xhr.dispatchEvent(new ProgressEvent("error")); }, 0);
  };
  return true;
})()"""


@pytest.fixture(params=sorted(ENGINES))
def engine(request):
    try:
        driver = ENGINES[request.param](*PHONE)
    except EngineMissing as missing:
        pytest.skip(str(missing))
    yield driver
    driver.quit()


def test_a_tables_round_in_the_other_engines(live_server, engine):
    code, token = seed(live_server, "tnt")
    table_url = f"{live_server.url}/t/{code}/1?k={token}"
    engine.open(table_url)
    engine.wait_text("h1", "Table 1")
    # the bundle ran (a syntax error anywhere in it would leave neither)
    assert engine.run("document.documentElement.classList.contains('js') && !!window.htmx")

    # a wall game: the dead hands are asked; North's was dead
    engine.tap("a[href*='/game']")
    engine.wait_text("#step-outcome legend", "Who made Mah Jongg in game 1?")
    engine.tap("label[for=outcome-wall]")
    engine.wait_shown("#step-dead")
    engine.wait("!document.querySelector('.sign-button')", "no sign button before the dead "
                "hands are answered", seconds=2)
    engine.tap("label[for=dead-N]")
    try:
        engine.wait("document.querySelector('#dead-N').checked", "North's dead hand ticked",
                    seconds=5)
    except AssertionError:
        # The wall game's answer re-drew the step as the tick landed: the box shows
        # unticked, and East taps it again.
        engine.tap("label[for=dead-N]")
    engine.wait_text(".sign-button", "Carol Chen: these are right")
    assert engine.run("document.querySelector('label[for=dead-N]').classList"
                      ".contains('is-checked')")
    engine.wait_text("#live-scores", "10")

    # the signer's tap; its answer is lost; the phone says so and sends it again by itself
    assert engine.run(LOSE_NEXT_SAVE)
    engine.tap(".sign-button")
    engine.wait_text("#step-sign .send-note", "No answer from the server")
    engine.wait_text("#step-sign .send-note", "tries again by itself")
    engine.wait_text(".flash", "Game 1 saved.", seconds=20)
    assert engine.run("window.savesLost") == 1
    engine.wait_text("#sheet .game-card .initials", "CC")
    assert engine.run("document.querySelectorAll('#sheet .game-card').length") == 1

    # a call to the director from the bar
    engine.tap("#table-call .call-button")
    engine.wait_text("#table-call", "The director has been called")

    # the review: time was called before game 2; each player confirms; East submits
    engine.tap("a[href*='/review']")
    # the table page has its own "time called" fold: wait for the review's, not that one
    engine.wait("location.pathname.endsWith('/review') && document.readyState == 'complete'"
                " && !!document.querySelector('#review #time-called')", "the review page")
    engine.tap("#time-called summary")
    engine.tap("label[for=time-confirm]")
    engine.tap("#time-called button[type=submit]")
    engine.wait_text(".flash", "recorded as time called")
    for seat, name in (("E", "Ruth Abrams"), ("S", "Bea Goldberg"), ("W", "Carol Chen"),
                       ("N", "Dolores Ortiz")):
        engine.tap(f"#confirm-{seat}")
        engine.wait_text(f"#confirmed-{seat}", name)
    engine.tap(".submit-form button[type=submit]")
    engine.wait_text("main", "changes only by the director")
    assert engine.run("document.querySelectorAll('a[href*=\"/game\"]').length") == 0


def test_a_players_own_phone_in_the_other_engines(live_server, engine, new_phone):
    code, token = seed(live_server, "tnt")
    url = f"{live_server.url}/t/{code}/1?k={token}"
    engine.open(url)
    engine.wait_text("h1", "Table 1")
    engine.tap(".this-is-me button[value=S]")
    engine.wait_text("#my-view-h", "Bea Goldberg, South: this phone is yours")
    # the player's own part comes before the clock, as in Chromium (page.html)
    assert engine.run("document.querySelector('#my-view').getBoundingClientRect().top"
                      " < document.querySelector('#clock').getBoundingClientRect().top")

    # East, on her own phone (Chromium): game 1, South wins a 25 thrown by West
    east = new_phone()
    east.goto(url)
    east.get_by_role("link", name="Enter game 1").click()
    # each answer, then what shows once its answer is in
    for name, value, then in (("outcome", "mahjong\\:S", "#step-value"),
                              ("value", "25", "#step-win_by"),
                              ("win_by", "thrown\\:W", "#step-exposures"),
                              ("exposures", "2", "#confirm-later")):
        east.locator(f"label[for='{name}-{value}']").click()
        expect(east.locator(then)).to_be_visible()
    east.get_by_role("button", name="Save game 1: Bea Goldberg confirms on their phone").click()
    expect(east.locator(".flash")).to_contain_text("Game 1 saved.")

    # South's phone offers her confirmation within one poll; one tap
    engine.wait_text("#my-confirm-1", "Bea Goldberg: 25 is right",
                     seconds=WITHIN_ONE_POLL / 1000)
    engine.tap("#my-confirm-1")
    engine.wait_text(".flash", "Game 1 confirmed.")
    engine.wait_text("#my-confirmed-1", "Game 1 confirmed")
    expect(east.locator("#waiting-1")).to_have_count(0, timeout=WITHIN_ONE_POLL)

    # East's answers for game 2 reach South's phone through the poll, said unsaved
    east.get_by_role("link", name="Enter game 2").click()
    east.locator("label[for='outcome-mahjong\\:N']").click()
    expect(east.locator("#step-value")).to_be_visible()
    engine.wait_text("#my-draft", "East is entering game 2", seconds=WITHIN_ONE_POLL / 1000)
    engine.wait_text("#my-draft", "not saved yet")
