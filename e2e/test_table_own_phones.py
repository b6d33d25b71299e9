"""The TNT round of e2e/test_table_pace.py with four phones at the table (390x844 and 360x640, one
browser context each): South, West and North open the table's link on their own phones
and tap "this is me"; East enters each game and saves it for its signer, who confirms on
their own phone (within one poll) while East goes on to the next game; South's phone shows
East's answers for game 2 as they are tapped (within one poll), not saved yet; in the review each
player confirms their round total on their own phone, East's review shows each one
arriving, and East submits. Then every phone says where its player goes next.

Counted as the pace test counts (its Table: taps, typed entries, scrolls, page jumps,
hand-overs) on every phone. The round's estimate counts East's phone whole and the
others' taps once where they are made in parallel with East's: the "this is me" taps at
the start (before East's first game), and the review, where East waits for the last
confirmation. The games' confirmations are made while East enters the next game, so they
add nothing, except the last game's, made while East opens the review (in that part).
Counts are asserted, never timings."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from e2e.conftest import WITHIN_ONE_POLL, assert_accessible, screenshot
from e2e.test_guide_pictures import picture
from e2e.test_table_pace import SECONDS, Table
from e2e.test_table_round import seed
from e2e.test_table_trust import db_games

PLAYERS = {"E": "Ruth Abrams", "S": "Bea Goldberg", "W": "Carol Chen", "N": "Dolores Ortiz"}


# The smallest phone: East scrolls once, at the wall game's save (its dead hands above
# it); "this is me" is in sight under East's "Enter game 1" on every phone. The guide's
# pictures are the 390x844 run's.
SCROLLS_AT = {(390, 844): {}, (360, 640): {"game 3": 1}}


@pytest.mark.parametrize("size", sorted(SCROLLS_AT), ids=lambda size: f"{size[0]}x{size[1]}")
def test_a_tnt_round_with_four_phones_takes_no_hand_over(live_server, new_phone, size):
    code, token = seed(live_server, "tnt")
    url = f"{live_server.url}/t/{code}/1?k={token}"
    big = size == (390, 844)
    phones = {seat: Table(new_phone({"width": size[0], "height": size[1]}))
              for seat in PLAYERS}
    east = phones["E"]
    page = east.page

    # Each other player: the table's link on their own phone, one tap on their name.
    for seat in "SWN":
        phone = phones[seat]
        phone.part("this is me")
        phone.page.goto(url)
        phone.tap(phone.page.get_by_role("button", name=f"This is me: {PLAYERS[seat]} ("),
                  phone.page.get_by_text(f"{PLAYERS[seat]}, "
                                         f"{dict(S='South', W='West', N='North')[seat]}: "
                                         "this phone is yours"))
    if big:
        screenshot(phones["S"].page, "own-phone-this-is-me")
    assert_accessible(phones["S"].page)
    page.goto(url)

    def enter(game_no):
        east.tap(page.get_by_role("link", name=f"Enter game {game_no}"),
                 page.locator("#step-outcome"))

    def save_for(signer, game_no):
        button = page.get_by_role(
            "button", name=f"Save game {game_no}: {PLAYERS[signer]} confirms on their phone")
        east.tap(button, page.locator(".flash", has_text=f"Game {game_no} saved."))
        expect(page.locator(f"#waiting-{game_no}")).to_contain_text(
            f"Waiting for {PLAYERS[signer]} to confirm (on their phone)")

    def confirm(signer, game_no, points_text):
        """The signer's own phone offers the game within one poll; one tap."""
        phone = phones[signer]
        phone.part(f"game {game_no}")
        button = phone.page.locator(f"#my-confirm-{game_no}")
        expect(button).to_have_text(f"{PLAYERS[signer]}: {points_text} is right",
                                    timeout=WITHIN_ONE_POLL)
        if game_no == 1 and big:
            signer_page = phone.page
            picture(signer_page, "own-phone")  # the table guide's picture
        phone.tap(button, phone.page.locator(".flash", has_text=f"Game {game_no} confirmed."))

    # Game 1: South wins a 25 thrown by West to 2 exposures; South confirms on her phone
    # while East enters game 2.
    east.part("game 1")
    enter(1)
    east.answer("outcome", "mahjong\\:S", page.locator("#step-value"))
    east.answer("value", "25", page.locator("#step-win_by"))
    east.answer("win_by", "thrown\\:W", page.locator("#step-exposures"))
    east.answer("exposures", "2", page.locator("#confirm-later"))
    expect(page.locator("#waiting-own-phone")).to_contain_text("Bea Goldberg")
    if big:
        screenshot(page, "own-phone-east-saves-for-south", full_page=False)
    assert_accessible(page)
    save_for("S", 1)

    # Game 2: North self-picks a jokerless 30.
    east.part("game 2")
    enter(2)
    confirm("S", 1, "25")  # arrives while East is on game 2: East's save still goes in
    if big:
        screenshot(phones["S"].page, "own-phone-south-confirmed")
    east.answer("outcome", "mahjong\\:N", page.locator("#step-value"))
    east.answer("value", "30", page.locator("#step-win_by"))
    east.answer("win_by", "self", page.locator("#confirm-later"))
    # South's phone follows the game as East taps it in, within one poll, without a tap
    south_draft = phones["S"].page.locator("#my-draft")
    expect(south_draft).to_contain_text("Dolores Ortiz (North) won, self-picked. Hand: 30.",
                                        timeout=WITHIN_ONE_POLL)
    expect(south_draft).to_contain_text("East is entering game 2 (not saved yet)")
    if big:
        screenshot(phones["S"].page, "own-phone-east-entering", full_page=False)
    if big:
        south_page = phones["S"].page
        picture(south_page, "own-phone-entering")  # the table guide's picture
    assert_accessible(phones["S"].page)
    east.tap(page.locator("label[for=jokerless]"), page.locator("#live-scores", has_text="50"))
    expect(south_draft).to_contain_text("Your points if East saves it so:",
                                        timeout=WITHIN_ONE_POLL)
    save_for("N", 2)
    expect(south_draft).to_have_count(0, timeout=WITHIN_ONE_POLL)  # saved: on the sheet

    # Game 3: a wall game, West's hand dead; West signs.
    east.part("game 3")
    enter(3)
    confirm("N", 2, "50")
    east.answer("outcome", "wall", page.locator("#step-dead"))
    east.answer("dead", "W", page.locator("#confirm-later"))
    save_for("W", 3)

    # Game 4: East self-picks a 35; West initials East's win.
    east.part("game 4")
    enter(4)
    confirm("W", 3, "X")
    east.answer("outcome", "mahjong\\:E", page.locator("#step-value"))
    east.answer("value", "35", page.locator("#step-win_by"))
    east.answer("win_by", "self", page.locator("#confirm-later"))
    save_for("W", 4)

    # The review: East opens it and confirms her own total; the others confirm on their
    # phones, and East's review shows each arriving; then East submits.
    east.part("review")
    east.tap(page.get_by_role("link", name=re.compile("Review the round")),
             page.locator("#review"))
    east.tap(page.locator("#confirm-E"), page.locator("#confirmed-E"))
    for seat in "SWN":
        phone = phones[seat]
        if seat == "W":
            phone.part("review")
            button = phone.page.locator("#my-confirm-4")
            expect(button).to_be_visible(timeout=WITHIN_ONE_POLL)
            phone.tap(button, phone.page.locator(".flash", has_text="Game 4 confirmed."))
        phone.part("review")
        total = phone.page.locator("#my-total")
        expect(total).to_contain_text(f"{PLAYERS[seat]}: ", timeout=WITHIN_ONE_POLL)
        phone.tap(total, phone.page.locator("#my-total-confirmed"))
    if big:
        screenshot(phones["W"].page, "own-phone-west-confirmed-total")
    for seat in "SWN":
        expect(page.locator(f"#confirmed-{seat}")).to_be_visible(timeout=WITHIN_ONE_POLL)
    expect(page.locator("#games-waiting")).to_have_count(0)
    east.tap(page.get_by_role("button", name="Submit round 1"),
             page.get_by_text(re.compile(r"Submitted \d\d:\d\d")))

    # Where next, on each player's phone, within one poll of the submit.
    for seat in "SWN":
        expect(phones[seat].page.get_by_text(re.compile(r"Submitted \d\d:\d\d"))
               ).to_be_visible(timeout=WITHIN_ONE_POLL)
        where = phones[seat].page.locator("#my-next")
        expect(where).to_contain_text(re.compile(r"Next round: table \d+"),
                                      timeout=WITHIN_ONE_POLL)
        expect(where).to_contain_text("not seated round 2 yet")
    if big:
        screenshot(phones["N"].page, "own-phone-where-next", full_page=False)
    assert_accessible(phones["N"].page)

    # Scored as the rule sheet says (tnt), as in the pace test's one-phone round; every
    # game confirmed by its signer (from the signer's name).
    games = db_games(live_server, code)
    assert [g[1] for g in games] == ["mahjong", "mahjong", "wall", "mahjong"]
    assert games[0][2]["S"] == 25 and games[1][2]["N"] == 50 and games[3][2]["E"] == 45

    every = [(seat, name, counts) for seat, phone in phones.items()
             for name, counts in phone.parts.items()]
    for seat, name, counts in every:
        assert counts.typed == 0 and counts.handovers == 0, (seat, name, counts)
        assert counts.scrolls <= SCROLLS_AT[size].get(name, 0), (seat, name, counts)
        assert counts.jumps == 0, (seat, name, counts)
    east_taps = sum(c.taps for c in east.parts.values())
    assert east_taps <= 27, east.parts
    for seat in "SN":
        assert sum(c.taps for c in phones[seat].parts.values()) == 3, phones[seat].parts
    assert sum(c.taps for c in phones["W"].parts.values()) == 4, phones["W"].parts

    def others(part):
        return max(phones[seat].parts[part].seconds() if part in phones[seat].parts else 0
                   for seat in "SWN")

    estimate = (sum(c.seconds() for c in east.parts.values())
                + others("this is me") + others("review"))
    assert estimate <= 70, (estimate, {seat: phone.parts for seat, phone in phones.items()})
    print(f"\nfour phones at {size[0]}x{size[1]}: East {east_taps} taps; "
          + "; ".join(f"{seat} {sum(c.taps for c in phones[seat].parts.values())} taps"
                      for seat in "SWN")
          + f"; round ~{estimate} s ({SECONDS['tap']} s a tap)")


