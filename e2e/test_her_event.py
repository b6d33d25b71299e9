"""Her event, end to end: a new director runs Crak Your Bags' day from her phone.

28 players imported, 24 checked in at the door, 3 who do not come and 1 on her way;
round 1 seated from those here; the late one arrives while round 1 is played and sits at a
table of her own in round 2 with three substitutes; three rounds played; the exported
standings rank every real player above every player without a game.

Her rules start from a blank rule set under her event's name (`her_rules`) and her
movement is her sheet's East-moves-up-one pattern, chosen after its schedule is shown
(`her_movement`). The games are stored through the scoring service (each table's own
entry has its own tests); everything the director does is done on the page."""

from __future__ import annotations

import csv
import io
import re

from playwright.sync_api import expect

from e2e.conftest import assert_accessible, screenshot, sign_in

NAMES = ["Ruth Abrams", "Bea Goldberg", "Carol Chen", "Dolores Ortiz", "Edith Klein",
         "Fran Weiss", "Gloria Park", "Harriet Stone", "Irene Malloy", "Joan Feldman",
         "Kay Morrison", "Lois Tanaka", "Marion Hall", "Nora Levine", "Opal Greene",
         "Pearl Nakamura", "Queenie Baker", "Renée Sands", "Sylvia Fox", "Thelma Price",
         "Una Rivers", "Vera Cohen", "Wanda Bell", "Yvonne Diaz", "Zelda Marsh", "Anita Ross",
         "Brenda Lowe", "Celia Hart"]
NO_SHOWS = (3, 9, 20)
LATE = 14

# Crak Your Bags' sheet: "Player picks their own winning Mah Jongg tile = add 10 points";
# "throws Mah Jongg to a hand with 0 exposures or 1 exposure = lose 10 points", "2
# exposures = lose 20 points", "3 exposures = lose 30 points"; "a winning hand with no
# jokers = add 20 points"; "Wall Game = Every player at table receives 10 points".
# (Four exposures is not on the sheet: as three.)
CRAK_YOUR_BAGS = {"self_pick_bonus": 10, "jokerless_bonus": 20, "wall_game_points": 10,
                  "thrower_penalty_0": -10, "thrower_penalty_1": -10,
                  "thrower_penalty_2": -20, "thrower_penalty_3": -30,
                  "thrower_penalty_4": -30}


def her_rules(page, live_server, tournament_id):
    """Her own rule set, from a blank one: her event's name and her sheet's numbers."""
    page.goto(f"{live_server.url}/director/t/{tournament_id}/rules")
    page.get_by_label("Start again from the rule set").select_option("blank")
    page.get_by_role("button", name="Use this rule set").click()
    expect(page.locator("#rules-lead")).to_contain_text("A blank rule set")
    page.get_by_label("Your rule set's name", exact=True).fill("Crak Your Bags")
    for name, value in CRAK_YOUR_BAGS.items():
        page.locator(f"#{name}").fill(str(value))
    page.get_by_role("button", name="Save the rules").click()
    expect(page.locator("#rules-lead")).to_contain_text("Crak Your Bags rules")


def her_movement(page, live_server, tournament_id):
    """Her sheet: "East moves up 1 table", West up 2 (the named pattern), chosen after
    seeing its schedule."""
    page.goto(f"{live_server.url}/director/t/{tournament_id}/seating")
    page.get_by_label("How players move after each round").select_option("east-up-one")
    page.get_by_role("button", name="Show the schedule").click()
    expect(page.locator("#movement-preview")).to_contain_text("East moves up 1 table")
    page.get_by_role("button", name="Use this movement").click()
    expect(page.locator("#movement-now")).to_contain_text("East moves up 1 table")


