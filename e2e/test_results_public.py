"""A player watches the public standings on a phone; East at a table enters a game and
submits the sheet on another phone, through the table's own pages, and the standings
update by themselves (htmx polling). The director's results page passes axe.

The other tables' sheets are seeded straight into the server's database
(tests/results/conftest.add_sheet); the table driven through the UI reuses the steps of
e2e/test_table_round.py."""

from __future__ import annotations

import re
import secrets

from playwright.sync_api import expect

from e2e.conftest import WITHIN_ONE_POLL, assert_accessible, screenshot, sign_in
from e2e.test_table_round import save, tap


def seed_tournament(live_server, director_email, code):
    from blueprints.director.seating import seat_round_one
    from blueprints.director.tournaments import create_tournament
    from models import Player, User, db

    with live_server.app_context():
        director = db.session.query(User).filter_by(email=director_email).one()
        tournament = create_tournament(director, name="Results Open", preset="tnt",
                                               rounds=3, code=code)
        for number in range(1, 9):
            tournament.players.append(Player(number=number, name=f"Player {number}"))
        db.session.flush()
        seat_round_one(tournament, method="number", user=director)
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


def table_token(live_server, code, number):
    from models import Table, Tournament, db

    with live_server.app_context():
        return db.session.query(Table.token).join(Tournament).filter(
            Tournament.code == code, Table.number == number).scalar()


def east_submits_a_self_picked_50_for_south(phone, table_url):
    """Table 1, round 1, through its pages: South (player 2) self-picks a 50, the other
    games are recorded as time called, every player confirms, East submits."""
    phone.goto(table_url)
    phone.get_by_role("link", name="Enter game 1").click()
    tap(phone, "outcome", "mahjong:S")
    tap(phone, "value", "50")
    tap(phone, "win_by", "self")
    save(phone, "Player 2: 60 is right", 1)
    return phone


def initial_and_submit(phone):
    phone.get_by_role("link", name=re.compile("Review the round")).click()
    phone.get_by_text("Time was called before games 2–4 were finished?").click()
    phone.get_by_label("Yes, the director called time").check()
    phone.get_by_role("button", name=re.compile("as time called")).click()
    expect(phone.locator(".flash", has_text="recorded as time called")).to_be_visible()
    for number, seat in enumerate(("E", "S", "W", "N"), start=1):
        phone.locator(f"#confirm-{seat}").click()
        # the answer replaces the review where it is: the button is a confirmed row
        expect(phone.locator(f"#confirmed-{seat}")).to_contain_text(
            f"\u2713 Player {number}: ")
        expect(phone.locator(f"#confirm-{seat}")).to_have_count(0)
    expect(phone.locator("[id^=confirmed-]")).to_have_count(4)
    phone.get_by_role("button", name="Submit round 1").click()
    expect(phone.get_by_text(re.compile(r"Submitted \d\d:\d\d, changes only by the director"))
           ).to_be_visible()


def test_public_standings_update_after_a_table_submits(live_server, page, new_phone,
                                                       director_account):
    seed_tournament(live_server, director_account[0], "RES001")
    submit(live_server, "RES001", 1, 2, [win("E")])          # table 2: East (#5) wins 25
    page.goto(live_server.url + "/results/RES001")
    table = page.get_by_role("table", name=re.compile("Overall"))
    first = table.locator("tbody tr").first
    expect(first).to_contain_text("Player 5")
    expect(first).to_contain_text("35")
    screenshot(page, "results-public")
    assert_accessible(page)

    # East at table 1 enters a bigger win on their own phone but has not submitted yet:
    # the official standings do not move, the provisional notice appears. Only the notice
    # comes (out of band): the lines on the page are the ones it had.
    page.evaluate("document.querySelector('#standings table').dataset.kept = 'yes'")
    token = table_token(live_server, "RES001", 1)
    east = east_submits_a_self_picked_50_for_south(
        new_phone(), f"{live_server.url}/t/RES001/1?k={token}")
    expect(page.get_by_text(re.compile("1 game entered at tables"))).to_be_visible(
        timeout=8_000)
    expect(first).to_contain_text("Player 5")
    expect(page.locator("#standings table")).to_have_attribute("data-kept", "yes")
    screenshot(page, "results-public-open-game")

    # East submits: within a poll or two the player sees the new leader, 50 + 10
    # self-picked (time called scores X under TNT).
    initial_and_submit(east)
    leader = page.locator("#standings tbody tr").first
    expect(leader).to_contain_text("Player 2", timeout=10_000)
    expect(leader).to_contain_text("60")
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
    # tnt states no tie-break: the director's draw is recorded as a draw, not a tile bag
    expect(page.get_by_text("Draw recorded")).to_be_visible()
    first = page.get_by_role("table", name=re.compile("Overall")).locator("tbody tr").first
    expect(first).to_contain_text("Player 5")
    assert_accessible(page)

    page.goto(f"{live_server.url}/results/director/{tournament_id}/print")
    assert_accessible(page)


def test_the_standings_offline_say_the_page_may_be_out_of_date(live_server, page,
                                                               director_account):
    """The standings have no clock: the "No connection" line speaks of the page."""
    email, _password = director_account
    code = "OFF" + secrets.token_hex(2).upper()
    seed_tournament(live_server, email, code)
    submit(live_server, code, 1, 1, [win("E")])
    page.goto(f"{live_server.url}/results/{code}")
    banner = page.locator("#offline-banner")
    expect(page.locator("table.standings tbody tr")).to_have_count(8)
    page.context.set_offline(True)
    expect(banner).to_have_text("No connection: this page may be out of date. Trying "
                                "again\u2026", timeout=WITHIN_ONE_POLL)
    expect(banner).to_be_in_viewport()
    page.context.set_offline(False)
    expect(banner).to_be_hidden(timeout=WITHIN_ONE_POLL)


def test_a_lost_answer_with_the_count_comes_again_with_the_next_poll(live_server, page,
                                                                     director_account):
    """The worst moment to lose the Wi-Fi: the poll whose answer carries the new count of
    games not counted yet (and the poll's new address). The phone says it lost the
    connection; the next poll, still at the old address, gets the count; the lines on the
    page stay."""
    email, _password = director_account
    code = "CUT" + secrets.token_hex(2).upper()
    seed_tournament(live_server, email, code)
    submit(live_server, code, 1, 1, [win("E")])
    page.goto(f"{live_server.url}/results/{code}")
    expect(page.locator("table.standings tbody tr")).to_have_count(8)
    page.evaluate("document.querySelector('#standings table').dataset.kept = 'yes'")

    submit(live_server, code, 1, 2, [win("S")], state="open")   # a game saved at table 2
    lost: list[str] = []

    def lose_the_first(route):
        if lost:
            route.continue_()
        else:
            lost.append(route.request.url)
            route.abort()

    page.route(re.compile(rf"/results/{code}\?"), lose_the_first)
    banner = page.locator("#offline-banner")
    expect(banner).to_be_visible(timeout=WITHIN_ONE_POLL)
    expect(page.get_by_text(re.compile("1 game entered at tables"))).to_be_visible(
        timeout=WITHIN_ONE_POLL)
    expect(banner).to_be_hidden()
    expect(page.locator("#standings table")).to_have_attribute("data-kept", "yes")
    assert lost and "o=0" in lost[0]
    screenshot(page, "results-public-count-after-a-lost-poll")
