"""The director's clock controls: start (only the next round, only when seated), pause and
resume with a reason, add or take away minutes, end; refusals change nothing; every
action is audited; a restart (a fresh session) loses nothing."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from core.rounds import round_row
from models import db, utcnow
from tests.clock.conftest import audit, ended, started
from tests.conftest import make_tournament, sign_in


def url(tournament, action=""):
    return f"/clock/director/{tournament.id}" + (f"/{action}" if action else "")


def post(client, tournament, action, round_no, version, **fields):
    data = {f"{action}-round_no": round_no, f"{action}-version": version}
    data.update({f"{action}-{key}": value for key, value in fields.items()})
    return client.post(url(tournament, action), data=data)


def fresh(tournament, number=1):
    db.session.expire_all()
    return round_row(tournament, number)


def clock_columns(rnd):
    return (rnd.duration_seconds, rnd.started_at, rnd.paused_at, rnd.paused_seconds,
            rnd.ended_at, rnd.pause_reason, rnd.clock_version)


# ---- start ---------------------------------------------------------------------------------

def test_console_offers_to_start_round_one(client, tournament):
    response = client.get(url(tournament))
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "Start round 1" in page
    assert "Round 1 has not started yet" in page
    assert "50:00" in page


def test_start_round_one(client, tournament, director):
    response = post(client, tournament, "start", 1, 0)
    assert response.status_code == 303
    rnd = fresh(tournament)
    assert rnd.started_at is not None and rnd.clock_version == 1
    [event] = audit(tournament, "clock.start")
    assert event.actor == "Ann Director (director)" and event.actor_user_id == director.id
    assert event.before["state"] == "not_started" and event.after["state"] == "running"
    page = client.get(url(tournament)).get_data(as_text=True)
    assert "Round 1 has started." in page and "Pause the clock" in page


def test_only_the_next_round_can_start(client, tournament):
    from core.rounds import ensure_round

    ensure_round(tournament, 2)
    db.session.commit()
    before = clock_columns(fresh(tournament, 2))
    response = post(client, tournament, "start", 2, 0)
    assert response.status_code == 422
    assert "Only round 1 can start next." in response.get_data(as_text=True)
    assert clock_columns(fresh(tournament, 2)) == before
    assert audit(tournament, "clock.start") == []


def test_a_round_without_seating_cannot_start(client, director):
    tournament = make_tournament(director, seated=False)
    response = post(client, tournament, "start", 1, 0)
    assert response.status_code == 422
    assert "Round 1 has no seating yet" in response.get_data(as_text=True)
    assert round_row(tournament, 1) is None


def test_round_two_needs_seating_then_starts_as_a_separate_act(client, tournament):
    started(tournament, 1, minutes_ago=50)
    ended(tournament, 1)
    page = client.get(url(tournament)).get_data(as_text=True)
    assert "Seat round 2" in page and "Start round 2" not in page
    response = post(client, tournament, "start", 2, 0)
    assert response.status_code == 422
    assert "Round 2 has no seating yet" in response.get_data(as_text=True)

    response = client.post(url(tournament, "seat"), data={"seat-round_no": 2})
    assert response.status_code == 303
    rnd = fresh(tournament, 2)
    assert rnd is not None and rnd.started_at is None and len(rnd.seats) == 32
    assert len(audit(tournament, "round.seat")) == 1
    page = client.get(url(tournament)).get_data(as_text=True)
    assert "Start round 2" in page

    assert post(client, tournament, "start", 2, 0).status_code == 303
    assert fresh(tournament, 2).started_at is not None


def test_a_round_in_play_blocks_the_next(client, tournament):
    from core.rounds import ensure_round

    started(tournament, 1, minutes_ago=5)
    ensure_round(tournament, 2)
    db.session.commit()
    response = post(client, tournament, "start", 2, 0)
    assert response.status_code == 422
    assert "Round 1 is still in play" in response.get_data(as_text=True)
    assert fresh(tournament, 2).started_at is None


def test_seating_only_the_next_round(client, tournament):
    response = client.post(url(tournament, "seat"), data={"seat-round_no": 3})
    assert response.status_code == 422
    assert round_row(tournament, 3) is None


# ---- pause, resume, adjust, end ------------------------------------------------------------

def test_pause_needs_a_reason_and_everyone_sees_it(client, tournament):
    rnd = started(tournament, 1, minutes_ago=10)
    before = clock_columns(fresh(tournament))
    response = post(client, tournament, "pause", 1, rnd.clock_version, reason="  ")
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Say why the clock is paused" in page and 'id="pause-reason-error"' in page
    assert clock_columns(fresh(tournament)) == before

    response = post(client, tournament, "pause", 1, before[-1], reason="Ruling at table 4")
    assert response.status_code == 303
    rnd = fresh(tournament)
    assert rnd.paused_at is not None and rnd.pause_reason == "Ruling at table 4"
    [event] = audit(tournament, "clock.pause")
    assert event.reason == "Ruling at table 4" and event.after["state"] == "paused"
    partial = client.get(f"/clock/{tournament.code}").get_data(as_text=True)
    assert "Paused: Ruling at table 4" in partial and "40:00" in partial


def test_resume_counts_the_pause_as_no_play(client, tournament):
    rnd = started(tournament, 1, minutes_ago=20, paused_minutes_ago=5, reason="Fire alarm")
    response = post(client, tournament, "resume", 1, rnd.clock_version, reason="All clear")
    assert response.status_code == 303
    rnd = fresh(tournament)
    assert rnd.paused_at is None and rnd.pause_reason == ""
    assert 299 <= rnd.paused_seconds <= 301
    [event] = audit(tournament, "clock.resume")
    assert event.reason == "All clear"
    partial = client.get(f"/clock/{tournament.code}").get_data(as_text=True)
    assert "35:00" in partial or "34:59" in partial


@pytest.mark.parametrize("button, minutes, change", [
    ("add", 5, 300),
    ("remove", 2, -120),
])
def test_adjust_adds_or_takes_away_minutes(client, tournament, button, minutes, change):
    rnd = started(tournament, 1, minutes_ago=10)
    response = post(client, tournament, "adjust", 1, rnd.clock_version, minutes=minutes,
                    reason="Late start", **{button: "1"})
    assert response.status_code == 303
    assert fresh(tournament).duration_seconds == 50 * 60 + change
    [event] = audit(tournament, "clock.adjust")
    assert event.after["duration_seconds"] - event.before["duration_seconds"] == change
    assert event.reason == "Late start"


@pytest.mark.parametrize("minutes", ["0", "61", "-3", "ten", ""])
def test_adjust_refuses_bad_minutes(client, tournament, minutes):
    rnd = started(tournament, 1, minutes_ago=10)
    before = clock_columns(fresh(tournament))
    response = post(client, tournament, "adjust", 1, rnd.clock_version, minutes=minutes,
                    add="1")
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'id="adjust-minutes-error"' in page
    assert clock_columns(fresh(tournament)) == before
    assert audit(tournament, "clock.adjust") == []


def test_end_the_round(client, tournament):
    rnd = started(tournament, 1, minutes_ago=30)
    response = post(client, tournament, "end", 1, rnd.clock_version)
    assert response.status_code == 303
    rnd = fresh(tournament)
    assert rnd.ended_at is not None
    assert len(audit(tournament, "clock.end")) == 1
    page = client.get(url(tournament)).get_data(as_text=True)
    assert "Round 1 has ended" in page and "Seat round 2" in page


def test_resume_when_not_paused_is_refused_in_plain_words(client, tournament):
    rnd = started(tournament, 1, minutes_ago=10)
    before = clock_columns(fresh(tournament))
    response = post(client, tournament, "resume", 1, rnd.clock_version)
    assert response.status_code == 422
    assert "The clock cannot resume: the clock is running." in response.get_data(as_text=True)
    assert clock_columns(fresh(tournament)) == before


def test_a_stale_version_changes_nothing(client, tournament):
    """A second tap, or a page drawn before another director acted: 409, nothing twice."""
    rnd = started(tournament, 1, minutes_ago=10)
    version = rnd.clock_version
    assert post(client, tournament, "adjust", 1, version, minutes=5, add="1").status_code == 303
    after_first = clock_columns(fresh(tournament))
    response = post(client, tournament, "adjust", 1, version, minutes=5, add="1")
    assert response.status_code == 409
    assert "Nothing was changed" in response.get_data(as_text=True)
    assert clock_columns(fresh(tournament)) == after_first
    assert len(audit(tournament, "clock.adjust")) == 1


def test_a_form_without_its_version_is_refused(client, tournament):
    started(tournament, 1, minutes_ago=10)
    before = clock_columns(fresh(tournament))
    response = client.post(url(tournament, "pause"), data={"pause-reason": "x"})
    assert response.status_code == 409
    assert clock_columns(fresh(tournament)) == before


def test_the_clock_survives_a_restart(app, client, tournament):
    """Nothing about the clock lives in a process: a fresh session reads the same clock."""
    started(tournament, 1, minutes_ago=12, paused_minutes_ago=2, reason="Ruling")
    hx = {"HX-Request": "true"}
    first = client.get(f"/clock/{tournament.code}", headers=hx).get_data(as_text=True)
    db.session.remove()
    second = app.test_client().get(f"/clock/{tournament.code}", headers=hx).get_data(
        as_text=True)
    assert first == second and "40:00" in second


# ---- access ---------------------------------------------------------------------------------

def test_another_directors_tournament_is_not_found(client, tournament, other_tournament):
    assert client.get(url(other_tournament)).status_code == 404
    rnd = round_row(other_tournament, 1)
    response = post(client, other_tournament, "start", 1, rnd.clock_version)
    assert response.status_code == 404
    assert fresh(other_tournament).started_at is None
    assert client.get(url(other_tournament, "grid")).status_code == 404


def test_a_guide_sees_the_console_but_cannot_run_the_clock(app, tournament, guide):
    client = app.test_client()
    sign_in(client, "gail@example.com", "guide password")
    page = client.get(url(tournament)).get_data(as_text=True)
    assert "Only a director or co-director can start" in page
    assert "Start round 1" not in page
    assert post(client, tournament, "start", 1, 0).status_code == 403
    assert fresh(tournament).started_at is None
    response = client.post(url(tournament, "announcements"), data={"announce-text": "Hi"})
    assert response.status_code == 403


def test_signed_out_goes_to_sign_in(app, tournament):
    client = app.test_client()
    response = client.get(url(tournament))
    assert response.status_code == 302 and "/auth/sign-in" in response.headers["Location"]
    assert client.post(url(tournament, "start"), data={}).status_code == 302
    assert fresh(tournament).started_at is None


# ---- announcements --------------------------------------------------------------------------

def test_post_and_clear_an_announcement(client, tournament):
    response = client.post(url(tournament, "announcements"),
                           data={"announce-text": "Lunch is served in the foyer"})
    assert response.status_code == 303
    display = client.get(f"/display/{tournament.code}").get_data(as_text=True)
    assert "Lunch is served in the foyer" in display
    [event] = audit(tournament, "announcement.post")
    item_id = int(event.subject.split(":")[1])
    response = client.post(url(tournament, f"announcements/{item_id}/clear"))
    assert response.status_code == 303
    assert "Lunch is served" not in client.get(f"/display/{tournament.code}").get_data(
        as_text=True)
    assert len(audit(tournament, "announcement.clear")) == 1


def test_an_empty_announcement_is_refused(client, tournament):
    response = client.post(url(tournament, "announcements"), data={"announce-text": " "})
    assert response.status_code == 422
    assert "Write the announcement first." in response.get_data(as_text=True)
    assert audit(tournament, "announcement.post") == []


def test_clearing_another_tournaments_announcement_is_not_found(client, tournament,
                                                                other_tournament):
    from models import Announcement

    item = Announcement(tournament_id=other_tournament.id, text="Bob's news")
    db.session.add(item)
    db.session.commit()
    response = client.post(url(tournament, f"announcements/{item.id}/clear"))
    assert response.status_code == 404
    db.session.refresh(item)
    assert item.active


def test_started_at_is_stored_in_utc(client, tournament):
    post(client, tournament, "start", 1, 0)
    rnd = fresh(tournament)
    assert abs(rnd.started_at - utcnow()) < timedelta(seconds=5)
    assert rnd.started_at.utcoffset() == timedelta(0)


def test_controls_refresh_for_htmx_shows_only_the_controls(client, tournament):
    """The console's controls are refetched when the clock changes (clockChanged)."""
    started(tournament, 1, minutes_ago=10, paused_minutes_ago=1, reason="Ruling")
    response = client.get(url(tournament), headers={"HX-Request": "true"})
    html = response.get_data(as_text=True)
    assert 'id="clock-controls"' in html and "Resume the clock" in html
    assert "<html" not in html and 'id="table-grid"' not in html


