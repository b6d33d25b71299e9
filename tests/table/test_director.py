"""Staff on a table's sheet: the director's view, amendments with a reason, a table guide's
verification, and director adjustments (add_adjustment) before and after the game."""

from __future__ import annotations

import html
import secrets

import pytest

from blueprints.table.entry import preview
from core import sheets
from core.lookup import rules_of
from models import AuditEvent, Scoresheet, TournamentStaff, db
from tests.conftest import make_user, sign_in
from tournament.scoring import InvalidGame


def sheet_url(tournament, table_no=1, round_no=1, tail=""):
    return f"/t/director/{tournament.id}/{table_no}/{round_no}{tail}"


def staff_form(east, **extra):
    return {"round_no": 1, "version": east.version(), "request_key": secrets.token_urlsafe(8),
            **extra}


def submitted_round(east):
    for number in range(1, 5):
        east.save(number, outcome="wall")
    for seat in "ESWN":
        east.post("/initial", staff_form(east, seat=seat, initials=seat))
    assert east.post("/submit", staff_form(east)).status_code == 303


def test_director_sees_any_sheet_with_how_each_game_scored(client, east, tnt):
    east.save(1, outcome="mahjong", winner="S", value="30", win_by="self")
    response = client.get(sheet_url(tnt))
    text = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "self-picked +10 (TNT)" in text and "Amend" in text


def test_a_director_of_another_tournament_gets_404(app, tnt):
    other_client = app.test_client()
    make_user("bob@example.com", "Bob Other")
    sign_in(other_client, "bob@example.com")
    assert other_client.get(sheet_url(tnt)).status_code == 404
    assert other_client.post(sheet_url(tnt, tail="/verify")).status_code == 404


def test_signed_out_is_sent_to_sign_in(app, tnt):
    from flask import g

    g.pop("_login_user", None)  # the fixtures' app context outlives requests
    response = app.test_client().get(sheet_url(tnt))
    assert response.status_code == 302 and "/auth/sign-in" in response.headers["Location"]


def test_amend_a_locked_sheet_needs_a_reason(client, east, tnt):
    submitted_round(east)
    data = staff_form(east, outcome="mahjong", winner="N", value="25", win_by="self")
    response = client.post(sheet_url(tnt, tail="/game/2"), data=data)
    assert response.status_code == 422
    assert 'id="err-reason"' in response.get_data(as_text=True)
    assert east.sheet().games[1].record == {"outcome": "wall"}

    data["reason"] = "Ruling: North's Mah Jongg was valid"
    response = client.post(sheet_url(tnt, tail="/game/2"), data=data)
    assert response.status_code == 303
    sheet = east.sheet()
    assert sheet.state == "submitted"
    assert sheet.games[1].points["N"] == 35
    assert sheet.amend_reason == "Ruling: North's Mah Jongg was valid"
    page = east.get().get_data(as_text=True)
    # tnt: "Once submitted, no changes may be made.": the change is the director's ruling
    assert "Director's ruling after submission" in page and "by Ann Director" in page
    assert "North&#39;s Mah Jongg was valid" in page
    event = db.session.scalar(db.select(AuditEvent).where(AuditEvent.action == "sheet.ruling"))
    assert event.reason and event.before["points"] == dict.fromkeys("ESWN", 10)


def test_amend_page_is_filled_and_previews(client, east, tnt):
    east.save(1, outcome="mahjong", winner="S", value="30", win_by="self")
    text = client.get(sheet_url(tnt, tail="/game/1")).get_data(as_text=True)
    # who won is ticked with how the game ended ("South · ...")
    assert 'id="outcome-mahjong:S" value="mahjong:S" checked' in text
    assert "Why are you changing" in text
    response = client.post(sheet_url(tnt, tail="/game/1/preview"),
                           data={"outcome": "wall", "no_dead": "y"},
                           headers={"HX-Request": "true"})
    preview = response.get_data(as_text=True)
    assert response.status_code == 200
    assert preview.count('<span class="score-points">10</span>') == 4  # wall game +10 each
    # a wall game asks "Any dead hands?": without an answer, no scores yet
    unanswered = client.post(sheet_url(tnt, tail="/game/1/preview"),
                             data={"outcome": "wall"}, headers={"HX-Request": "true"})
    assert 'class="score-points"' not in unanswered.get_data(as_text=True)


