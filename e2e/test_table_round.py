"""East enters a whole round on a phone: four games, the right person initials each, every
player initials the total, East submits, the sheet locks, and a player looks up their seat
and sees the same points. Once under TNT and once under Hidden Tile, with their numbers."""

from __future__ import annotations

import re
import secrets

import pytest
from playwright.sync_api import expect

from e2e.conftest import assert_accessible, screenshot

NAMES = ["Ruth Abrams", "Bea Goldberg", "Carol Chen", "Dolores Ortiz", "Edith Klein",
         "Fran Weiss", "Gloria Park", "Harriet Stone"]


def seed(live_server, preset, with_director=False):
    """A seated 2-table tournament; returns (code, table 1 token), and with_director also
    (tournament id, director email, password)."""
    from blueprints.auth.service import create_user
    from blueprints.director.seating import seat_round_one
    from blueprints.director.tournaments import create_tournament
    from models import Player, db

    with live_server.app_context():
        email = f"td-{secrets.token_hex(3)}@example.com"
        user, _ = create_user(email, "Tess Director", "pw-1234567")
        code = "T" + secrets.token_hex(2).upper() + preset[:1].upper()
        tournament = create_tournament(user, name=f"{preset} Classic", preset=preset,
                                               rounds=2, code=code)
        for number, name in enumerate(NAMES, start=1):
            tournament.players.append(Player(number=number, name=name))
        db.session.flush()
        seat_round_one(tournament, method="number", user=user)
        db.session.commit()
        if with_director:
            return code, tournament.tables[0].token, tournament.id, email, "pw-1234567"
        return code, tournament.tables[0].token


def tap(page, name, value):
    """Tap one big button (the label of a radio or checkbox)."""
    page.locator(f"label[for='{name}-{value}']").click()


def live_score(page, seat_index):
    return page.locator("#live-scores .score-points").nth(seat_index)


def save(page, initials, signer_words, game_no):
    expect(page.locator("label[for=initials]")).to_contain_text(signer_words)
    page.locator("#initials").fill(initials)
    page.get_by_role("button", name=f"Save game {game_no}").click()
    expect(page.locator("h1")).to_contain_text("Table 1")


def sheet_row(page, game_no):
    return page.locator("#sheet .game-card").nth(game_no - 1)


