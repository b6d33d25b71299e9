"""The staff's side: the queue and its polling, claims by several staff, release, handing
a call to a director, resolving with a ruling and an adjustment, every refusal, access,
and the history with its wait times."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import select

from blueprints.calls import history as call_history
from blueprints.calls import queue as calls_queue
from blueprints.calls import table_calls
from core.errors import Refused
from models import AuditEvent, CallClaim, DirectorCall, Scoresheet, db, utcnow
from tests.calls.conftest import HX
from tests.conftest import make_tournament, make_user, sign_in


def queue_url(tournament, suffix=""):
    return f"/calls/director/{tournament.id}{suffix}"


def fresh(call) -> DirectorCall:
    db.session.expire_all()
    return db.session.get(DirectorCall, call.id)


def call_audit(tournament):
    db.session.expire_all()
    return [e.action for e in db.session.scalars(
        select(AuditEvent).where(AuditEvent.tournament_id == tournament.id,
                                 AuditEvent.action.like("call.%")).order_by(AuditEvent.id))]


# ---------------------------------------------------------------- the queue


def test_queue_lists_open_calls_oldest_first(client, tournament, place):
    first = place("scoring", "Who threw?")
    second_table = tournament.tables[4]
    second, _ = table_calls.place_call(second_table, "tile_count")
    first.called_at = utcnow() - timedelta(minutes=3)
    db.session.commit()
    html = client.get(queue_url(tournament)).get_data(as_text=True)
    assert html.index("Table 1") < html.index("Table 5")
    assert "Scoring</strong>: Who threw?" in html and "Tile count" in html
    assert "2 open calls" in html
    assert "Waiting 3:0" in html and "over 2 min" in html and "wait-level-1" in html
    assert f"/t/director/{tournament.id}/1/1" in html  # the sheet, one tap away
    assert "Round 1" in html
    assert second.id


def test_a_wait_over_five_minutes_turns_red_and_says_so(client, tournament, place):
    call = place()
    call.called_at = utcnow() - timedelta(minutes=6)
    db.session.commit()
    html = client.get(queue_url(tournament)).get_data(as_text=True)
    assert "wait-level-2" in html and "over 5 min" in html


def test_resolved_and_cancelled_calls_leave_the_queue(client, tournament, place, director):
    call = place()
    calls_queue.resolve_call(call, director, "Play on")
    html = client.get(queue_url(tournament)).get_data(as_text=True)
    assert "No open calls" in html


def live_parts(html: str) -> dict[str, str]:
    return dict(re.findall(r'data-live="(\w+)" data-live-version="([^"]*)"', html))


def test_the_queue_is_a_part_of_its_pages_one_poll(client, tournament, place):
    page = client.get(queue_url(tournament)).get_data(as_text=True)
    assert page.count('hx-trigger="every') == 1
    poller = re.search(r'<div id="live"[^>]*>', page).group(0)
    url = re.search(r'hx-get="([^"]*)"', poller).group(1).replace("&amp;", "&")
    assert url.startswith(f"/live/director/{tournament.id}?")
    shown = live_parts(page)
    assert shown["queue"] == calls_queue.queue_version(tournament)
    poll = f"{url}&" + "&".join(f"{k}={v}" for k, v in shown.items())
    assert client.get(poll, headers=HX).status_code == 204
    place()
    response = client.get(poll, headers=HX)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    changed = live_parts(html)
    assert changed["queue"] == calls_queue.queue_version(tournament) != shown["queue"]
    assert 'id="queue"' in html and 'hx-swap-oob="true"' in html and "Table 1" in html
    assert "<html" not in html
    again = f"{url}&" + "&".join(f"{k}={v}" for k, v in {**shown, **changed}.items())
    assert client.get(again, headers=HX).status_code == 204


def test_the_queue_polls_before_round_one_is_seated_too(client, director):
    """No director's bar yet to bring a poll: the queue's page has its own."""
    tournament = make_tournament(director, seated=False, code="EARLY")
    page = client.get(queue_url(tournament)).get_data(as_text=True)
    assert page.count('hx-trigger="every') == 1 and 'id="director-bar"' not in page
    assert set(live_parts(page)) == {"queue"}
    poll = f"/live/director/{tournament.id}?queue={live_parts(page)['queue']}"
    assert client.get(poll, headers=HX).status_code == 204
    assert client.get(f"/live/director/{tournament.id}?queue=old",
                      headers=HX).status_code == 200


def test_another_director_gets_404(app, tournament, place):
    call = place()
    make_user(email="zed@example.com", name="Zed Other")
    other = app.test_client()
    sign_in(other, email="zed@example.com")
    for url in (queue_url(tournament), queue_url(tournament, "/history"),
                queue_url(tournament, f"/{call.id}")):
        assert other.get(url).status_code == 404
    for action in ("claim", "release", "needs-director", "resolve"):
        response = other.post(queue_url(tournament, f"/{call.id}/{action}"),
                              data={"ruling": "x"})
        assert response.status_code == 404
    assert fresh(call).state == "open" and fresh(call).version == 1


def test_a_call_of_another_tournament_is_404(client, director, tournament, place):
    call = place()
    mine = make_tournament(director, name="Other Open", players=8)
    assert client.get(queue_url(mine, f"/{call.id}")).status_code == 404
    assert client.post(queue_url(mine, f"/{call.id}/claim")).status_code == 404
    assert fresh(call).state == "open"


def test_signed_out_visitors_are_sent_to_sign_in(app, tournament):
    response = app.test_client().get(queue_url(tournament))
    assert response.status_code == 302 and "/auth/sign-in" in response.headers["Location"]


# ---------------------------------------------------------------- claim and release


def test_claim_shows_every_staff_member_who_took_it(client, tournament, place, co_director):
    call = place()
    response = client.post(queue_url(tournament, f"/{call.id}/claim"), headers=HX)
    assert response.status_code == 200
    assert "Going: <strong>Ann Director</strong>" in response.get_data(as_text=True)
    call = fresh(call)
    assert call.state == "claimed" and call.first_claimed_at is not None
    first_claimed = call.first_claimed_at
    _, bob = co_director
    html = bob.post(queue_url(tournament, f"/{call.id}/claim"), headers=HX).get_data(
        as_text=True)
    assert "Ann Director, Bob Codirector" in html
    assert fresh(call).first_claimed_at == first_claimed
    assert call_audit(tournament) == ["call.place", "call.claim", "call.claim"]


def test_two_claims_at_once_keep_the_first_claims_time(tournament, place, director,
                                                       co_director):
    """The queue's "time to claim" reads first_claimed_at: a second claim that read the
    call before the first one landed must not move it to its own, later, time."""
    from sqlalchemy.orm.attributes import set_committed_value

    call = place()
    bob, _ = co_director
    calls_queue.claim_call(call, director, "director")
    first = fresh(call).first_claimed_at
    assert first is not None
    stale = fresh(call)
    set_committed_value(stale, "first_claimed_at", None)  # read before the first landed
    calls_queue.claim_call(stale, bob, "co-director")
    assert fresh(call).first_claimed_at == first
    assert len(db.session.scalars(select(CallClaim).where(CallClaim.call_id == call.id))
               .all()) == 2


def test_claiming_twice_adds_one_claim(client, tournament, place):
    call = place()
    client.post(queue_url(tournament, f"/{call.id}/claim"), headers=HX)
    client.post(queue_url(tournament, f"/{call.id}/claim"), headers=HX)
    claims = db.session.scalars(select(CallClaim).where(CallClaim.call_id == call.id)).all()
    assert len(claims) == 1


def test_claim_without_javascript_redirects_to_the_queue(client, tournament, place):
    call = place()
    response = client.post(queue_url(tournament, f"/{call.id}/claim"))
    assert response.status_code == 302
    assert response.headers["Location"].endswith(queue_url(tournament))


def test_claim_of_a_resolved_call_is_refused(client, tournament, place, director):
    call = place()
    calls_queue.resolve_call(call, director, "Play on")
    version = fresh(call).version
    response = client.post(queue_url(tournament, f"/{call.id}/claim"), headers=HX)
    assert response.status_code == 409
    assert "already resolved by Ann Director: Play on" in response.get_data(as_text=True)
    assert fresh(call).version == version and fresh(call).state == "resolved"
    assert db.session.scalars(select(CallClaim)).all() == []


def test_claim_of_a_cancelled_call_is_refused(client, tournament, place, table):
    call = place()
    table_calls.cancel_call(table)
    response = client.post(queue_url(tournament, f"/{call.id}/claim"))
    assert response.status_code == 409
    assert "cancelled" in response.get_data(as_text=True)
    assert fresh(call).state == "cancelled"


def test_release_opens_the_call_again(client, tournament, place, co_director):
    call = place()
    client.post(queue_url(tournament, f"/{call.id}/claim"), headers=HX)
    _, bob = co_director
    bob.post(queue_url(tournament, f"/{call.id}/claim"), headers=HX)
    html = client.post(queue_url(tournament, f"/{call.id}/release"), headers=HX).get_data(
        as_text=True)
    assert "Going: <strong>Bob Codirector</strong>" in html
    assert fresh(call).state == "claimed"
    bob.post(queue_url(tournament, f"/{call.id}/release"), headers=HX)
    assert fresh(call).state == "open"
    assert call_audit(tournament)[-2:] == ["call.release", "call.release"]


def test_release_without_a_claim_is_refused(client, tournament, place):
    call = place()
    response = client.post(queue_url(tournament, f"/{call.id}/release"), headers=HX)
    assert response.status_code == 409
    assert "not claimed" in response.get_data(as_text=True)
    assert fresh(call).version == 1


# ---------------------------------------------------------------- table guides


def test_a_guide_takes_a_call_and_hands_it_to_a_director(client, tournament, place, guide):
    call = place()
    _, gail = guide
    gail.post(queue_url(tournament, f"/{call.id}/claim"), headers=HX)
    page = gail.get(queue_url(tournament, f"/{call.id}")).get_data(as_text=True)
    assert "Needs a director" in page
    response = gail.post(queue_url(tournament, f"/{call.id}/needs-director"),
                         data={"back": "detail"})
    assert response.status_code == 302
    call = fresh(call)
    assert call.needs_director and call.state == "open"
    html = client.get(queue_url(tournament)).get_data(as_text=True)
    assert "needs-director" in html and "Needs a director" in html
    assert call_audit(tournament)[-1] == "call.needs_director"


def test_a_guide_resolves_without_points_but_not_with(client, tournament, place, guide):
    call = place()
    _, gail = guide
    response = gail.post(queue_url(tournament, f"/{call.id}/resolve"),
                         data={"ruling": "Dead hand", "seat": "N", "points": "-10"})
    assert response.status_code == 403
    assert "Only a director or co-director can change points" in response.get_data(
        as_text=True)
    assert fresh(call).state == "open"
    response = gail.post(queue_url(tournament, f"/{call.id}/resolve"),
                         data={"ruling": "Play on"})
    assert response.status_code == 302
    assert fresh(call).state == "resolved"


# ---------------------------------------------------------------- resolve


def test_resolve_needs_a_ruling(client, tournament, place):
    call = place()
    for data in ({}, {"ruling": "   "}):
        response = client.post(queue_url(tournament, f"/{call.id}/resolve"), data=data)
        assert response.status_code == 422
        html = response.get_data(as_text=True)
        assert 'id="ruling-error"' in html and "write the ruling in words" in html
    assert fresh(call).state == "open" and fresh(call).version == 1


def test_resolve_with_a_ruling(client, tournament, place, table, table_url):
    call = place()
    response = client.post(queue_url(tournament, f"/{call.id}/resolve"),
                           data={"ruling": "Jokers can be exchanged only on your turn."})
    assert response.status_code == 302
    call = fresh(call)
    assert call.state == "resolved" and call.resolved_at and call.resolved_by_id
    assert call.ruling == "Jokers can be exchanged only on your turn."
    assert call_audit(tournament)[-1] == "call.resolve"
    html = client.get(table_url(), headers=HX).get_data(as_text=True)
    assert "Resolved:" in html and "only on your turn" in html


def test_resolve_with_an_adjustment_puts_it_on_the_sheet(client, tournament, place, table):
    call = place("tile_count")
    response = client.post(queue_url(tournament, f"/{call.id}/resolve"), data={
        "ruling": "North had 12 tiles: dead hand, -10", "seat": "N", "points": "-10"})
    assert response.status_code == 302, response.get_data(as_text=True)
    assert fresh(call).state == "resolved"
    sheet = db.session.scalar(select(Scoresheet).where(Scoresheet.table_id == table.id))
    [pending] = sheet.pending_adjustments
    assert pending["seat"] == "N" and pending["points"] == -10 and pending["game"] == 1
    assert pending["reason"] == "North had 12 tiles: dead hand, -10"
    actions = [e.action for e in db.session.scalars(select(AuditEvent).order_by(AuditEvent.id))]
    assert actions[-2:] == ["sheet.adjust", "call.resolve"]
    html = client.get(queue_url(tournament, "/history")).get_data(as_text=True)
    assert "North -10 in the game in progress, round 1" in html


def test_resolve_with_an_adjustment_for_a_chosen_game(client, tournament, place, table):
    call = place()
    client.post(queue_url(tournament, f"/{call.id}/resolve"),
                data={"ruling": "Misnamed", "seat": "E", "points": "-25", "game_no": "3"})
    sheet = db.session.scalar(select(Scoresheet).where(Scoresheet.table_id == table.id))
    assert sheet.pending_adjustments[0]["game"] == 3


@pytest.mark.parametrize("data, field, words", [
    ({"seat": "Q", "points": "-10"}, "seat", "East, South, West or North"),
    ({"seat": "N", "points": "ten"}, "points", "whole number"),
    ({"seat": "N", "points": "0"}, "points", "not 0"),
    ({"seat": "N"}, "points", "not 0"),
    ({"points": "-10"}, "seat", "choose the seat"),
    ({"seat": "N", "points": "-100000"}, "points", "between -500 and 500"),
    ({"seat": "N", "points": "-10", "game_no": "9"}, "game_no", "1 to 4"),
    ({"seat": "N", "points": "-10", "game_no": "x"}, "game_no", "whole number"),
])
def test_a_bad_adjustment_is_refused_at_the_field(client, tournament, place, table, data,
                                                  field, words):
    call = place()
    response = client.post(queue_url(tournament, f"/{call.id}/resolve"),
                           data={"ruling": "Dead hand", **data})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert f'id="{field}-error"' in html and words in html
    assert fresh(call).state == "open" and fresh(call).version == 1
    assert db.session.scalar(select(Scoresheet).where(Scoresheet.table_id == table.id)) is None
    assert call_audit(tournament) == ["call.place"]


def test_a_refused_adjustment_on_the_sheet_rolls_back_the_ruling(app, tournament, place,
                                                                 director, monkeypatch):
    from core import sheets
    from tournament.scoring import InvalidGame

    def refuse(*args, **kwargs):
        raise InvalidGame("adjustments", "This round has games 1 to 4.")

    monkeypatch.setattr(sheets, "add_adjustment", refuse)
    call = place()
    with pytest.raises(Refused) as error:
        calls_queue.resolve_call(call, director, "Dead hand", "director",
                             calls_queue.Adjustment("N", -10, None))
    assert error.value.field == "game_no"
    assert fresh(call).state == "open" and fresh(call).version == 1
    assert call_audit(tournament) == ["call.place"]


def test_resolving_a_resolved_call_is_refused(client, tournament, place, co_director):
    call = place()
    client.post(queue_url(tournament, f"/{call.id}/resolve"), data={"ruling": "First"})
    _, bob = co_director
    response = bob.post(queue_url(tournament, f"/{call.id}/resolve"),
                        data={"ruling": "Second", "seat": "N", "points": "-10"})
    assert response.status_code == 409
    assert "already resolved by Ann Director: First" in response.get_data(as_text=True)
    assert fresh(call).ruling == "First"
    assert db.session.scalars(select(Scoresheet)).all() == []


def test_the_call_page_shows_the_resolve_form(client, tournament, place):
    call = place("conduct", "Loud table")
    html = client.get(queue_url(tournament, f"/{call.id}")).get_data(as_text=True)
    assert "Conduct" in html and "Loud table" in html
    assert 'name="ruling"' in html and 'name="seat"' in html and 'name="points"' in html
    assert "I'm going" in html


# ---------------------------------------------------------------- history


def test_history_lists_every_call_with_its_times_and_wait_statistics(
        client, tournament, director, co_director):
    now = utcnow()
    calls = []
    for number, (claim_after, resolve_after) in enumerate(
            [(30, 120), (90, 300), (None, 60)], start=1):
        call, _ = table_calls.place_call(tournament.tables[number - 1], "ruling")
        call.called_at = now - timedelta(minutes=30)
        if claim_after is not None:
            calls_queue.claim_call(call, director)
            call.first_claimed_at = call.called_at + timedelta(seconds=claim_after)
        calls_queue.resolve_call(call, director, f"Ruling {number}")
        call.resolved_at = call.called_at + timedelta(seconds=resolve_after)
        calls.append(call)
    cancelled, _ = table_calls.place_call(tournament.tables[5])
    table_calls.cancel_call(tournament.tables[5])
    db.session.commit()

    [stats] = call_history.round_stats(call_history.history(tournament))
    assert stats.round_no == 1 and stats.calls == 3
    assert (stats.median_claim, stats.longest_claim) == (60, 90)
    assert (stats.median_resolve, stats.longest_resolve) == (120, 300)

    html = client.get(queue_url(tournament, "/history")).get_data(as_text=True)
    assert "Ruling 1" in html and "Ruling 3" in html and "cancelled" in html
    assert "1:00" in html and "1:30" in html and "2:00" in html and "5:00" in html
    assert "by Ann Director" in html
    assert cancelled.id


def test_an_adjustment_on_a_game_already_entered_rescores_it(client, tournament, place,
                                                             table):
    """Game 1 is on the sheet (a wall game: +10 each); the ruling takes 10 from North."""
    import blueprints.table.sheet_writes as table_writes
    from core.rounds import round_row

    rnd = round_row(tournament, 1)
    table_writes.save_game(table, rnd, 1, {"outcome": "wall"}, initials="AB",
                           version=1, key=None, actor="East")
    call = place("tile_count")
    response = client.post(queue_url(tournament, f"/{call.id}/resolve"), data={
        "ruling": "North had 12 tiles", "seat": "N", "points": "-10", "game_no": "1"})
    assert response.status_code == 302, response.get_data(as_text=True)
    db.session.expire_all()
    sheet = db.session.scalar(select(Scoresheet).where(Scoresheet.table_id == table.id))
    [game] = sheet.games
    assert game.record["adjustments"] == [
        {"seat": "N", "points": -10, "reason": "North had 12 tiles"}]
    assert game.points["N"] == game.points["E"] - 10


def _conflict():
    from sqlalchemy.exc import IntegrityError

    return IntegrityError("INSERT INTO scoresheet ...", {},
                          Exception("UNIQUE constraint failed: scoresheet.round_id"))


def test_a_sheet_created_by_the_table_at_the_same_moment_is_retried_once(
        tournament, place, table, director, monkeypatch):
    from core import sheets

    real = sheets.add_adjustment
    tries = []

    def racing(*args, **kwargs):
        tries.append(1)
        if len(tries) == 1:       # East's phone created the sheet at this very moment
            raise _conflict()
        return real(*args, **kwargs)

    monkeypatch.setattr(sheets, "add_adjustment", racing)
    call = place()
    calls_queue.resolve_call(call, director, "Dead hand", "director",
                         calls_queue.Adjustment("N", -10, None))
    assert len(tries) == 2
    assert fresh(call).state == "resolved"
    sheet = db.session.scalar(select(Scoresheet).where(Scoresheet.table_id == table.id))
    assert [a["points"] for a in sheet.pending_adjustments] == [-10]
    assert call_audit(tournament) == ["call.place", "call.resolve"]


def test_two_sheet_conflicts_in_a_row_are_a_plain_409_and_change_nothing(
        client, tournament, place, table, monkeypatch):
    from core import sheets

    def always(*args, **kwargs):
        raise _conflict()

    monkeypatch.setattr(sheets, "add_adjustment", always)
    call = place()
    response = client.post(queue_url(tournament, f"/{call.id}/resolve"),
                           data={"ruling": "Dead hand", "seat": "N", "points": "-10"})
    assert response.status_code == 409
    assert "sheet changed at the same moment" in response.get_data(as_text=True)
    assert fresh(call).state == "open" and fresh(call).version == 1
    assert call_audit(tournament) == ["call.place"]


def test_history_landmarks_have_unique_names(client, tournament, director):
    """axe's landmark-unique rule: the scrolling box of the waits table is a region of
    its own name, not a second "Waits per round" beside its section."""
    call, _ = table_calls.place_call(tournament.tables[0], "ruling")
    calls_queue.resolve_call(call, director, "Play on")
    html = client.get(queue_url(tournament, "/history")).get_data(as_text=True)
    assert html.count('aria-labelledby="waits-heading"') == 1
    assert 'role="region" aria-label="Table of waits per round' in html
