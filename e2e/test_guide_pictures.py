"""The director's guide, walked end to end on a phone: sign in, create the event, import
the players, seat round 1, print the cards, run the clock, answer a call, follow the
missing sheets, amend a game, settle a prize tie, export; and the table's, the players'
and the big screen's pages on the way. Each step checks what the guide says the reader
will see there.

With E2E_SCREENSHOTS set (`make screenshots`) each step also saves the picture the guides
show, into docs/pictures/ (committed; tests/test_docs.py fails when a picture the docs
name is missing). Pictures are of the viewport at one pixel per CSS pixel, to keep each
PNG small; without the flag nothing is saved and the walk costs only its page loads."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from cli import DEMO_PLAYERS
from e2e.conftest import ACTION_TIMEOUT_MS, PHONE, ROOT, SCREENSHOTS, sign_in

PICTURES = ROOT / "docs" / "pictures"
SCREEN = {"width": 1280, "height": 720}


def picture(page, name: str, at=None, middle: bool = False) -> None:
    """Save docs/pictures/NAME.png of what the viewport shows, when pictures are asked
    for; with `at` (a locator), that element scrolled to the top of the screen, or to its
    middle with `middle` (to show what is around it)."""
    if at is not None:
        # At the top, a little above the element, so that its heading is not cut.
        at.first.evaluate(
            "(element, middle) => { element.scrollIntoView({block: middle ? 'center' : "
            "'start'}); if (!middle) window.scrollBy(0, -12); }", middle)
    if not SCREENSHOTS:
        return
    PICTURES.mkdir(parents=True, exist_ok=True)
    # The big screen's clock and the call's wait tick; a caret would blink into the PNG.
    page.screenshot(path=str(PICTURES / f"{name}.png"), animations="disabled",
                    caret="hide")


def phone(browser, size=PHONE, **options):
    context = browser.new_context(viewport=size, device_scale_factor=1, is_mobile=True,
                                  has_touch=True, **options)
    page = context.new_page()
    page.set_default_timeout(ACTION_TIMEOUT_MS)
    return context, page


def records_for_table(table_no: int) -> list[dict]:
    """Four games a table might play. Tables 1 and 2 play the same four, so their Easts
    (and every seat) tie: a tie for a prize place for the guide's tie-break step."""
    if table_no in (1, 2):
        return [{"outcome": "mahjong", "winner": "E", "value": 50, "self_picked": True},
                {"outcome": "mahjong", "winner": "S", "value": 25, "discarder": "W",
                 "exposures": 2},
                {"outcome": "wall"},
                {"outcome": "mahjong", "winner": "E", "value": 30, "discarder": "N",
                 "exposures": 1}]
    winner = "ESWN"[table_no % 4]
    thrower = "ESWN"[(table_no + 1) % 4]
    return [{"outcome": "mahjong", "winner": winner, "value": 25 + 5 * (table_no % 3),
             "discarder": thrower, "exposures": 2},
            {"outcome": "wall"},
            {"outcome": "mahjong", "winner": thrower, "value": 30, "self_picked": True},
            {"outcome": "mahjong", "winner": "N", "value": 25, "discarder": "E",
             "exposures": 3}]


def seed_round_one(live_server, tournament_id: int) -> None:
    """Sheets for round 1, as the tables would have left them: tables 1-5 submitted,
    table 6 with its four games in and its players confirming, table 7 two games in,
    table 8 nothing yet. Scored with the tournament's own rules."""
    from core.rounds import ensure_round
    from models import GameEntry, Scoresheet, Tournament, db, utcnow
    from tournament.rules import RuleSet
    from tournament.scoring import Game, score_game, signer

    with live_server.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        rules = RuleSet.from_dict(tournament.rules)
        rnd = ensure_round(tournament, 1)
        for table in tournament.tables:
            if table.number == 8:
                continue
            records = records_for_table(table.number)
            done = table.number <= 5
            sheet = Scoresheet(round_id=rnd.id, table_id=table.id,
                               state="submitted" if done else "open",
                               submitted_at=utcnow() if done else None)
            played = records if table.number <= 6 else records[:2]
            for number, record in enumerate(played, start=1):
                game = Game.from_dict(record, rules)
                who = signer(rules, game)
                # confirmed by its signer as it was saved (the one-phone way)
                entry = GameEntry(number=number, record=game.to_dict(), signer=who,
                                  initials=who or "")
                entry.points = score_game(rules, game)
                sheet.games.append(entry)
            db.session.add(sheet)
        tournament.prize_places = 3
        db.session.commit()


def table_links(live_server, tournament_id: int) -> tuple[str, dict[int, str]]:
    from models import Tournament, db

    with live_server.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        return tournament.code, {t.number: t.token for t in tournament.tables}


