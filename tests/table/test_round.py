"""The round's end: time called, review, initials, submit and lock; token checks on every
table URL."""

from __future__ import annotations

import re
import secrets

import pytest

from models import AuditEvent, GameEntry, Round, db, utcnow


def games(east, round_no=1):
    sheet = east.sheet(round_no)
    return sorted(sheet.games, key=lambda g: g.number) if sheet else []


def form(east, **extra):
    return {"round_no": 1, "version": east.version(), "request_key": secrets.token_urlsafe(8),
            **extra}


def play_round(east):
    east.save(1, outcome="mahjong", winner="S", value="30", win_by="self", jokerless="y")
    east.save(2, outcome="mahjong", winner="N", value="25", win_by="thrown", thrower="E",
              exposures="2")
    east.save(3, outcome="wall", dead=["W"])
    east.save(4, outcome="time")


def initial_all(east):
    for seat in "ESWN":
        response = east.post("/initial", form(east, seat=seat, initials=seat * 2))
        assert response.status_code == 303, response.get_data(as_text=True)


def test_time_called_scores_that_game_zero_under_tnt(east):
    east.save(1, outcome="wall")
    response = east.post("/time", form(east, confirm="y"))
    assert response.status_code == 303
    rows = games(east)
    assert [g.number for g in rows] == [1, 2, 3, 4]
    assert rows[0].points == {"E": 10, "S": 10, "W": 10, "N": 10}
    assert all(g.points == dict.fromkeys("ESWN", 0) for g in rows[1:])


def test_time_called_zeroes_the_whole_round_under_hidden_tile(east_htm):
    east = east_htm
    east.save(1, outcome="mahjong", winner="S", value="30", win_by="self", jokerless="y")
    assert games(east)[0].points["S"] == 60  # 30 + 10 + 20 (Hidden Tile)
    east.save(2, outcome="time")
    rows = games(east)
    assert all(g.points == dict.fromkeys("ESWN", 0) for g in rows)
    page = east.get().get_data(as_text=True)
    assert "every game of this round scores X" in page
    # correcting the time game back un-voids the round
    east.save(2, outcome="wall")
    assert games(east)[0].points["S"] == 60


def test_time_called_from_the_page_when_the_clock_says_time_is_up(east):
    rnd = db.session.scalar(db.select(Round).where(Round.tournament_id == east.tournament.id,
                                                   Round.number == 1))
    rnd.started_at = utcnow().replace(year=2020)
    rnd.duration_seconds = 60
    db.session.commit()
    page = east.get().get_data(as_text=True)
    assert "Time is up." in page and "as time called" in page


def confirm_button(page, seat):
    """The text of `seat`'s one-tap confirmation of their round total, or None."""
    found = re.search(rf'<button type="submit"[^>]* id="confirm-{seat}"[^>]*>(.*?)</button>',
                      page, re.S)
    return " ".join(re.sub(r"<[^>]+>", "", found.group(1)).split()) if found else None


def confirmed_row(page, seat):
    """The text of `seat`'s confirmed row ("✓ NAME ... XX"), or None."""
    found = re.search(rf'id="confirmed-{seat}">(.*?)</p>', page, re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split()) if found else None


def test_review_initials_submit_and_lock(east):
    play_round(east)
    review = east.get("/review").get_data(as_text=True)
    # each player's total is one button naming them: no initials to type
    text = confirm_button(review, "S")
    assert text and text.startswith("Player 2") and text.endswith("60 is right")
    assert 'id="total-S">60<' in review and 'name="initials"' not in review
    # submitting before everyone initialled is refused under TNT
    response = east.post("/submit", form(east))
    assert response.status_code == 422
    assert "Still to initial: East, South, West, North" in response.get_data(as_text=True)
    initial_all(east)
    response = east.post("/submit", form(east))
    assert response.status_code == 303
    sheet = east.sheet()
    assert sheet.state == "submitted" and sheet.submitted_at is not None
    page = east.get().get_data(as_text=True)
    assert "changes only by the director" in page and "Enter game" not in page
    # locked: no more saves, no initials
    response = east.save(4, outcome="wall")
    assert response.status_code == 409
    assert "Only the director" in response.get_data(as_text=True)
    assert games(east)[3].record == {"outcome": "time"}
    assert east.get("/game").status_code == 303


