"""A director's own rule set at phone size, counted in taps and typed entries (a blank
start, her numbers, her event's name, the player across checking each score), and the
table cards printed right after choosing the address: one card a page, no notice."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from e2e.conftest import assert_accessible, screenshot, sign_in
from e2e.test_paper_fallback import laptop, pdf_pages
from e2e.test_table_round import seed


def test_table_cards_printed_right_after_choosing_the_address(live_server, browser):
    code, token, tournament_id, email, password = seed(live_server, "tnt", with_director=True)
    context, page = laptop(browser)
    try:
        sign_in(page, live_server, email, password)
        page.goto(f"{live_server.url}/director/t/{tournament_id}/cards")
        page.locator("#public-address summary").click()
        page.get_by_label("Public address for QR codes and cards").fill(
            "http://192.168.1.10:8000")
        page.get_by_role("button", name="Save the address").click()
        notice = page.locator(".flashes")
        expect(notice).to_contain_text("QR codes and cards now use http://192.168.1.10:8000")
        expect(page.locator(".table-card")).to_have_count(2)
        page.emulate_media(media="print")
        expect(notice).to_be_hidden()  # a notice about the last click is not a card's
        screenshot(page, "cards-print-after-address", full_page=True)
        for paper in ("A4", "Letter"):
            # two tables: two cards, one a page, and no blank page after the first
            assert pdf_pages(page.pdf(format=paper, print_background=False)) == 2, paper
    finally:
        context.close()


def test_her_own_rule_set_from_blank_at_phone_size(live_server, page, director_account):
    from blueprints.director.tournaments import create_tournament
    from models import Tournament, User, db

    email, password = director_account
    with live_server.app_context():
        director = db.session.scalar(db.select(User).where(User.email == email))
        tournament = create_tournament(director, name="Crak Your Bags Spring", preset="tnt",
                                       rounds=3, code="CRAKYB")
        db.session.commit()
        tournament_id = tournament.id
    sign_in(page, live_server, email, password)
    page.goto(f"{live_server.url}/director/t/{tournament_id}/rules")
    taps = typed = 0
    page.get_by_label("Start again from the rule set").select_option("blank")
    taps += 2  # open the list, choose
    page.get_by_role("button", name="Use this rule set").click()
    taps += 1
    expect(page.locator("#rules-lead")).to_contain_text("A blank rule set")
    expect(page.locator(".to-fill")).to_have_count(4)
    screenshot(page, "rules-blank", full_page=False)
    assert_accessible(page)
    # her sheet: self-pick +10, no jokers +20, wall game +10, thrower -10/-10/-20/-30/-30
    entries = {"Your rule set's name": "Crak Your Bags", "Self-pick bonus": "10",
               "No-joker bonus": "20", "Wall game points": "10"}
    for label, text in entries.items():
        page.get_by_label(label, exact=True).fill(text)
        taps, typed = taps + 1, typed + 1
    for exposures, text in enumerate(("-10", "-10", "-20", "-30", "-30")):
        page.locator(f"#thrower_penalty_{exposures}").fill(text)
        taps, typed = taps + 1, typed + 1
    page.get_by_label("Who initials each game").select_option("across")
    taps += 2
    page.get_by_role("button", name="Save the rules").click()
    taps += 1
    expect(page.locator(".flashes")).to_contain_text("Saved the rules.")
    expect(page.locator("#rules-lead")).to_contain_text("Crak Your Bags rules")
    expect(page.locator("#rules-lead")).to_contain_text("started from a blank rule set")
    expect(page.locator(".sheet-label", has_text="The sheet says")).to_have_count(0)
    expect(page.locator(".sheet-label", has_text="Your rule:").first).to_be_visible()
    screenshot(page, "rules-her-own", full_page=False)
    assert_accessible(page)
    # every number she had to give, and nothing else: 9 typed, 15 taps in all
    assert (typed, taps) == (9, 15)
    page.goto(f"{live_server.url}/director/t/{tournament_id}")
    expect(page.locator(".steps")).to_contain_text("Rules: Crak Your Bags rules saved")
    expect(page.get_by_text(re.compile(r"To do:\s*Rules"))).to_have_count(0)
    with live_server.app_context():
        rules = db.session.get(Tournament, tournament_id).rules
        assert rules["name"] == "Crak Your Bags" and rules["game_signoff"] == "across"
        assert rules["blind_pass_peek_penalty"] is None  # TNT's extra penalty not carried
