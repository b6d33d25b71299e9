"""Trust at the table, at phone size, with the network cut by the test at the exact moment:
each test checks what the person sees AND what the database holds afterwards (one call,
one game, the right points)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from e2e.conftest import assert_accessible, screenshot
from e2e.test_table_round import seed, tap

GAME_POST = re.compile(r"/t/\w+/1/game\?")
CALL_POST = re.compile(r"/calls/t/\w+/1\?")
LIVE_POLL = re.compile(r"/live/t/\w+/1\?")
WITHIN_A_POLL = 8_000


# ---- what the database holds ------------------------------------------------------------


def db_games(live_server, code, round_no=1, table_no=1):
    """[(number, outcome, points)] of this table's sheet, read fresh from the database."""
    from sqlalchemy import select

    from models import GameEntry, Round, Scoresheet, Table, Tournament, db

    with live_server.app_context():
        rows = db.session.scalars(
            select(GameEntry)
            .join(Scoresheet, Scoresheet.id == GameEntry.sheet_id)
            .join(Round, Round.id == Scoresheet.round_id)
            .join(Table, Table.id == Scoresheet.table_id)
            .join(Tournament, Tournament.id == Table.tournament_id)
            .where(Tournament.code == code, Round.number == round_no,
                   Table.number == table_no)
            .order_by(GameEntry.number))
        return [(g.number, g.record["outcome"], g.points) for g in rows]


def db_calls(live_server, code, table_no=1):
    from sqlalchemy import func, select

    from models import DirectorCall, Table, Tournament, db

    with live_server.app_context():
        return db.session.scalar(
            select(func.count()).select_from(DirectorCall)
            .join(Table, Table.id == DirectorCall.table_id)
            .join(Tournament, Tournament.id == Table.tournament_id)
            .where(Tournament.code == code, Table.number == table_no))


def test_time_called_while_the_clock_runs_is_refused_where_east_tapped_it(live_server, page):
    """With 40 minutes on the room's clock, East's "Time called" for game 1 is refused in
    words at the answer, in sight, and nothing is saved."""
    from datetime import timedelta

    from sqlalchemy import select

    from models import Round, Tournament, db, utcnow

    code, token = seed(live_server, "tnt")
    with live_server.app_context():
        rnd = db.session.scalar(select(Round).join(Tournament).where(
            Tournament.code == code, Round.number == 1))
        rnd.started_at = utcnow() - timedelta(minutes=10)
        db.session.commit()
    page.goto(f"{live_server.url}/t/{code}/1/game?k={token}")
    tap(page, "outcome", "time")
    expect(sign_button(page)).to_contain_text("these are right")
    sign_button(page).click()
    error = page.locator("#err-outcome")
    expect(error).to_contain_text("Time has not been called: the round's clock still shows")
    expect(error).to_contain_text("Nothing was recorded. Play on")
    expect(error).to_be_in_viewport()
    screenshot(page, "trust-time-called-clock-running", full_page=False)
    assert db_games(live_server, code) == []


def time_is_up(live_server, code, round_no=1):
    """The round's clock ran out long ago."""
    from sqlalchemy import select

    from models import Round, Tournament, db, utcnow

    with live_server.app_context():
        rnd = db.session.scalar(select(Round).join(Tournament).where(
            Tournament.code == code, Round.number == round_no))
        rnd.started_at = utcnow().replace(year=2020)
        rnd.duration_seconds = 60
        db.session.commit()


WALL = {"E": 10, "S": 10, "W": 10, "N": 10}
GAME_SAVED = re.compile(r"Game \d saved\.")
BY_ITSELF = re.compile("No answer from the server: the Wi-Fi may be down.*by itself", re.S)
# the phone sends a lost write or call again every 5 s: one resend, plus a loaded machine
RESEND_MS = 15_000


def enter_wall(page):
    """A wall game with no dead hand: the sign button shows once the dead hands are
    answered."""
    tap(page, "outcome", "wall")
    expect(page.locator("#step-dead")).to_be_visible()
    expect(page.locator(".sign-button")).to_have_count(0)
    page.locator("label[for=no_dead]").click()
    expect(page.locator(".sign-button")).to_have_text("Carol Chen: these are right")


def sign_button(page):
    return page.locator(".sign-button")


def only_posts(pattern, action):
    """A route handler: `action(route)` for POSTs to `pattern`, the rest goes through."""
    def handler(route):
        if route.request.method == "POST":
            action(route)
        else:
            route.continue_()
    return handler


