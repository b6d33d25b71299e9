"""The table page's one poll: 204 while every part it shows is current, else exactly the
parts that changed, out of band, each with its new version."""

from __future__ import annotations

import re
import secrets
from datetime import timedelta

import pytest

from blueprints.calls import queue as calls_queue
from blueprints.calls import table_calls
from blueprints.director.common import players_changed
from models import db
from tests.conftest import make_tournament
from tests.table.conftest import TableClient, count_queries

HX = {"HX-Request": "true"}


@pytest.fixture
def east(client, director):
    return TableClient(client, make_tournament(director, players=8, rounds=2))


def live_parts(html: str) -> dict[str, str]:
    """{part: version} of every live part in a page or a poll answer."""
    return dict(re.findall(r'data-live="(\w+)" data-live-version="([^"]*)"', html))


def poll(east, versions: dict[str, str], **extra):
    query = "&".join(f"{k}={v}" for k, v in {**versions, **extra}.items())
    url = f"/live/t/{east.tournament.code}/{east.table.number}?k={east.table.token}&{query}"
    return east.client.get(url, headers=HX)


def test_the_table_page_polls_once_for_its_three_live_parts(east):
    html = east.get().get_data(as_text=True)
    assert set(live_parts(html)) == {"clock", "panel", "call"}
    assert html.count('hx-trigger="every') == 1
    poller = re.search(r'<div id="live"[^>]*>', html).group(0)
    assert f"/live/t/{east.tournament.code}/1?k={east.table.token}" in poller
    assert 'hx-swap="none"' in poller


def test_the_review_polls_once_for_the_clock_the_call_bar_and_itself(east):
    """The review follows the players' confirmations from their own phones: its part
    comes back (out of band) when the sheet changed, and not otherwise."""
    east.save(1, outcome="wall")
    html = east.get("/review", r=1).get_data(as_text=True)
    shown = live_parts(html)
    assert set(shown) == {"clock", "call", "review"} and html.count('hx-trigger="every') == 1
    assert poll(east, shown, r=1).status_code == 204
    east.save(2, outcome="wall")
    answer = poll(east, shown, r=1).get_data(as_text=True)
    assert set(live_parts(answer)) == {"review"}
    assert '<div id="review" class="review" hx-swap-oob="true">' in answer
    assert "2 of 4 games entered" in answer


@pytest.mark.parametrize("path", ["/game"])
def test_the_entry_pages_poll_once_for_the_clock_and_the_call_bar(east, path):
    html = east.get(path, r=1).get_data(as_text=True)
    shown = live_parts(html)
    assert set(shown) == {"clock", "call"} and html.count('hx-trigger="every') == 1
    poller = re.search(r'<div id="live"[^>]*>', html).group(0)
    assert f"/live/t/{east.tournament.code}/1?k={east.table.token}&amp;r=1" in poller
    assert poll(east, shown, r=1).status_code == 204
    # A saved game changes the sheet's panel, which these pages do not show.
    east.save(1, outcome="wall")
    assert poll(east, shown, r=1).status_code == 204
    call, _ = table_calls.place_call(east.table, "", "")
    db.session.commit()
    answer = poll(east, shown, r=1).get_data(as_text=True)
    assert live_parts(answer) == {"call": f"{call.id}.{call.version}"}
    assert "The director has been called" in answer


def test_nothing_changed_is_204_in_a_handful_of_queries(east):
    shown = live_parts(east.get().get_data(as_text=True))
    with count_queries() as queries:
        response = poll(east, shown)
    assert response.status_code == 204 and response.data == b""
    assert len(queries) <= 4


def test_a_saved_game_sends_only_the_panel(east):
    shown = live_parts(east.get().get_data(as_text=True))
    east.save(1, outcome="wall")
    response = poll(east, shown)
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    parts = live_parts(html)
    assert set(parts) == {"panel"} and parts["panel"] != shown["panel"]
    assert 'id="panel"' in html and 'hx-swap-oob="true"' in html
    # The phone now shows the new version: quiet again.
    assert poll(east, {**shown, **parts}).status_code == 204


def test_a_corrected_name_sends_the_panel(east):
    """No sheet changes when the director corrects a name, yet the panel shows it."""
    shown = live_parts(east.get().get_data(as_text=True))
    player = next(p for p in east.tournament.players if p.number == 1)
    player.name = "Ruth Abrams"
    players_changed(east.tournament)
    db.session.commit()
    response = poll(east, shown)
    assert response.status_code == 200
    assert set(live_parts(response.get_data(as_text=True))) == {"panel"}
    assert "Ruth Abrams" in response.get_data(as_text=True)


def test_a_lost_answer_is_sent_again(east):
    shown = live_parts(east.get().get_data(as_text=True))
    east.save(1, outcome="wall")
    first = poll(east, shown).get_data(as_text=True)
    second = poll(east, shown).get_data(as_text=True)
    assert live_parts(first) == live_parts(second) != {}


