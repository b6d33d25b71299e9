"""Each player's own phone at the table: "this is me", a game East saves for its signer to
confirm on their own phone, the first confirmation winning, a resent one counting once,
East going on to the next game meanwhile, and where each goes next.

Who signs which game comes from the TNT sheet (tnt: "The player who has Mahjong initials
the official scoresheet after each game. ... West must initial East's score when East
wins and must initial the scoresheet for all wall games"), as tournament.scoring.signer
reads it."""

from __future__ import annotations

import re
import secrets
import threading

from models import AuditEvent, db
from tests.table.conftest import TableClient
from tests.table.test_entry import HX, games, name_seat

SOUTH_WINS = {"outcome": "mahjong", "winner": "S", "value": "25", "win_by": "thrown:W",
              "exposures": "2"}


def phone(app, tnt) -> TableClient:
    """Another phone at table 1: its own cookies (its own session)."""
    return TableClient(app.test_client(), tnt)


def claim(table_phone, seat):
    return table_phone.post("/me", {"seat": seat, "round_no": 1})


def hidden(html: str, form_id_prefix: str) -> dict[str, str]:
    """The hidden fields of the form whose inputs' ids start with `form_id_prefix`."""
    return {name: value for name, value in re.findall(
        rf'<input id="{re.escape(form_id_prefix)}-([a-z_]+)" name="[a-z_]+" type="hidden" '
        r'value="([^"]*)">', html)}


def audit(action):
    return db.session.scalars(db.select(AuditEvent).where(AuditEvent.action == action)
                              .order_by(AuditEvent.id)).all()


def test_this_is_me_names_the_player_back_is_kept_and_undone_in_one_tap(app, tnt, east):
    name_seat(east, "S", "Bea Goldberg")
    south = phone(app, tnt)
    page = south.get().get_data(as_text=True)
    assert page.count("aria-label=\"This is me: ") == 4  # one a seat, nobody chosen yet
    response = claim(south, "S")
    assert response.status_code == 303
    page = south.get().get_data(as_text=True)
    assert "This phone is Bea Goldberg&#39;s for this round." in page
    assert "Bea Goldberg, South: this phone is yours" in page
    assert "aria-label=\"This is me: " not in page
    assert east.sheet().phone_s is True
    # East's phone (another session) is nobody's, and says who has their own phone
    east_page = east.get().get_data(as_text=True)
    assert "this phone is yours" not in east_page and "On their own phone" in east_page
    assert audit("seat.own_phone")[-1].actor == "Table 1 (South), on their own phone"
    # undone in one tap
    assert south.post("/not-me", {"round_no": 1}).status_code == 303
    page = south.get().get_data(as_text=True)
    assert "this phone is yours" not in page and page.count("aria-label=\"This is me: ") == 4
    assert east.sheet().phone_s is False


def test_this_is_me_for_a_seat_nobody_sits_in_changes_nothing(app, tnt, east):
    south = phone(app, tnt)
    response = south.post("/me", {"seat": "X", "round_no": 1}, headers=HX)
    assert response.status_code == 422
    assert "Choose your own name." in response.get_data(as_text=True)
    assert east.sheet() is None or not any(
        getattr(east.sheet(), f"phone_{s}") for s in "eswn")


def test_the_signer_with_a_phone_is_offered_on_easts_phone_and_confirms_on_their_own(
        app, tnt, east):
    name_seat(east, "S", "Bea Goldberg")
    south = phone(app, tnt)
    claim(south, "S")
    preview = east.post("/game/preview", east.game_data(1, initials="", **SOUTH_WINS),
                        headers=HX).get_data(as_text=True)
    assert "Save game 1: Bea Goldberg confirms on their phone" in preview
    assert "Bea Goldberg: 25 is right" in preview  # the one-phone button stays
    assert east.save(1, initials="", confirm_later="S", **SOUTH_WINS).status_code == 303
    [game] = games(east)
    assert game.signer == "S" and game.initials == "" and game.points["S"] == 25
    assert "Waiting for Bea Goldberg to confirm (on their phone)." in east.get().get_data(
        as_text=True)

    page = south.get().get_data(as_text=True)
    assert re.search(r'id="my-confirm-1">Bea Goldberg: 25 is right<', page)
    fields = hidden(page, "my-game-1")
    response = south.post("/confirm-game", fields)
    assert response.status_code == 303
    assert games(east)[0].initials == "BG"
    [confirmed] = audit("game.confirm")
    assert confirmed.actor == "Table 1 (South), on their own phone"
    assert confirmed.after["points"] == 25 and confirmed.after["game"] == 1

    # East's review, opened before, taps the same confirmation: the first one won
    again = east.post("/confirm-game", {**fields, "request_key": "another"}, headers=HX,
                      to="review")
    assert again.status_code == 409
    assert "Game 1 is already confirmed (BG)" in again.get_data(as_text=True)
    assert len(audit("game.confirm")) == 1


