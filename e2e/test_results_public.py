"""A player watches the public standings on a phone; a table submits its sheet and the
standings update by themselves (htmx polling). The director's results page passes axe.

Sheets are seeded straight into the server's database (tests/results/conftest.add_sheet):
this test is about the standings, not the table team's score entry."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from e2e.conftest import assert_accessible, screenshot, sign_in


def seed_tournament(live_server, director_email, code):
    from blueprints.director import service
    from models import Player, User, db

    with live_server.app_context():
        director = db.session.query(User).filter_by(email=director_email).one()
        tournament = service.create_tournament(director, name="Results Open", preset="tnt",
                                               rounds=3, code=code)
        for number in range(1, 9):
            tournament.players.append(Player(number=number, name=f"Player {number}"))
        db.session.flush()
        service.seat_round_one(tournament, method="number", user=director)
        db.session.commit()
        return tournament.id


def submit(live_server, code, round_no, table_no, records, state="submitted"):
    from models import Tournament, db
    from tests.results.conftest import add_sheet

    with live_server.app_context():
        tournament = db.session.query(Tournament).filter_by(code=code).one()
        add_sheet(tournament, round_no, table_no, records, state=state)


def win(seat, value=25):
    return {"outcome": "mahjong", "winner": seat, "value": value, "self_picked": True}


def test_public_standings_update_after_a_table_submits(live_server, page, director_account):
    seed_tournament(live_server, director_account[0], "RES001")
    submit(live_server, "RES001", 1, 1, [win("E")])
    page.goto(live_server.url + "/results/RES001")
    table = page.get_by_role("table", name=re.compile("Overall"))
    first = table.locator("tbody tr").first
    expect(first).to_contain_text("Player 1")
    expect(first).to_contain_text("35")
    screenshot(page, "results-public")
    assert_accessible(page)

    # Table 2 enters a bigger win but has not submitted: official standings do not move.
    submit(live_server, "RES001", 1, 2, [win("S", 50)], state="open")
    expect(page.get_by_text(re.compile("1 game entered at tables"))).to_be_visible(
        timeout=8_000)
    expect(first).to_contain_text("Player 1")

    # Round 2, table 1 submits (North is player 8 now): within a poll or two the player
    # sees the new leader, 2 x (50 + 10 self-picked).
    submit(live_server, "RES001", 2, 1, [win("N", 50), win("N", 50)])
    leader = page.locator("#standings tbody tr").first
    expect(leader).to_contain_text("Player 8", timeout=10_000)
    expect(leader).to_contain_text("120")
    screenshot(page, "results-public-updated")

    page.get_by_role("link", name=re.compile("Provisional")).click()
    expect(page.get_by_role("heading", name=re.compile("provisional"))).to_be_visible()
    assert_accessible(page)


def test_director_results_page_is_accessible(live_server, page, director_account):
    tournament_id = seed_tournament(live_server, director_account[0], "RES002")
    submit(live_server, "RES002", 1, 1, [win("E")])
    submit(live_server, "RES002", 1, 2, [win("E")])
    sign_in(page, live_server, *director_account)
    page.goto(f"{live_server.url}/results/director/{tournament_id}")
    expect(page.get_by_role("heading", name="Results", level=1)).to_be_visible()
    expect(page.get_by_text("Tie for place 1")).to_be_visible()
    screenshot(page, "results-director")
    assert_accessible(page)

    tie = page.locator(".card.tie").first
    tie.get_by_label("#1 Player 1").fill("2")
    tie.get_by_label("#5 Player 5").fill("1")
    tie.get_by_role("button", name="Save decision").click()
    expect(page.get_by_text("Tile-bag draw recorded")).to_be_visible()
    first = page.get_by_role("table", name=re.compile("Overall")).locator("tbody tr").first
    expect(first).to_contain_text("Player 5")
    assert_accessible(page)

    page.goto(f"{live_server.url}/results/director/{tournament_id}/print")
    assert_accessible(page)