def test_a_call_sends_only_the_call_bar(east):
    shown = live_parts(east.get().get_data(as_text=True))
    call, _ = table_calls.place_call(east.table, "", "")
    db.session.commit()
    html = poll(east, shown).get_data(as_text=True)
    assert live_parts(html) == {"call": f"{call.id}.{call.version}"}
    assert 'id="table-call"' in html and "The director has been called" in html


def test_the_clock_sends_the_clock_and_the_panel(east, director):
    from blueprints.clock import actions as clock_actions

    shown = live_parts(east.get().get_data(as_text=True))
    clock_actions.start_round(east.tournament, 1, 0, director, "owner")
    db.session.commit()
    response = poll(east, shown)
    parts = live_parts(response.get_data(as_text=True))
    # The panel's version carries the clock's state (time called is offered when time is up).
    assert set(parts) == {"clock", "panel"}
    assert response.headers["HX-Trigger"] == "clockChanged"


def test_a_page_of_an_earlier_round_polls_for_that_round(east):
    html = east.get(r=1).get_data(as_text=True)
    poller = re.search(r'<div id="live"[^>]*>', html).group(0)
    assert "r=1" in poller
    assert poll(east, live_parts(html), r=1).status_code == 204


def test_another_round_reloads_the_page(east):
    shown = live_parts(east.get().get_data(as_text=True))
    response = poll(east, {**shown, "panel": "2-1-0-running"})
    assert response.headers.get("HX-Refresh") == "true"


def test_a_wrong_token_stops_the_poll_and_says_so(east):
    url = f"/live/t/{east.tournament.code}/1?k=wrong&clock=none&panel=x&call=none"
    response = east.client.get(url, headers=HX)
    html = response.get_data(as_text=True)
    assert response.status_code == 404
    assert response.headers["HX-Trigger-After-Settle"] == "live:stop"
    assert "no longer valid" in html and 'hx-swap-oob="true"' in html
    assert str(east.table.number) not in live_parts(html)


def test_without_htmx_the_poll_address_leads_to_the_table_page(east):
    shown = live_parts(east.get().get_data(as_text=True))
    query = "&".join(f"{k}={v}" for k, v in shown.items())
    url = f"/live/t/{east.tournament.code}/1?k={east.table.token}&{query}"
    response = east.client.get(url)
    assert response.status_code == 302 and f"/t/{east.tournament.code}/1" in response.location


def test_the_unchanged_answer_skips_the_session(east, monkeypatch):
    shown = live_parts(east.get().get_data(as_text=True))
    opened = []
    interface = east.client.application.session_interface
    original = interface.open_session
    monkeypatch.setattr(interface, "open_session",
                        lambda app, request: opened.append(1) or original(app, request))
    assert poll(east, shown).status_code == 204
    assert opened == []
    east.save(1, outcome="wall")
    opened.clear()
    assert poll(east, shown).status_code == 200
    assert opened == [1]


def test_a_ruling_this_phone_dismissed_stays_dismissed(east, director):
    call, _ = table_calls.place_call(east.table, "", "")
    calls_queue.resolve_call(call, director, "Play on")
    db.session.commit()
    shown = live_parts(east.get().get_data(as_text=True))
    assert shown["call"] == f"{call.id}.{call.version}"
    code, token = east.tournament.code, east.table.token
    east.client.post(f"/calls/t/{code}/1/ok?k={token}", data={"call_id": call.id})
    response = poll(east, shown)
    html = response.get_data(as_text=True)
    assert live_parts(html) == {"call": "none"}
    assert poll(east, {**shown, "call": "none"}).status_code == 204


def _both_ways(east, round_no=None, dismissed=()):
    """The full view's versions, and whether the one-statement comparison agrees that a
    phone showing exactly them is current and one showing anything else is not."""
    from blueprints.live import service

    shown = {"clock": None, "panel": None, "call": None, "shown": None}
    poll = service.table_poll(east.tournament.code, east.table.number, east.table.token,
                              round_no, shown, list(dismissed))
    with db.engine.connect() as connection:
        def fast(versions):
            return service.fast_unchanged(connection.connection, connection.dialect,
                                          east.tournament.code, east.table.number,
                                          east.table.token, round_no, versions,
                                          list(dismissed))

        same = fast(dict(poll.versions))
        others = [fast({**poll.versions, part: poll.versions[part] + "x"})
                  for part in poll.versions]
        wrong_token = service.fast_unchanged(connection.connection, connection.dialect,
                                             east.tournament.code, 1, "nope", round_no,
                                             dict(poll.versions), list(dismissed))
    return poll, same, others, wrong_token


