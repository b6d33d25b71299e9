"""The table's side: calling, a second tap, the note and reason, the flood limit, a
rotated token, cancelling, and the live state it polls for."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from blueprints.calls import queue as calls_queue
from blueprints.calls import table_calls
from models import AppliedRequest, AuditEvent, DirectorCall, db, new_token, utcnow
from tests.calls.conftest import HX, calls_of


def audit_actions(tournament):
    db.session.expire_all()
    return [e.action for e in db.session.scalars(
        select(AuditEvent).where(AuditEvent.tournament_id == tournament.id,
                                 AuditEvent.action.like("call.%")).order_by(AuditEvent.id))]


def test_one_tap_calls_and_redirects_to_the_table_page(client, table, table_url, tournament):
    response = client.post(table_url(), data={})
    assert response.status_code == 302
    assert f"/t/{tournament.code}/{table.number}" in response.headers["Location"]
    [call] = calls_of(table)
    assert call.state == "open" and call.reason == "" and call.version == 1
    assert call.round_id is not None
    assert audit_actions(tournament) == ["call.place"]


def test_htmx_call_answers_with_the_waiting_bar(client, table, table_url):
    response = client.post(table_url(), data={"reason": "tile_count", "note": "N has 12"},
                           headers=HX)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert 'id="table-call"' in html and "Waiting 0:0" in html
    assert "Cancel the call" in html
    assert "<html" not in html
    [call] = calls_of(table)
    assert (call.reason, call.note) == ("tile_count", "N has 12")


def test_a_second_tap_shows_the_open_call_instead_of_another(client, table, table_url):
    client.post(table_url(), data={"request_key": "k1"}, headers=HX)
    response = client.post(table_url(), data={"request_key": "k2"}, headers=HX)
    assert response.status_code == 200
    assert "Waiting" in response.get_data(as_text=True)
    assert len(calls_of(table)) == 1


def test_a_resent_request_changes_nothing_twice(client, table, table_url, director):
    client.post(table_url(), data={"request_key": "same-key"})
    [call] = calls_of(table)
    calls_queue.resolve_call(call, director, "Play on")
    client.post(table_url(), data={"request_key": "same-key"})  # bad Wi-Fi retry, later
    assert len(calls_of(table)) == 1
    assert len(db.session.scalars(select(AppliedRequest.key)).all()) == 1  # kept, bound


def test_a_resent_request_with_a_key_over_64_characters_is_recognised(client, table,
                                                                        table_url):
    keys = ["k1", "k2", "k3", "k" * 100]
    for key in keys:                               # the table's 4 calls of 10 minutes
        client.post(table_url(), data={"request_key": key})
        client.post(table_url("/cancel"), data={})
    # the last tap resent by bad Wi-Fi: recognised as applied, not a 5th call (429)
    response = client.post(table_url(), data={"request_key": keys[-1]})
    assert response.status_code == 302
    assert len(calls_of(table)) == 4
    assert len(db.session.scalars(select(AppliedRequest.key)).all()) == 4


def test_note_over_280_characters_is_refused_at_the_field(client, table, table_url):
    response = client.post(table_url(), data={"note": "x" * 281}, headers=HX)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert 'id="note-error"' in html and "280 characters" in html
    assert calls_of(table) == []


def test_a_refused_call_keeps_its_reason_ticked_and_only_that_one(client, table, table_url):
    response = client.post(table_url(), data={"reason": "scoring", "note": "x" * 281},
                           headers=HX)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert 'name="reason" value="scoring" checked>' in html
    assert html.count(" checked>") == 1
    # the next bar shown without a choice ticks nothing
    bar = client.get(table_url()).get_data(as_text=True)
    assert 'class="call-form"' in bar and 'value="scoring">' in bar
    assert " checked>" not in bar


def test_note_over_280_without_javascript_gets_the_page(client, table, table_url):
    response = client.post(table_url(), data={"note": "x" * 1000})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "<html" in html and "280 characters" in html
    assert calls_of(table) == []


def test_an_unknown_reason_is_refused(client, table, table_url):
    response = client.post(table_url(), data={"reason": "bribery"}, headers=HX)
    assert response.status_code == 422
    assert "choose one of the reasons" in response.get_data(as_text=True)
    assert calls_of(table) == []


def test_a_rotated_token_gets_a_plain_page_and_changes_nothing(client, table, table_url,
                                                               tournament):
    old = table_url()
    table.token = new_token()
    db.session.commit()
    for response in (client.post(old, data={}), client.get(old),
                     client.post(old.replace("?", "/cancel?"), data={})):
        assert response.status_code == 404
        assert "This table link is no longer valid" in response.get_data(as_text=True)
    assert calls_of(table) == []
    assert audit_actions(tournament) == []


def test_no_token_or_wrong_table_is_404(client, table, tournament):
    assert client.post(f"/calls/t/{tournament.code}/{table.number}").status_code == 404
    assert client.post(f"/calls/t/{tournament.code}/99?k={table.token}").status_code == 404
    assert client.post(f"/calls/t/NOPE/{table.number}?k={table.token}").status_code == 404


def test_a_table_cannot_flood_the_queue(client, table, table_url, tournament):
    for _ in range(table_calls.FLOOD_LIMIT):
        client.post(table_url(), data={}, headers=HX)
        client.post(table_url("/cancel"), data={}, headers=HX)
    response = client.post(table_url(), data={}, headers=HX)
    assert response.status_code == 429
    assert "Please wait a few minutes" in response.get_data(as_text=True)
    assert len(calls_of(table)) == table_calls.FLOOD_LIMIT
    # Ten minutes later the table may call again (counted in the database).
    for call in calls_of(table):
        call.called_at -= table_calls.FLOOD_WINDOW + timedelta(seconds=1)
    db.session.commit()
    assert client.post(table_url(), data={}, headers=HX).status_code == 200
    assert len(calls_of(table)) == table_calls.FLOOD_LIMIT + 1


def test_the_table_cancels_its_call(client, table, table_url, tournament):
    client.post(table_url(), data={}, headers=HX)
    response = client.post(table_url("/cancel"), data={}, headers=HX)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "Call cancelled" in html and "Call the director" in html
    [call] = calls_of(table)
    assert call.state == "cancelled" and call.cancelled_at is not None
    assert audit_actions(tournament) == ["call.place", "call.cancel"]


def test_cancel_without_an_open_call_is_refused(client, table, table_url, tournament):
    response = client.post(table_url("/cancel"), data={}, headers=HX)
    assert response.status_code == 409
    assert "no open call" in response.get_data(as_text=True)
    assert audit_actions(tournament) == []


def test_cancel_without_javascript_redirects(client, table, table_url):
    client.post(table_url(), data={})
    assert client.post(table_url("/cancel"), data={}).status_code == 302


def test_polling_gets_204_while_nothing_changed(client, table, table_url, place):
    response = client.get(table_url() + "&v=none", headers=HX)
    assert response.status_code == 204
    call = place()
    response = client.get(table_url() + "&v=none", headers=HX)
    assert response.status_code == 200
    assert f'data-version="{call.id}.1"' in response.get_data(as_text=True)
    assert client.get(table_url() + f"&v={call.id}.1", headers=HX).status_code == 204
    # Without htmx the same address is the bar's own page.
    page = client.get(table_url() + f"&v={call.id}.1")
    assert page.status_code == 200 and "<html" in page.get_data(as_text=True)


def test_a_tap_on_a_page_with_one_poll_keeps_the_bar_a_part_of_it(client, table, table_url):
    page = client.get(f"/t/{table.tournament.code}/{table.number}?k={table.token}")
    assert '<input type="hidden" name="live" value="1">' in page.get_data(as_text=True)
    html = client.post(table_url(), data={"live": "1"}, headers=HX).get_data(as_text=True)
    assert 'data-live="call"' in html and "hx-trigger" not in html
    assert '<input type="hidden" name="live" value="1">' in html  # and so the next tap
    # The bar's own page (and a form without the field) polls on its own.
    html = client.post(table_url("/cancel"), data={}, headers=HX).get_data(as_text=True)
    assert 'data-live="call"' not in html and 'hx-trigger="every' in html


def test_the_table_sees_the_director_on_the_way_then_the_ruling(client, table, table_url,
                                                                 place, director, co_director):
    call = place()
    waited = client.get(table_url(), headers=HX).get_data(as_text=True)
    assert "Waiting" in waited
    calls_queue.claim_call(call, director)
    html = client.get(table_url(), headers=HX).get_data(as_text=True)
    assert "Ann Director is on the way" in html
    calls_queue.claim_call(call, co_director[0])
    html = client.get(table_url(), headers=HX).get_data(as_text=True)
    assert "Ann Director and Bob Codirector are on the way" in html
    calls_queue.resolve_call(call, director, "North's hand is dead.")
    html = client.get(table_url(), headers=HX).get_data(as_text=True)
    assert "Resolved:" in html and "North&#39;s hand is dead." in html
    assert ">OK, we have read it</button>" in html  # OK brings back the button


def test_waiting_time_comes_from_the_server(client, table, table_url, place):
    call = place()
    call.called_at = utcnow() - timedelta(seconds=80)
    db.session.commit()
    html = client.get(table_url(), headers=HX).get_data(as_text=True)
    assert "Waiting 1:2" in html and 'data-since="8' in html


def test_an_old_resolved_call_leaves_just_the_button(client, table, table_url, place,
                                                     director):
    call = place()
    calls_queue.resolve_call(call, director, "Play on")
    # shown until OK, but not to the next round's players: gone once a round is surely over
    db.session.get(DirectorCall, call.id).resolved_at = utcnow() - timedelta(hours=2)
    db.session.commit()
    html = client.get(table_url(), headers=HX).get_data(as_text=True)
    assert "Resolved" not in html and "Call the director" in html


def test_a_ruling_ends_when_the_table_submits_that_round(client, table, table_url, place,
                                                         director):
    """A fresh phone at the table, after its round is submitted (the next players, or a
    player checking her scores), sees the button, not the last round's ruling; a ruling
    given after the sheet went in is still shown."""
    from core.sheets import ensure_sheet
    from models import Round

    call = place()
    calls_queue.resolve_call(call, director, "Play on")
    page_url = f"/t/{table.tournament.code}/{table.number}?k={table.token}"
    assert "Resolved:</strong> Play on" in client.get(page_url).get_data(as_text=True)
    sheet = ensure_sheet(db.session.get(Round, call.round_id), table)
    sheet.state, sheet.submitted_at = "submitted", utcnow()
    db.session.commit()
    for html in (client.get(table_url(), headers=HX).get_data(as_text=True),
                 client.get(page_url).get_data(as_text=True)):
        assert "Resolved" not in html and "Call the director</button>" in html
    # the director rules after the sheet went in: the table is told
    call = place()
    calls_queue.resolve_call(call, director, "Game 2 stands")
    assert "Resolved:</strong> Game 2 stands" in client.get(page_url).get_data(as_text=True)


def test_the_table_include_renders_for_the_table_page(app, table, place):
    from flask import render_template

    with app.test_request_context():
        html = render_template("calls/_table_call.html", table=table, tournament=table.tournament)
    assert "Call the director" in html and table.token in html
    # Its style and script come with the page's one bundle, not a file of its own.
    assert "<link" not in html and "<script" not in html
    place()
    with app.test_request_context():
        html = render_template("calls/_table_call.html", table=table, tournament=table.tournament)
    assert "Waiting" in html


def test_simultaneous_taps_from_two_phones_make_one_call(app, table, tournament):
    """Two phones at one table tap at the same moment (separate sessions and
    connections): the table's row lock lets one call in; the other gets it back."""
    import threading

    table_id = table.id
    barrier = threading.Barrier(2)
    results, errors = [], []

    def tap(key):
        try:
            with app.app_context():
                from models import Table

                mine = db.session.get(Table, table_id)
                barrier.wait(timeout=5)
                call, created = table_calls.place_call(mine, request_key=key)
                results.append((call.id, created))
                db.session.remove()
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=tap, args=(f"tap-{n}",)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors, errors
    assert len(calls_of(table)) == 1
    assert sorted(created for _, created in results) == [False, True]
    assert len({call_id for call_id, _ in results}) == 1


