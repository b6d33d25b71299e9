"""Paper as the fallback, in a real browser: the printed score sheets (every seated name,
one sheet a page on A4 and US Letter), a table scoring on paper, and the front desk keying
a paper sheet in at a laptop, counted as a scorer's keystrokes and taps."""

from __future__ import annotations

import re
import secrets

from playwright.sync_api import expect

from e2e.conftest import assert_accessible, screenshot, sign_in
from e2e.test_table_round import NAMES, seed

LAPTOP = {"width": 1280, "height": 800}


def laptop(browser):
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    page.set_default_timeout(15000)
    return context, page


def add_staff(live_server, tournament_id, role):
    from blueprints.auth.service import create_user
    from models import TournamentStaff, db

    with live_server.app_context():
        email = f"{role}-{secrets.token_hex(3)}@example.com"
        user, _ = create_user(email, f"Sam {role.title()}", "pw-1234567")
        db.session.flush()
        db.session.add(TournamentStaff(tournament_id=tournament_id, user_id=user.id,
                                       role=role))
        db.session.commit()
    return email, "pw-1234567"


def pdf_pages(pdf: bytes) -> int:
    """The pages of a PDF Chromium printed (each page object says /Type /Page)."""
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def test_printed_sheets_one_a_page_with_every_seated_name(live_server, browser):
    code, token, tournament_id, email, password = seed(live_server, "tnt", with_director=True)
    context, page = laptop(browser)
    try:
        sign_in(page, live_server, email, password)
        page.goto(f"{live_server.url}/clock/director/{tournament_id}")
        screenshot(page, "paper-console")
        page.get_by_role("link", name=re.compile("Score sheets")).first.click()
        expect(page.locator(".score-sheet")).to_have_count(2)
        assert_accessible(page)
        page.emulate_media(media="print")
        sheets = page.locator(".score-sheet")
        for name in NAMES:
            expect(page.locator(".sheet-name", has_text=name)).to_have_count(1)
        breaks = [sheets.nth(i).evaluate("s => getComputedStyle(s).breakBefore")
                  for i in range(2)]
        assert breaks[1] == "page"
        expect(page.locator(".site-header")).to_be_hidden()
        expect(page.locator("#director-bar")).to_be_hidden()
        screenshot(page, "paper-sheets-print", full_page=True)
        for paper in ("A4", "Letter"):
            assert pdf_pages(page.pdf(format=paper, print_background=False)) == 2, paper
    finally:
        context.close()