def test_the_one_statement_agrees_with_the_full_view_through_a_round(east, director):
    from blueprints.clock import actions as clock_actions

    tournament = east.tournament
    states = []

    def check(round_no=None, dismissed=()):
        db.session.commit()
        db.session.expire_all()
        poll, same, others, wrong_token = _both_ways(east, round_no, dismissed)
        states.append(dict(poll.versions))
        assert not poll.refresh
        assert same is True, poll.versions
        assert others == [False, False, False] and wrong_token is False

    check()                                                       # not started
    clock_actions.start_round(tournament, 1, 0, director, "owner")
    check()                                                       # running
    east.save(1, outcome="wall")
    check()                                                       # a game entered
    clock_actions.pause(tournament, 1, 1, "a ruling", director, "owner")
    check()                                                       # paused
    clock_actions.resume(tournament, 1, 2, "", director, "owner")
    call, _ = table_calls.place_call(east.table, "", "")
    check()                                                       # a call open
    calls_queue.claim_call(call, director)
    check()                                                       # claimed
    calls_queue.resolve_call(call, director, "Play on")
    check()                                                       # a ruling shown
    check(dismissed=[call.id])                                    # ... and dismissed here
    call.resolved_at -= timedelta(minutes=30)  # past the cancelled call's 10 minutes
    check()                                                       # a ruling still shown
    for game in (2, 3, 4):
        east.save(game, outcome="wall")
    check()                                                       # four games, ruling shown
    assert states[-1]["call"] != "none"

    def form(**extra):
        return {"round_no": 1, "version": east.version(),
                "request_key": secrets.token_urlsafe(8), **extra}

    for seat in "ESWN":
        east.post("/initial", form(seat=seat, initials=seat))
    assert east.post("/submit", form()).status_code == 303
    check()                                                       # submitted: ruling gone
    assert states[-1]["call"] == "none"
    clock_actions.end_round(tournament, 1, 3, director, "owner")
    check()                                                       # round ended
    clock_actions.seat_round(tournament, 2, director, "owner")
    check()                                                       # next round seated
    check(round_no=1)                                             # a page pinned to round 1
    check(round_no=2)
    players_changed(tournament)
    check()                                                       # a player renamed
    assert len({tuple(s.values()) for s in states}) >= 9  # the states really differed


def test_the_one_statement_refuses_an_unseated_round(east):
    from blueprints.live import service

    with db.engine.connect() as connection:
        assert service.fast_unchanged(connection.connection, connection.dialect,
                                      east.tournament.code, 1, east.table.token, 9,
                                      {"clock": "none", "panel": "none", "call": "none"},
                                      []) is False



def test_the_big_screen_polls_once_for_its_clock_and_board(client, director):
    from blueprints.clock import actions as clock_actions

    tournament = make_tournament(director, players=8, rounds=2)
    html = client.get(f"/display/{tournament.code}").get_data(as_text=True)
    shown = live_parts(html)
    assert set(shown) == {"clock", "board"} and html.count('hx-trigger="every') == 1
    url = f"/live/screen/{tournament.code}?" + "&".join(f"{k}={v}" for k, v in shown.items())
    assert client.get(url, headers=HX).status_code == 204
    clock_actions.start_round(tournament, 1, 0, director, "owner")
    db.session.commit()
    answer = client.get(url, headers=HX).get_data(as_text=True)
    changed = live_parts(answer)
    assert "clock" in changed and changed["clock"] != shown["clock"]
    assert 'hx-swap-oob="true"' in answer
    again = "&".join(f"{k}={v}" for k, v in {**shown, **changed}.items())
    assert client.get(f"/live/screen/{tournament.code}?{again}", headers=HX).status_code == 204


def test_the_console_polls_once_for_its_clock_grid_and_bar(client, director):
    tournament = make_tournament(director, players=8, rounds=2)
    html = client.get(f"/clock/director/{tournament.id}").get_data(as_text=True)
    shown = live_parts(html)
    assert set(shown) == {"clock", "grid", "bar"} and html.count('hx-trigger="every') == 1
    url = f"/live/console/{tournament.id}?" + "&".join(f"{k}={v}" for k, v in shown.items())
    assert client.get(url, headers=HX).status_code == 204
    TableClient(client, tournament).save(1, outcome="wall")
    answer = client.get(url, headers=HX).get_data(as_text=True)
    assert set(live_parts(answer)) == {"grid"} and 'id="table-grid"' in answer


def test_the_console_poll_is_for_its_staff_only(client, director):
    tournament = make_tournament(director, players=8, rounds=2)
    client.post("/auth/sign-out")
    response = client.get(f"/live/console/{tournament.id}?clock=x&grid=y", headers=HX)
    assert response.status_code in (302, 401)


@pytest.mark.parametrize("code_part, token", [("%00X", "k"), ("{code}", "%C3%A9"),
                                              ("{code}", "%ED%A0%80")])
def test_any_characters_in_the_poll_url_are_a_plain_404(east, code_part, token):
    code = code_part.format(code=east.tournament.code)
    response = east.client.get(f"/live/t/{code}/1?k={token}&clock=x&panel=y&call=z",
                               headers=HX)
    assert response.status_code == 404
