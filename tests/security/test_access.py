"""Security across every route the app has, found from the URL map (so new routes are
covered without editing this file): CSRF on every POST, directors confined to their own
tournaments, table URLs confined to their token, headers and cookies."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from models import Table, db
from tests.conftest import make_tournament, make_user, sign_in

ARG_VALUES = {"round_no": 1, "table_no": 1, "number": 1, "game_no": 1, "seat": "E",
              "player_id": 1, "call_id": 1, "user_id": 1, "competition_id": 1}

# The walks below check at least as many routes as the app had when they were written
# (URL and method pairs), so a walk that quietly loses routes fails instead of passing with
# less checked. Raise these as routes are added; lower them only with the routes removed.
TOURNAMENT_URLS_WALKED = 66
POST_URLS_WALKED = 53
# Staff pages that belong to no tournament; every other URL with a "director" segment
# takes a tournament_id, and so is in the walk.
STAFF_URLS_WITHOUT_A_TOURNAMENT = {"director.home", "director.new_tournament"}


def rules_with(app, argument: str):
    for rule in app.url_map.iter_rules():
        if argument in rule.arguments and rule.endpoint != "static":
            yield rule


def build(rule, **values) -> str:
    args = {name: values.get(name, ARG_VALUES.get(name, 1)) for name in rule.arguments}
    return rule.build(args, append_unknown=False)[1]


@pytest.fixture
def two_directors(app, client):
    alice = make_user("alice@example.com", "Alice")
    bob = make_user("bob@example.com", "Bob")
    theirs = make_tournament(alice, name="Alice Open", code="ALICE1")
    mine = make_tournament(bob, name="Bob Open", code="BOBBY1")
    sign_in(client, "bob@example.com")
    return theirs, mine


def test_every_director_url_of_another_tournament_answers_404(app, client, two_directors):
    theirs, mine = two_directors
    checked, walked = 0, set()
    for rule in rules_with(app, "tournament_id"):
        url = build(rule, tournament_id=theirs.id)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            response = client.open(url, method=method, data={})
            assert response.status_code == 404, (method, url, response.status_code)
            checked += 1
        walked.add(rule.endpoint)
    staff = {rule.endpoint for rule in app.url_map.iter_rules() if "/director/" in rule.rule}
    assert staff - STAFF_URLS_WITHOUT_A_TOURNAMENT <= walked
    assert checked >= TOURNAMENT_URLS_WALKED
    # ...while Bob's own overview answers.
    assert client.get(f"/director/t/{mine.id}").status_code == 200


def test_director_pages_need_sign_in(app, client, two_directors):
    theirs, _ = two_directors
    client.post("/auth/sign-out")
    for rule in rules_with(app, "tournament_id"):
        url = build(rule, tournament_id=theirs.id)
        response = client.get(url) if "GET" in rule.methods else client.post(url)
        assert response.status_code in (302, 401, 404), (url, response.status_code)
        if response.status_code == 302:
            assert "/auth/sign-in" in response.headers["Location"]


def table_rules(app):
    return [r for r in app.url_map.iter_rules()
            if r.rule.startswith("/t/<code>/") and r.endpoint != "static"]


@pytest.mark.parametrize("token", ["", "wrong-token", "rotated"])
def test_every_table_url_refuses_a_wrong_or_rotated_token(app, client, director, token):
    tournament = make_tournament(director, code="TOKEN1")
    table = db.session.scalar(select(Table).where(Table.tournament_id == tournament.id,
                                                  Table.number == 1))
    if token == "rotated":
        from models import new_token

        token, table.token = table.token, new_token()
        db.session.commit()
    rules = table_rules(app)
    assert rules, "the table blueprint has no routes"
    for rule in rules:
        url = build(rule, code=tournament.code, number=1) + f"?k={token}"
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            response = client.open(url, method=method, data={})
            assert response.status_code in (403, 404), (method, url, response.status_code)
            if method == "GET" and response.status_code == 404:
                assert "no longer valid" in response.get_data(as_text=True)


def test_post_without_csrf_token_is_refused(app, client):
    app.config["WTF_CSRF_ENABLED"] = True
    make_user()
    response = client.post("/auth/sign-in",
                           data={"email": "ann@example.com", "password": "correct horse"})
    assert response.status_code == 400
    assert "expired" in response.get_data(as_text=True)
    # With the token from the form, the same sign-in works.
    page = client.get("/auth/sign-in").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    ok = client.post("/auth/sign-in", data={"email": "ann@example.com",
                                            "password": "correct horse", "csrf_token": token})
    assert ok.status_code == 302


def test_every_post_route_refuses_a_missing_csrf_token(app, client, director):
    tournament = make_tournament(director, code="CSRF01")
    app.config["WTF_CSRF_ENABLED"] = True
    checked = 0
    for rule in app.url_map.iter_rules():
        if "POST" not in rule.methods or rule.endpoint == "static":
            continue
        values = {"tournament_id": tournament.id, "code": tournament.code}
        response = client.post(build(rule, **values), data={})
        assert response.status_code == 400, (rule.rule, response.status_code)
        checked += 1
    assert checked >= POST_URLS_WALKED


def test_session_cookie_flags(app, client):
    make_user()
    response = sign_in(client)
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie  # plain HTTP on a venue laptop...
    https = client.post("/auth/sign-in", base_url="https://mahj.test",
                        data={"email": "ann@example.com", "password": "correct horse"})
    assert "Secure" in https.headers["Set-Cookie"]  # ...Secure whenever served over HTTPS


def test_failed_sign_ins_are_rate_limited(app, client):
    make_user()
    for _ in range(app.config["LOGIN_ATTEMPTS"]):
        assert client.post("/auth/sign-in", data={"email": "ann@example.com",
                                                  "password": "nope"}).status_code == 422
    blocked = client.post("/auth/sign-in", data={"email": "ann@example.com",
                                                 "password": "correct horse"})
    assert blocked.status_code == 429
    assert "Too many" in blocked.get_data(as_text=True)


def test_security_headers_on_pages_and_errors(app, client):
    for path in ("/", "/auth/sign-in", "/nowhere"):
        headers = client.get(path).headers
        csp = headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp, path
        assert "frame-ancestors 'none'" in csp
        assert headers["X-Content-Type-Options"] == "nosniff"
        # Table tokens never reach another site; same-origin posts keep their Referer.
        assert headers["Referrer-Policy"] == "same-origin"


@pytest.mark.parametrize("target", [
    "/\\evil.example", "//evil.example", "https://evil.example/", "/\\/evil.example",
    "\\\\evil.example", "/%0d%0aLocation: x", "javascript:alert(1)",
])
def test_sign_in_never_redirects_to_another_site(app, client, target):
    make_user()
    response = client.post(f"/auth/sign-in?next={target}",
                           data={"email": "ann@example.com", "password": "correct horse"})
    assert response.status_code == 302
    assert response.headers["Location"] == "/director/"


def test_sign_in_follows_a_same_site_next(app, client):
    make_user()
    response = client.post("/auth/sign-in?next=/director/t/5",
                           data={"email": "ann@example.com", "password": "correct horse"})
    assert response.headers["Location"] == "/director/t/5"


def test_someone_else_guessing_cannot_lock_the_director_out(app, client):
    make_user()
    other = app.test_client()
    for _ in range(app.config["LOGIN_ATTEMPTS"] + 2):
        other.post("/auth/sign-in", data={"email": "ann@example.com", "password": "guess"},
                   environ_base={"REMOTE_ADDR": "10.0.0.66"})
    ok = client.post("/auth/sign-in", data={"email": "ann@example.com",
                                            "password": "correct horse"},
                     environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert ok.status_code == 302


@pytest.mark.parametrize("path", [
    "/p/{code}/player/99999999999999999999", "/t/director/{tid}/1/99999999999999999999",
    "/calls/director/{tid}/99999999999999999999", "/director/t/99999999999999999999",
])
def test_huge_numbers_in_urls_are_not_found_not_a_500(app, client, director, path):
    tournament = make_tournament(director, code="HUGE01")
    response = client.get(path.format(code=tournament.code, tid=tournament.id))
    assert response.status_code == 404