def test_a_table_on_paper_then_the_front_desk_keys_it_in(live_server, browser, page):
    code, token, tournament_id, email, password = seed(live_server, "tnt", with_director=True)
    context, desk = laptop(browser)
    try:
        sign_in(desk, live_server, email, password)
        desk.goto(f"{live_server.url}/t/director/{tournament_id}/desk?r=1")
        desk.get_by_role("button", name="Table 1 on paper").click()
        expect(desk.get_by_role("button", name="Table 1 back on the phone")).to_be_visible()
        assert_accessible(desk)
        screenshot(desk, "paper-desk-index")
        # the table's page says so plainly, keeps the seats and the call
        page.goto(f"{live_server.url}/t/{code}/1?k={token}")
        expect(page.get_by_text("This round is scored on paper: hand the sheet to the "
                                "front desk.")).to_be_visible()
        expect(page.get_by_role("link", name="Enter game 1")).to_have_count(0)
        expect(page.get_by_text("Who sits here")).to_be_visible()
        expect(page.get_by_role("button", name=re.compile("Call the director"))).to_be_visible()
        assert_accessible(page)
        screenshot(page, "paper-table-page")

        # a scorer keys the sheet in: counted as the scorer's keystrokes and taps
        scorer_email, scorer_password = add_staff(live_server, tournament_id, "scorer")
        scorer_context, scorer = laptop(browser)
        try:
            sign_in(scorer, live_server, scorer_email, scorer_password)
            scorer.goto(f"{live_server.url}/t/director/{tournament_id}/desk")
            count = {"keys": 0, "taps": 0}

            def keys(*presses):
                for press in presses:
                    scorer.keyboard.press(press)
                    count["keys"] += 1

            def tap(locator):
                locator.click()
                count["taps"] += 1

            # the front desk opens a table by its number, typed
            expect(scorer.locator("#desk-table")).to_be_focused()
            keys("1", "Enter")
            expect(scorer.locator("#games-0-winner")).to_be_focused()
            # Bea Goldberg (South) 25, thrown by West to 2 exposures
            keys("s", "Tab", "2", "5", "Tab", "w", "Tab", "2", "Enter")
            # Ruth Abrams (East) self-picked 30
            keys("e", "Tab", "3", "0", "Tab", "Tab", "Tab", "Space", "Enter")
            # a wall game
            keys("-", "Enter")
            # Dolores Ortiz (North) 25, thrown by East to 1 exposure
            keys("n", "Tab", "2", "5", "Tab", "e", "Tab", "1", "Enter")
            expect(scorer.locator("#initialled")).to_be_focused()
            keys("Space")
            # the points as they will be stored, live (tnt: thrower -10 to 2 exposures)
            expect(scorer.locator("#pts-1-W")).to_have_text("-10")
            expect(scorer.locator("#pts-2-E")).to_have_text("40")
            expect(scorer.locator("#pts-3-N")).to_have_text("10")
            expect(scorer.locator("#total-N")).to_have_text("35")
            # every game, the totals, the tick and Submit on one screen, nothing scrolled
            submit = scorer.get_by_role("button", name="Save and submit for the table")
            box = submit.bounding_box()
            assert box["y"] + box["height"] <= LAPTOP["height"], box
            assert scorer.evaluate("window.scrollY") == 0
            screenshot(scorer, "paper-front-desk", full_page=False)
            assert_accessible(scorer)
            tap(submit)
            expect(scorer.get_by_text("submitted from the paper sheet")).to_be_visible()
            assert count["keys"] + count["taps"] <= 40, count
            print(f"front desk, 4 games: {count['keys']} keys + {count['taps']} taps")
            # a scorer gets nothing else
            for path in (f"/director/t/{tournament_id}", f"/t/director/{tournament_id}/1/1",
                         f"/calls/director/{tournament_id}"):
                response = scorer.goto(live_server.url + path)
                assert response.status in (403, 404), path
        finally:
            scorer_context.close()

        # the standings, the exports and the audit say so
        page.goto(f"{live_server.url}/results/{code}")
        expect(page.get_by_text("Dolores Ortiz").first).to_be_visible()
        csv = desk.request.get(
            f"{live_server.url}/results/director/{tournament_id}/standings.csv").text()
        assert '"Dolores Ortiz","35"' in csv
        desk.goto(f"{live_server.url}/director/t/{tournament_id}/audit")
        expect(desk.get_by_text("entered from the paper sheet by Sam Scorer").first) \
            .to_be_visible()
        # the table's page shows the submitted sheet
        page.goto(f"{live_server.url}/t/{code}/1?k={token}")
        expect(page.locator("#sheet")).to_contain_text("35")
    finally:
        context.close()


def test_a_guide_gets_nothing_that_changes_points(live_server, browser):
    code, token, tournament_id, email, password = seed(live_server, "tnt", with_director=True)
    guide_email, guide_password = add_staff(live_server, tournament_id, "table-guide")
    context, guide = laptop(browser)
    try:
        sign_in(guide, live_server, guide_email, guide_password)
        for path in (f"/t/director/{tournament_id}/desk",
                     f"/t/director/{tournament_id}/1/1/desk"):
            assert guide.goto(live_server.url + path).status == 403, path
        response = guide.request.post(
            f"{live_server.url}/t/director/{tournament_id}/round/1/paper",
            form={"table": "all", "on": "1"})
        assert response.status in (400, 403)
        assert guide.goto(
            f"{live_server.url}/director/t/{tournament_id}/rounds/1/sheets").status == 200
    finally:
        context.close()


def test_the_front_desk_without_javascript(live_server, browser):
    code, token, tournament_id, email, password = seed(live_server, "city-mahj",
                                                       with_director=True)
    context = browser.new_context(viewport=LAPTOP, java_script_enabled=False)
    page = context.new_page()
    try:
        sign_in(page, live_server, email, password)
        # the desk keys in a table on paper (without a reason): put table 2 on paper
        page.goto(f"{live_server.url}/t/director/{tournament_id}/desk?r=1")
        page.get_by_role("button", name="Table 2 on paper").click()
        page.goto(f"{live_server.url}/t/director/{tournament_id}/2/1/desk")
        page.locator("#games-0-winner").fill("S")
        page.locator("#games-0-value").fill("25")
        page.locator("#games-0-thrower").fill("S")
        page.locator("#games-0-exposures").fill("1")
        page.get_by_role("button", name="Save, not submitted").click()
        expect(page.locator("#err-g1")).to_contain_text("The thrower cannot be the winner.")
        page.locator("#games-0-thrower").fill("W")
        page.locator("#games-0-value").press("Enter")  # Enter: check the points
        expect(page.locator("#pts-1-S")).to_have_text("25")
        page.get_by_role("button", name="Save, not submitted").click()
        expect(page.get_by_text("saved.")).to_be_visible()
        expect(page.locator("#games-0-winner")).to_have_value("S")
    finally:
        context.close()