def drop_reply(route):
    """The request reaches the server; its answer never reaches the phone."""
    route.fetch()
    route.abort()


# ---- the call while offline ---------------------------------------------------------------


def test_a_call_while_offline_says_so_and_the_phone_places_it_once_back_online(
        live_server, page):
    code, token = seed(live_server, "tnt")
    page.goto(f"{live_server.url}/t/{code}/1?k={token}")
    page.context.set_offline(True)
    page.get_by_role("button", name="Call the director").click()
    unsent = page.locator("#table-call .call-unsent")
    expect(unsent).to_have_text(
        "No answer yet: the Wi-Fi may be down, so the director may not have your call. "
        "This phone keeps trying by itself; if nobody comes, raise your hand.")
    expect(unsent).to_be_in_viewport()
    retry = page.get_by_role("button", name="Try the call again now")
    expect(retry).to_be_enabled()
    screenshot(page, "trust-call-not-sent")
    assert_accessible(page)
    assert db_calls(live_server, code) == 0
    # the Wi-Fi is back (the browser's "online"): the phone calls by itself, no tap
    page.context.set_offline(False)
    expect(page.locator("#table-call")).to_contain_text("The director has been called",
                                                        timeout=RESEND_MS)
    assert db_calls(live_server, code) == 1


def test_a_call_whose_answer_was_lost_is_sent_again_by_itself_and_placed_once(live_server,
                                                                            page):
    code, token = seed(live_server, "tnt")
    page.goto(f"{live_server.url}/t/{code}/1?k={token}")
    # The page's poll would show the call that did arrive and take the retry button away
    # (right for the table, but then the resend goes untested): hold the poll meanwhile.
    page.route(LIVE_POLL, lambda route: route.abort())
    posts = []
    page.on("request", lambda r: r.method == "POST" and CALL_POST.search(r.url)
            and posts.append(r.url))
    page.route(CALL_POST, only_posts(CALL_POST, drop_reply))
    page.get_by_role("button", name="Call the director").click()
    expect(page.locator("#table-call .call-unsent")).to_contain_text(
        "the director may not have your call")
    expect(page.get_by_role("button", name="Try the call again now")).to_be_visible()
    assert db_calls(live_server, code) == 1  # it did arrive
    # a tap while the answers are still lost: the same request key, no second call
    page.get_by_role("button", name="Try the call again now").click()
    page.wait_for_function("() => !document.querySelector('#table-call .call-button')"
                           "?.disabled")
    assert db_calls(live_server, code) == 1
    # the answers come through again: the phone's own resend (no tap) brings the state
    sent = len(posts)
    page.unroute(CALL_POST)
    expect(page.locator("#table-call")).to_contain_text("The director has been called",
                                                        timeout=RESEND_MS)
    assert len(posts) > sent  # sent again by the phone itself
    assert db_calls(live_server, code) == 1
    page.unroute(LIVE_POLL)
    with page.expect_response(LIVE_POLL, timeout=WITHIN_A_POLL):
        pass  # the next poll, now let through, is answered and swapped in
    expect(page.locator("#table-call")).to_contain_text("The director has been called")
    page.wait_for_timeout(6_000)  # a resend would have come by now: none does
    assert db_calls(live_server, code) == 1


# ---- the save with the request dropped, and with the reply dropped ----------------------


def test_a_save_whose_request_is_dropped_says_so_beside_the_sign_button(live_server, page):
    code, token = seed(live_server, "tnt")
    page.goto(f"{live_server.url}/t/{code}/1/game?k={token}")
    enter_wall(page)
    held = []
    page.route(GAME_POST, only_posts(GAME_POST, held.append))
    sign_button(page).click()
    # while the request is under way the button says so
    expect(sign_button(page)).to_have_text("Saving\u2026")
    held[0].abort()
    page.unroute(GAME_POST)
    page.route(GAME_POST, only_posts(GAME_POST, lambda route: route.abort()))
    note = page.locator("#step-sign .send-note")
    expect(note).to_contain_text(BY_ITSELF)
    expect(sign_button(page)).to_have_text("Carol Chen: these are right")
    # where East is looking (not 1,800 px above), and not under the call bar
    assert note.bounding_box()["y"] + note.bounding_box()["height"] <= page.locator(
        ".call-bar").bounding_box()["y"]
    expect(note).to_be_in_viewport()
    expect(sign_button(page)).to_be_in_viewport()
    expect(page.locator("#outcome-wall")).to_be_checked()  # nothing East tapped is lost
    screenshot(page, "trust-save-not-sent")
    assert_accessible(page)
    assert db_games(live_server, code) == []
    page.unroute(GAME_POST)
    sign_button(page).click()  # a tap sends it at once, too
    expect(page.get_by_text("Game 1 saved.")).to_be_visible()
    assert db_games(live_server, code) == [(1, "wall", WALL)]