@pytest.mark.parametrize("round_no, version", [
    ("abc", "0"), ("1", ""), ("99999999999999999999", "0"), ("1", "-1"), ("0", "0"),
])
def test_nonsense_round_or_version_changes_nothing(client, tournament, round_no, version):
    response = post(client, tournament, "start", round_no, version)
    assert response.status_code == 409
    assert fresh(tournament).started_at is None


def test_a_huge_announcement_id_is_not_found(client, tournament):
    response = client.post(url(tournament, "announcements/99999999999999999999/clear"))
    assert response.status_code == 404


# ---- a stale "Start round N" is a 409 before any rule -------------------------------------

def test_a_second_directors_stale_start_gets_the_stale_clock_answer(client, tournament):
    """Two directors see "Start round 1" (version 0); the first starts it. The second's
    tap must say someone changed the clock (409), not "Round 1 is still in play"."""
    assert post(client, tournament, "start", 1, 0).status_code == 303
    after_first = clock_columns(fresh(tournament))
    response = post(client, tournament, "start", 1, 0)
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "Someone changed the clock just now" in page
    assert "still in play" not in page
    assert clock_columns(fresh(tournament)) == after_first
    assert len(audit(tournament, "clock.start")) == 1


# ---- warn before seating or starting while earlier sheets are open -----------------------

