"""The big screen fits the screen it is shown on: at 1920x1080, 1280x720 (16:9) and
1024x768 (4:3), during play and between rounds, every element's box is inside the
viewport and nothing scrolls, with the clock, the announcements, the movement, ten
leaders in one column (their names whole, or as "First L."), and the seat-lookup QR code
and address all on screen at once.
On a 320 px phone it never scrolls sideways. axe checks it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from e2e.conftest import assert_accessible, screenshot

SCREENS = [(1920, 1080), (1280, 720), (1024, 768)]
LONG_NAMES = {3: "Margaret Featherstonehaugh-Worthington", 7: "Bartholomew Quackenbush III"}
LONG_NOTE = ("Lunch is served in the Magnolia Room after round 3. Please take your score "
             "sheets to the director's desk before you leave the ballroom, and remember "
             "that the raffle draw is at 4 pm sharp: tickets are at the door. " * 2)[:280]

OUTSIDE = """() => {
  const W = window.innerWidth, H = window.innerHeight, bad = [];
  for (const el of document.body.querySelectorAll("*")) {
    const skipped = ".visually-hidden, .skip-link, [hidden], noscript, audio, script, link";
    if (el.closest(skipped)) continue;
    const style = getComputedStyle(el);
    if (style.display === "none" || style.visibility === "hidden") continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    // Text wider than its own box spills out of it unless the box clips it.
    const spills = style.overflowX === "visible" && el.scrollWidth > el.clientWidth + 1 &&
      !(el instanceof SVGElement);
    if (spills || r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1) {
      const at = [r.left, r.top, r.width, r.height].map(Math.round).join(",");
      bad.push(`${el.tagName.toLowerCase()}.${el.className.baseVal ?? el.className} ${at}`);
    }
  }
  const doc = document.documentElement;
  if (doc.scrollHeight > H + 1) bad.push(`page ${doc.scrollHeight} px tall`);
  if (doc.scrollWidth > W + 1) bad.push(`page ${doc.scrollWidth} px wide`);
  return bad;
}"""


@pytest.fixture(scope="module")
def screen_code(live_server):
    """40 players (two with long names), four tables' sheets in, two announcements (one
    of 280 characters), round 1 running."""
    import secrets

    from blueprints.clock import actions as clock_actions
    from blueprints.clock.announcements import post_announcement
    from blueprints.director.seating import seat_round_one
    from blueprints.director.tournaments import create_tournament
    from core.rounds import round_row
    from models import Player, User, db
    from tests.results.conftest import add_sheet

    email = f"screen-{secrets.token_hex(4)}@example.com"
    live_server.add_director(email, "screen-password-1", name="Sam Screen")
    with live_server.app_context():
        director = db.session.query(User).filter_by(email=email).one()
        tournament = create_tournament(director, name="Ballroom Spring Invitational",
                                               preset="tnt", rounds=3)
        for number in range(1, 41):
            tournament.players.append(
                Player(number=number, name=LONG_NAMES.get(number, f"Player {number}")))
        db.session.flush()
        seat_round_one(tournament, method="number", user=director)
        db.session.commit()
        win = {"outcome": "mahjong", "winner": "S", "value": 25, "self_picked": True}
        for table in (1, 2, 3, 4):
            add_sheet(tournament, 1, table, [win, {"outcome": "wall"}])
        clock_actions.start_round(tournament, 1, round_row(tournament, 1).clock_version,
                                  director)
        post_announcement(tournament, "Round 2 starts at 11:15.", director)
        post_announcement(tournament, LONG_NOTE, director)
        return tournament.code, tournament.id, email


def end_round_one(live_server, tournament_id, email):
    from blueprints.clock import actions as clock_actions
    from core.rounds import round_row
    from models import Tournament, User, db

    with live_server.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        director = db.session.query(User).filter_by(email=email).one()
        clock_actions.end_round(tournament, 1, round_row(tournament, 1).clock_version, director)


def open_screen(browser, live_server, code, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/display/{code}")
    return context, page


def check_fits(page, name):
    screenshot(page, name, full_page=False)  # the viewport: all there is to see
    assert page.evaluate(OUTSIDE) == []
    for part in (".clock__time", ".display-qr svg", ".display-address", "#leaders-title"):
        expect(page.locator(part)).to_be_in_viewport(ratio=1)


@pytest.mark.parametrize("width, height", SCREENS)
def test_the_big_screen_fits_during_play(browser, live_server, screen_code, width, height):
    code, _id, _email = screen_code
    context, page = open_screen(browser, live_server, code, width, height)
    try:
        expect(page.locator(".clock__round")).to_have_text("Round 1")
        expect(page.locator(".leaders-list li")).to_have_count(10)
        expect(page.locator(".display-announcement")).to_have_count(2)
        check_fits(page, f"display-play-{width}x{height}")
        # Ten leaders in one column, each line at least 4% of the screen's height, each
        # name whole or in its short form ("First L."), never cut.
        lines = page.locator(".leaders-list li").all()
        assert len({round(li.bounding_box()["x"]) for li in lines}) == 1
        for li in lines:
            size = li.evaluate("li => parseFloat(getComputedStyle(li).fontSize)")
            assert size >= 0.04 * height, (size, height)
        names = page.locator(".leader-player")
        assert names.evaluate_all("els => els.filter(e => e.scrollWidth > e.clientWidth"
                                  " + 1).map(e => e.textContent)") == []
        expect(names.filter(has_text="Margaret F.")).to_have_count(1)
        expect(page.locator(".leader-player", has_text="Player 1").first).to_be_visible()
        if (width, height) == SCREENS[0]:
            assert_accessible(page)
    finally:
        context.close()


def test_the_big_screen_fits_between_rounds(browser, live_server, screen_code):
    code, tournament_id, email = screen_code
    end_round_one(live_server, tournament_id, email)
    for width, height in SCREENS:
        context, page = open_screen(browser, live_server, code, width, height)
        try:
            expect(page.locator(".display-move")).to_contain_text("North up 1")
            check_fits(page, f"display-between-{width}x{height}")
            if (width, height) == SCREENS[1]:
                assert_accessible(page)
        finally:
            context.close()


def test_the_big_screen_never_scrolls_sideways_on_a_small_phone(browser, live_server,
                                                                 screen_code):
    code, _id, _email = screen_code
    context = browser.new_context(viewport={"width": 320, "height": 640}, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/display/{code}")
        expect(page.locator(".display-qr svg")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
    finally:
        context.close()