def test_the_audit_names_the_table_and_the_seat_that_acted(east):
    play_round(east)
    initial_all(east)
    assert east.post("/submit", form(east)).status_code == 303
    actors = dict(db.session.execute(db.select(AuditEvent.action, AuditEvent.actor)
                                     .order_by(AuditEvent.id)).all())
    assert actors["game.save"] == actors["sheet.submit"] == "Table 1 (East)"
    assert actors["round.initial"] == "Table 1 (North)"  # the last of the four
    assert east.sheet().submitted_by == "Table 1 (East)"


def test_initials_need_every_game_entered(east):
    east.save(1, outcome="wall")
    response = east.post("/initial", form(east, seat="E", initials="EE"))
    assert response.status_code == 422
    assert "Enter every game first" in response.get_data(as_text=True)


def test_a_tap_without_initials_writes_the_names_and_bad_initials_are_refused_at_the_field(
        east):
    """The player's button posts no initials: their name's are written ("Player 2" ->
    "P2"). Initials that cannot be kept (typed, from a paper sheet) are still refused at
    the player's own box."""
    play_round(east)
    response = east.post("/initial", form(east, seat="S", initials="ABCDEFGHI"))
    assert response.status_code == 422
    assert 'id="err-initials-S"' in response.get_data(as_text=True)
    assert east.sheet().signoffs == []
    assert east.post("/initial", form(east, seat="S", initials=" ")).status_code == 303
    assert {s.seat: s.initials for s in east.sheet().signoffs} == {"S": "P2"}
    row = confirmed_row(east.get("/review").get_data(as_text=True), "S")
    assert row and "Player 2" in row and "P2" in row and "60" in row


def test_the_reviews_htmx_posts_swap_the_review_in_place_and_keep_the_pages_address(east):
    """The review's forms post through htmx into #review (hx-post, not hx-boost): a
    refusal or a success answers the review's part, swapped where it is, and never files
    the form's action in the history (a reload would GET it). A boosted post (an older
    page) still keeps the page's address when refused; a plain post still redirects."""
    play_round(east)
    review = east.get("/review").get_data(as_text=True)
    assert "hx-boost" not in review.split('id="review"')[1]
    assert re.search(r'<form [^>]*action="[^"]*/initial[^"]*"[^>]* hx-post="[^"]*/initial'
                     r'[^"]*" hx-target="#review" hx-swap="outerHTML" data-table-write>',
                     review)
    hx = {"HX-Request": "true"}
    refused = east.post("/initial", form(east, seat="S", initials="ABCDEFGHI"), headers=hx)
    text = refused.get_data(as_text=True)
    assert refused.status_code == 422 and "HX-Push-Url" not in refused.headers
    assert text.lstrip().startswith('<div id="review"') and "<html" not in text
    boosted = {**hx, "HX-Boosted": "true"}
    refused = east.post("/initial", form(east, seat="S", initials="ABCDEFGHI"),
                        headers=boosted)
    assert refused.status_code == 422 and refused.headers["HX-Push-Url"] == "false"
    plain = east.post("/initial", form(east, seat="S", initials="ABCDEFGHI"))
    assert plain.status_code == 422 and "HX-Push-Url" not in plain.headers
    # a success answers the review with the row confirmed, in place: no redirect
    taken = east.post("/initial", form(east, seat="S"), headers=hx)
    text = taken.get_data(as_text=True)
    assert taken.status_code == 200
    assert not {"HX-Push-Url", "HX-Redirect", "HX-Retarget"} & set(taken.headers.keys())
    assert text.lstrip().startswith('<div id="review"') and "<html" not in text
    assert 'id="confirmed-S"' in text and 'id="confirm-S"' not in text
    assert east.post("/initial", form(east, seat="E")).status_code == 303


