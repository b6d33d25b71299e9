"""East enters a whole round on a phone: four games, the right person signs each with one
tap on their own name, every player confirms their total with one tap, East submits, the
sheet locks, and a player looks up their seat and sees the same points. Once under TNT
and once under Hidden Tile, with their numbers."""

from __future__ import annotations

import re
import secrets

import pytest
from playwright.sync_api import expect

from e2e.conftest import assert_accessible, screenshot

LIVE_POLL = re.compile(r"/live/t/\w+/1\?")

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
    """Tap one big button (the label of a radio or checkbox); a value with a colon
    ("mahjong:S", "thrown:W") is escaped for CSS here."""
    value = value.replace("\\:", ":").replace(":", "\\:")
    page.locator(f"label[for='{name}-{value}']").click()


def live_score(page, seat_index):
    return page.locator("#live-scores .score-points").nth(seat_index)


def save(page, button_words, game_no):
    """The signer taps their own button ("Bea Goldberg: 35 is right"): the game is saved
    with the initials from their name, and the table page comes back saying so."""
    button = page.locator(".sign-button")
    expect(button).to_have_text(button_words)
    button.click()
    expect(page.locator(".flash", has_text=f"Game {game_no} saved.")).to_be_visible()
    expect(page.locator("h1")).to_contain_text("Table 1")


def sheet_row(page, game_no):
    return page.locator("#sheet .game-card").nth(game_no - 1)


def confirm(page, seat, name, initials):
    """A player's one tap on their own total in the review."""
    page.locator(f"#confirm-{seat}").click()
    expect(page.locator(f"#confirmed-{seat}")).to_contain_text(f"\u2713 {name}: {initials}")