def test_a_save_whose_reply_is_dropped_is_sent_again_by_itself_and_stored_once(
        live_server, page):
    code, token = seed(live_server, "tnt")
    page.goto(f"{live_server.url}/t/{code}/1/game?k={token}")
    enter_wall(page)
    posts = []
    page.on("request", lambda r: r.method == "POST" and GAME_POST.search(r.url)
            and posts.append(r.url))
    page.route(GAME_POST, only_posts(GAME_POST, drop_reply))
    sign_button(page).click()
    note = page.locator("#step-sign .send-note")
    expect(note).to_contain_text(BY_ITSELF)
    expect(note).not_to_contain_text("no connection")
    assert db_games(live_server, code) == [(1, "wall", WALL)]
    # the answers come through again: no tap, the phone's own resend (the same key)
    sent = len(posts)
    page.unroute(GAME_POST)
    expect(page.locator(".flash", has_text="Game 1 saved.")).to_be_visible(
        timeout=RESEND_MS)
    assert len(posts) > sent
    # the answer is the table page itself, at its own address
    expect(page.locator("h1")).to_contain_text("Table 1")
    assert re.search(r"/t/\w+/1\?", page.url), page.url
    expect(page.locator("#sheet .game-card")).to_have_count(1)
    expect(page.locator(".send-note")).to_have_count(0)
    assert db_games(live_server, code) == [(1, "wall", WALL)]
    page.wait_for_timeout(6_000)  # a resend would have come by now: none does
    assert len(db_games(live_server, code)) == 1


# ---- a step answered offline, then retried ------------------------------------------------


def test_a_step_answered_offline_can_be_sent_again(live_server, page):
    code, token = seed(live_server, "tnt")
    page.goto(f"{live_server.url}/t/{code}/1/game?k={token}")
    page.context.set_offline(True)
    tap(page, "outcome", "mahjong:S")
    note = page.locator("#step-outcome .send-note")
    expect(note).to_contain_text("Not sent: no connection")
    page.wait_for_function("""() => {
        const note = document.querySelector("#step-outcome .send-note").getBoundingClientRect();
        const bar = document.querySelector(".call-bar").getBoundingClientRect();
        return note.top >= 0 && note.bottom <= bar.top;
    }""")  # where East looks, not under the call bar
    expect(page.locator("#step-value")).to_be_hidden()
    screenshot(page, "trust-step-not-sent")
    assert_accessible(page)
    # the Wi-Fi is back (the browser's "online"): the phone sends the answer by itself
    page.context.set_offline(False)
    expect(page.locator("#step-value")).to_be_visible()
    expect(page.locator(".send-note")).to_have_count(0)
    # the request alone dropped (no "online" event resends it): tapping the chosen answer
    # again sends it again
    preview = re.compile(r"/game/preview\?")
    page.route(preview, lambda route: route.abort())
    tap(page, "value", "30")
    expect(page.locator("#step-value .send-note")).to_contain_text("Not sent")
    expect(page.locator("#step-win_by")).to_be_hidden()
    page.unroute(preview)
    tap(page, "value", "30")
    expect(page.locator("#step-win_by")).to_be_visible()
    expect(page.locator(".send-note")).to_have_count(0)
    # and once more: the note's button sends it again
    page.route(preview, lambda route: route.abort())
    tap(page, "win_by", "self")
    expect(page.locator("#step-win_by .send-note")).to_be_visible()
    expect(page.locator(".sign-button")).to_have_count(0)
    page.unroute(preview)
    page.get_by_role("button", name="Send this answer again").click()
    expect(sign_button(page)).to_have_text("Bea Goldberg: 40 is right")
    sign_button(page).click()
    expect(page.get_by_text("Game 1 saved.")).to_be_visible()
    assert db_games(live_server, code) == [(1, "mahjong", {"E": 0, "S": 40, "W": 0,
                                                            "N": 0})]