def test_a_rotated_token_stops_the_bar_in_place(client, table, table_url):
    old = table_url()
    table.token = new_token()
    db.session.commit()
    response = client.get(old + "&v=none", headers=HX)
    assert response.status_code == 404
    html = response.get_data(as_text=True)
    assert 'id="table-call"' in html and "no longer valid" in html
    assert "hx-trigger" not in html and "<html" not in html


# ---- one message at a time; the ruling on one line with OK ---------------------------------

def test_an_unclaimed_call_says_the_director_has_been_called_only(client, table, table_url):
    html = client.post(table_url(), data={"reason": "tile_count"}, headers=HX).get_data(
        as_text=True)
    assert "The director has been called" in html and "(tile count)" in html
    assert "Please wait at the table" in html
    assert "has your call" not in html  # nobody has claimed it yet
    assert "stay at the table" not in html
    assert ('data-announce="The director has been called. Please wait at the table."'
            in html)


def test_once_claimed_the_director_has_your_call(client, table, table_url, place, director):
    call = place(reason="tile_count")
    calls_queue.claim_call(call, director)
    html = client.get(table_url(), headers=HX).get_data(as_text=True)
    assert "Ann Director is on the way" in html
    assert "The director has your call (tile count). Please stay at the table." in html
    assert "has been called" not in html and "Please wait" not in html
    assert 'data-announce="Ann Director is on the way. The director has your call."' in html


