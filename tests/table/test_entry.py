"""East's game entry: saving, live scores, refusals at the field, corrections, 409, replay."""

from __future__ import annotations

import re

import pytest

from models import AuditEvent, GameEntry, db
from tests.cycles import left_in_cycles

HX = {"HX-Request": "true"}


def ticked_winner(seat):
    """The entry page's answer "who won" as it is ticked: asked with how the game ended
    (outcome "mahjong:S")."""
    return f'id="outcome-mahjong:{seat}" value="mahjong:{seat}" checked'


def games(east, round_no=1):
    sheet = east.sheet(round_no)
    return sorted(sheet.games, key=lambda g: g.number) if sheet else []


def test_table_page_shows_round_seats_next_tables_and_the_button(east):
    response = east.get()
    text = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Table 1" in text and "Your sheet: round 1 of 2" in text
    assert "Player 1" in text and "Player 4" in text
    assert "Next round: <strong>table 2</strong>" in text  # South moves down one (circular)
    assert "Enter game 1" in text
    assert 'id="clock"' in text  # the round clock's partial, included


def test_self_picked_jokerless_win_is_saved_with_its_points(east):
    response = east.save(1, outcome="mahjong", winner="S", value="30", win_by="self",
                         jokerless="y", initials="pb")
    assert response.status_code == 303
    [game] = games(east)
    assert game.points == {"E": 0, "S": 50, "W": 0, "N": 0}  # 30 + 10 self + 10 jokerless
    assert game.signer == "S" and game.initials == "pb"
    page = east.get().get_data(as_text=True)
    assert "Player 2 (South) won, self-picked." in page and ">50<" in page
    assert "Player 2 (South) initialled the scores: pb." in page and "Enter game 2" in page


def test_thrown_win_to_two_exposures_and_the_typed_value(east):
    east.save(1, outcome="mahjong", winner="E", value_other="45", win_by="thrown",
              thrower="N", exposures="2", initials="WW")
    [game] = games(east)
    assert game.points == {"E": 45, "S": 0, "W": 0, "N": -10}
    assert game.signer == "W"  # West initials when East wins


def test_wall_game_with_a_dead_hand(east):
    east.save(1, outcome="wall", dead=["N"], initials="W")
    [game] = games(east)
    assert game.points == {"E": 10, "S": 10, "W": 10, "N": 0}
    assert game.record == {"outcome": "wall", "dead": ["N"]}


def test_penalty_and_note_are_kept(east):
    east.save(1, outcome="wall", pen_blind_pass_peek=["S"], note="S peeked")
    [game] = games(east)
    assert game.points["S"] == 0  # +10 wall -10 peek
    assert game.note == "S peeked"


@pytest.mark.parametrize("fields, field_id, words", [
    # the thrower is chosen with how the tile came: its error is said at that step
    ({"outcome": "mahjong", "winner": "S", "value": "30", "win_by": "thrown:S",
      "exposures": "1"}, "err-win_by", "cannot be the winner"),
    ({"outcome": "mahjong", "winner": "S", "value": "30", "win_by": "thrown",
      "thrower": "S", "exposures": "1"}, "err-win_by", "cannot be the winner"),
    ({"outcome": "mahjong", "winner": "S", "value_other": "33", "win_by": "self"},
     "err-value", "steps of 5"),
    ({"outcome": "mahjong", "winner": "S", "value_other": "abc", "win_by": "self"},
     "err-value", "as a number"),
    ({"outcome": "mahjong", "winner": "S", "win_by": "self"}, "err-value", "worth"),
    ({"outcome": "mahjong", "winner": "S", "value": "30"}, "err-win_by",
     "self-picked or thrown"),
    ({"outcome": "mahjong", "winner": "S", "value": "30", "win_by": "heavenly"},
     "err-win_by", "Only East"),
    # the winner is chosen with how the game ended ("South · ..."): said at that step
    ({"outcome": "mahjong", "winner": "S", "value": "30", "win_by": "self", "dead": ["S"]},
     "err-outcome", "cannot be dead"),
    ({}, "err-outcome", "How did the game end"),
])
def test_invalid_games_are_refused_at_the_field_and_nothing_is_saved(east, fields, field_id,
                                                                     words):
    response = east.save(1, **fields)
    text = response.get_data(as_text=True)
    assert response.status_code == 422
    message = re.search(f'id="{field_id}">([^<]*)<', text)
    assert message and words in message.group(1), text
    assert games(east) == []
    # the inputs East typed are still there
    if fields.get("winner"):
        assert ticked_winner("S") in text


