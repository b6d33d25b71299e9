"""The audit trail page: every change newest first with who, when, before and after;
filtered by who, what, table, round and player; a bad number is named at its field (422)
and ignored; directors only; printable (a print button, no filter on paper)."""

from __future__ import annotations

from blueprints.calls import queue as calls_queue
from blueprints.calls import table_calls
from tests.clock.conftest import started
from tests.conftest import make_user, sign_in


def url(tournament, **args):
    query = "&".join(f"{key}={value}" for key, value in args.items())
    return f"/director/t/{tournament.id}/audit" + (f"?{query}" if query else "")


def items(html: str) -> list[str]:
    return [" ".join(chunk.split("</li>\n  \n")[0].split())
            for chunk in html.split('<li class="audit-item">')[1:]]


def test_every_change_with_who_when_before_and_after(client, tournament, director):
    rnd = started(tournament, minutes_ago=5)
    client.post(f"/clock/director/{tournament.id}/pause", data={
        "pause-round_no": 1, "pause-version": rnd.clock_version, "pause-choice": "Break"})
    html = client.get(url(tournament)).get_data(as_text=True)
    first = items(html)[0]
    assert first.startswith("<p class=\"audit-head\"><strong>Round clock: pause</strong>")
    assert "Ann Director (director) · round 1" in first
    assert "state:</span> <span class=\"audit-before\">running</span>" in first
    assert "audit-after\">paused</span>" in first and "Why: Break" in first
    assert "round.seat" not in html  # words, not codes
    assert 'data-print hidden>Print</button>' in html


def test_filters_by_table_round_player_who_and_what(client, tournament, director):
    started(tournament)
    call4, _ = table_calls.place_call(tournament.tables[3], "ruling")
    call6, _ = table_calls.place_call(tournament.tables[5], "scoring")
    calls_queue.claim_call(call4, director, "director")
    by_table = items(client.get(url(tournament, table=4)).get_data(as_text=True))
    assert len(by_table) == 2 and all("table 4" in item for item in by_table)
    # Player 13 sits at table 4 in round 1 (seated by number).
    by_player = items(client.get(url(tournament, player=13)).get_data(as_text=True))
    assert len(by_player) == 2
    by_who = items(client.get(url(tournament, who="table 6")).get_data(as_text=True))
    assert len(by_who) == 1 and "Director calls: place" in by_who[0]
    calls_only = items(client.get(url(tournament, kind="call")).get_data(as_text=True))
    assert len(calls_only) == 3
    by_round = client.get(url(tournament, round=2)).get_data(as_text=True)
    assert items(by_round) == [] and "0 changes match the filter." in by_round
    assert call6.id


def test_a_bad_number_is_named_at_its_field_and_ignored(client, tournament):
    response = client.get(url(tournament, table="four", player="-1"))
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "Give a table number, like 4, or leave it empty." in html
    assert "Give a player number, like 17, or leave it empty." in html
    assert 'aria-invalid="true" aria-describedby="audit-table-error"' in html
    assert items(html)  # the rest of the filter still applies (here: nothing)


def test_table_guides_and_strangers_do_not_see_it(app, tournament):
    from models import TournamentStaff, db

    guide = make_user("gail@example.com", "Gail Guide")
    db.session.add(TournamentStaff(tournament_id=tournament.id, user_id=guide.id,
                                   role="table-guide"))
    db.session.commit()
    other = app.test_client()
    sign_in(other, "gail@example.com")
    assert other.get(url(tournament)).status_code in (403, 404)
    make_user("eve@example.com", "Eve Else")
    stranger = app.test_client()
    sign_in(stranger, "eve@example.com")
    assert stranger.get(url(tournament)).status_code == 404


def test_the_overview_links_the_audit_trail(client, tournament):
    html = client.get(f"/director/t/{tournament.id}").get_data(as_text=True)
    assert f'href="/director/t/{tournament.id}/audit"' in html


def test_changes_leave_out_what_did_not_change():
    from blueprints.director.audit_trail import changes

    assert changes({"state": "running", "round": 1}, {"state": "paused", "round": 1}) == [
        ("state", "running", "paused")]
    assert changes(None, {"note": "", "table": 4}) == [("table", "-", "4")]
    assert changes(None, None) == []
    assert changes("a", "b") == [("", "a", "b")]