def add_guide(app, tnt):
    guide = make_user("gail@example.com", "Gail Guide")
    db.session.add(TournamentStaff(tournament_id=tnt.id, user_id=guide.id, role="table-guide"))
    db.session.commit()
    guide_client = app.test_client()
    sign_in(guide_client, "gail@example.com")
    return guide_client


def test_a_table_guide_verifies_a_submitted_sheet_but_cannot_amend(app, east, tnt):
    guide = add_guide(app, tnt)
    east.save(1, outcome="wall")
    response = guide.post(sheet_url(tnt, tail="/verify"), data=staff_form(east))
    assert response.status_code == 409  # not submitted yet
    assert "Only a submitted sheet" in response.get_data(as_text=True)
    for number in range(2, 5):
        east.save(number, outcome="wall")
    for seat in "ESWN":
        east.post("/initial", staff_form(east, seat=seat, initials=seat))
    east.post("/submit", staff_form(east))
    response = guide.post(sheet_url(tnt, tail="/verify"), data=staff_form(east))
    assert response.status_code == 303
    assert east.sheet().state == "verified"
    assert "verified by Gail Guide" in east.get().get_data(as_text=True)
    assert guide.get(sheet_url(tnt, tail="/game/1")).status_code == 403


def test_add_adjustment_to_an_entered_game_rescores_it(app, east, tnt, director):
    east.save(1, outcome="wall")
    version = east.version()
    sheet = sheets.add_adjustment(east.table, 1, "N", -10, "ruling: tile count", director,
                                   game_no=1)
    db.session.commit()
    assert sheet.version == version + 1
    game = east.sheet().games[0]
    assert game.points == {"E": 10, "S": 10, "W": 10, "N": 0}
    assert game.record["adjustments"] == [
        {"seat": "N", "points": -10, "reason": "ruling: tile count"}]
    assert db.session.scalar(db.select(AuditEvent).where(AuditEvent.action == "sheet.adjust"))


def test_add_adjustment_before_the_game_waits_for_east(app, east, tnt, director):
    east.save(1, outcome="wall")
    sheets.add_adjustment(east.table, 1, "S", -25, "ruling: misnamed tile.", director)
    db.session.commit()
    sheet = east.sheet()
    assert sheet.pending_adjustments == [
        {"game": 2, "seat": "S", "points": -25, "reason": "ruling: misnamed tile."}]
    page = html.unescape(east.get().get_data(as_text=True))
    # the reason's own full stop is not doubled after the bracket
    assert "Director's ruling for game 2: Player 2 (South) -25 (ruling: misnamed tile). " \
           "It is added when game 2 is saved." in page
    east.save(2, outcome="wall")
    sheet = east.sheet()
    assert sheet.pending_adjustments == []
    assert sheet.games[1].points["S"] == -15
    # a later correction by East keeps the director's adjustment
    east.save(2, outcome="mahjong", winner="E", value="25", win_by="self")
    assert east.sheet().games[1].points["S"] == -25


def test_add_adjustment_on_a_round_with_no_sheet_yet(app, east, tnt, director):
    sheet = sheets.add_adjustment(east.table, 1, "E", 10, "ruling", director)
    db.session.commit()
    assert sheet.pending_adjustments[0]["game"] == 1 and sheet.version == 2