def test_a_confirmation_sent_again_after_a_lost_answer_counts_once(app, tnt, east):
    south = phone(app, tnt)
    claim(south, "S")
    east.save(1, initials="", confirm_later="S", **SOUTH_WINS)
    fields = hidden(south.get().get_data(as_text=True), "my-game-1")
    assert south.post("/confirm-game", fields).status_code == 303
    assert south.post("/confirm-game", fields).status_code == 303  # the same key
    assert len(audit("game.confirm")) == 1


def test_two_phones_confirming_at_once_store_one_confirmation(app, tnt, east):
    """South's phone and East's phone tap the same confirmation at the same moment."""
    south = phone(app, tnt)
    claim(south, "S")
    east.save(1, initials="", confirm_later="S", **SOUTH_WINS)
    fields = hidden(south.get().get_data(as_text=True), "my-game-1")
    start = threading.Barrier(2)
    statuses = []

    def tap(table_phone, key):
        start.wait()
        response = table_phone.post("/confirm-game", {**fields, "request_key": key})
        statuses.append(response.status_code)

    threads = [threading.Thread(target=tap, args=(south, "on-her-phone")),
               threading.Thread(target=tap, args=(phone(app, tnt), "on-easts-phone"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses)[0] == 303 and statuses.count(303) == 1, statuses
    db.session.expire_all()
    assert len(audit("game.confirm")) == 1
    assert games(east)[0].initials  # from the name of the one that counted


def test_east_goes_on_to_the_next_game_while_a_confirmation_is_outstanding(app, tnt, east):
    south = phone(app, tnt)
    claim(south, "S")
    east.save(1, initials="", confirm_later="S", **SOUTH_WINS)
    shown_to_east = east.version()  # East opens game 2
    assert south.post("/confirm-game", hidden(south.get().get_data(as_text=True),
                                              "my-game-1")).status_code == 303
    # the confirmation came after game 2's page was shown: it still saves
    assert east.save(2, version=shown_to_east, outcome="wall", initials="W").status_code == 303
    assert [g.number for g in games(east)] == [1, 2]
    # a game changed meanwhile is still a conflict
    shown_to_east = east.version()
    east.save(1, initials="W", outcome="wall")  # corrected from another phone
    assert east.save(3, version=shown_to_east, outcome="wall").status_code == 409


def test_the_round_cannot_be_submitted_while_a_game_waits_for_its_signer(app, tnt, east):
    name_seat(east, "S", "Bea Goldberg")
    east.save(1, initials="", confirm_later="S", **SOUTH_WINS)
    for number in (2, 3, 4):
        east.save(number, outcome="wall", initials="W")
    for seat in "ESWN":
        assert east.post("/initial", {"seat": seat, "round_no": 1,
                                      "version": east.version(),
                                      "request_key": secrets.token_hex(4)}).status_code == 303
    review = east.get("/review").get_data(as_text=True)
    assert "Game 1: waiting for Bea Goldberg." in review
    assert 'id="waiting-confirm-1"' in review
    response = east.post("/submit", {"round_no": 1, "version": east.version(),
                                     "request_key": "s1"}, headers=HX)
    assert response.status_code == 422
    assert "Still to confirm: game 1 (Bea Goldberg)." in response.get_data(as_text=True)
    assert east.sheet().state == "open"
    # Bea has no phone: she confirms on East's phone, as today
    fields = hidden(review, "waiting-1")
    assert east.post("/confirm-game", fields, to="review").status_code == 303
    assert audit("game.confirm")[-1].actor == "Table 1 (South), on East's phone"
    assert east.post("/submit", {"round_no": 1, "version": east.version(),
                                 "request_key": "s2"}).status_code == 303


def test_saving_for_a_signer_who_no_longer_signs_is_refused(app, tnt, east):
    response = east.save(1, initials="", confirm_later="W", **SOUTH_WINS)
    assert response.status_code == 422
    assert games(east) == []


def test_a_players_phone_confirms_their_round_total_and_says_where_next(app, tnt, east):
    south = phone(app, tnt)
    claim(south, "S")
    for number in range(1, 5):
        east.save(number, outcome="wall", initials="W")
    page = south.get().get_data(as_text=True)
    assert re.search(r'id="my-total">Player \d+: 40 is right<', page)
    fields = hidden(page, "my-total")
    assert south.post("/confirm-total", fields).status_code == 303
    assert audit("round.initial")[-1].actor == "Table 1 (South), on their own phone"
    page = south.get().get_data(as_text=True)
    assert 'id="my-total-confirmed"' in page and 'id="my-total"' not in page
    # East's review names who is still to confirm, and who does it on their own phone
    review = east.get("/review").get_data(as_text=True)
    why = re.search(r'id="submit-why">([^<]*)<', review).group(1)
    assert why.startswith("Each player taps their own total above, then East submits. "
                          "Still to confirm: ")
    south_name = re.search(r'id="confirmed-S"><span>&#10003; ([^:]+):', review).group(1)
    still = why.split("Still to confirm: ")[1]
    assert south_name not in still and still.count(", ") == 2 and still.endswith(".")
    claim(phone(app, tnt), "W")
    review = east.get("/review").get_data(as_text=True)
    west_name = re.search(r'id="confirm-W"><span>([^:]+):', review).group(1)
    assert f"{west_name} (on their phone)" in re.search(r'id="submit-why">([^<]*)<',
                                                        review).group(1)
    # round 2 is not seated yet: said plainly, with the table the movement plans
    assert "The director has not seated round 2 yet" in page
    assert re.search(r"Next round: <strong>table \d+</strong>", page)
    assert "Round 2 starts when the director starts its clock." in page


def test_the_players_scores_page_says_where_next_once_the_round_is_submitted(app, tnt, east):
    for number in range(1, 5):
        east.save(number, outcome="wall", initials="W")
    for seat in "ESWN":
        east.post("/initial", {"seat": seat, "round_no": 1, "version": east.version(),
                               "request_key": secrets.token_hex(4)})
    scores = f"/p/{tnt.code}/player/2"
    assert 'id="my-next"' not in east.client.get(scores).get_data(as_text=True)
    assert east.post("/submit", {"round_no": 1, "version": east.version(),
                                 "request_key": "s1"}).status_code == 303
    page = east.client.get(scores).get_data(as_text=True)
    assert re.search(r'id="my-next".*Next: round 2, <strong>table \d+</strong>', page, re.S)
    assert "The director has not seated round 2 yet" in page


def test_a_players_phone_says_where_she_went_once_the_next_round_is_seated(app, tnt, east):
    """South's phone said "this is me" at table 1 in round 1. Round 2 is seated: the
    table's link now shows its next players, and her phone says, first, where she plays
    now (and that her seat here is someone else's)."""
    from blueprints.table.sheet_reads import seats_of
    from core.rounds import ensure_round, round_row
    from models import Seating

    south = phone(app, tnt)
    claim(south, "S")
    bea = seats_of(round_row(tnt, 1), east.table)["S"]
    for number in range(1, 5):
        east.save(number, outcome="wall", initials="W")
    for seat in "ESWN":
        east.post("/initial", {"seat": seat, "round_no": 1, "version": east.version(),
                               "request_key": secrets.token_hex(4)})
    assert east.post("/submit", {"round_no": 1, "version": east.version(),
                                 "request_key": "s1"}).status_code == 303
    rnd2 = ensure_round(tnt, 2)
    db.session.commit()
    now = db.session.scalar(db.select(Seating).where(Seating.round_id == rnd2.id,
                                                     Seating.player_id == bea.id))
    seat = {"E": "East", "S": "South", "W": "West", "N": "North"}[now.seat]
    page = south.get().get_data(as_text=True)
    line = re.search(r'<div class="my-next" id="moved-on">\s*<p class="my-next-line">(.*?)</p>',
                     page, re.S).group(1)
    if now.table.number == east.table.number:
        assert line == (f"{bea.name}: round 2, you are at <strong>this table, {seat}</strong>. "
                        "Tap your seat below.")
    else:
        assert line == (f"{bea.name}: round 2, you play at <strong>table {now.table.number}, "
                        f"{seat}</strong>.")
        assert f'href="/p/{tnt.code}/player/{bea.number}">open your scores</a>' in page
    # first on the page, before the next players' "Enter game 1"
    assert page.index('id="moved-on"') < page.index("Enter game 1")
    # a phone that never said "this is me" here is told nothing
    assert 'id="moved-on"' not in phone(app, tnt).get().get_data(as_text=True)


def test_where_the_rules_ask_no_round_initials_the_own_phone_may_still_confirm(app, tnt,
                                                                              east):
    """A rule set that asks no player to initial the round total (City Mahj's): East's
    review offers each a tap, not a requirement, and so does the player's own phone."""
    from models import Tournament

    db.session.execute(db.update(Tournament).where(Tournament.id == tnt.id)
                       .values(rules={**tnt.rules, "round_signoff_all": False}))
    db.session.commit()
    south = phone(app, tnt)
    claim(south, "S")
    for number in range(1, 5):
        east.save(number, outcome="wall", initials="W")
    review = east.get("/review").get_data(as_text=True)
    assert "Round totals: each player may tap theirs" in review
    assert "Each player taps their total" not in review
    page = south.get().get_data(as_text=True)
    assert re.search(r'id="my-total">Player \d+: 40 is right<', page)
    assert south.post("/confirm-total", hidden(page, "my-total")).status_code == 303
    assert 'id="my-total-confirmed"' in south.get().get_data(as_text=True)
