"""Check-in at the door on a phone (390x844), counting what it costs: 40 players checked
in (a few characters typed, the row tapped, the name confirmed, each), with the counts in
view without a scroll; then from "all here but 3" to round 1 seated with 3 substitutes.
The counts are asserted as limits and printed; axe checks each new page state."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from e2e.conftest import (
    PHONE,
    assert_accessible,
    committed_tournament,
    screenshot,
    sign_in,
)


class Cost:
    """Taps, characters typed, names typed and scrolls, as a person at the desk spends
    them. A tap on something outside the viewport costs a scroll first."""

    def __init__(self, page):
        self.page = page
        self.taps = self.chars = self.names = self.scrolls = 0

    def _in_view(self, locator) -> bool:
        box = locator.bounding_box()
        height = (self.page.viewport_size or PHONE)["height"]
        return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height

    def tap(self, locator):
        if not self._in_view(locator):
            self.scrolls += 1
            locator.scroll_into_view_if_needed()
        locator.tap()
        self.taps += 1

    def type(self, locator, text, name=False):
        """Type into a box: a tap first unless it already has the focus."""
        if not locator.evaluate("element => element === document.activeElement"):
            self.tap(locator)
        self.page.keyboard.type(text)
        self.chars += len(text)
        self.names += bool(name)


def in_view(page, selector) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_forty_players_checked_in_from_one_phone(live_server, director_account, page):
    email, password = director_account
    made = committed_tournament(live_server, email, "Door Open", 40, seated=False)
    sign_in(page, live_server, email, password)
    page.goto(f"{live_server.url}/director/t/{made['id']}/checkin")
    expect(page.get_by_role("heading", name="Check-in")).to_be_visible()
    assert_accessible(page)
    cost = Cost(page)
    worst = (0, 0)
    for number in range(1, 41):
        before = (cost.taps, cost.chars)
        search = page.get_by_label("Find a player by name or number")
        cost.type(search, str(number))
        row = page.locator(".checkin-list li:not([hidden]) a").first
        expect(row).to_contain_text(f"Player {number}")
        assert row.bounding_box()["height"] >= 44
        cost.tap(row)
        # The tap names the player back; only the confirmation counts her in.
        expect(page.locator("#confirm-name")).to_have_text(f"Player {number}, No. {number}")
        if number == 1:
            screenshot(page, "checkin-confirm", full_page=False)
            assert_accessible(page)
        cost.tap(page.get_by_role("button", name="Here", exact=True))
        expect(page.get_by_role("status").filter(has_text=f"Player {number}, No. {number}: here")
               ).to_be_visible()
        expect(page.locator("#count-here")).to_have_text(str(number))
        assert in_view(page, "#count-here") and in_view(page, "#count-subs")
        worst = max(worst, (cost.taps - before[0], cost.chars - before[1]))
    screenshot(page, "checkin-done", full_page=False)
    assert_accessible(page)
    assert cost.scrolls == 0
    assert worst[0] <= 2 and worst[1] <= 3, worst
    print(f"\nChecking in 40 players: {cost.taps} taps, {cost.chars} characters typed, "
          f"{cost.scrolls} scrolls (at most {worst[0]} taps and {worst[1]} characters each)")

    # A wrong row is caught before it counts, and a mark is undone in one tap.
    cost.type(page.get_by_label("Find a player by name or number"), "7")
    page.locator(".checkin-list li:not([hidden]) a").first.tap()
    page.get_by_role("button", name="Not coming").tap()
    expect(page.locator("#count-here")).to_have_text("39")
    page.get_by_role("button", name="Undo").tap()
    expect(page.locator("#count-here")).to_have_text("40")


def three_missing(live_server, email):
    """28 players, all checked in but numbers 3, 9 and 20."""
    made = committed_tournament(live_server, email, "Short Three", 28, seated=False)
    with live_server.app_context():
        from models import Player, db

        for player in db.session.scalars(db.select(Player).where(
                Player.tournament_id == made["id"], Player.number.not_in((3, 9, 20)))):
            player.arrival = "here"
        db.session.commit()
    return made


def test_all_here_but_three_to_round_one_seated(live_server, director_account, page):
    email, password = director_account
    made = three_missing(live_server, email)
    sign_in(page, live_server, email, password)
    page.goto(f"{live_server.url}/director/t/{made['id']}/checkin")
    cost = Cost(page)
    expect(page.locator("#count-subs")).to_have_text("3")
    cost.tap(page.get_by_role("link", name="Seat round 1 ›"))
    for index, name in enumerate(("Sadie Sub", "Tess Sub", "Ursula Sub"), start=1):
        cost.type(page.get_by_label(f"Substitute {index}"), name, name=True)
    screenshot(page, "checkin-seat", full_page=False)
    assert_accessible(page)
    cost.tap(page.get_by_role("button", name="Seat round 1: 7 tables"))
    expect(page.get_by_text(re.compile(r"Round 1 is seated: 7 tables\. 3 player"))).to_be_visible()
    assert cost.taps <= 12 and cost.names <= 3
    print(f"\nAll here but 3 to round 1 seated: {cost.taps} taps, {cost.names} names typed, "
          f"{cost.scrolls} scrolls")

    # Nothing of a withdrawn player is lost: she is on the list, and comes back with her
    # number in one tap and its confirmation.
    search = page.get_by_label("Find a player by name or number")
    search.fill("9")
    row = page.locator(".checkin-list li:not([hidden]) a").first
    expect(row).to_contain_text("not here: out from round 1")
    row.tap()
    page.get_by_role("button", name="Here", exact=True).tap()
    expect(page.get_by_role("status").filter(has_text="Player 9, No. 9: here")).to_be_visible()
    with live_server.app_context():
        from models import Player, db

        players = db.session.scalars(db.select(Player).where(
            Player.tournament_id == made["id"], Player.name == "Player 9")).all()
        assert [(p.number, p.withdrawn_from_round) for p in players] == [(9, None)]


@pytest.mark.parametrize("size", [(390, 844), (360, 640)],
                         ids=lambda size: f"{size[0]}x{size[1]}")
def test_a_late_arrival_takes_a_substitutes_seat_in_one_tap(live_server, director_account,
                                                             new_phone, size):
    """All here but 3 at the start, 3 substitutes fill the last table; after round 1 has
    begun one of the 3 arrives: found, marked here, and given a substitute's seat from
    round 2: four taps (the last two: to her seat's choices, and the seat) and one
    character typed, no scroll."""
    email, password = director_account
    made = three_missing(live_server, email)
    page = new_phone({"width": size[0], "height": size[1]})
    sign_in(page, live_server, email, password)
    page.goto(f"{live_server.url}/director/t/{made['id']}/checkin")
    page.get_by_role("link", name="Seat round 1 ›").tap()
    for index, name in enumerate(("Sadie Sub", "Tess Sub", "Ursula Sub"), start=1):
        page.get_by_label(f"Substitute {index}").fill(name)
    page.get_by_role("button", name="Seat round 1: 7 tables").tap()
    expect(page.get_by_text(re.compile(r"Round 1 is seated: 7 tables"))).to_be_visible()
    with live_server.app_context():
        from models import Round, db, utcnow

        rnd = db.session.scalars(db.select(Round).where(
            Round.tournament_id == made["id"], Round.number == 1)).one()
        rnd.started_at = utcnow()
        db.session.commit()

    page.goto(f"{live_server.url}/director/t/{made['id']}/checkin")
    cost = Cost(page)
    cost.type(page.get_by_label("Find a player by name or number"), "9")
    cost.tap(page.locator(".checkin-list li:not([hidden]) a").first)
    cost.tap(page.get_by_role("button", name="Here", exact=True))
    cost.tap(page.get_by_role("link", name="Seat Player 9 ›"))
    take = page.get_by_role("button", name="Player 9 takes Sadie Sub’s seat")
    expect(take).to_be_visible()
    if size == (390, 844):
        screenshot(page, "checkin-late-takes-seat", full_page=False)
    assert_accessible(page)
    cost.tap(take)
    expect(page.get_by_text("Player 9 takes Sadie Sub’s seat from round 2")).to_be_visible()
    expect(page.get_by_role("heading", name="Waiting for a seat")).to_have_count(0)
    assert (cost.taps, cost.chars, cost.scrolls) == (4, 1, 0)
    print(f"\nA late arrival seated in a substitute's place: {cost.taps} taps, {cost.chars} "
          f"character typed, {cost.scrolls} scrolls")