def games_for(table_no, round_no):
    """Four games at one table: a throw to three exposures, a self-pick or a wall, a wall,
    a jokerless win off a concealed hand; so some players end a round below zero."""
    second = ({"outcome": "mahjong", "winner": "S", "value": 30, "self_picked": True}
              if (table_no + round_no) % 2 else {"outcome": "wall"})
    return [{"outcome": "mahjong", "winner": "E", "value": 25, "discarder": "S",
             "exposures": 3},
            second,
            {"outcome": "wall"},
            {"outcome": "mahjong", "winner": "W", "value": 25, "discarder": "N",
             "exposures": 0, "jokerless": True}]


def play_round(live_server, tournament_id, round_no):
    """Every table of the round submits its four games, scored under her rules."""
    with live_server.app_context():
        from core.rounds import round_row
        from models import GameEntry, Scoresheet, Tournament, db, utcnow
        from tournament.rules import RuleSet
        from tournament.scoring import Game, score_game, signer

        tournament = db.session.get(Tournament, tournament_id)
        rules = RuleSet.from_dict(tournament.rules)
        rnd = round_row(tournament, round_no)
        for table_id in sorted({seat.table_id for seat in rnd.seats}):
            number = next(s.table.number for s in rnd.seats if s.table_id == table_id)
            sheet = Scoresheet(round_id=rnd.id, table_id=table_id, state="submitted",
                               submitted_at=utcnow())
            for game_no, record in enumerate(games_for(number, round_no), start=1):
                game = Game.from_dict(record, rules)
                entry = GameEntry(number=game_no, record=game.to_dict(),
                                  signer=signer(rules, game))
                entry.points = score_game(rules, game)
                sheet.games.append(entry)
            db.session.add(sheet)
        db.session.commit()


def console(page, live_server, tournament_id, action):
    """On the clock console: seat, start or end the round (one tap, two for the end)."""
    page.goto(f"{live_server.url}/clock/director/{tournament_id}")
    if action == "end":
        page.locator("summary", has_text="End round").tap()
        button = page.get_by_role("button", name="End the round now")
    else:
        button = page.get_by_role("button", name=re.compile(rf"^{action} round \d$"))
    with page.expect_navigation():
        button.tap()


def check_in(page, number):
    page.get_by_label("Find a player by name or number").fill(str(number))
    page.locator(".checkin-list li:not([hidden]) a").first.tap()
    page.get_by_role("button", name="Here", exact=True).tap()
    expect(page.get_by_role("status").filter(has_text=f"No. {number}: here")).to_be_visible()


