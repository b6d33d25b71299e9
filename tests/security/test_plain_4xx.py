"""Input anyone can send that once answered 500 gets a plain 4xx and changes nothing:
odd table tokens and cookies, NUL bytes in typed text (PostgreSQL refuses to store them),
numbers beyond what a column holds, and a CSV field too long for the csv module."""

from __future__ import annotations

import io

import pytest
from sqlalchemy import func, select

from models import (
    Announcement,
    DirectorCall,
    GameEntry,
    Player,
    Substitution,
    Tournament,
    db,
    utcnow,
)
from tests.conftest import make_tournament
from tests.director.test_tournament import rules_data
from tests.security.test_access import build, table_rules
from tests.table.conftest import TableClient


def call_rules(app):
    return [r for r in app.url_map.iter_rules() if r.rule.startswith("/calls/t/<code>/")]


@pytest.mark.parametrize("token", ["%D0%B0", "%C3%A9" * 30, "%F0%9F%80%84", "%00"])
def test_a_non_ascii_token_on_every_table_and_call_url_is_refused_not_a_500(
        app, client, director, token):
    tournament = make_tournament(director, code="ODDTOK")
    rules = table_rules(app) + call_rules(app)
    assert len(rules) >= 12
    for rule in rules:
        url = build(rule, code=tournament.code, number=1) + f"?k={token}"
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            response = client.open(url, method=method, data={})
            assert response.status_code in (403, 404), (method, url, response.status_code)


@pytest.mark.parametrize("cookie", ["²", "1.²", "¹²", "9" * 40, "..", "x"])
def test_an_odd_calls_ok_cookie_is_ignored(app, client, director, cookie):
    tournament = make_tournament(director, code="COOKIE")
    east = TableClient(client, tournament)
    # The cookie is read only when the table has an ended call to hide.
    db.session.add(DirectorCall(tournament_id=tournament.id, table_id=east.table.id,
                                state="resolved", ruling="Play on", resolved_at=utcnow()))
    db.session.commit()
    # A phone at the table: no session, only the cookie (a cookie jar would replace it).
    phone = app.test_client(use_cookies=False)
    raw = {"Cookie": f"calls_ok={cookie}"}
    assert phone.get(east.url(), headers=raw).status_code == 200
    assert phone.get(f"/calls/t/{tournament.code}/1?k={east.table.token}",
                     headers=raw).status_code == 200
    assert phone.post(f"/calls/t/{tournament.code}/1/ok?k={east.table.token}",
                      data={"call_id": "1"}, headers=raw).status_code < 500


# --- NUL bytes in what tables and directors type -----------------------------------------

def test_nul_bytes_in_initials_and_notes_are_refused_at_the_field(app, client, director):
    east = TableClient(client, make_tournament(director, players=8, code="NULNUL"))
    for fields in ({"initials": "A\x00B"}, {"note": "ok\x00"}):
        response = east.save(1, **{"outcome": "wall", **fields})
        assert response.status_code == 422, fields
        assert "cannot be stored" in response.get_data(as_text=True)
    assert db.session.scalar(select(func.count()).select_from(GameEntry)) == 0
    east.save(1, outcome="wall")
    assert db.session.scalar(select(func.count()).select_from(GameEntry)) == 1


def test_a_nul_byte_in_a_call_note_is_refused(app, client, director):
    tournament = make_tournament(director, code="NULCAL")
    token = tournament.tables[0].token
    response = client.post(f"/calls/t/{tournament.code}/1?k={token}",
                           data={"reason": "ruling", "note": "help\x00"})
    assert response.status_code == 422
    assert "cannot be shown or stored" in response.get_data(as_text=True)
    assert db.session.scalar(select(func.count()).select_from(DirectorCall)) == 0


def test_a_nul_byte_in_an_announcement_is_refused(app, client, tournament):
    response = client.post(f"/clock/director/{tournament.id}/announcements",
                           data={"announce-text": "Lunch\x00 now"})
    assert response.status_code == 422
    assert db.session.scalar(select(func.count()).select_from(Announcement)) == 0


# --- numbers beyond a column ---------------------------------------------------------------

@pytest.mark.parametrize("changes", [
    {"self_pick_bonus": "99999999999"},
    {"wall_game_points": "2147483648"},
    {"thrower_penalty_4": "-99999999999"},
    {"blind_pass_peek_penalty": "-5000"},
])
def test_rule_numbers_beyond_what_a_score_column_holds_are_refused(client, tournament,
                                                                   changes):
    before = dict(tournament.rules)
    response = client.post(f"/director/t/{tournament.id}/rules",
                           data=rules_data(tournament, **changes))
    assert response.status_code == 422
    assert "between -1000 and 1000" in response.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(Tournament, tournament.id).rules == before


@pytest.mark.parametrize("substitute", ["99999999999999999999", "²", "٣", "1" * 12, "-1"])
def test_odd_withdraw_substitute_numbers_are_refused_at_the_field(client, tournament,
                                                                  substitute):
    leaver = tournament.players[0]
    response = client.post(f"/director/t/{tournament.id}/players/{leaver.id}/withdraw",
                           data={"from_round": "2", "substitute": substitute})
    assert response.status_code == 422
    assert "Choose a substitute from the list" in response.get_data(as_text=True)
    assert db.session.scalar(select(func.count()).select_from(Substitution)) == 0


def test_a_csv_field_over_the_csv_modules_limit_is_a_plain_problem(client, director):
    tournament = make_tournament(director, players=0, seated=False, code="BIGCSV")
    body = ("number,name\n1,Ann\n2," + "x" * 140_000 + "\n").encode()
    response = client.post(f"/director/t/{tournament.id}/players/import",
                           data={"file": (io.BytesIO(body), "players.csv")},
                           content_type="multipart/form-data")
    assert response.status_code == 422
    assert "far too long" in response.get_data(as_text=True)
    assert db.session.scalar(select(func.count()).select_from(Player)) == 0


NUL_FIELDS = {"text": "a\x00", "note": "a\x00", "name": "a\x00", "email": "a\x00@x.com",
              "reason": "a\x00", "ruling": "a\x00", "announce-text": "x\x00",
              "pause-reason": "x\x00", "initials": "A\x00", "password": "x\x00" * 6,
              "code": "x\x00", "venue": "x\x00", "new_substitute": "x\x00"}


def test_nul_bytes_anywhere_in_any_route_are_never_a_500(app, client, director):
    """On PostgreSQL a NUL byte in a query parameter is refused by the database: a code
    in a URL, a query string or any form field must be stopped before it gets there."""
    tournament = make_tournament(director, code="NULALL")
    checked = 0
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            for code in ("AB\x00C", tournament.code):
                url = build(rule, tournament_id=tournament.id, code=code)
                for query in ("", "?k=a%00b&code=x%00y&c=%00&v=%00"):
                    response = client.open(url + query, method=method, data=NUL_FIELDS)
                    assert response.status_code < 500, (method, url, query)
                    checked += 1
    assert checked > 100