def test_a_confirmation_whose_answer_is_lost_says_so_and_is_sent_again_once(live_server,
                                                                            new_phone):
    """Bad Wi-Fi at the player's phone: the confirmation went through but its answer was
    lost. The phone says so at the button and sends it again by itself, with the same
    key: one confirmation is stored, and the page then says it was confirmed."""
    code, token = seed(live_server, "tnt")
    with live_server.app_context():
        import secrets

        from blueprints.table.sheet_writes import save_game
        from core.sheets import sheet_for
        from models import Round, Table, db

        table = db.session.scalar(db.select(Table).where(Table.token == token))
        rnd = db.session.scalar(db.select(Round).where(
            Round.tournament_id == table.tournament_id, Round.number == 1))
        sheet = sheet_for(rnd, table)
        save_game(table, rnd, 1, {"outcome": "mahjong", "winner": "S", "value": 25,
                                  "discarder": "W", "exposures": 2},
                  initials="", confirm_later="S", version=sheet.version if sheet else 1,
                  key=secrets.token_hex(4))
        tournament_id = table.tournament_id
    south = new_phone()
    south.goto(f"{live_server.url}/t/{code}/1?k={token}")
    south.get_by_role("button", name="This is me: Bea Goldberg (South)").click()
    button = south.locator("#my-confirm-1")
    expect(button).to_have_text("Bea Goldberg: 25 is right")
    # The Wi-Fi drops as the confirmation leaves: it reaches the server, its answer is
    # lost, and so is every poll until the Wi-Fi is back (a poll answered meanwhile would
    # show the confirmation and end the note before it is read).
    def wifi_down(route):
        if "/confirm-game?" in route.request.url:
            route.fetch()
        route.abort()

    south.route("**/*", wifi_down)
    button.click()
    note = south.locator("#my-view .send-note")
    expect(note).to_contain_text("No answer from the server: the Wi-Fi may be down.")
    expect(note).to_contain_text(re.compile("by itself.*counts (only )?once"))
    screenshot(south, "own-phone-confirmation-not-answered", full_page=False)
    south.unroute("**/*")
    expect(south.locator("#my-confirmed-1")).to_have_text(
        "\u2713 Game 1 confirmed (BG): 25.", timeout=12_000)  # the next resend, within 5 s
    expect(south.locator("#my-confirm-1")).to_have_count(0)
    expect(south.locator(".send-note")).to_have_count(0)
    with live_server.app_context():
        from models import AuditEvent, db

        assert db.session.scalar(db.select(db.func.count()).select_from(AuditEvent).where(
            AuditEvent.action == "game.confirm",
            AuditEvent.tournament_id == tournament_id)) == 1


