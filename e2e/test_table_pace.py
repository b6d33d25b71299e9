"""The table's pace: a TNT round played on East's phone at 360x640 and 390x844, counting
what the people at the table do (taps, typed entries, scrolls, pixels scrolled) and what
the page does by itself (page jumps: the scroll position moving more than 200 px without
the user scrolling).

The round: game 1 thrown by West to South's hand of 25 with 2 exposures; game 2 North
self-picks a jokerless 30; game 3 a wall game with West's hand dead; game 4 East
self-picks a 35. Then the review: each player confirms their total, East submits.

A tap is made only on a control that is wholly on screen, above the call bar; one that is
not is first scrolled to, and that scroll is counted (the tests then assert there was
none). The phone time is estimated as the issue of the table's pace set it: 2 s a tap,
8 s a typed entry, 3 s a scroll, 5 s a hand-over of the phone; the README gives the
figures beside paper's. Counts are asserted, never timings."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import expect

from e2e.conftest import assert_accessible, screenshot
from e2e.test_table_round import seed
from e2e.test_table_trust import db_games

SECONDS = {"tap": 2, "typed": 8, "scroll": 3, "handover": 5}
JUMP_PX = 200


@dataclass
class Counts:
    taps: int = 0
    typed: int = 0
    scrolls: int = 0
    scrolled_px: int = 0
    jumps: int = 0
    handovers: int = 0
    scrolled_to: list = field(default_factory=list)

    def seconds(self) -> int:
        return (self.taps * SECONDS["tap"] + self.typed * SECONDS["typed"]
                + self.scrolls * SECONDS["scroll"] + self.handovers * SECONDS["handover"])


@dataclass
class Table:
    """East's phone, counting: `parts` holds the counts of each game and of the review."""

    page: object
    parts: dict[str, Counts] = field(default_factory=dict)
    now: Counts | None = None

    def part(self, name: str) -> Counts:
        self.now = self.parts.setdefault(name, Counts())
        return self.now

    def _in_sight_now(self, locator) -> bool:
        box = locator.bounding_box()
        bar = self.page.locator(".call-bar").bounding_box()
        bottom = bar["y"] if bar else self.page.viewport_size["height"]
        return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= bottom

    def _in_sight(self, locator) -> bool:
        # A poll's swap can move or replace the target for a frame while it is measured; a
        # person looks at the settled page, so a target out of sight is looked at again
        # over half a second before it counts as a scroll.
        for _ in range(5):
            if self._in_sight_now(locator):
                return True
            self.page.wait_for_timeout(100)
        return False

    def tap(self, locator, settled=None) -> None:
        """Tap `locator` as a person would; `settled`: what shows once the tap's answer
        is in (waited for before the page's own scrolling is measured)."""
        page = self.page
        locator.wait_for(state="visible")
        if not self._in_sight(locator):
            before = page.evaluate("window.scrollY")
            box = locator.bounding_box() or {}
            locator.evaluate("el => el.scrollIntoView({block: 'center'})")
            self.now.scrolls += 1
            # where it was: a failing count says whether it was below the fold or above
            self.now.scrolled_to.append(f"{locator} at y={box.get('y')}, page scrolled "
                                        f"{before}")
            self.now.scrolled_px += abs(page.evaluate("window.scrollY") - before)
        url, before = page.url, page.evaluate("window.scrollY")
        locator.click()
        self.now.taps += 1
        if settled is not None:
            expect(settled).to_be_visible()
        page.wait_for_load_state()
        if page.url == url and abs(page.evaluate("window.scrollY") - before) > JUMP_PX:
            self.now.jumps += 1

    def answer(self, name: str, value: str, settled=None) -> None:
        self.tap(self.page.locator(f"label[for='{name}-{value}']"), settled)

    def hand_over(self, times: int = 1) -> None:
        self.now.handovers += times