def test_seating_the_next_round_warns_about_unsubmitted_sheets(client, tournament):
    from tests.clock.conftest import games_on

    started(tournament, 1, minutes_ago=50)
    ended(tournament, 1)
    for table_no in (1, 4, 8):
        games_on(tournament, table_no, 1, 4, state="submitted")
    games_on(tournament, 2, 1, 3)  # open: still not submitted
    response = client.get(url(tournament))
    page = response.get_data(as_text=True)
    assert "5 tables have not submitted round 1: tables 2, 3, 5, 6 and 7." in page
    # Near the button, and the director still decides: the button is there and works.
    assert page.index("have not submitted") < page.index("Seat round 2")
    assert 'aria-describedby="unsubmitted-warning"' in page
    assert 'id="unsubmitted-warning"' in page and "&lt;div" not in page
    response = client.post(url(tournament, "seat"), data={"seat-round_no": 2})
    assert response.status_code == 303
    page = client.get(url(tournament)).get_data(as_text=True)
    assert "5 tables have not submitted round 1" in page
    assert page.index("have not submitted") < page.index("Start round 2")
    assert post(client, tournament, "start", 2, 0).status_code == 303
    assert fresh(tournament, 2).started_at is not None


def test_no_warning_when_every_earlier_sheet_is_in(client, tournament):
    from tests.clock.conftest import games_on

    started(tournament, 1, minutes_ago=50)
    ended(tournament, 1)
    for table_no in range(1, 9):
        games_on(tournament, table_no, 1, 4, state="verified" if table_no == 3 else
                 "submitted")
    page = client.get(url(tournament)).get_data(as_text=True)
    assert "have not submitted" not in page and "has not submitted" not in page
    assert "Seat round 2" in page


