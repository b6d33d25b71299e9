"""A large event's public standings on a phone: 200 lines a page, a link to the next
page, Find me opening the page that holds the player, and the page's poll keeping it."""

from __future__ import annotations

from playwright.sync_api import expect

from e2e.conftest import WITHIN_ONE_POLL, assert_accessible, screenshot
from e2e.test_results_public import submit, win


def seed_large_tournament(live_server, director_email, code, players):
    from blueprints.director.seating import seat_round_one
    from blueprints.director.tournaments import create_tournament
    from models import Player, User, db

    with live_server.app_context():
        director = db.session.query(User).filter_by(email=director_email).one()
        tournament = create_tournament(director, name="Large Open", preset="tnt", rounds=3,
                                       code=code)
        tournament.players.extend(Player(number=number, name=f"Player {number}")
                                  for number in range(1, players + 1))
        db.session.flush()
        seat_round_one(tournament, method="number", user=director)
        db.session.commit()


def test_a_large_event_s_standings_page_by_page_on_a_phone(live_server, director_account,
                                                           browser):
    email, _password = director_account
    seed_large_tournament(live_server, email, "LARGE", 204)
    submit(live_server, "LARGE", 1, 1, [win("E"), {"outcome": "wall"}])
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/results/LARGE")
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
        submit(live_server, "LARGE", 1, 2, [win("S")])
        expect(page.locator("#standings")).not_to_have_attribute("data-version", version,
                                                                 timeout=WITHIN_ONE_POLL)
        expect(page.locator(".pager")).to_contain_text("Players 201 to 204 of 204")
        expect(page.locator("#s-player-203")).to_have_attribute("aria-current", "true")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert_accessible(page)
    finally:
        context.close()