# ---- "No connection" while the live parts cannot poll ------------------------------------


def test_the_page_says_no_connection_while_polls_fail_and_clears_it(live_server, page):
    code, token = seed(live_server, "tnt")
    page.goto(f"{live_server.url}/t/{code}/1?k={token}")
    banner = page.locator("#offline-banner")
    expect(banner).to_be_hidden()
    page.context.set_offline(True)
    expect(banner).to_have_text("No connection: the clock may be behind. Trying again\u2026",
                                timeout=WITHIN_A_POLL)
    expect(banner).to_be_in_viewport()
    screenshot(page, "trust-offline-banner")
    assert_accessible(page)
    page.context.set_offline(False)
    expect(banner).to_be_hidden(timeout=WITHIN_A_POLL)


# ---- two phones save game 2 ----------------------------------------------------------------


@pytest.mark.parametrize("choice", ["theirs", "mine"])
def test_two_phones_save_game_2_and_east_chooses(live_server, page, new_phone, choice):
    code, token = seed(live_server, "tnt")
    entry_url = f"{live_server.url}/t/{code}/1/game?k={token}"
    page.goto(entry_url)
    enter_wall(page)
    sign_button(page).click()
    expect(page.get_by_text("Game 1 saved.")).to_be_visible()
    other = new_phone()
    page.goto(entry_url)
    other.goto(entry_url)
    enter_wall(other)
    sign_button(other).click()
    expect(other.get_by_text("Game 2 saved.")).to_be_visible()
    # this phone had South's self-picked 30 for game 2
    tap(page, "outcome", "mahjong:S")
    tap(page, "value", "30")
    tap(page, "win_by", "self")
    expect(sign_button(page)).to_have_text("Bea Goldberg: 40 is right")
    sign_button(page).click()
    conflict = page.locator("#conflict")
    expect(conflict).to_contain_text("Another phone saved game 2")
    expect(page.locator("#theirs")).to_contain_text("Bea Goldberg (South): 10")
    expect(page.locator("#mine")).to_contain_text("Bea Goldberg (South): 40")
    expect(page.locator("h1")).to_contain_text("Correct game 2")  # never "game 3"
    expect(page.get_by_role("button", name=re.compile("game 3"))).to_have_count(0)
    expect(page.locator("#outcome-mahjong\\:S")).to_be_checked()
    screenshot(page, "trust-two-phones")
    assert db_games(live_server, code) == [(1, "wall", WALL), (2, "wall", WALL)]
    if choice == "theirs":
        page.get_by_role("link", name="Keep theirs (save nothing more)").click()
        expect(page.get_by_role("link", name="Enter game 3")).to_be_visible()
        assert db_games(live_server, code) == [(1, "wall", WALL), (2, "wall", WALL)]
    else:
        page.get_by_role("button", name="Bea Goldberg: correct game 2 with mine").click()
        expect(page.get_by_text("Game 2 saved.")).to_be_visible()
        assert db_games(live_server, code) == [
            (1, "wall", WALL), (2, "mahjong", {"E": 0, "S": 40, "W": 0, "N": 0})]


# ---- time up with games unplayed ----------------------------------------------------------


def test_at_time_up_enter_game_stays_first_and_zeroing_is_a_second_step(live_server, page):
    code, token = seed(live_server, "hidden-tile")
    time_is_up(live_server, code)
    page.goto(f"{live_server.url}/t/{code}/1?k={token}")
    enter = page.get_by_role("link", name="Enter game 1")
    box, bar = enter.bounding_box(), page.locator(".call-bar").bounding_box()
    assert box["y"] + box["height"] <= bar["y"]  # on screen, above the call bar
    expect(page.locator("#time-up-note")).to_contain_text("First enter every game")
    fold = page.locator("#time-called")
    expect(fold).not_to_have_attribute("open", "")
    expect(page.get_by_role("button", name=re.compile("as time called"))).to_be_hidden()
    screenshot(page, "trust-time-up")
    # the table played game 1 and enters it now
    enter.click()
    tap(page, "outcome", "mahjong:S")
    tap(page, "value", "30")
    tap(page, "win_by", "self")
    expect(sign_button(page)).to_contain_text("Bea Goldberg: ")
    sign_button(page).click()
    expect(page.get_by_text("Game 1 saved.")).to_be_visible()
    # then, deliberately, the games never played
    page.get_by_text("Time was called before games 2–4 were finished?").click()
    expect(fold).to_contain_text("This records games 2, 3, 4 as time called")
    expect(fold).to_contain_text("Under Hidden Tile rules the whole round then scores 0 (X) "
                                 "for everyone, including the games already played (game 1)")
    screenshot(page, "trust-time-up-fold")
    assert_accessible(page)
    page.locator("label[for=time-confirm]").click()
    page.get_by_role("button", name="Record games 2–4 as time called").click()
    expect(page.locator(".flash", has_text="recorded as time called")).to_be_visible()
    zero = dict.fromkeys("ESWN", 0)
    assert db_games(live_server, code) == [(1, "mahjong", zero), (2, "time", zero),
                                           (3, "time", zero), (4, "time", zero)]