def enter_round(page, live_server, code, token, numbers, time_via_button):
    table_url = f"{live_server.url}/t/{code}/1?k={token}"
    page.goto(table_url)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Table 1")
    expect(page.get_by_text("Ruth Abrams", exact=True)).to_be_visible()
    screenshot(page, f"table-{numbers['key']}-page")
    assert_accessible(page)

    # Game 1: South self-picks a jokerless hand worth 30.
    page.get_by_role("link", name="Enter game 1").click()
    expect(page.locator("#step-outcome legend")).to_have_text(
        "Who made Mah Jongg in game 1?")
    expect(page.locator("label[for='outcome-mahjong\\:S']")).to_contain_text(
        "South \u00b7 Bea Goldberg")
    expect(page.locator("#step-value")).to_be_hidden()  # steps appear one by one
    expect(page.locator(".sign-button")).to_have_count(0)
    assert_accessible(page)
    tap(page, "outcome", "mahjong:S")  # who won and how it ended: one tap
    expect(page.locator("#step-value")).to_be_visible()
    expect(page.locator("#step-winner")).to_have_count(0)  # no separate winner step
    expect(page.locator("#entry ul.answers")).to_contain_text("South won")
    screenshot(page, f"table-{numbers['key']}-entry-step")
    tap(page, "value", "30")
    tap(page, "win_by", "self")
    expect(page.locator("#step-exposures")).to_be_hidden()  # none for a self-pick
    page.locator("label[for=jokerless]").click()
    expect(live_score(page, 1)).to_have_text(str(numbers["g1_south"]))
    expect(live_score(page, 0)).to_have_text("X")
    # how the points were counted, folded under the sign button
    page.get_by_text("How these points were counted").click()
    expect(page.locator("#step-sign details.why")).to_contain_text(numbers["jokerless_words"])
    screenshot(page, f"table-{numbers['key']}-entry")
    assert_accessible(page)
    # a folded answer reopens its question; changing it keeps the rest
    page.locator("#entry ul.answers button", has_text="30").click()
    expect(page.locator("#step-value")).to_be_visible()
    expect(page.locator("#value-30")).to_be_checked()
    expect(page.locator("#jokerless")).to_be_checked()
    # no typing: the winner signs with one tap on their own name
    expect(page.locator("#initials")).to_have_count(0)
    save(page, f"Bea Goldberg: {numbers['g1_south']} is right", 1)
    expect(sheet_row(page, 1)).to_contain_text("Bea Goldberg (South) won, self-picked.")
    expect(sheet_row(page, 1).locator(".initials")).to_have_text(
        "Bea Goldberg (South) initialled the scores: BG.")
    expect(sheet_row(page, 1).locator(".score-points").nth(1)).to_have_text(
        str(numbers["g1_south"]))

    # Game 2: North throws to East's hand of 25 with 2 exposures; the value is typed,
    # and sent only once it reads as a whole card value.
    page.get_by_role("link", name="Enter game 2").click()
    tap(page, "outcome", "mahjong:E")
    expect(page.locator("#step-value")).to_be_visible()
    previews = []
    page.on("request", lambda r: "/game/preview" in r.url and previews.append(r.url))
    page.locator("#value_other").press_sequentially("2")
    page.wait_for_timeout(600)
    assert previews == []  # a half-typed "2" is not sent
    expect(page.locator("#step-win_by")).to_be_hidden()
    page.locator("#value_other").press_sequentially("5")
    expect(page.locator("#step-win_by")).to_be_visible()
    expect(page.locator("label[for='win_by-thrown\\:N']")).to_contain_text(
        "Thrown by North")
    tap(page, "win_by", "thrown:N")
    expect(page.locator("#step-thrower")).to_have_count(0)  # the thrower came with it
    tap(page, "exposures", "2")
    expect(page.locator("#entry ul.answers")).to_have_text(
        re.compile("East won.*25.*North threw.*2 exposures", re.S))
    expect(live_score(page, 3)).to_have_text(str(numbers["g2_thrower"]))
    expect(live_score(page, 0)).to_have_text("25")
    save(page, "Carol Chen: these are right", 2)  # West signs East's win
    expect(sheet_row(page, 2).locator(".score-points").nth(3)).to_have_text(
        str(numbers["g2_thrower"]))
    expect(sheet_row(page, 2).locator(".initials")).to_contain_text("CC")

    # Game 3: a wall game; North's hand was dead. The dead hands are asked first.
    page.get_by_role("link", name="Enter game 3").click()
    tap(page, "outcome", "wall")
    expect(page.locator("#step-dead")).to_be_visible()
    expect(page.locator("#step-dead legend")).to_have_text("Any dead hands?")
    expect(page.locator("label[for=no_dead]")).to_contain_text("No dead hands")
    expect(page.locator(".sign-button")).to_have_count(0)
    tap(page, "dead", "N")
    expect(live_score(page, 3)).to_have_text("X")
    expect(live_score(page, 2)).to_have_text("10")
    save(page, "Carol Chen: these are right", 3)

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
        save(page, "Carol Chen: these are right", 4)
        page.get_by_role("link", name=re.compile("Review the round")).click()

    # Review: every player confirms their own total with one tap, then East submits.
    expect(page.locator("#total-S")).to_have_text(numbers["total_south"])
    expect(page.locator("#confirm-S")).to_have_text(
        f"Bea Goldberg: {numbers['total_south']} is right")
    expect(page.get_by_role("button", name="Initial")).to_have_count(0)
    expect(page.locator("#review input:not([type=hidden])")).to_have_count(0)  # no boxes
    # the buttons and Submit come before the sheet they confirm
    submit_box = page.get_by_role("button", name="Submit round 1").bounding_box()
    assert submit_box["y"] < page.locator("#sheet").bounding_box()["y"]
    screenshot(page, f"table-{numbers['key']}-review")
    assert_accessible(page)
    url = page.url
    for seat, name, initials in (("E", "Ruth Abrams", "RA"), ("S", "Bea Goldberg", "BG"),
                                 ("W", "Carol Chen", "CC"), ("N", "Dolores Ortiz", "DO")):
        page.evaluate("window.scrollTo(0, 0); document.body.dataset.kept = 'yes'")
        confirm(page, seat, name, initials)
        # swapped in place: the same page, no reload
        expect(page.locator("body")).to_have_attribute("data-kept", "yes")
        assert page.url == url
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
    """Each player scanned the table's QR and opened the review before anyone confirmed:
    every tap counts, with no "the sheet was changed" for the other three."""
    code, token = seed(live_server, "tnt")
    write_round_one(live_server, token, WALLS)
    review = f"{live_server.url}/t/{code}/1/review?k={token}"
    phones = {}
    players = (("E", "Ruth Abrams", "RA"), ("S", "Bea Goldberg", "BG"),
               ("W", "Carol Chen", "CC"), ("N", "Dolores Ortiz", "DO"))
    for seat, _name, _initials in players:
        phone = phones[seat] = new_phone()
        phone.goto(review)
        expect(phone.locator(f"#confirm-{seat}")).to_be_visible()
    for seat, name, initials in players:
        phone = phones[seat]
        confirm(phone, seat, name, initials)
        expect(phone.locator(".banner-conflict")).to_have_count(0)
    # the last phone's page shows all four, and East can submit
    expect(phones["N"].locator("[id^=confirmed-]")).to_have_count(4)
    expect(phones["N"].get_by_role("button", name="Submit round 1")).to_be_enabled()