def test_the_directors_guide_from_sign_in_to_prizes(live_server, director_account, browser):
    email, password = director_account
    context, page = phone(browser)
    try:
        page.goto(live_server.url + "/auth/sign-in")
        expect(page.get_by_label("Email")).to_be_visible()
        picture(page, "sign-in")
        sign_in(page, live_server, email, password)
        expect(page.get_by_role("heading", name="My tournaments")).to_be_visible()
        picture(page, "my-tournaments")

        # Create the tournament and check its rules.
        page.get_by_role("link", name="Create a tournament").click()
        page.get_by_label("Name", exact=True).fill("Spring Classic")
        page.get_by_label("Rule set").select_option("tnt")
        page.get_by_label("Rounds", exact=True).fill("3")
        picture(page, "create-tournament")
        page.get_by_role("button", name="Create the tournament").click()
        page.wait_for_url(re.compile(r"/director/t/\d+$"))
        tournament_id = int(page.url.rsplit("/", 1)[1])
        base = f"{live_server.url}/director/t/{tournament_id}"
        expect(page.get_by_role("heading", name="Spring Classic")).to_be_visible()
        picture(page, "getting-ready")
        page.goto(base + "/rules")
        expect(page.get_by_role("button", name="Save the rules").first).to_be_attached()
        picture(page, "rules")

        # Import the players from a spreadsheet's CSV.
        page.goto(base + "/players/import")
        csv = "number,name\n" + "".join(
            f"{n},{name}\n" for n, name in enumerate(DEMO_PLAYERS, 1))
        page.get_by_label("CSV file").set_input_files(
            files=[{"name": "players.csv", "mimeType": "text/csv", "buffer": csv.encode()}])
        page.get_by_role("button", name="Check the file").click()
        expect(page.get_by_text("Every row is fine")).to_be_visible()
        picture(page, "import-players")
        page.get_by_role("button", name=f"Save all {len(DEMO_PLAYERS)} players").click()
        expect(page.get_by_text(f"Imported {len(DEMO_PLAYERS)} players.")).to_be_visible()

        # Seat round 1 by a draw.
        page.get_by_role("link", name="Seating", exact=True).click()
        page.get_by_label("How to seat round 1").select_option("draw")
        # The demo's draw number: the same seats, so the same pictures, at every run.
        page.get_by_label("Draw number (seed)").fill("2026")
        page.get_by_role("button", name="Seat round 1").click()
        expect(page.get_by_text(re.compile(r"draw number \d+")).first).to_be_visible()
        picture(page, "seating")

        # Print the table cards: from the laptop itself the page warns and offers the
        # laptop's own addresses.
        page.goto(base + "/cards")
        expect(page.locator("#public-address")).to_contain_text(
            "which only this computer can open")
        picture(page, "public-address")
        expect(page.locator(".table-card svg")).to_have_count(len(DEMO_PLAYERS) // 4)
        picture(page, "table-cards", at=page.locator(".table-card"))
        page.goto(base + "/poster")
        expect(page.get_by_text("Find your table and seat")).to_be_visible()
        picture(page, "poster")

        # Run the event: the overview, then the clock.
        page.goto(base)
        expect(page.get_by_role("heading", name="Run the event")).to_be_visible()
        picture(page, "run-the-event")
        page.goto(f"{live_server.url}/clock/director/{tournament_id}")
        page.get_by_role("button", name="Start round 1").click()
        expect(page.locator("#clock")).to_contain_text("Running")
        picture(page, "clock-console")

        code, tokens = table_links(live_server, tournament_id)
        table_context, table = phone(browser)
        try:
            # A table's phone: the page the QR code opens, then a call.
            table.goto(f"{live_server.url}/t/{code}/4?k={tokens[4]}")
            expect(table.get_by_role("button", name="Call the director")).to_be_visible()
            picture(table, "table-page")
            table.get_by_text("Add a reason (optional)").click()
            table.get_by_label(re.compile("Dead-hand claim", re.I)).check()
            picture(table, "table-call-reason")
            table.get_by_role("button", name="Call the director").click()
            expect(table.locator(".call-bar")).to_contain_text("Waiting")
            picture(table, "table-called")

            # The director's queue, and a one-tap ruling.
            page.goto(f"{live_server.url}/calls/director/{tournament_id}")
            card = page.locator(".call-card", has_text="Table 4")
            card.get_by_role("button", name="I'm going").click()
            expect(card).to_contain_text("Going: Dee Director")
            picture(page, "calls-queue")
            page.get_by_role("link", name="Resolve table 4").click()
            expect(page.get_by_role("button", name="No change to the scores")).to_be_visible()
            picture(page, "resolve-call")
            page.get_by_role("button", name="No change to the scores").click()
            expect(page.get_by_role("heading", name="No open calls")).to_be_visible()

            # Games at the tables: seeded, the entry itself is the table guide's.
            seed_round_one(live_server, tournament_id)
            table.goto(f"{live_server.url}/t/{code}/8/game?k={tokens[8]}")
            expect(table.locator("form").first).to_be_visible()
            # a thrown win, answered up to the signer's button (not saved)
            for answer, shows in (("outcome-mahjong\\:S", "#step-value"),
                                  ("value-25", "#step-win_by"),
                                  ("win_by-thrown\\:W", "#step-exposures"),
                                  ("exposures-2", ".sign-button")):
                table.locator(f"label[for='{answer}']").click()
                expect(table.locator(shows)).to_be_visible()
            picture(table, "entry")
            table.goto(f"{live_server.url}/t/{code}/6/review?k={tokens[6]}")
            table.locator("#review button[id^=confirm-]").first.click()
            expect(table.locator("#review [id^=confirmed-]")).to_have_count(1)
            picture(table, "review")
        finally:
            table_context.close()

        # Missing sheets, a sheet and its amendment, standings, ties and exports.
        page.goto(f"{live_server.url}/results/director/{tournament_id}")
        missing = page.locator("#missing")
        expect(missing).to_contain_text("Table 7")
        expect(missing).to_contain_text("Table 8")
        picture(page, "missing-results", at=missing)
        page.goto(f"{live_server.url}/t/director/{tournament_id}/1/1")
        expect(page.locator("main")).to_contain_text("Game 4")
        picture(page, "director-sheet")
        page.goto(f"{live_server.url}/t/director/{tournament_id}/1/1/game/1")
        reason = page.get_by_label(re.compile("Why are you changing"))
        expect(reason.first).to_be_visible()
        picture(page, "amend-game", at=reason, middle=True)
        page.goto(f"{live_server.url}/results/director/{tournament_id}")
        picture(page, "standings", at=page.locator("#standings-section"))
        prizes = page.locator("#prizes")
        expect(prizes.locator(".tie").first).to_be_visible()
        picture(page, "prize-ties", at=prizes.locator(".tie"))
        exports = page.locator("#exports")
        expect(exports).to_contain_text("backup")
        picture(page, "exports", at=exports)

        # What the players see on their own phones.
        player_context, player = phone(browser)
        try:
            player.goto(f"{live_server.url}/p/{code}/seat?number=12")
            expect(player.locator("main")).to_contain_text("Table")
            picture(player, "seat-lookup")
            player.goto(f"{live_server.url}/p/{code}/player/12")
            expect(player.locator("main")).to_contain_text("Round 1")
            picture(player, "my-scores")
            player.goto(f"{live_server.url}/results/{code}")
            expect(player.locator("main")).to_contain_text("Overall")
            picture(player, "public-standings")
        finally:
            player_context.close()

        # The big screen, on the venue's projector or television.
        screen_context = browser.new_context(viewport=SCREEN, device_scale_factor=1)
        try:
            screen = screen_context.new_page()
            screen.set_default_timeout(ACTION_TIMEOUT_MS)
            screen.goto(f"{live_server.url}/display/{code}")
            expect(screen.locator("#clock")).to_be_visible()
            expect(screen.locator("main")).to_contain_text("Spring Classic")
            picture(screen, "big-screen")
        finally:
            screen_context.close()
    finally:
        context.close()


def test_the_laptops_first_start_as_the_console_shows_it(browser, tmp_path):
    """The director's guide, "Your own laptop": the console of `mahjtable`'s first start,
    its real text (the launcher's own, with the demo's secrets blanked) drawn as a
    terminal draws it. Checks what the guide says it shows."""
    import html
    import subprocess
    import sys

    # Everything up to serving, which the picture does not need.
    script = ("import sys, launcher; launcher.serve = lambda *args: None; "
              "launcher.main(sys.argv[1:])")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    text = subprocess.run(
        [sys.executable, "-c", script, "--data-dir", str(tmp_path / "MahjTable"), "run"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True, timeout=120).stdout
    for phrase in ("Loaded the demo tournament.", "Phones on this laptop's Wi-Fi open:",
                   "Director login:", "Your data:", "Back it up:", "To stop:"):
        assert phrase in text
    text = re.sub(r"\?k=\S+", "?k=...", text)
    text = re.sub(r"(director@demo\.mahjtable / )\S+", r"\1(a password made for you)", text)
    text = text.replace(str(tmp_path / "MahjTable"), "/home/you/.local/share/MahjTable")
    context = browser.new_context(viewport={"width": 760, "height": 900},
                                  device_scale_factor=1)
    try:
        page = context.new_page()
        page.set_content(
            "<body style='margin:0;background:#111;color:#eee'><pre style='margin:0;"
            "padding:12px;font:13px/1.0 monospace'>" + html.escape(text) + "</pre></body>")
        height = page.evaluate("document.querySelector('pre').offsetHeight")
        page.set_viewport_size({"width": 760, "height": height})
        picture(page, "laptop-first-start")
    finally:
        context.close()