def enter_round(page, live_server, code, token, numbers, time_via_button):
    table_url = f"{live_server.url}/t/{code}/1?k={token}"
    page.goto(table_url)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Table 1")
    expect(page.get_by_text("Ruth Abrams", exact=True)).to_be_visible()
    screenshot(page, f"table-{numbers['key']}-page")
    assert_accessible(page)

    # Game 1: South self-picks a jokerless hand worth 30.
    page.get_by_role("link", name="Enter game 1").click()
    expect(page.locator("#step-winner")).to_be_hidden()  # steps appear one by one
    assert_accessible(page)
    tap(page, "outcome", "mahjong")
    tap(page, "winner", "S")
    expect(page.locator("#step-value")).to_be_visible()
    screenshot(page, f"table-{numbers['key']}-entry-step")
    tap(page, "value", "30")
    tap(page, "win_by", "self")
    expect(page.locator("#step-thrower")).to_be_hidden()  # no thrower for a self-pick
    page.locator("label[for=jokerless]").click()
    expect(live_score(page, 1)).to_have_text(str(numbers["g1_south"]))
    expect(live_score(page, 0)).to_have_text("X")
    expect(page.locator("#live-scores")).to_contain_text(numbers["jokerless_words"])
    screenshot(page, f"table-{numbers['key']}-entry")
    assert_accessible(page)
    # saving without the initials is refused at the field; nothing East tapped is lost
    page.get_by_role("button", name="Save game 1").click()
    expect(page.locator("#err-sign")).to_contain_text("initials")
    expect(page.locator("#winner-S")).to_be_checked()
    expect(page.locator("#jokerless")).to_be_checked()
    save(page, "BG", "Hand the phone to Bea Goldberg (South) to initial game 1", 1)
    expect(sheet_row(page, 1)).to_contain_text("Bea Goldberg (South) won, self-picked.")
    expect(sheet_row(page, 1).locator(".score-points").nth(1)).to_have_text(
        str(numbers["g1_south"]))

    # Game 2: North throws to East's hand of 25 with 2 exposures.
    page.get_by_role("link", name="Enter game 2").click()
    tap(page, "outcome", "mahjong")
    tap(page, "winner", "E")
    page.locator("#value_other").fill("25")
    tap(page, "win_by", "thrown")
    tap(page, "thrower", "N")
    tap(page, "exposures", "2")
    expect(live_score(page, 3)).to_have_text(str(numbers["g2_thrower"]))
    expect(live_score(page, 0)).to_have_text("25")
    save(page, "CC", "Hand the phone to Carol Chen (West) to initial game 2", 2)
    expect(sheet_row(page, 2).locator(".score-points").nth(3)).to_have_text(
        str(numbers["g2_thrower"]))

    # Game 3: a wall game; North's hand was dead.
    page.get_by_role("link", name="Enter game 3").click()
    tap(page, "outcome", "wall")
    page.get_by_text("Dead hands, penalties or a note").click()
    tap(page, "dead", "N")
    expect(live_score(page, 3)).to_have_text("X")
    expect(live_score(page, 2)).to_have_text("10")
    save(page, "CC", "Hand the phone to Carol Chen (West) to initial game 3", 3)

    # Game 4: time is called before it ends.
    if time_via_button:
        page.get_by_role("link", name=re.compile("Review the round")).click()
        page.get_by_text("Time was called before game 4 was finished?").click()
        page.get_by_label("Yes, the director called time").check()
        page.get_by_role("button", name=re.compile("as time called")).click()
        expect(page.locator(".flash", has_text="recorded as time called")).to_be_visible()
    else:
        page.get_by_role("link", name="Enter game 4").click()
        tap(page, "outcome", "time")
        expect(page.locator("#live-scores")).to_contain_text(numbers["time_words"])
        save(page, "CC", "Hand the phone to Carol Chen (West) to initial game 4", 4)
        page.get_by_role("link", name=re.compile("Review the round")).click()

    # Review: every player initials their own total, then East submits.
    expect(page.locator("#total-S")).to_have_text(numbers["total_south"])
    screenshot(page, f"table-{numbers['key']}-review")
    assert_accessible(page)
    for seat, initials in (("E", "RA"), ("S", "BG"), ("W", "CC"), ("N", "DO")):
        page.locator(f"#initials-{seat}").fill(initials)
        page.locator(f"#initials-{seat}").locator("xpath=..").get_by_role(
            "button", name="Initial").click()
        expect(page.locator(".signed-line", has_text=f"Initialled {initials}")).to_be_visible()
    page.get_by_role("button", name="Submit round 1").click()
    expect(page.get_by_text(re.compile(r"Submitted \d\d:\d\d, changes only by the director"))
           ).to_be_visible()
    expect(page.get_by_role("link", name=re.compile("Enter game"))).to_have_count(0)
    screenshot(page, f"table-{numbers['key']}-submitted")
    assert_accessible(page)
    return table_url