def test_a_confirmation_of_a_total_a_correction_moved_is_refused_at_the_button(
        live_server, new_phone):
    """South opened the review, then East corrected a game that changed South's total:
    South's tap is refused at their button, which now reads the new total."""
    code, token = seed(live_server, "tnt")
    write_round_one(live_server, token, WALLS)
    south = new_phone()
    south.goto(f"{live_server.url}/t/{code}/1/review?k={token}")
    expect(south.locator("#total-S")).to_have_text("40")  # four wall games, 10 each
    # South's page must not hear of the correction before the tap (its poll would show
    # the new total, and then a tap rightly confirms it)
    south.route(LIVE_POLL, lambda route: route.abort())
    write_round_one(live_server, token, [(1, {"outcome": "mahjong", "winner": "S",
                                              "value": 25, "self_picked": True})])
    south.locator("#confirm-S").click()
    expect(south.locator("#err-initials-S")).to_contain_text(
        "A game was changed meanwhile: your total is now ")
    # the answer is swapped in at the player's button, not at the page's top
    expect(south.locator("#err-initials-S")).to_be_in_viewport()
    total = south.locator("#total-S").inner_text()
    assert total != "40"
    expect(south.locator("#err-initials-S")).to_contain_text(f"your total is now {total}.")
    expect(south.locator("#confirm-S")).to_have_text(f"Bea Goldberg: {total} is right")
    expect(south.locator("#confirmed-S")).to_have_count(0)
    south.unroute(LIVE_POLL)
    screenshot(south, "review-initials-total-moved")
    assert_accessible(south)
    # the refusal keeps the review's address: a reload shows the review, not the answer
    # to a GET of the form's action
    assert "/review?" in south.url
    south.reload()
    expect(south.locator("#total-S")).to_have_text(total)
    confirm(south, "S", "Bea Goldberg", "BG")


def test_submit_with_the_network_cut_says_so_and_the_phone_sends_it_once(live_server,
                                                                           page):
    """The round's end is when the venue's Wi-Fi is busiest: a player's confirmation (and
    East's Submit) sent into a dead network say so at the button, the page stays as it
    is, and the phone sends it again by itself once the Wi-Fi is back: it counts once."""
    code, token = seed(live_server, "tnt")
    tournament_id = write_round_one(live_server, token, WALLS,
                                    [(seat, seat * 2) for seat in "ESW"])
    page.goto(f"{live_server.url}/t/{code}/1/review?k={token}")
    page.context.set_offline(True)
    page.locator("#confirm-N").click()
    note = page.locator("#review .send-note")  # above North's button
    expect(note).to_contain_text("No answer from the server: the Wi-Fi may be down.")
    expect(note).to_contain_text(re.compile("by itself.*counts (only )?once"))
    expect(note).to_be_in_viewport()
    expect(page.locator("#confirm-N")).to_be_visible()  # the page stays as it was
    screenshot(page, "review-initial-not-sent", full_page=False)
    page.context.set_offline(False)  # the browser's "online": sent again, no tap
    expect(page.locator("#confirmed-N")).to_contain_text("\u2713 Dolores Ortiz: DO")
    expect(page.locator(".send-note")).to_have_count(0)

    # the reply is lost, not the request: the sheet is submitted, and the phone's own
    # resend (the same key) brings the answer rather than submitting it twice. The Wi-Fi
    # loses the page's polls too (as it would), or one could bring the submitted page
    # before the note is read.
    def reply_lost(route):
        if "/submit?" in route.request.url:
            route.fetch()
        route.abort()

    page.route("**/*", reply_lost)
    submit = page.get_by_role("button", name=re.compile("Submit round 1|Sending"))
    page.get_by_role("button", name="Submit round 1").click()
    expect(page.locator("#review .send-note")).to_contain_text(
        re.compile("by itself.*counts (only )?once"))
    expect(submit).to_be_visible()
    page.unroute("**/*")
    expect(page.get_by_text(re.compile(r"Submitted \d\d:\d\d, changes only by the director"))
           ).to_be_visible(timeout=12_000)  # the next resend, within 5 s
    with live_server.app_context():
        from models import AuditEvent, db

        assert db.session.scalar(db.select(db.func.count()).select_from(AuditEvent).where(
            AuditEvent.action == "sheet.submit",
            AuditEvent.tournament_id == tournament_id)) == 1


def test_a_seat_card_opens_that_players_scores_in_one_tap(live_server, page):
    """The table page's seat cards: each is a link to the player's own scores page, so a
    player asking "how am I doing?" is one tap away, on East's phone."""
    code, token = seed(live_server, "tnt")
    write_round_one(live_server, token, [(1, {"outcome": "mahjong", "winner": "W",
                                              "value": 25, "self_picked": True})])
    page.goto(f"{live_server.url}/t/{code}/1?k={token}")
    cards = page.locator(".seats .seat-link")
    expect(cards).to_have_count(4)
    for number, name in enumerate(NAMES[:4], start=1):
        card = cards.nth(number - 1)
        expect(card).to_contain_text(name)
        expect(card).to_contain_text("My scores \u2192")
        expect(card).to_have_attribute("href", f"/p/{code}/player/{number}")
    west = page.locator(".seat-link", has_text="Carol Chen")
    expect(west).to_be_in_viewport()  # no scroll first
    assert west.bounding_box()["height"] >= 44  # a whole card to tap
    west.click()
    expect(page).to_have_url(re.compile(rf"/p/{code}/player/3$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Carol Chen")
    round1 = page.locator("section", has=page.locator("#round-1"))
    rows = round1.locator("table.grid tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.nth(0).locator("td").last).to_have_text("35")  # tnt: 25, self-picked +10
    screenshot(page, "table-seat-card-player-scores")
    assert_accessible(page)