def test_a_correction_clears_the_initials_of_totals_it_changed(east):
    play_round(east)
    initial_all(east)
    east.save(3, outcome="wall")  # W was dead: now W gets +10; the others' totals unchanged
    sheet = east.sheet()
    assert sorted(s.seat for s in sheet.signoffs) == ["E", "N", "S"]


def test_a_resent_submit_is_applied_once(east):
    play_round(east)
    initial_all(east)
    data = form(east)
    assert east.post("/submit", data).status_code == 303
    again = east.post("/submit", data)
    assert again.status_code == 303  # answered as if it succeeded
    assert east.sheet().state == "submitted"


def test_stale_submit_is_409(east):
    play_round(east)
    initial_all(east)
    response = east.post("/submit", form(east, version=2))
    assert response.status_code == 409
    assert east.sheet().state == "open"


def test_hidden_tile_submits_without_round_initials(east_htm):
    for number in range(1, 5):
        east_htm.save(number, outcome="wall")
    response = east_htm.post("/submit", form(east_htm))
    assert response.status_code == 303
    assert east_htm.sheet().state == "submitted"


def table_urls():
    return [("get", "", None), ("get", "/game", None), ("get", "/review", None),
            ("post", "/game", {"outcome": "wall", "game_no": 1, "initials": "A"}),
            ("post", "/game/preview", {"outcome": "wall"}),
            ("post", "/time", {}), ("post", "/initial", {"seat": "E", "initials": "E"}),
            ("post", "/submit", {})]


@pytest.mark.parametrize("method, path, data", table_urls())
@pytest.mark.parametrize("token", ["wrong-token", "", None, "rotated"])
def test_every_table_url_checks_the_token(east, method, path, data, token):
    if token == "rotated":
        old = east.table.token
        from models import new_token

        east.table.token = new_token()
        db.session.commit()
        token = old
    url = f"{east.base}{path}" + (f"?k={token}" if token is not None else "")
    response = getattr(east.client, method)(url, data=data or {})
    text = response.get_data(as_text=True)
    assert response.status_code == 404
    assert "This table link is no longer valid. Ask the director for the table's QR code." in text
    assert "Player 1" not in text
    assert db.session.scalar(db.select(db.func.count()).select_from(GameEntry)) == 0


def test_another_tournaments_code_or_table_number_is_refused(east, director):
    from tests.conftest import make_tournament

    other = make_tournament(director, players=8, rounds=2, name="Other", code="OTHER2")
    response = east.client.get(f"/t/{other.code}/1?k={east.table.token}")
    assert response.status_code == 404
    response = east.client.get(f"/t/{east.tournament.code}/2?k={east.table.token}")
    assert response.status_code == 404


def posted_form(html, action_part):
    """The fields of the rendered form whose action contains `action_part`, as a phone
    would post them (hidden inputs included), and its action URL."""
    import re as _re

    for match in _re.finditer(r'<form[^>]*action="([^"]*)"[^>]*>(.*?)</form>', html, _re.S):
        action, body = match.groups()
        if action_part in action:
            fields = dict(_re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"',
                                      body)
                          + _re.findall(r'<input[^>]*id="[^"]*" name="(\w+)" type="hidden" '
                                        r'value="([^"]*)"', body))
            return action.replace("&amp;", "&"), fields
    raise AssertionError(f"no form posting to {action_part}")


def test_the_rendered_forms_carry_version_key_and_round(east):
    """Post exactly what the pages render: the hidden version, key and round are there."""
    for number in range(1, 4):
        east.save(number, outcome="wall")
    html = east.get("/review").get_data(as_text=True)
    action, fields = posted_form(html, "/time")
    assert {"version", "request_key", "round_no"} <= set(fields), fields
    fields["confirm"] = "y"  # East ticks "Yes, the director called time"
    assert east.client.post(action, data=fields).status_code == 303
    assert len(games(east)) == 4
    html = east.get("/review").get_data(as_text=True)
    action, fields = posted_form(html, "/initial")
    fields["initials"] = "EE"
    assert east.client.post(action, data=fields).status_code == 303
    html = east.get("/review").get_data(as_text=True)
    action, fields = posted_form(html, "/submit")
    response = east.client.post(action, data=fields)
    assert response.status_code == 422  # the other three have not initialled
    html = east.get("/game", g=1).get_data(as_text=True)
    action, fields = posted_form(html, "/game?")
    assert fields["version"] == str(east.version()) and fields["request_key"]