def test_a_ruling_is_one_line_with_ok_and_no_call_form(client, table, table_url, place,
                                                        director):
    call = place()
    calls_queue.resolve_call(call, director, "Play on")
    html = client.get(table_url(), headers=HX).get_data(as_text=True)
    assert "call-resolved" in html and "Resolved:</strong> Play on" in html
    assert ">OK, we have read it</button>" in html
    assert "Call the director</button>" not in html and "Add a reason" not in html


def test_ok_without_javascript_hides_the_ruling_on_this_phone(app, client, table, table_url,
                                                              tournament, place, director):
    call = place()
    calls_queue.resolve_call(call, director, "Play on")
    response = client.post(table_url("/ok"), data={"call_id": call.id})
    assert response.status_code == 302
    assert f"/t/{tournament.code}/{table.number}" in response.headers["Location"]
    assert "calls_ok=" in response.headers["Set-Cookie"]
    html = client.get(table_url()).get_data(as_text=True)
    assert "Resolved" not in html and "Call the director</button>" in html
    # Its poll is quiet while it shows the button.
    assert client.get(table_url() + "&v=none", headers=HX).status_code == 204
    # Another phone at the table still sees the ruling until it says OK too.
    other = app.test_client()
    assert "Resolved:" in other.get(table_url(), headers=HX).get_data(as_text=True)
    # Nothing changed in the database.
    db.session.expire_all()
    assert db.session.get(DirectorCall, call.id).state == "resolved"