def test_the_signers_tap_is_asked_for_at_the_field_and_gives_their_initials(east):
    """No typed initials: a save without the signer's tap (nor initials) is refused at
    the sign step, naming who to hand the phone to; their tap writes their name's."""
    response = east.save(1, initials="", outcome="wall")
    text = response.get_data(as_text=True)
    assert response.status_code == 422
    message = re.search(r'id="err-sign">([^<]*)<', text)
    assert message and ("hand the phone to Player 3 (West) to check the scores and tap "
                        "their name") in message.group(1), text
    assert games(east) == []
    # West signs a wall game: their button, then the initials of "Player 3"
    assert 'name="signed_by" value="W"' in text and "Player 3: these are right" in text
    assert 'name="initials"' not in text
    assert east.save(1, initials="", outcome="wall", signed_by="W").status_code == 303
    [game] = games(east)
    assert game.signer == "W" and game.initials == "P3"


def test_htmx_save_failure_answers_the_entry_partial(east):
    response = east.save(1, headers=HX, outcome="mahjong", winner="S")
    text = response.get_data(as_text=True)
    assert response.status_code == 422
    assert text.lstrip().startswith("<form") and "<html" not in text
    assert "HX-Request" in response.headers["Vary"]


def test_htmx_save_success_answers_the_table_page_in_place(east):
    """A write's htmx answer carries the next page (no HX-Redirect, so no second request
    can fail after the write went through): the whole table page for the body, its
    address pushed; a plain post still redirects."""
    response = east.save(1, headers=HX, outcome="wall")
    text = response.get_data(as_text=True)
    assert response.status_code == 200 and "HX-Redirect" not in response.headers
    assert response.headers["HX-Retarget"] == "body"
    assert response.headers["HX-Reswap"] == "innerHTML show:window:top"
    pushed = response.headers["HX-Push-Url"]
    assert pushed.startswith(east.base) and f"k={east.table.token}" in pushed
    assert "Game 1 saved." in text and "Enter game 2" in text and 'id="panel"' in text
    assert len(games(east)) == 1
    plain = east.save(2, outcome="wall")
    assert plain.status_code == 303 and plain.headers["Location"].startswith(east.base)


def test_preview_shows_scores_with_the_rule_sets_words_and_x_for_zero(east):
    data = {"game_no": 1, "round_no": 1, "version": 1, "outcome": "mahjong", "winner": "W",
            "value": "25", "win_by": "self", "jokerless": "y"}
    response = east.post("/game/preview", data, headers=HX)
    text = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "jokerless +10 (TNT)" in text and "self-picked +10 (TNT)" in text
    assert '<span class="score-points">45</span>' in text
    assert '<span class="score-points">X</span>' in text
    # the winner signs: their own button saves the game
    assert "Hand the phone to <strong>Player 3</strong>" in text
    assert re.search(r'<button type="submit"[^>]* name="signed_by" value="W"[^>]*>'
                     r'Player 3: 45 is right</button>', text)
    assert 'name="initials"' not in text
    assert games(east) == []