@pytest.mark.parametrize("size", [(320, 568), (360, 640), (375, 667)],
                         ids=lambda size: f"{size[0]}x{size[1]}")
def test_this_is_me_is_in_sight_on_a_small_phone_before_and_during_the_round(
        live_server, new_phone, size):
    """The seat buttons of "this is me" sit above the call bar with no scroll, on the
    smallest phones the floor names (an iPhone SE's 320x568 included), before the round
    starts and while its clock runs; East's "Enter game 1" above them. The tournament's
    name is one that takes two lines at 320 px."""
    code, token = seed(live_server, "tnt")
    with live_server.app_context():
        from models import Tournament, db

        db.session.scalar(db.select(Tournament).where(Tournament.code == code)).name = \
            "The Palm Beach Spring Mah Jongg Classic"
        db.session.commit()
    phone = new_phone({"width": size[0], "height": size[1]})
    for running in (False, True):
        if running:
            with live_server.app_context():
                from core.rounds import round_row
                from models import Tournament, db, utcnow

                tournament = db.session.scalar(db.select(Tournament).where(
                    Tournament.code == code))
                round_row(tournament, 1).started_at = utcnow()
                db.session.commit()
        phone.goto(f"{live_server.url}/t/{code}/1?k={token}")
        expect(phone.locator(".clock__time")).to_have_text(
            re.compile(r"^(49|50):\d\d$"))
        bar_top = phone.locator(".call-bar").bounding_box()["y"]
        for button in [phone.get_by_role("link", name="Enter game 1"),
                       *phone.locator(".this-is-me-names button").all()]:
            box = button.bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= bar_top, (running, box)
        assert phone.evaluate("window.scrollY") == 0
        if size == (320, 568):
            screenshot(phone, f"own-phone-this-is-me-320x568{'-running' if running else ''}",
                       full_page=False)
