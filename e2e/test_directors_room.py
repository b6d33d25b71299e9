"""The director's room on a phone: every link a whole 44 px target, the bar's "Sheets
in" opening the list of missing sheets, and the bar saying the sound is off until the
calls page's "Enable sound" is tapped."""

from __future__ import annotations

from playwright.sync_api import expect

from e2e.conftest import sign_in
from e2e.test_table_round import seed


def start_round_one(live_server, code):
    from blueprints.clock import actions
    from core.rounds import round_row
    from models import Tournament, User, db

    with live_server.app_context():
        tournament = db.session.scalar(db.select(Tournament).where(Tournament.code == code))
        director = db.session.get(User, tournament.staff[0].user_id)
        actions.start_round(tournament, 1, round_row(tournament, 1).clock_version, director)


def test_links_sheets_in_and_the_sound(live_server, page):
    code, token, tournament_id, email, password = seed(live_server, "tnt", with_director=True)
    start_round_one(live_server, code)
    sign_in(page, live_server, email, password)
    pages = {
        "/director/": "Change my password",
        f"/clock/director/{tournament_id}": "Open the big screen",
        f"/results/director/{tournament_id}": "Public standings page",
        f"/t/director/{tournament_id}/1/1": "Open the table's own page",
        f"/calls/director/{tournament_id}/history": "Back to the calls",
    }
    for path, name in pages.items():
        page.goto(live_server.url + path)
        link = page.get_by_role("link", name=name, exact=True).first
        assert link.bounding_box()["height"] >= 44, (path, name, link.bounding_box())
    page.goto(f"{live_server.url}/results/director/{tournament_id}")
    assert page.get_by_role("link", name="calls queue").bounding_box()["height"] >= 44

    # the bar: sound off, said in words, until it is on
    page.goto(f"{live_server.url}/director/t/{tournament_id}")
    expect(page.locator("#director-bar [data-bar-sound]")).to_have_text("Sound off")
    page.goto(f"{live_server.url}/calls/director/{tournament_id}")
    expect(page.locator("#director-bar [data-bar-sound]")).to_have_text("Sound off")
    page.get_by_role("button", name="Enable sound").click()
    expect(page.locator("#director-bar [data-bar-sound]")).to_have_text("Sound on")

    # "Sheets in" opens the list of missing sheets, not the top of the results
    page.locator("#director-bar .bar-sheets a").click()
    page.wait_for_url("**#missing")
    expect(page.locator("#missing-title")).to_be_in_viewport()