def test_her_event(live_server, director_account, page):
    email, password = director_account
    sign_in(page, live_server, email, password)
    page.get_by_role("link", name="Create a tournament").click()
    page.get_by_label("Name", exact=True).fill("Crak Your Bags Fall Classic")
    page.get_by_label("Rule set").select_option("tnt")
    page.get_by_label("Rounds", exact=True).fill("3")
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url(re.compile(r"/director/t/\d+$"))
    tid = int(page.url.rsplit("/", 1)[1])
    her_rules(page, live_server, tid)
    her_movement(page, live_server, tid)

    page.goto(f"{live_server.url}/director/t/{tid}/players/import")
    text = "number,name,fee,paid\n" + "".join(
        f"{n},{name},$45,{'yes' if n % 3 else 'no'}\n" for n, name in enumerate(NAMES, 1))
    page.get_by_label("CSV file").set_input_files(
        files=[{"name": "players.csv", "mimeType": "text/csv", "buffer": text.encode()}])
    page.get_by_role("button", name="Check the file").click()
    page.get_by_role("button", name="Save all 28 players").click()
    expect(page.get_by_text("Imported 28 players.")).to_be_visible()

    # The paper list for the desk, in case the Wi-Fi fails.
    page.goto(f"{live_server.url}/director/t/{tid}/checkin/print")
    expect(page.locator(".tick-box")).to_have_count(28)
    expect(page.get_by_role("cell", name="Due $45")).to_have_count(9)

    # At the door: 24 here, one on her way, three who do not come.
    page.goto(f"{live_server.url}/director/t/{tid}/checkin")
    for number in range(1, 29):
        if number not in (*NO_SHOWS, LATE):
            check_in(page, number)
    page.get_by_label("Find a player by name or number").fill(str(LATE))
    page.locator(".checkin-list li:not([hidden]) a").first.tap()
    page.get_by_role("button", name="Late", exact=True).tap()
    expect(page.locator("#count-here")).to_have_text("24")
    expect(page.locator("#count-subs")).to_have_text("0")
    screenshot(page, "her-event-door", full_page=False)
    assert_accessible(page)
    page.get_by_role("link", name="Seat round 1 ›").tap()
    page.get_by_role("button", name="Seat round 1: 6 tables").tap()
    expect(page.get_by_text("Round 1 is seated: 6 tables. 4 player(s)")).to_be_visible()

    console(page, live_server, tid, "Start")
    # She arrives during round 1: back on the list, then three substitutes for her table.
    page.goto(f"{live_server.url}/director/t/{tid}/checkin")
    check_in(page, LATE)
    expect(page.locator("#seat")).to_contain_text("cannot be seated yet")
    page.get_by_role("link", name="Name 3 substitutes ›").tap()
    for index, name in enumerate(("Sadie Sub", "Tess Sub", "Ursula Sub"), start=1):
        page.get_by_label(f"Substitute {index}").fill(name)
    page.get_by_role("button", name="Add 3 substitutes").tap()
    expect(page.locator("#seat")).to_contain_text("plays from round 2")
    screenshot(page, "her-event-late", full_page=False)
    assert_accessible(page)

    play_round(live_server, tid, 1)
    console(page, live_server, tid, "end")
    console(page, live_server, tid, "Seat")
    # Her phone: round 2 at the new table, not "The seating is not ready yet".
    with live_server.app_context():
        from models import Tournament, db

        code = db.session.get(Tournament, tid).code
    page.goto(f"{live_server.url}/p/{code}/seat?number={LATE}")
    expect(page.locator(".where")).to_contain_text("Table 7")
    page.goto(f"{live_server.url}/director/t/{tid}/seating")
    expect(page.locator("#seated-round-2 + ol .table-box")).to_have_count(7)

    console(page, live_server, tid, "Start")
    play_round(live_server, tid, 2)
    console(page, live_server, tid, "end")
    console(page, live_server, tid, "Seat")
    console(page, live_server, tid, "Start")
    play_round(live_server, tid, 3)
    console(page, live_server, tid, "end")

    with live_server.app_context():
        from core.rounds import stored_seating
        from models import Tournament, db

        for round_no, tables in stored_seating(db.session.get(Tournament, tid)).items():
            ids = [pid for seats in tables.values() for pid in seats.values()]
            assert len(ids) == len(set(ids)) == (24 if round_no == 1 else 28), round_no

    response = page.request.get(f"{live_server.url}/results/director/{tid}/standings.csv")
    body = response.text()
    assert body.startswith("\ufeff")
    lines = list(csv.DictReader(io.StringIO(body.removeprefix("\ufeff"))))
    by_number = {int(line["player_number"]): line for line in lines}
    assert "Renée Sands" in {line["player_name"] for line in lines}
    assert len(by_number) == 28 and len(lines) == 28  # no one twice; substitutes unranked
    played = [line for n, line in by_number.items() if n not in NO_SHOWS]
    absent = [by_number[n] for n in NO_SHOWS]
    assert any(int(line["total"]) < 0 for line in played)  # below the no-shows' 0
    assert max(int(line["rank"]) for line in played) < min(int(line["rank"]) for line in absent)
    assert by_number[LATE]["round_1"] in ("", "0") and by_number[LATE]["round_2"] != ""
    print(f"\nHer event: {len(played)} players ranked above {len(absent)} no-shows; "
          f"the late arrival ranks {by_number[LATE]['rank']}")
