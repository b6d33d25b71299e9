"""The score sheet read at arm's length on a 390x844 phone: each game is a card that says in
a sentence who won and who threw, and lists the four players by name with their points.
No text on the table page or the player's page is under 16 px, and neither scrolls
sideways at 320 px."""

from __future__ import annotations

from playwright.sync_api import expect

from e2e.conftest import assert_accessible, screenshot
from e2e.test_table_round import NAMES, seed, tap
from e2e.test_table_trust import db_games

# Every rendered element holding text of its own, with its computed size when under 16 px.
SMALL_TEXT = """() => {
  const small = [];
  for (const el of document.body.querySelectorAll("*")) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 16) small.push(`${el.tagName.toLowerCase()}.${el.className}: ${size}px`);
  }
  return small;
}"""


def points_text(value: int) -> str:
    return "X" if value == 0 else str(value)


def assert_readable_at_phone_sizes(page) -> None:
    assert page.evaluate(SMALL_TEXT) == []
    page.set_viewport_size({"width": 320, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.set_viewport_size({"width": 390, "height": 844})


def test_a_thrown_game_reads_as_a_card_in_sentences(live_server, page):
    code, token = seed(live_server, "tnt")
    page.goto(f"{live_server.url}/t/{code}/1?k={token}")
    page.get_by_role("link", name="Enter game 1").click()
    # South (Bea Goldberg) wins a 30 thrown by West (Carol Chen), no exposures
    tap(page, "outcome", "mahjong:S")
    tap(page, "value", "30")
    tap(page, "win_by", "thrown:W")
    tap(page, "exposures", "0")
    # the scores as East taps name the seat and the player, as fits at 360 px (the seat's
    # letter shown, its word for a screen reader; the whole name in the title): first
    # names for all four, as "Dolores O." does not fit
    expect(page.locator("#live-scores .score-who").nth(2)).to_have_text("WWest Carol")
    expect(page.locator("#live-scores .score-who").nth(2)).to_have_attribute(
        "title", "Carol Chen")
    expect(page.locator(".live-points .score-points").nth(1)).not_to_have_text("X")
    screenshot(page, "sheet-cards-entry")
    assert page.evaluate(SMALL_TEXT) == []
    expect(page.locator("#sign-hint")).to_contain_text("Hand the phone to Bea Goldberg")
    page.get_by_role("button", name="Bea Goldberg: 30 is right").click()
    expect(page.get_by_text("Game 1 saved.")).to_be_visible()
    expect(page.locator("h1")).to_contain_text("Table 1")
    # The entry page's heading names the table too: the sheet's card shows the save is in.
    card = page.locator("#sheet .game-card")
    expect(card).to_have_count(1)

    [(_, outcome, points)] = db_games(live_server, code)
    assert outcome == "mahjong"
    expect(card.locator(".game-head")).to_have_text("Game 1: Mah Jongg")
    expect(card.locator(".detail")).to_have_text(
        "Bea Goldberg (South) won, thrown by Carol Chen (West).")
    # the initials name who initialled: the winner, not the thrower
    expect(card.locator(".initials")).to_have_text(
        "Bea Goldberg (South) initialled the scores: BG.")
    seats = [("East", 1), ("South", 2), ("West", 3), ("North", 4)]
    rows = card.locator(".game-scores li")
    expect(rows).to_have_count(4)
    for i, (seat, number) in enumerate(seats):
        expect(rows.nth(i).locator(".score-who")).to_have_text(
            f"{NAMES[i]} {seat} · player {number}")
        expect(rows.nth(i).locator(".score-points")).to_have_text(
            points_text(points[seat[0]]))
    assert points["S"] > 0  # the card shows the winner's real points, not a blank

    screenshot(page, "sheet-cards-table")
    assert_accessible(page)
    assert_readable_at_phone_sizes(page)

    # the player's own page: Bea's game, her points, the same sizes
    page.goto(f"{live_server.url}/p/{code}/player/2")
    round1 = page.locator("section", has=page.locator("#round-1"))
    expect(round1.locator("table.grid tbody tr")).to_have_count(1)
    expect(round1.locator("table.grid tbody td").last).to_have_text(points_text(points["S"]))
    screenshot(page, "sheet-cards-player")
    assert_accessible(page)
    assert_readable_at_phone_sizes(page)