# ---- the call bar's button stays on screen --------------------------------------------------


@pytest.mark.parametrize("size", [(320, 568), (360, 640), (375, 667), (390, 844)])
def test_the_call_button_stays_on_screen_with_the_note_open(live_server, browser, size):
    """On the table page the bar offers a reason and a note; on the entry and the review
    it is a slim strip (no note), the button on screen either way."""
    code, token = seed(live_server, "tnt")
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height},
                                  is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        for path in ("/game", "/review", ""):
            page.goto(f"{live_server.url}/t/{code}/1{path}?k={token}")
            more = page.get_by_text("Add a reason (optional)")
            if path:
                expect(page.get_by_role("button", name="Call the director")).to_be_visible()
                expect(more).to_be_hidden()  # the slim strip
                bar = page.locator(".call-bar").bounding_box()
                assert bar["height"] <= height / 4, (path, bar)
            else:
                more.click()
                page.locator("#call-note").fill("East and South both say it is their tile")
                page.locator("#call-note").focus()
            box = page.get_by_role("button", name="Call the director").bounding_box()
            assert box is not None
            assert box["y"] >= 0 and box["y"] + box["height"] <= height, (path, box)
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (path, box)
            if path == "":
                screenshot(page, f"trust-call-bar-{width}x{height}")
            elif path == "/game" and width == 360:
                screenshot(page, "trust-call-bar-slim-entry")
        page.get_by_role("button", name="Call the director").click()
        expect(page.locator("#table-call")).to_contain_text("The director has been called")
    finally:
        context.close()
    assert db_calls(live_server, code) == 1


# ---- every table page shows the clock and the Call button ---------------------------------


def test_entry_and_review_pages_show_the_clock_and_the_call_button(live_server, page):
    code, token = seed(live_server, "tnt")
    page.goto(f"{live_server.url}/t/{code}/1?k={token}")
    # who sits here: above the sheet and clear of the call bar, with "Enter game 1" on screen
    bar = page.locator(".call-bar").bounding_box()
    enter = page.get_by_role("link", name="Enter game 1").bounding_box()
    assert enter["y"] + enter["height"] <= bar["y"]  # on screen, not under the bar
    screenshot(page, "trust-table-page")
    seats = page.locator(".seats-section")
    assert seats.bounding_box()["y"] < page.locator("#sheet").bounding_box()["y"]
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    sheet = page.locator("#sheet").bounding_box()
    assert sheet["y"] + sheet["height"] <= page.locator(".call-bar").bounding_box()["y"] + 1
    for path in ("", "/game", "/review"):
        page.goto(f"{live_server.url}/t/{code}/1{path}?k={token}")
        expect(page.locator("#clock")).to_be_visible()
        expect(page.get_by_role("button", name="Call the director")).to_be_visible()


# ---- the sign step speaks to East --------------------------------------------------------


def test_the_sign_step_asks_east_to_hand_the_phone_over(live_server, page):
    code, token = seed(live_server, "tnt")
    page.goto(f"{live_server.url}/t/{code}/1/game?k={token}")
    tap(page, "outcome", "mahjong:S")
    tap(page, "value", "25")
    tap(page, "win_by", "self")
    expect(page.locator("#entry ul.answers")).to_contain_text("self-picked")
    expect(page.locator("#sign-hint")).to_contain_text("Hand the phone to Bea Goldberg")
    # nothing to type: the winner's own button, above the call bar
    expect(page.locator("#step-sign input:not([type=hidden]), #step-sign textarea")
           ).to_have_count(0)
    button = sign_button(page)
    expect(button).to_have_text("Bea Goldberg: 35 is right")  # tnt: 25, self-picked +10
    page.wait_for_function("""() => {
        const box = document.querySelector("#step-sign .sign-button").getBoundingClientRect();
        const bar = document.querySelector(".call-bar").getBoundingClientRect();
        return box.top >= 0 && box.bottom <= bar.top;
    }""")
    screenshot(page, "trust-sign-step")
    assert_accessible(page)
    assert db_games(live_server, code) == []  # nothing is saved before the tap
    button.click()
    expect(page.get_by_text("Game 1 saved.")).to_be_visible()
    # the initials come from the signer's name
    expect(page.locator("#sheet .game-card .initials")).to_have_text(
        "Bea Goldberg (South) initialled the scores: BG.")
    assert db_games(live_server, code) == [(1, "mahjong", {"E": 0, "S": 35, "W": 0,
                                                            "N": 0})]


