"""A director on a phone gets a tournament ready: signs in, creates it from the
Destination preset, imports 32 players from a CSV, draws the seating, and opens the table
cards and the schedule. axe finds no WCAG 2 A/AA violation on any of these pages."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from e2e.conftest import assert_accessible, screenshot, sign_in

NAMES = ["Ruth Abrams", "Bea Goldberg", "Carol Chen", "Dolores Ortiz", "Edith Klein",
         "Fran Weiss", "Gloria Park", "Harriet Stone", "Irene Malloy", "Joan Feldman",
         "Kay Morrison", "Lois Tanaka", "Marion Hall", "Nora Levine", "Opal Greene",
         "Pearl Nakamura", "Queenie Baker", "Rita Sands", "Sylvia Fox", "Thelma Price",
         "Una Rivers", "Vera Cohen", "Wanda Bell", "Yvonne Diaz", "Zelda Marsh", "Anita Ross",
         "Brenda Lowe", "Celia Hart", "Doris Kim", "Esther Wolfe", "Faye Dunn", "Greta Lind"]


def test_director_sets_up_a_tournament_on_a_phone(live_server, page, director_account):
    email, password = director_account
    sign_in(page, live_server, email, password)
    expect(page.get_by_role("heading", name="My tournaments")).to_be_visible()
    screenshot(page, "director-home")
    assert_accessible(page)

    page.get_by_role("link", name="Create a tournament").click()
    page.get_by_label("Name", exact=True).fill("Cruise Classic")
    page.get_by_label("Rule set").select_option("destination")
    page.get_by_label("Rounds", exact=True).fill("12")
    page.get_by_label("Hold a mini tournament").check()
    screenshot(page, "director-create")
    assert_accessible(page)
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url(re.compile(r"/director/t/\d+$"))
    expect(page.get_by_role("heading", name="Cruise Classic")).to_be_visible()
    screenshot(page, "director-overview")
    assert_accessible(page)

    page.get_by_role("link", name=re.compile("^Rules every")).click()
    expect(page.get_by_text("Destination Mah Jongg").first).to_be_visible()
    screenshot(page, "director-rules")
    assert_accessible(page)
    page.go_back()

    page.get_by_role("link", name=re.compile("^Players add")).click()
    page.get_by_role("link", name="Import a CSV file").click()
    csv = "number,name,mini\n" + "".join(
        f"{n},{name},{'yes' if n % 4 == 0 else 'no'}\n" for n, name in enumerate(NAMES, 1))
    page.get_by_label("CSV file").set_input_files(
        files=[{"name": "players.csv", "mimeType": "text/csv", "buffer": csv.encode()}])
    page.get_by_role("button", name="Check the file").click()
    expect(page.get_by_text("Every row is fine")).to_be_visible()
    screenshot(page, "director-import-preview")
    assert_accessible(page)
    page.get_by_role("button", name="Save all 32 players").click()
    expect(page.get_by_text("Imported 32 players.")).to_be_visible()
    expect(page.get_by_role("cell", name=re.compile("^Greta Lind"))).to_be_visible()
    screenshot(page, "director-players")
    assert_accessible(page)

    page.get_by_role("link", name="Seating", exact=True).click()
    page.get_by_label("How to seat round 1").select_option("draw")
    page.get_by_role("button", name="Seat round 1").click()
    status = page.get_by_text(re.compile(r"draw number \d+")).first
    expect(status).to_be_visible()
    expect(page.get_by_role("heading", name="Table 8")).to_be_visible()
    screenshot(page, "director-seating")
    assert_accessible(page)

    page.get_by_role("link", name="Table cards").click()
    expect(page.locator(".table-card svg")).to_have_count(8)
    table_one = re.compile(re.escape(live_server.url) + r"/t/\w+/1\?k=")
    expect(page.get_by_text(table_one)).to_be_visible()
    screenshot(page, "director-cards")
    assert_accessible(page)

    page.go_back()
    page.get_by_role("link", name="Full schedule").click()
    expect(page.get_by_role("heading", name="Cruise Classic · Round 12")).to_be_visible()
    screenshot(page, "director-schedule")
    assert_accessible(page)
    page.emulate_media(media="print")
    screenshot(page, "director-schedule-print")
    page.emulate_media(media="screen")


def test_bad_csv_shows_every_problem_at_phone_size(live_server, page, director_account):
    email, password = director_account
    sign_in(page, live_server, email, password)
    page.get_by_role("link", name="Create a tournament").click()
    page.get_by_label("Name", exact=True).fill("Problem Open")
    page.get_by_role("button", name="Create the tournament").click()
    page.get_by_role("link", name=re.compile("^Players add")).click()
    page.get_by_role("link", name="Import a CSV file").click()
    page.get_by_label("…or paste the lines here").fill("1,Ann\n1,Bea\nx,Cy\n4,\n")
    page.get_by_role("button", name="Check the file").click()
    expect(page.get_by_text("3 rows need fixing. Nothing was saved.")).to_be_visible()
    screenshot(page, "director-import-problems")
    assert_accessible(page)


def seed_seated_tournament(live_server, email):
    """A seated 8-table TNT tournament run by the account `email`; returns its id."""
    from sqlalchemy import select

    from blueprints.director.seating import seat_round_one
    from blueprints.director.tournaments import create_tournament
    from models import Player, User, db

    with live_server.app_context():
        user = db.session.scalar(select(User).where(User.email == email))
        tournament = create_tournament(user, name="Phone Open", preset="tnt", rounds=4)
        for number, name in enumerate(NAMES, 1):
            tournament.players.append(Player(number=number, name=name))
        db.session.flush()
        seat_round_one(tournament, method="number", user=user)
        db.session.commit()
        return tournament.id


def enter_first_game(live_server, tournament_id):
    from core.rounds import round_row
    from models import GameEntry, Scoresheet, Tournament, db

    with live_server.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        sheet = Scoresheet(round_id=round_row(tournament, 1).id,
                           table_id=tournament.tables[0].id)
        sheet.games.append(GameEntry(number=1, record={"outcome": "wall"}, points_e=10,
                                     points_s=10, points_w=10, points_n=10))
        db.session.add(sheet)
        db.session.commit()


def test_substitution_staff_and_fixed_rules_on_a_phone(live_server, page, director_account):
    email, password = director_account
    tournament_id = seed_seated_tournament(live_server, email)
    sign_in(page, live_server, email, password)
    base = f"{live_server.url}/director/t/{tournament_id}"

    page.goto(base + "/players")
    page.get_by_role("link", name="Withdraw Edith Klein").click()
    page.get_by_label("Leaves from round").fill("2")
    page.get_by_label("…or a new substitute's name").fill("Hal House")
    screenshot(page, "director-withdraw")
    assert_accessible(page)
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Withdraw Edith Klein").click()
    expect(page.get_by_text("Edith Klein has left")).to_be_visible()
    expect(page.get_by_text("substitute, not ranked")).to_be_visible()

    page.goto(base + "/itineraries")
    expect(page.get_by_role("heading", name="33 · Hal House (substitute)")).to_be_visible()
    assert_accessible(page)
    page.goto(base + "/meetings")
    expect(page.get_by_role("heading", name="Repeat meetings")).to_be_visible()
    assert_accessible(page)
    page.goto(base + "/poster")
    expect(page.get_by_text("Find your table and seat")).to_be_visible()
    screenshot(page, "director-poster")
    assert_accessible(page)

    page.goto(base + "/staff")
    page.get_by_label("Email").fill("guide@example.com")
    page.get_by_label("Role").select_option("table-guide")
    page.get_by_role("button", name="Invite", exact=True).click()
    expect(page.get_by_text("shown only once")).to_be_visible()
    screenshot(page, "director-staff")
    assert_accessible(page)

    enter_first_game(live_server, tournament_id)
    page.goto(base + "/rules")
    expect(page.get_by_text("Scores have been entered, so the rules are fixed")).to_be_visible()
    screenshot(page, "director-rules-fixed")
    assert_accessible(page)


def test_a_rule_refused_far_down_the_page_comes_back_in_view(live_server, page,
                                                            director_account):
    """The rules page is some 8,000 px long on a phone, and reloads at its top after a
    save: the refused rule's reason takes the focus, so the director sees it."""
    from e2e.conftest import committed_tournament

    email, password = director_account
    tournament_id = committed_tournament(live_server, email, "Rules Open", 8,
                                         seated=False)["id"]
    sign_in(page, live_server, email, password)
    page.goto(f"{live_server.url}/director/t/{tournament_id}/rules")
    page.locator(".rule-field input[type=number]").last.fill("999999")
    page.get_by_role("button", name="Save the rules").click()
    error = page.locator(".rule-field.has-error .error").first
    expect(error).to_be_visible()
    expect(error).to_be_in_viewport()
    assert page.evaluate("window.scrollY") > 1000
    assert_accessible(page)