def test_the_preview_writes_nothing_and_reads_as_the_entry_page_does(east):
    """A preview answers a post but writes nothing (@shows_only): it reads the table, its
    round and sheet as the entry page's GET does, as plain rows, not as a write's
    entities with the tournament read again; and a wrong token is still refused."""
    from tests.table.conftest import count_queries

    east.save(1, outcome="wall", initials="ab")
    data = {"game_no": 2, "round_no": 1, "version": east.sheet().version,
            "outcome": "mahjong", "winner": "W", "value": "25", "win_by": "self"}
    with count_queries() as page:
        assert east.get("/game").status_code == 200
    with count_queries() as preview:
        response = east.post("/game/preview", data, headers=HX)
    assert response.status_code == 200 and "score-points" in response.get_data(as_text=True)
    assert preview.statements and all(
        statement.lstrip().upper().startswith("SELECT") for statement in preview.statements)
    assert preview.statements[0] == page.statements[0]  # the table's link, read as rows
    # the page's own reads and, of the round asked for (round_no), its plain row: nothing
    # read twice, no entities
    assert [statement for statement in preview.statements
            if not statement.lstrip().startswith("SELECT round.")] == page.statements
    assert len(preview.statements) <= len(page.statements) + 1
    wrong = east.client.post(east.url("/game/preview").replace(east.table.token, "x" * 20),
                             data=data, headers=HX)
    assert wrong.status_code == 404


def test_a_save_reads_its_sheet_with_its_games_and_initials_in_one_query(east):
    """A write reads its sheet with the rows it changes joined in (core.sheets.sheet_for,
    to_write), not a query for each as it is first touched: on PostgreSQL each is a
    round trip while the write holds its locks."""
    from tests.table.conftest import count_queries

    east.save(1, outcome="wall", initials="ab")
    data = {"game_no": 2, "round_no": 1, "entered_as": "new", "version": east.version(),
            "request_key": "second-game", "initials": "ab", "outcome": "wall",
            "no_dead": "y"}
    with count_queries() as save:
        assert east.post("/game", data).status_code == 303
    reads = [" ".join(statement.split()) for statement in save.statements
             if statement.lstrip().upper().startswith("SELECT")]
    assert not [read for read in reads
                if read.split(" FROM ", 1)[1].startswith(("game_entry", "round_signoff"))]
    assert sum("JOIN game_entry" in read and "JOIN round_signoff" in read
               for read in reads) == 1
    assert [game.number for game in games(east)] == [1, 2]


def test_preview_of_an_unfinished_entry_names_the_next_step_not_an_error(east):
    data = {"game_no": 1, "round_no": 1, "version": 1, "outcome": "mahjong", "winner": "W"}
    text = east.post("/game/preview", data, headers=HX).get_data(as_text=True)
    assert "What is the hand worth" in text and 'id="err-value"' not in text
    assert "step-later" in text  # the later steps wait (with JavaScript)


def test_preview_of_a_contradiction_shows_it_at_the_field(east):
    data = {"game_no": 1, "round_no": 1, "version": 1, "outcome": "mahjong", "winner": "W",
            "value": "25", "win_by": "thrown:N", "exposures": "1", "dead": ["N"]}
    text = east.post("/game/preview", data, headers=HX).get_data(as_text=True)
    # said where the thrower was chosen: with how the tile came
    message = re.search(r'id="err-win_by">([^<]*)<', text)
    assert message and "dead hand cannot be the thrower" in message.group(1), text
    assert 'id="err-thrower"' not in text


def test_outcomes_and_penalties_follow_the_rule_set(east, east_htm):
    tnt_entry = east.get("/game").get_data(as_text=True)
    assert 'id="outcome-misnamed_tile"' in tnt_entry
    assert 'id="outcome-error_one_intact"' in tnt_entry
    assert "Heavenly" in tnt_entry and "pen_misnamed_exposure" in tnt_entry
    htm_entry = east_htm.get("/game").get_data(as_text=True)
    assert 'id="outcome-misnamed_tile"' not in htm_entry
    assert 'id="outcome-error_one_intact"' not in htm_entry
    assert "Heavenly" not in htm_entry and "pen_misnamed_exposure" not in htm_entry
    assert "pen_blind_pass_peek" in htm_entry


def test_heavenly_hand_for_east_under_tnt(east):
    east.save(1, outcome="mahjong", winner="E", value="25", win_by="heavenly")
    [game] = games(east)
    assert game.points["E"] == 35