@pytest.mark.parametrize("seat, points, reason", [("X", 5, "r"), ("E", 0, "r"), ("E", 5, " ")])
def test_add_adjustment_refuses_nonsense(app, east, director, seat, points, reason):
    with pytest.raises(InvalidGame):
        sheets.add_adjustment(east.table, 1, seat, points, reason, director)


def test_add_adjustment_on_a_submitted_sheet_marks_it_amended(app, east, director):
    submitted_round(east)
    sheets.add_adjustment(east.table, 1, "W", -10, "ruling after submit", director,
                           game_no=4)
    db.session.commit()
    sheet = east.sheet()
    assert sheet.amend_reason == "ruling after submit" and sheet.games[3].points["W"] == 0


def test_an_amendment_keeps_the_call_ruling_adjustments(client, east, tnt, director):
    """The amend form has no adjustment fields: a director's amendment must not drop the
    points a call's ruling added to that game."""
    east.save(1, outcome="wall")
    sheets.add_adjustment(east.table, 1, "N", -10, "ruling: tile count", director, game_no=1)
    db.session.commit()
    data = staff_form(east, outcome="mahjong", winner="S", value="25", win_by="self",
                      initials="SS", reason="South's Mah Jongg was missed")
    assert client.post(sheet_url(tnt, tail="/game/1"), data=data).status_code == 303
    game = east.sheet().games[0]
    assert game.record["adjustments"] == [
        {"seat": "N", "points": -10, "reason": "ruling: tile count"}]
    scored = preview(rules_of(tnt), {
        "outcome": "mahjong", "winner": "S", "value": 25, "self_picked": True}).points
    assert game.points == {**scored, "N": scored["N"] - 10}


def test_add_adjustment_finds_a_sheet_the_table_created_meanwhile(app, east, director,
                                                                   monkeypatch):
    """East's phone creates the sheet between add_adjustment's read and its insert: the
    ruling lands on that sheet, and the caller's own change in the same transaction
    (the resolved call) is kept, never an IntegrityError."""
    from models import record

    east.save(1, outcome="wall")
    real, reads = sheets.sheet_for, []

    def read_before_the_other_phone(rnd, table, **read):
        reads.append(rnd)
        return None if len(reads) == 1 else real(rnd, table, **read)

    monkeypatch.setattr(sheets, "sheet_for", read_before_the_other_phone)
    record("call.resolve", tournament_id=east.tournament.id, subject="call:1",
           actor="director")  # the caller's change, in the same transaction
    sheets.add_adjustment(east.table, 1, "N", -10, "ruling", director, game_no=1)
    db.session.commit()
    monkeypatch.undo()
    assert east.sheet().games[0].points["N"] == 0
    assert db.session.scalar(db.select(db.func.count()).select_from(Scoresheet)) == 1
    assert db.session.scalar(db.select(AuditEvent).where(AuditEvent.action == "call.resolve"))


def test_an_amendment_that_changes_nothing_is_refused_and_keeps_the_version(client, east, tnt):
    """A director who opens a game and saves it as it was (with a reason) changes nothing:
    the sheet keeps its version, so the table's phones are not told "someone changed this
    sheet", and the director is told plainly that nothing was saved."""
    east.save(1, outcome="mahjong", winner="S", value="30", win_by="self")
    sheet = east.sheet()
    version, initials = sheet.version, sheet.games[0].initials
    data = staff_form(east, outcome="mahjong", winner="S", value="30", win_by="self",
                      initials=initials, reason="Checked at the table: it stands")
    response = client.post(sheet_url(tnt, tail="/game/1"), data=data)
    assert response.status_code == 422
    assert "Nothing changed" in response.get_data(as_text=True)
    sheet = east.sheet()
    assert sheet.version == version and sheet.amend_reason == ""
    assert sheet.games[0].ruled_at is None
    data.update(value="35", request_key=secrets.token_urlsafe(8))
    assert client.post(sheet_url(tnt, tail="/game/1"), data=data).status_code == 303
    assert east.sheet().version > version
