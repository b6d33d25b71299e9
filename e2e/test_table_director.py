"""Staff on a submitted sheet, on a phone: the director amends a game only with a written
reason (under TNT a ruling, as the form says first), the table's page then says who changed
it and why, and the sheet is verified."""

from __future__ import annotations

import secrets

from playwright.sync_api import expect

from e2e.conftest import assert_accessible, screenshot, sign_in
from e2e.test_table_round import seed


def submit_four_wall_games(live_server, code):
    from blueprints.table import sheet_writes, signoffs
    from core.rounds import round_row
    from core.sheets import sheet_for
    from models import Tournament, db

    with live_server.app_context():
        tournament = db.session.scalar(db.select(Tournament).where(Tournament.code == code))
        table = tournament.tables[0]
        rnd = round_row(tournament, 1)

        def version():
            sheet = sheet_for(rnd, table)
            return sheet.version if sheet else 1

        for number in range(1, 5):
            sheet_writes.save_game(table, rnd, number, {"outcome": "wall"}, initials="CC",
                                   version=version(), key=secrets.token_hex(8))
        for seat in "ESWN":
            signoffs.sign_round(table, rnd, seat, seat * 2, version=version(),
                                key=secrets.token_hex(8))
        signoffs.submit_sheet(table, rnd, version=version(), key=secrets.token_hex(8))


def test_director_amends_with_a_reason_and_verifies(live_server, page):
    code, token, tournament_id, email, password = seed(live_server, "tnt", with_director=True)
    submit_four_wall_games(live_server, code)
    sign_in(page, live_server, email, password)
    page.goto(f"{live_server.url}/t/director/{tournament_id}/1/1")
    expect(page.get_by_text("changes only by the director")).to_be_visible()
    assert_accessible(page)
    page.get_by_role("link", name="Amend game 2").click()
    # game 2's answers are folded: its ending, tapped, opens the question again
    page.locator("#entry ul.answers button", has_text="Wall game").click()
    page.locator("label[for='outcome-mahjong\\:N']").click()
    page.locator("label[for=value-25]").click()
    page.locator("label[for=win_by-self]").click()
    expect(page.locator("#live-scores .score-points").nth(3)).to_have_text("35")
    page.get_by_role("button", name="Save the amendment").click()
    expect(page.locator("#err-reason")).to_contain_text("Write the reason")
    page.get_by_label("Why are you changing this game?").fill(
        "North's Mah Jongg was valid after all")
    screenshot(page, "table-director-amend")
    assert_accessible(page)
    # tnt: "Once submitted, no changes may be made.": the form says it is a ruling first
    expect(page.locator("#ruling-warning")).to_contain_text("director's ruling")
    page.get_by_role("button", name="Save the amendment").click()
    expect(page.get_by_text("Director's ruling after submission")).to_contain_text(
        "by Tess Director")
    page.get_by_role("button", name="Mark verified").click()
    expect(page.get_by_text("verified by Tess Director")).to_be_visible()
    screenshot(page, "table-director-sheet")
    assert_accessible(page)
    # the table sees it too
    page.goto(f"{live_server.url}/t/{code}/1?k={token}")
    expect(page.get_by_text("Director's ruling after submission")).to_contain_text(
        "North's Mah Jongg was valid after all")
    game2 = page.locator("#sheet .game-card").nth(1)
    expect(game2.locator(".score-points").nth(3)).to_have_text("35")