def test_a_correction_is_audited_with_before_and_after(east):
    east.save(1, outcome="wall")
    response = east.save(1, outcome="mahjong", winner="N", value="25", win_by="self")
    assert response.status_code == 303
    [game] = games(east)
    assert game.points == {"E": 0, "S": 0, "W": 0, "N": 35}
    event = db.session.scalar(db.select(AuditEvent).where(AuditEvent.action == "game.correct"))
    assert event.before["points"] == {"E": 10, "S": 10, "W": 10, "N": 10}
    assert event.after["points"]["N"] == 35


def test_correction_page_is_filled_from_the_stored_game(east):
    east.save(1, outcome="mahjong", winner="S", value_other="55", win_by="thrown",
              thrower="W", exposures="3")
    text = east.get("/game", g=1).get_data(as_text=True)
    assert "Correct game 1" in text
    assert ticked_winner("S") in text and 'value="55"' in text
    assert 'id="win_by-thrown:W" value="thrown:W" checked' in text


def test_stale_version_answers_409_with_the_current_sheet_and_keeps_the_inputs(east):
    east.save(1, outcome="wall")
    response = east.save(2, version=1, outcome="mahjong", winner="S", value="30",
                         win_by="self")
    text = response.get_data(as_text=True)
    assert response.status_code == 409
    assert "Someone changed this sheet" in text
    assert "Wall game" in text  # the current sheet
    assert ticked_winner("S") in text
    assert f'name="version" value="{east.version()}"' in text
    assert len(games(east)) == 1


def test_a_resent_save_is_applied_once(east):
    first = east.save(1, key="same-key", outcome="wall")
    again = east.save(1, key="same-key", outcome="wall", version=1)
    assert first.status_code == again.status_code == 303
    assert len(games(east)) == 1
    assert db.session.scalar(db.select(db.func.count()).select_from(GameEntry)) == 1


def test_no_fifth_game(east):
    for number in range(1, 5):
        east.save(number, outcome="wall")
    response = east.save(5, outcome="wall")
    assert response.status_code in (409, 422)
    assert len(games(east)) == 4
    # the table page now leads to the review
    assert "Review the round" in east.get().get_data(as_text=True)
    assert east.get("/game").status_code == 303


def test_polling_the_table_answers_204_when_nothing_changed(east):
    # round, sheet version, clock version, clock state, players version
    shown = f"1-{east.version()}-0-not_started-0"
    assert east.client.get(east.url("", v=shown), headers=HX).status_code == 204
    east.save(1, outcome="wall")
    response = east.client.get(east.url("", v=shown), headers=HX)
    assert response.status_code == 200 and 'id="panel"' in response.get_data(as_text=True)
    assert "HX-Request" in response.headers["Vary"]


def test_polling_refreshes_the_page_when_the_table_moves_to_another_round(east):
    response = east.client.get(east.url("", v="2-1-3-running"), headers=HX)
    assert response.headers.get("HX-Refresh") == "true"


def test_the_panel_polls_with_round_version_and_clock_state(east):
    text = east.get().get_data(as_text=True)
    assert f'data-live="panel" data-live-version="1-{east.version()}-0-not_started-0"' in text


def test_a_form_without_a_version_is_treated_as_stale(east):
    response = east.post("/game", {"game_no": 1, "round_no": 1, "outcome": "wall",
                                   "no_dead": "y", "initials": "W", "request_key": "k1"})
    assert response.status_code == 409
    assert games(east) == []


def test_the_plain_preview_button_answers_the_whole_page(east):
    data = {"game_no": 1, "round_no": 1, "version": 1, "outcome": "wall", "no_dead": "y"}
    response = east.post("/game/preview", data)
    text = response.get_data(as_text=True)
    assert response.status_code == 200 and "<html" in text and "wall game +10 (TNT)" in text


def test_a_new_game_never_overwrites_a_game_saved_meanwhile(east):
    east.save(1, outcome="wall")
    # a form that entered "game 1" as a new game, even with the current version
    response = east.save(1, outcome="time", entered_as="new")
    assert response.status_code == 409
    assert games(east)[0].record == {"outcome": "wall"}
    page = response.get_data(as_text=True)
    # the typed answers stay with game 1: East compares and chooses, never a phantom game 2
    assert 'name="game_no" value="1"' in page
    assert 'name="entered_as" value="correction"' in page
    assert "Keep theirs" in page and "Correct game 1 with mine" in page
    # a correction of game 1 does change it
    assert east.save(1, outcome="time", entered_as="correction").status_code == 303
    assert games(east)[0].record == {"outcome": "time"}