def test_ok_with_htmx_answers_with_the_button(client, table, table_url, place, director):
    call = place()
    calls_queue.resolve_call(call, director, "Play on")
    response = client.post(table_url("/ok"), data={"call_id": call.id}, headers=HX)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "Resolved" not in html and "Call the director</button>" in html
    assert 'data-version="none"' in html
    assert "calls_ok=" in response.headers["Set-Cookie"]


def test_ok_on_an_open_call_hides_nothing(client, table, table_url, place):
    call = place()
    response = client.post(table_url("/ok"), data={"call_id": call.id}, headers=HX)
    assert response.status_code == 200
    assert "Set-Cookie" not in response.headers or "calls_ok" not in response.headers[
        "Set-Cookie"]
    assert "Cancel the call" in response.get_data(as_text=True)


def test_a_new_call_after_ok_shows_again(client, table, table_url, place, director):
    call = place()
    calls_queue.resolve_call(call, director, "Play on")
    client.post(table_url("/ok"), data={"call_id": call.id})
    html = client.post(table_url(), data={}, headers=HX).get_data(as_text=True)
    assert "The director has been called" in html


def test_the_table_sees_the_whole_ruling_and_its_points_until_ok(client, table, table_url,
                                                                  place, director):
    ruling = ("Jokerless bonus refused: the hand held a joker that was exchanged before the "
              "win, so North's claim of a jokerless hand does not stand under the card.")
    call = place()
    calls_queue.resolve_call(call, director, ruling, "director",
                         calls_queue.Adjustment("N", -10, None))
    html = client.get(table_url(), headers=HX).get_data(as_text=True)
    assert ruling.replace("'", "&#39;") in html and "<details" not in html
    assert "Points: <strong>North -10</strong>" in html
    # still there long after a plain 10 minutes: the table has not tapped OK yet
    db.session.get(DirectorCall, call.id).resolved_at = utcnow() - timedelta(minutes=30)
    db.session.commit()
    assert "Jokerless bonus refused" in client.get(table_url(), headers=HX).get_data(
        as_text=True)


def test_a_request_key_is_the_tables_own(director):
    """A key another table (of this or another tournament) used is not this table's
    resend: its call is placed."""
    from blueprints.calls import table_calls
    from tests.conftest import make_tournament

    first = make_tournament(director, players=8, name="First Open", code="FIRST1")
    second = make_tournament(director, players=8, name="Second Open", code="SECND2")
    _, created = table_calls.place_call(first.tables[0], request_key="phone-key")
    assert created
    _, created = table_calls.place_call(second.tables[0], request_key="phone-key")
    assert created and len(calls_of(second.tables[0])) == 1
    _, created = table_calls.place_call(first.tables[1], request_key="phone-key")
    assert created and len(calls_of(first.tables[1])) == 1
    # the same table's resend is still one call
    _, created = table_calls.place_call(second.tables[0], request_key="phone-key")
    assert not created and len(calls_of(second.tables[0])) == 1