def play_round(table: Table, base: str, code: str, token: str) -> None:
    page = table.page
    page.goto(f"{base}/t/{code}/1?k={token}")

    def enter(game_no):
        table.tap(page.get_by_role("link", name=f"Enter game {game_no}"),
                  page.locator("#step-outcome"))

    def sign(name, game_no, points_text):
        button = page.get_by_role("button", name=re.compile(f"^{name}: {points_text}"))
        table.hand_over(2)  # to the signer and back to East
        table.tap(button, page.locator(".flash", has_text=f"Game {game_no} saved."))

    # Game 1: South wins a 25 thrown by West to 2 exposures.
    table.part("game 1")
    enter(1)
    assert_accessible(page)
    table.answer("outcome", "mahjong\\:S", page.locator("#step-value"))
    table.answer("value", "25", page.locator("#step-win_by"))
    table.answer("win_by", "thrown\\:W", page.locator("#step-exposures"))
    expect(page.locator("#entry .answers")).to_contain_text("South won")
    table.answer("exposures", "2", page.locator(".sign-button"))
    expect(page.locator("#entry .answers")).to_have_text(
        re.compile("South won.*25.*West threw.*2 exposures", re.S))
    screenshot(page, "pace-game-1-signing")
    assert_accessible(page)
    sign("Bea Goldberg", 1, "25 is right")

    # Game 2: North self-picks a jokerless 30.
    table.part("game 2")
    enter(2)
    table.answer("outcome", "mahjong\\:N", page.locator("#step-value"))
    table.answer("value", "30", page.locator("#step-win_by"))
    table.answer("win_by", "self", page.locator(".sign-button"))
    table.tap(page.locator("label[for=jokerless]"),
              page.locator("#live-scores", has_text="50"))
    sign("Dolores Ortiz", 2, "50 is right")

    # Game 3: a wall game; West's hand was dead, so West scores 0, not the wall's +10.
    table.part("game 3")
    enter(3)
    table.answer("outcome", "wall", page.locator("#step-dead"))
    expect(page.locator(".sign-button")).to_have_count(0)  # the dead hands are asked
    table.answer("dead", "W", page.locator(".sign-button"))
    screenshot(page, "pace-game-3-dead-hand")
    sign("Carol Chen", 3, "these are right")

    # Game 4: East self-picks a 35; West initials East's win.
    table.part("game 4")
    enter(4)
    table.answer("outcome", "mahjong\\:E", page.locator("#step-value"))
    table.answer("value", "35", page.locator("#step-win_by"))
    table.answer("win_by", "self", page.locator(".sign-button"))
    sign("Carol Chen", 4, "these are right")

    # The review: each player taps their own total, then East submits.
    table.part("review")
    table.tap(page.get_by_role("link", name=re.compile("Review the round")),
              page.locator("#review"))
    screenshot(page, "pace-review", full_page=False)
    assert_accessible(page)
    for seat, name in (("E", "Ruth Abrams"), ("S", "Bea Goldberg"), ("W", "Carol Chen"),
                       ("N", "Dolores Ortiz")):
        if seat != "E":
            table.hand_over()
        expect(page.locator(f"#confirm-{seat}")).to_contain_text(f"{name}: ")
        table.tap(page.locator(f"#confirm-{seat}"), page.locator(f"#confirmed-{seat}"))
    table.hand_over()  # back to East
    table.tap(page.get_by_role("button", name="Submit round 1"),
              page.get_by_text(re.compile(r"Submitted \d\d:\d\d")))


@pytest.mark.parametrize("size", [(360, 640), (390, 844)])
def test_a_tnt_round_takes_fewer_taps_than_paper_and_no_scroll(live_server, browser, size):
    code, token = seed(live_server, "tnt")
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height},
                                  is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        table = Table(page)
        play_round(table, live_server.url, code, token)
    finally:
        context.close()
    parts = table.parts
    # what was scored is what the rule sheet says (tnt):
    # game 1: South 25, West -10 for throwing to 2 exposures;
    # game 2: "self-picked +10" and "jokerless +10": 30 + 10 + 10;
    # game 3: wall game +10 to each live hand, a dead hand 0;
    # game 4: East's self-picked 35 +10.
    games = db_games(live_server, code)
    assert [g[1] for g in games] == ["mahjong", "mahjong", "wall", "mahjong"]
    assert games[2][2] == {"E": 10, "S": 10, "W": 0, "N": 10}
    assert games[0][2]["W"] == -10 and games[0][2]["S"] == 25
    assert games[1][2]["N"] == 50
    assert games[3][2]["E"] == 45

    for name, counts in parts.items():
        assert counts.typed == 0, (name, counts)
        assert counts.scrolls == 0, (name, counts)
        assert counts.jumps == 0, (name, counts)
    # taps, "Enter game N" included
    assert parts["game 1"].taps <= 6  # thrown, with its exposures
    assert parts["game 2"].taps <= 6  # self-picked, plus its jokerless
    assert parts["game 3"].taps <= 4  # a wall game with a dead hand
    assert parts["game 4"].taps <= 5  # East wins, self-picked
    # the review: one tap to open it, one a player, one to submit
    assert parts["review"].taps <= 6
    total = sum(c.seconds() for c in parts.values())
    assert total <= 120, {name: (c, c.seconds()) for name, c in parts.items()}
    print(f"\n{width}x{height}: " + "; ".join(
        f"{name}: {c.taps} taps, {c.typed} typed, {c.scrolls} scrolls ({c.scrolled_px} px), "
        f"{c.jumps} jumps, {c.handovers} hand-overs, ~{c.seconds()} s"
        for name, c in parts.items()) + f"; round ~{total} s")