def test_one_table_missing_is_said_in_the_singular(client, tournament):
    from tests.clock.conftest import games_on

    started(tournament, 1, minutes_ago=50)
    ended(tournament, 1)
    for table_no in range(1, 8):
        games_on(tournament, table_no, 1, 4, state="submitted")
    page = client.get(url(tournament)).get_data(as_text=True)
    assert "1 table has not submitted round 1: table 8." in page


def test_round_one_has_no_warning(client, tournament):
    page = client.get(url(tournament)).get_data(as_text=True)
    assert "not submitted" not in page


def test_taking_away_more_minutes_than_are_left_is_refused_in_plain_words(client, tournament):
    # 40 minutes left: 60 typed for 6 would call time at every table at once
    rnd = started(tournament, 1, minutes_ago=10)
    before = clock_columns(fresh(tournament))
    response = post(client, tournament, "adjust", 1, rnd.clock_version, minutes=60,
                    reason="Late start", remove="1")
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "less than 60 minutes: nothing was changed" in page
    assert "take away 40 minutes" in page
    assert clock_columns(fresh(tournament)) == before
    assert audit(tournament, "clock.adjust") == []
    # what is left, rounded up, still calls time on purpose
    response = post(client, tournament, "adjust", 1, rnd.clock_version, minutes=40,
                    reason="Call time", remove="1")
    assert response.status_code == 303
    assert 599 <= fresh(tournament).duration_seconds <= 602  # the 10 minutes played


def test_the_console_forms_leave_missing_answers_to_the_pages_own_words(client, tournament):
    """A browser's own "Please fill out this field" bubble is not in our words: the pause,
    resume and minutes forms post as they are, and the page answers at the field."""
    started(tournament, 1, minutes_ago=10)
    page = client.get(f"/clock/director/{tournament.id}").get_data(as_text=True)
    typed = re.findall(r'<form method="post" action="[^"]*/(?:pause|resume|adjust)" '
                       r'class="form[^"]*"[^>]*>', page)
    assert len(typed) == 2  # running: the pause with its reason, and the minutes
    assert all("novalidate" in form for form in typed), typed
