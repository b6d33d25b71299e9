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