# ---- without JavaScript --------------------------------------------------------------------


def test_without_javascript_the_exposures_must_be_answered(live_server, plain_phone):
    page = plain_phone
    code, token = seed(live_server, "tnt")
    page.goto(f"{live_server.url}/t/{code}/1/game?k={token}")
    tap(page, "outcome", "mahjong:E")
    tap(page, "value", "25")
    tap(page, "win_by", "thrown:N")
    expect(page.locator(".sign-button")).to_have_count(0)
    page.get_by_role("button", name="Show the scores").click()
    # asked, not guessed: no scores and no sign button until it is answered
    expect(page.locator("#live-scores")).to_contain_text("Next: how many exposures")
    expect(page.locator("#win_by-thrown\\:N")).to_be_checked()
    expect(page.locator(".sign-button")).to_have_count(0)
    assert db_games(live_server, code) == []
    tap(page, "exposures", "2")
    page.get_by_role("button", name="Show the scores").click()
    sign_button(page).click()
    expect(page.get_by_text("Game 1 saved.")).to_be_visible()
    # tnt: "-10 for throwing the winning tile to a hand with two exposures"
    assert db_games(live_server, code) == [(1, "mahjong", {"E": 25, "S": 0, "W": 0,
                                                            "N": -10})]


def test_without_javascript_time_called_is_a_deliberate_second_step(live_server,
                                                                    plain_phone):
    page = plain_phone
    code, token = seed(live_server, "tnt")
    time_is_up(live_server, code)
    page.goto(f"{live_server.url}/t/{code}/1?k={token}")
    expect(page.get_by_role("link", name="Enter game 1")).to_be_visible()
    page.get_by_text("Time was called before games 1–4 were finished?").click()
    page.get_by_role("button", name="Record games 1–4 as time called").click()
    expect(page.locator("#err-time")).to_contain_text("Nothing was recorded")
    assert db_games(live_server, code) == []
    page.locator("label[for=time-confirm]").click()
    page.get_by_role("button", name="Record games 1–4 as time called").click()
    expect(page.get_by_text("recorded as time called")).to_be_visible()
    assert [g[1] for g in db_games(live_server, code)] == ["time"] * 4


def test_a_resend_sends_what_was_first_sent_not_an_answer_changed_meanwhile(
        live_server, page):
    """The first save reached the server and its answer was lost; East then changes an
    answer while the note shows. The phone's own resend carries the first answers (the
    key stands for them): the table page shows the game as it was stored."""
    code, token = seed(live_server, "tnt")
    page.goto(f"{live_server.url}/t/{code}/1/game?k={token}")
    enter_wall(page)
    page.route(GAME_POST, only_posts(GAME_POST, drop_reply))
    sign_button(page).click()
    expect(page.locator("#step-sign .send-note")).to_contain_text(BY_ITSELF)
    assert db_games(live_server, code) == [(1, "wall", WALL)]
    page.unroute(GAME_POST)
    # changed while the note shows and the Wi-Fi is still down (its preview lost too)
    preview = re.compile(r"/t/\w+/1/game/preview\?")
    page.route(preview, lambda route: route.abort())
    page.route(GAME_POST, lambda route: route.abort())
    tap(page, "dead", "N")
    expect(page.locator("#dead-N")).to_be_checked()
    page.unroute(preview)
    page.unroute(GAME_POST)
    expect(page.locator(".flash", has_text="Game 1 saved.")).to_be_visible(
        timeout=RESEND_MS)
    expect(page.get_by_text("These answers are not the ones")).to_have_count(0)
    assert db_games(live_server, code) == [(1, "wall", WALL)]