def test_the_page_still_shows_the_sheet_if_the_rules_were_edited_after_play(east):
    east.save(1, outcome="mahjong", winner="E", value="25", win_by="heavenly")
    rules = dict(east.tournament.rules, heavenly=None)
    east.tournament.rules = rules
    db.session.commit()
    response = east.get()
    assert response.status_code == 200 and ">35<" in response.get_data(as_text=True)


def initial_form_of(east, seat):
    """The hidden fields of `seat`'s initials box as the review page shows it now."""
    page = east.get("/review").get_data(as_text=True)
    return dict(re.findall(rf'id="initials-{seat}-(\w+)" name="\w+" type="hidden" '
                           r'value="([^"]*)"', page))


def test_players_initialling_at_once_on_their_own_phones_all_count(east):
    play_round(east)
    shown = {seat: initial_form_of(east, seat) for seat in "ESWN"}
    assert len({fields["version"] for fields in shown.values()}) == 1
    assert shown["S"]["total"] == "60"
    for seat in "ESWN":  # each phone posts the page it loaded, before the others' initials
        response = east.post("/initial", {**shown[seat], "seat": seat, "initials": seat * 2})
        assert response.status_code == 303, response.get_data(as_text=True)
    sheet = east.sheet()
    assert {s.seat: s.initials for s in sheet.signoffs} == {s: s * 2 for s in "ESWN"}
    assert sheet.version == int(shown["E"]["version"]) + 4


def test_initials_for_a_total_changed_meanwhile_are_refused_at_the_players_box(east):
    play_round(east)
    shown = initial_form_of(east, "S")
    east.save(1, outcome="mahjong", winner="S", value="25", win_by="self", jokerless="y")
    response = east.post("/initial", {**shown, "seat": "S", "initials": "SS"})
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    again = initial_form_of(east, "S")
    assert again["total"] not in ("60", "0") and again["version"] != shown["version"]
    assert f"your total is now {again['total']}." in page and 'id="err-initials-S"' in page
    # the player's button is shown again with the total as it is now: a second tap counts
    text = confirm_button(page, "S")
    assert text and text.startswith("Player 2") and text.endswith(f"{again['total']} is right")
    # the box is shown again for the total and the sheet as they now are: a second tap counts
    assert f'id="initials-S-total" name="total" type="hidden" value="{again["total"]}"' in page
    assert f'id="initials-S-version" name="version" type="hidden" value="{again["version"]}"' \
        in page
    assert east.sheet().signoffs == []


def test_a_stale_initial_without_the_total_shown_is_a_conflict_as_before(east):
    play_round(east)
    shown = initial_form_of(east, "S")
    east.post("/initial", {**initial_form_of(east, "E"), "seat": "E", "initials": "EE"})
    del shown["total"]
    response = east.post("/initial", {**shown, "seat": "S", "initials": "SS"})
    assert response.status_code == 409
    assert [s.seat for s in east.sheet().signoffs] == ["E"]


def test_a_resent_initial_is_applied_once_after_the_sheet_moved_on(east):
    play_round(east)
    shown = initial_form_of(east, "S")
    data = {**shown, "seat": "S", "initials": "SS"}
    assert east.post("/initial", data).status_code == 303
    east.post("/initial", {**initial_form_of(east, "E"), "seat": "E", "initials": "EE"})
    assert east.post("/initial", data).status_code == 303  # answered as if it succeeded
    events = db.session.scalars(db.select(AuditEvent).where(
        AuditEvent.action == "round.initial")).all()
    assert sorted(e.after["seat"] for e in events) == ["E", "S"]
