"""The table's sheet and review pages at phone size: the scores initialled are the scores
saved, rulings shown where players look, rounds labelled, wording from the rule set,
sheet headers, time called confirmed, unique ids."""

from __future__ import annotations

import html
import re
import secrets

from blueprints.table import sheet_writes
from blueprints.table.forms import DEAD_CHANGES_POINTS
from core import sheets
from models import Round, Tournament, User, db, utcnow

HX = {"HX-Request": "true"}


def text_of(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def entry_form(east, game_no=1, **fields):
    data = {"game_no": game_no, "round_no": 1, "entered_as": "new",
            "version": east.version(), "request_key": secrets.token_urlsafe(8), **fields}
    # "Any dead hands?" is asked where they change the points: none, as East taps it
    if data.get("outcome") in DEAD_CHANGES_POINTS and "dead" not in data:
        data.setdefault("no_dead", "y")
    return data


# ---- the preview includes the director's pending ruling --------------------------


def test_the_preview_includes_a_pending_ruling_for_this_game(east, director):
    sheets.add_adjustment(east.table, 1, "S", -10, "tile count", director, game_no=1)
    db.session.commit()
    response = east.post("/game/preview", entry_form(east, outcome="wall"), headers=HX)
    page = text_of(response)
    assert response.status_code == 200
    assert "-10 director's ruling: tile count" in page
    scores = re.search(r'<ul class="game-scores live-points".*?</ul>', page, re.S).group(0)
    cells = re.findall(r'<span class="score-points">([^<]*)</span>', scores)
    assert cells == ["10", "X", "10", "10"]  # South: wall 10, ruling -10
    # and what was initialled is what is saved
    east.save(1, outcome="wall", initials="WW")
    assert east.sheet().games[0].points == {"E": 10, "S": 0, "W": 10, "N": 10}


def test_a_correction_preview_keeps_the_ruling_already_on_the_game(east, director):
    east.save(1, outcome="wall")
    sheets.add_adjustment(east.table, 1, "N", 10, "wrong call", director, game_no=1)
    db.session.commit()
    page = text_of(east.post("/game/preview", entry_form(
        east, outcome="wall", entered_as="correction"), headers=HX))
    assert "+10 director's ruling: wrong call" in page


def test_a_ruling_for_another_game_is_not_in_this_preview(east, director):
    sheets.add_adjustment(east.table, 1, "S", -10, "tile count", director, game_no=2)
    db.session.commit()
    page = text_of(east.post("/game/preview", entry_form(east, outcome="wall"), headers=HX))
    assert "director's ruling: tile count" not in page.split('id="live-scores"')[1]


# ---- rulings on the sheet's game rows and the director's sheet --------------------


def test_a_ruling_shows_on_the_sheet_row_and_the_directors_sheet(client, east, tnt, director):
    east.save(1, outcome="wall")
    sheets.add_adjustment(east.table, 1, "S", -10, "tile count", director, game_no=1)
    db.session.commit()
    page = text_of(east.get())
    card = re.search(r'<li class="game-card">.*?</li>\s*</ol>', page, re.S).group(0)
    assert "Director's ruling: Player 2 (South) -10 points, tile count." in card
    staff = text_of(client.get(f"/t/director/{tnt.id}/1/1"))
    card = re.search(r'<li class="game-card">.*?</li>\s*</ol>', staff, re.S).group(0)
    assert "Director's ruling: Player 2 (South) -10 points, tile count." in card
    assert "director: tile count" not in staff  # the scoring line is worded the same way
    assert "<strong>Player 2</strong>: -10 director's ruling: tile count</li>" in staff


# ---- each game is a card: who won and how in a sentence, the four names with points ----


def test_each_game_card_names_the_winner_the_thrower_and_all_four_players(east):
    east.save(1, outcome="mahjong", winner="S", value="25", win_by="thrown", thrower="N",
              exposures="0")
    page = text_of(east.get())
    card = re.search(r'<li class="game-card">.*?</ul>', page, re.S).group(0)
    assert "Player 2 (South) won, thrown by Player 4 (North)." in card
    scores = re.findall(r'<li><span class="score-who">(Player \d) <span class="seat-key">'
                        r'(\w+) · player (\d+)</span></span> <span class="score-points">'
                        r'([^<]*)</span></li>', card)
    assert [(name, seat, number) for name, seat, number, _ in scores] == [
        ("Player 1", "East", "1"), ("Player 2", "South", "2"),
        ("Player 3", "West", "3"), ("Player 4", "North", "4")]
    assert all(points for *_, points in scores)
    assert "E · #1" not in page  # no abbreviated column heads


# ---- an earlier open sheet is flagged; the header and the clock agree -------------


def _round(tournament, number):
    return db.session.scalar(db.select(Round).where(Round.tournament_id == tournament.id,
                                                    Round.number == number))


def test_an_earlier_open_sheet_is_a_banner_and_the_header_names_each_round(east, tnt):
    from core.rounds import ensure_round

    east.save(1, outcome="wall")
    ensure_round(tnt, 2)
    db.session.flush()
    rnd1, rnd2 = _round(tnt, 1), _round(tnt, 2)
    rnd1.started_at = rnd1.ended_at = utcnow()
    rnd2.started_at = utcnow()
    db.session.commit()
    page = text_of(east.get())  # round 2 is running: the table plays round 2
    assert "Your sheet: round 2 of 2" in page
    banner = re.search(r'<p class="banner banner-earlier">(.*?)</p>', page, re.S).group(1)
    assert "round 1 sheet is not submitted yet" in banner
    assert "r=1" in banner and f"k={east.table.token}" in banner
    # round 2 ends with round 1 still open: the page is round 1's sheet, the clock round 2
    rnd2.ended_at = utcnow()
    db.session.commit()
    page = text_of(east.get())
    assert "Your sheet: round 1 of 2 · Clock: round 2" in page
    assert "the clock below is for round 2" in page


# ---- the initials label names the person, worded from the rule set ----------------


def _wall_preview(client, preset, code):
    from tests.conftest import make_tournament
    from tests.table.conftest import TableClient

    director = db.session.scalar(db.select(User))
    tournament = make_tournament(director, players=8, rounds=2, preset=preset, code=code,
                                 name=f"{preset} open")
    east = TableClient(client, tournament)
    page = text_of(east.post("/game/preview", entry_form(east, game_no=1, outcome="wall"),
                             headers=HX))
    hint = re.search(r'<p class="hint sign-hint" id="sign-hint">(.*?)</p>', page, re.S)
    button = re.search(r'<button type="submit"[^>]* name="signed_by" value="(\w)"[^>]*>'
                       r'(.*?)</button>', page, re.S)
    assert hint and button, page
    label = " ".join(re.sub(r"<[^>]+>", "", hint.group(1)).split())
    return label, (button.group(1), " ".join(button.group(2).split())), page


def test_the_sign_hint_names_the_signer_and_their_button_saves(client, director):
    # West signs a wall game: the phone goes to them, their own button saves the game
    label, button, page = _wall_preview(client, "tnt", "QATNT1")
    assert label == "Hand the phone to Player 3:"
    assert button == ("W", "Player 3: these are right")
    assert "very player checks" not in page and "table guide" not in page


def test_destination_adds_every_player_checks_their_own_score(client, director):
    label, button, page = _wall_preview(client, "destination", "QADST1")
    assert label == ("Hand the phone to Player 3 (every player checks their own score on "
                     "the review):")
    assert button == ("W", "Player 3: these are right")


def test_hidden_tile_keeps_the_signer_and_rules_of_the_road_says_nothing_more(client,
                                                                             director):
    label, button, page = _wall_preview(client, "hidden-tile", "QAHTM1")
    assert label.startswith("Hand the phone to Player 3 (")
    assert button == ("W", "Player 3: these are right")
    label, button, page = _wall_preview(client, "rules-of-the-road", "QAROR1")
    assert label == "Hand the phone to Player 3:"
    assert button == ("W", "Player 3: these are right")
    assert "table guide" not in page and "very player checks" not in page


def test_hidden_tile_mentions_the_table_guide_at_the_sign_step(client, director):
    # hidden-tile: a table guide verifies the sheet at the round's end
    label, button, page = _wall_preview(client, "hidden-tile", "QAHTM2")
    assert "a table guide also checks the round" in label.lower()


# ---- time called needs a tick, says what it does, and waits under a fold ---------


def _time_form(east, **extra):
    return {"round_no": 1, "version": east.version(), "request_key": secrets.token_urlsafe(8),
            **extra}


def test_time_called_without_the_tick_is_refused_and_changes_nothing(east):
    east.save(1, outcome="wall")
    version = east.version()
    response = east.post("/time", _time_form(east))
    page = text_of(response)
    assert response.status_code == 422
    assert "Nothing was recorded. Tick “Yes, the director called time” first" in page
    assert 'id="err-time"' in page and 'aria-describedby="err-time"' in page
    assert len(east.sheet().games) == 1 and east.version() == version
    assert east.post("/time", _time_form(east, confirm="y")).status_code == 303
    assert len(east.sheet().games) == 4


def test_time_called_waits_under_a_fold_until_time_is_up(east):
    east.save(1, outcome="wall")
    page = text_of(east.get())
    assert "Yes, the director called time" not in page  # the table page: only when time is up
    review = text_of(east.get("/review"))
    fold = re.search(r'<details class="more time-fold" id="time-called">.*?</details>', review,
                     re.S).group(0)
    assert "Record games 2–4 as time called" in fold and "Yes, the director called time" in fold
    rnd = db.session.scalar(db.select(Round).where(Round.tournament_id == east.tournament.id,
                                                   Round.number == 1))
    rnd.started_at = utcnow().replace(year=2020)
    rnd.duration_seconds = 60
    db.session.commit()
    for page in (text_of(east.get()), text_of(east.get("/review"))):
        # time up: "Enter game 2" stays the first action; zeroing games stays a second,
        # deliberate step that lists the games it records (tables that write the scores
        # at the end must not zero games they played)
        assert "Time is up." in page
        assert page.index("Enter game 2") < page.index('id="time-called"')
        assert '<details class="more time-fold" id="time-called">' in page
        assert "This records <strong>games 2, 3, 4</strong> as time called" in page


def _clock(east, *, minutes_ago, paused=False):
    from datetime import timedelta

    rnd = db.session.scalar(db.select(Round).where(Round.tournament_id == east.tournament.id,
                                                   Round.number == 1))
    rnd.duration_seconds = 50 * 60
    rnd.started_at = utcnow() - timedelta(minutes=minutes_ago)
    rnd.paused_at = utcnow() if paused else None
    db.session.commit()


def test_time_called_is_refused_while_the_rounds_clock_still_runs(east):
    """A tap on "time called" with 40 minutes on the room's clock is a mistake that would
    zero three games: refused in words at the answer, and nothing is recorded. The
    review does not offer it; paused with time left is the same."""
    east.save(1, outcome="wall")
    for paused in (False, True):
        _clock(east, minutes_ago=10, paused=paused)
        version = east.version()
        assert 'id="time-called"' not in text_of(east.get("/review"))
        response = east.post("/time", _time_form(east, confirm="y"))
        assert response.status_code == 409
        assert ("Time has not been called: the round's clock still shows 40 minutes. "
                "Nothing was recorded.") in text_of(response)
        # the entry's own "Time called" answer for game 2: refused at the answer
        response = east.save(2, outcome="time")
        assert response.status_code == 409
        assert re.search(r'id="err-outcome"[^>]*>[^<]*Time has not been called: the '
                         r"round&#39;s clock still shows (39|40) minutes",
                         response.get_data(as_text=True))
        assert len(east.sheet().games) == 1 and east.version() == version


def test_time_called_is_taken_in_the_clocks_last_minute_and_once_it_is_out(east):
    east.save(1, outcome="wall")
    _clock(east, minutes_ago=49.5)  # 30 s left: the director calls it as the clock runs out
    assert 'id="time-called"' in text_of(east.get("/review"))
    assert east.post("/time", _time_form(east, confirm="y")).status_code == 303
    assert [g.record["outcome"] for g in east.sheet().games] == ["wall"] + ["time"] * 3


def test_a_time_called_game_lets_the_table_record_the_rest_while_the_clock_runs(east, director):
    """The director entered game 2 as time called (her table stopped early): the table
    records the rest as time called though the room's clock still runs."""
    east.save(1, outcome="wall")
    _clock(east, minutes_ago=10)
    table, rnd = east.table, east.sheet().round
    sheet_writes.save_game(table, rnd, 2, {"outcome": "time"}, initials="", version=east.version(),
                           key=secrets.token_hex(4), director=True, actor="Dee (director)",
                           user=director, reason="stopped early: started late")
    assert east.post("/time", _time_form(east, confirm="y")).status_code == 303
    assert len(east.sheet().games) == 4


def test_hidden_tile_says_the_whole_round_scores_0(east_htm):
    east_htm.save(1, outcome="wall")
    review = text_of(east_htm.get("/review"))
    assert "Under Hidden Tile rules the whole round then scores 0" in review


# ---- the review page's forms never repeat an id ----------------------------------


def test_the_review_page_repeats_no_id(east):
    for number in range(1, 5):
        east.save(number, outcome="wall")
    review = east.get("/review").get_data(as_text=True)
    ids = re.findall(r'\sid="([^"]+)"', review)
    repeated = {i for i in ids if ids.count(i) > 1}
    assert not repeated, repeated
    assert 'id="initials-E-version"' in review and 'id="submit-version"' in review
    east.save(4, outcome="wall")  # (a correction: the round stays complete)
    partial = east.client.get(east.url("/review"), headers=HX).get_data(as_text=True)
    ids = re.findall(r'\sid="([^"]+)"', partial)
    assert len(ids) == len(set(ids))


# ---- save_game reads the rules from the tournament row, locked for share --------


def test_save_game_scores_under_the_rules_stored_now_not_a_stale_copy(east):
    from sqlalchemy import update

    from tests.table.conftest import count_queries

    tournament = east.table.tournament
    assert tournament.rules["wall_game_points"] == 10
    # a director's rules edit committed from elsewhere: this session still holds 10
    db.session.execute(update(Tournament).where(Tournament.id == tournament.id)
                       .values(rules=dict(tournament.rules, wall_game_points=5))
                       .execution_options(synchronize_session=False))
    rnd = db.session.scalar(db.select(Round).where(Round.tournament_id == tournament.id,
                                                   Round.number == 1))
    with count_queries() as queries:
        sheet = sheet_writes.save_game(east.table, rnd, 1, {"outcome": "wall"}, initials="WW",
                                  version=1, key=secrets.token_urlsafe(8))
    assert sheet.games[0].points == dict.fromkeys("ESWN", 5)
    assert any(re.search(r"FROM tournament\b(?!_)", q) for q in queries.statements)


def test_the_round_total_names_each_player_with_the_initials_they_signed(east):
    for number in range(1, 5):
        east.save(number, outcome="wall")
    response = east.post("/initial", {**entry_form(east), "seat": "S", "initials": "PB"})
    assert response.status_code == 303, response.get_data(as_text=True)
    page = east.get().get_data(as_text=True)
    total = re.search(r'<div class="round-total">.*?</ul>', page, re.S).group(0)
    assert re.findall(r'<li><span class="score-who">(.*?)</span> <span class="score-points '
                      r'total">[^<]*</span></li>', total) == [
        'Player 1 <span class="seat-key">East · player 1</span>',
        'Player 2 <span class="seat-key">South · player 2</span> <span class="signed">'
        'signed PB</span>',
        'Player 3 <span class="seat-key">West · player 3</span>',
        'Player 4 <span class="seat-key">North · player 4</span>']


def test_a_ruling_that_ends_its_own_sentence_gets_no_second_full_stop(east, director):
    east.save(1, outcome="wall")
    sheets.add_adjustment(east.table, 1, "S", -10, "Wrong tile count.", director, game_no=1)
    db.session.commit()
    page = text_of(east.get())
    assert "-10 points, Wrong tile count.</p>" in page
    assert "count..</p>" not in page