def check_player(phone, live_server, code, numbers):
    phone.goto(f"{live_server.url}/p/{code}/seat")
    phone.get_by_label("Your player number").fill("2")
    phone.get_by_role("button", name="Show my seat").click()
    # round 1's sheet is in, so the page answers "where do I go next"
    expect(phone.locator(".where")).to_contain_text("Next, round 2: go to")
    expect(phone.locator(".where")).to_contain_text("Table 2 South")
    first = phone.locator("table.itinerary tbody tr").nth(0)
    expect(first.locator("td").nth(0)).to_have_text("1")
    expect(first.locator("td").nth(1)).to_have_text("South")
    # hidden-tile: "after verification, scores are final": submitted, not verified, is
    # still provisional
    provisional = " provisional" if numbers["key"] == "htm" else ""
    expect(first.locator("td").nth(2)).to_have_text(numbers["total_south"] + provisional)
    screenshot(phone, f"player-{numbers['key']}-seat")
    assert_accessible(phone)
    phone.get_by_role("link", name="My scores, game by game").click()
    round1 = phone.locator("section", has=phone.locator("#round-1"))
    rows = round1.locator("table.grid tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.nth(0).locator("td").last).to_have_text(numbers["player_g1"])
    expect(round1.locator("table.grid tfoot td")).to_have_text(numbers["total_south"])
    expect(phone.get_by_text("Initialled by you (BG)")).to_be_visible()
    expect(phone.get_by_text("Submitted", exact=True)).to_be_visible()
    screenshot(phone, f"player-{numbers['key']}-scores")
    assert_accessible(phone)


@pytest.mark.parametrize("preset, numbers, time_via_button", [
    ("tnt", {"key": "tnt", "g1_south": 50, "g2_thrower": -10, "jokerless_words":
             "jokerless +10 (TNT)", "time_words": "", "total_south": "60",
             "player_g1": "50"}, True),
    ("hidden-tile", {"key": "htm", "g1_south": 60, "g2_thrower": -20, "jokerless_words":
                     "jokerless +20 (Hidden Tile)",
                     "time_words": "every game of this round score X", "total_south": "X",
                     "player_g1": "X"}, False),
])
def test_east_enters_a_round_and_a_player_sees_the_same_points(
        live_server, page, new_phone, preset, numbers, time_via_button):
    code, token = seed(live_server, preset)
    table_url = enter_round(page, live_server, code, token, numbers, time_via_button)
    # the locked sheet offers no entry even by URL
    page.goto(table_url.replace("?k=", "/game?k="))
    expect(page.get_by_text("Only the director can change it now")).to_be_visible()
    check_player(new_phone(), live_server, code, numbers)


def test_a_wrong_table_link_is_a_plain_page(live_server, page):
    code, _ = seed(live_server, "tnt")
    response = page.goto(f"{live_server.url}/t/{code}/1?k=not-the-token")
    assert response.status == 404
    expect(page.get_by_text("This table link is no longer valid. Ask the director for the "
                            "table's QR code.")).to_be_visible()
    assert_accessible(page)


def write_round_one(live_server, token, games=(), initials=()):
    """Table `token`'s round 1 written as its phones would (sheet_writes, signoffs), each
    write at the sheet's version: `games` as (number, record), then `initials` as (seat,
    initials). Returns the tournament's id."""
    from blueprints.table import signoffs
    from blueprints.table.sheet_writes import save_game
    from core.sheets import sheet_for
    from models import Round, Table, db

    with live_server.app_context():
        table = db.session.scalar(db.select(Table).where(Table.token == token))
        rnd = db.session.scalar(db.select(Round).where(
            Round.tournament_id == table.tournament_id, Round.number == 1))

        def version():
            sheet = sheet_for(rnd, table)
            return sheet.version if sheet else 1

        for number, record in games:
            save_game(table, rnd, number, record, initials="W", version=version(),
                      key=secrets.token_hex(4))
        for seat, letters in initials:
            signoffs.sign_round(table, rnd, seat, letters, version=version(),
                                key=secrets.token_hex(4))
        return table.tournament_id


WALLS = [(number, {"outcome": "wall"}) for number in range(1, 5)]


def test_four_players_initial_their_totals_at_once_on_their_own_phones(live_server,
                                                                          new_phone):
    """Each player scanned the table's QR and opened the review before anyone initialled:
    every tap counts, with no "the sheet was changed" for the other three."""
    code, token = seed(live_server, "tnt")
    write_round_one(live_server, token, WALLS)
    review = f"{live_server.url}/t/{code}/1/review?k={token}"
    phones = {}
    for seat, initials in (("E", "RA"), ("S", "BG"), ("W", "CC"), ("N", "DO")):
        phone = phones[seat] = new_phone()
        phone.goto(review)
        phone.locator(f"#initials-{seat}").fill(initials)
    for seat, initials in (("E", "RA"), ("S", "BG"), ("W", "CC"), ("N", "DO")):
        phone = phones[seat]
        phone.locator(f"#initials-{seat}").locator("xpath=..").get_by_role(
            "button", name="Initial").click()
        expect(phone.locator(".signed-line", has_text=f"Initialled {initials}")
               ).to_be_visible()
        expect(phone.locator(".banner-conflict")).to_have_count(0)
    # the last phone's page shows all four, and East can submit
    expect(phones["N"].locator(".signed-line")).to_have_count(4)
    expect(phones["N"].get_by_role("button", name="Submit round 1")).to_be_enabled()


def test_initials_for_a_total_a_correction_moved_are_refused_at_the_box(live_server,
                                                                        new_phone):
    """South opened the review, then East corrected a game that changed South's total:
    South's tap is refused at their box with the new total, their initials kept."""
    code, token = seed(live_server, "tnt")
    write_round_one(live_server, token, WALLS)
    south = new_phone()
    south.goto(f"{live_server.url}/t/{code}/1/review?k={token}")
    expect(south.locator("#total-S")).to_have_text("40")  # four wall games, 10 each
    south.locator("#initials-S").fill("BG")
    write_round_one(live_server, token, [(1, {"outcome": "mahjong", "winner": "S",
                                              "value": 25, "self_picked": True})])
    south.locator("#initials-S").locator("xpath=..").get_by_role("button",
                                                                name="Initial").click()
    expect(south.locator("#err-initials-S")).to_contain_text(
        "A game was changed meanwhile: your total is now ")
    # the page comes back at the player's box, not at its top, 3,000 px above
    expect(south.locator("#err-initials-S")).to_be_in_viewport()
    total = south.locator("#total-S").inner_text()
    assert total != "40"
    expect(south.locator("#err-initials-S")).to_contain_text(f"your total is now {total}.")
    expect(south.locator("#initials-S")).to_have_value("BG")
    screenshot(south, "review-initials-total-moved")
    assert_accessible(south)
    # the refusal keeps the review's address: a reload shows the review, not the answer
    # to a GET of the form's action
    assert "/review?" in south.url
    south.reload()
    expect(south.locator("#total-S")).to_have_text(total)
    south.locator("#initials-S").fill("BG")
    south.locator("#initials-S").locator("xpath=..").get_by_role("button",
                                                                name="Initial").click()
    expect(south.locator(".signed-line", has_text="Initialled BG")).to_be_visible()


def test_submit_with_the_network_cut_says_so_and_a_second_tap_submits_once(live_server,
                                                                             page):
    """The round's end is when the venue's Wi-Fi is busiest: East's Submit (and a
    player's initials) sent into a dead network say so at the button, the page stays as
    it is, and a tap once the Wi-Fi is back submits the sheet once."""
    code, token = seed(live_server, "tnt")
    tournament_id = write_round_one(live_server, token, WALLS,
                                    [(seat, seat * 2) for seat in "ESW"])
    page.goto(f"{live_server.url}/t/{code}/1/review?k={token}")
    page.locator("#initials-N").fill("DO")
    page.context.set_offline(True)
    page.locator("#initials-N").locator("xpath=..").get_by_role("button",
                                                               name="Initial").click()
    note = page.locator(".initial-form .send-note")
    expect(note).to_contain_text("No answer from the server")
    expect(note).to_be_in_viewport()
    expect(page.locator("#initials-N")).to_have_value("DO")
    screenshot(page, "review-initial-not-sent", full_page=False)
    page.context.set_offline(False)
    page.locator("#initials-N").locator("xpath=..").get_by_role("button",
                                                               name="Initial").click()
    expect(page.locator(".signed-line", has_text="Initialled DO")).to_be_visible()
    expect(page.get_by_text("North initialled.")).to_be_in_viewport()  # the page's top

    # the reply is lost, not the request: the sheet is submitted, and the second tap
    # says so rather than submitting it twice
    page.route("**/submit?**", lambda route: (route.fetch(), route.abort())[1])
    page.get_by_role("button", name="Submit round 1").click()
    expect(page.locator(".submit-form .send-note")).to_contain_text(
        "if the first tap got through, it counts only once")
    page.unroute("**/submit?**")
    page.get_by_role("button", name="Submit round 1").click()
    expect(page.get_by_text(re.compile(r"Submitted \d\d:\d\d, changes only by the director"))
           ).to_be_visible()
    with live_server.app_context():
        from models import AuditEvent, db

        assert db.session.scalar(db.select(db.func.count()).select_from(AuditEvent).where(
            AuditEvent.action == "sheet.submit",
            AuditEvent.tournament_id == tournament_id)) == 1