def test_the_table_and_entry_pages_and_preview_leave_nothing_to_the_garbage_collector(east):
    """The scoring's refusal of an unfinished game is kept to name the next step without
    its traceback (with it, the request's frames and everything they held, a hundred
    objects an entry page, were a cycle); and a sheet's game rows keep no reference to
    their sheet's view (each page's view and rows were another)."""
    assert east.save(1, outcome="wall").status_code == 303
    unfinished = {"game_no": 2, "round_no": 1, "version": east.version(),
                  "outcome": "mahjong", "winner": "W"}
    pages = (lambda: east.get(), lambda: east.get("/game"),
             lambda: east.post("/game/preview", unfinished, headers=HX))
    for page in pages:
        assert page().status_code == 200
    assert left_in_cycles(*pages) == []
    preview = pages[2]().get_data(as_text=True)
    assert "What is the hand worth" in preview


# ---- the signer's tap, the thrower in one tap, "Any dead hands?" ----------------------


def name_seat(east, seat, name, round_no=1):
    """Give the player in `seat` at East's table (this round) the name `name`."""
    from models import Player, Round, Seating

    rnd = db.session.scalar(db.select(Round).where(
        Round.tournament_id == east.tournament.id, Round.number == round_no))
    player = db.session.scalar(db.select(Player).join(
        Seating, Seating.player_id == Player.id).where(
        Seating.round_id == rnd.id, Seating.table_id == east.table.id, Seating.seat == seat))
    player.name = name
    db.session.commit()


def sign_button(text):
    """(seat, words) of the signer's button on an entry page, or None."""
    found = re.search(r'<button type="submit"[^>]* name="signed_by" value="(\w)"[^>]*>'
                      r'(.*?)</button>', text, re.S)
    return (found.group(1), " ".join(found.group(2).split())) if found else None


def test_the_signers_tap_writes_the_initials_of_their_name_on_the_game_and_the_total(east):
    name_seat(east, "S", "Bea Goldberg")
    name_seat(east, "W", "Carol Chen")
    answers = {"outcome": "mahjong", "winner": "S", "value": "25", "win_by": "self"}
    preview = east.post("/game/preview", east.game_data(1, initials="", **answers),
                        headers=HX).get_data(as_text=True)
    assert sign_button(preview) == ("S", "Bea Goldberg: 35 is right")  # the winner signs
    assert 'name="initials"' not in preview
    assert east.save(1, initials="", signed_by="S", **answers).status_code == 303
    [game] = games(east)
    assert game.signer == "S" and game.initials == "BG" and game.points["S"] == 35
    assert "Bea Goldberg (South) initialled the scores: BG." in east.get().get_data(
        as_text=True)
    # West signs a wall game: "Carol Chen: these are right" -> CC
    preview = east.post("/game/preview", east.game_data(2, initials="", outcome="wall"),
                        headers=HX).get_data(as_text=True)
    assert sign_button(preview) == ("W", "Carol Chen: these are right")
    assert east.save(2, initials="", signed_by="W", outcome="wall").status_code == 303
    assert games(east)[1].initials == "CC"
    east.save(3, outcome="wall")
    east.save(4, outcome="time")
    # the review: Bea's one button for her round total, posted with no initials
    review = east.get("/review").get_data(as_text=True)
    button = re.search(r'id="confirm-S"[^>]*>(.*?)</button>', review, re.S)
    assert button and "Bea Goldberg" in button.group(1) and 'id="total-S">55<' in button.group(1)
    shown = dict(re.findall(r'id="initials-S-(\w+)" name="\w+" type="hidden" value="([^"]*)"',
                            review))
    assert "initials" not in shown
    response = east.post("/initial", {**shown, "seat": "S"})
    assert response.status_code == 303, response.get_data(as_text=True)
    assert {s.seat: s.initials for s in east.sheet().signoffs} == {"S": "BG"}
    row = re.search(r'id="confirmed-S">(.*?)</p>', east.get("/review").get_data(as_text=True),
                    re.S)
    assert row and "Bea Goldberg" in row.group(1) and "BG" in row.group(1)


@pytest.mark.parametrize("tapped", ["W", "N", "Z"])
def test_a_tap_by_someone_who_does_not_sign_is_refused_and_nothing_is_saved(east, tapped):
    """South won: South signs. A button of another seat (a page shown before the answers
    changed, or a forged post) saves nothing and says so at the sign step."""
    response = east.save(1, initials="", signed_by=tapped, outcome="mahjong", winner="S",
                         value="25", win_by="self")
    text = response.get_data(as_text=True)
    assert response.status_code == 422
    message = re.search(r'id="err-sign">([^<]*)<', text)
    assert message and "check the scores again" in message.group(1), text
    assert games(east) == []
    assert db.session.scalar(db.select(db.func.count()).select_from(AuditEvent)
                             .where(AuditEvent.action.like("game.%"))) == 0
    # South's own button is shown again, for the scores as they are
    assert sign_button(text) == ("S", "Player 2: 35 is right")


@pytest.mark.parametrize("ending", [
    {"outcome": "wall"},
    {"outcome": "misnamed_tile", "misnamer": "S"},
])
def test_a_game_without_an_answer_to_any_dead_hands_is_refused_at_that_step(east, ending):
    """TNT, wall game: "+10 for each player except players whose hands have been declared
    dead"; "0 points for a dead hand ... do not receive the 10-point wall game bonus."
    (/work/shared/rules/000_5ca60a422e8b9084.txt). Where a dead hand changes the points
    (forms.DEAD_CHANGES_POINTS) the page asks "Any dead hands?": no answer is never read
    as "none"."""
    data = east.game_data(1, **ending)
    del data["no_dead"]
    response = east.post("/game", data)
    text = response.get_data(as_text=True)
    assert response.status_code == 422
    message = re.search(r'id="err-dead">([^<]*)<', text)
    assert message and "a dead hand scores 0" in message.group(1), text
    assert 'id="err-sign"' not in text
    assert games(east) == []
    # the question, with each seat and "No dead hands"
    step = re.search(r'<fieldset[^>]* id="step-dead">(.*?)</fieldset>', text, re.S)
    assert step and "Any dead hands?" in step.group(1)
    assert all(f'name="dead" id="dead-{seat}" value="{seat}"' in step.group(1)
               for seat in "ESWN")
    assert 'name="no_dead"' in step.group(1) and "No dead hands" in step.group(1)
    # nor are scores previewed before the answer
    preview = east.post("/game/preview", data, headers=HX).get_data(as_text=True)
    assert 'class="score-points"' not in preview and sign_button(preview) is None
    # answered: North's dead hand scores 0, the others their points
    assert east.save(1, dead=["N"], **ending).status_code == 303
    [game] = games(east)
    assert game.points["N"] == 0 and game.record["dead"] == ["N"]
    if ending["outcome"] == "wall":
        assert game.points == {"E": 10, "S": 10, "W": 10, "N": 0}


def test_thrown_by_west_in_one_tap_records_the_discarder_and_the_exposures(east):
    """win_by "thrown:W" ("Thrown by West") is how the tile came and who threw it."""
    entry = east.get("/game").get_data(as_text=True)
    assert 'name="thrower"' not in entry  # no thrower step of its own
    response = east.save(1, outcome="mahjong", winner="S", value="30", win_by="thrown:W",
                         exposures="2")
    assert response.status_code == 303, response.get_data(as_text=True)
    [game] = games(east)
    assert game.record["discarder"] == "W" and game.record["exposures"] == 2
    assert not game.record.get("self_picked")
    assert game.points == {"E": 0, "S": 30, "W": -10, "N": 0}  # TNT: 2 exposures, -10
    correction = east.get("/game", g=1).get_data(as_text=True)
    assert 'id="win_by-thrown:W" value="thrown:W" checked' in correction
    assert 'id="exposures-2" value="2" checked' in correction
