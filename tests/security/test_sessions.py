"""Sessions end when they should: a cookie copied before sign-out, before a new password or
before removal from a staff opens nothing afterwards, from any address; and a staff
session ends after an idle spell or a long day."""

from __future__ import annotations

import time

import pytest

from models import TournamentStaff, db
from tests.conftest import make_user, sign_in


def copy_of(client, app):
    """Another browser (another address) holding a copy of `client`'s session cookie."""
    thief = app.test_client()
    cookie = client.get_cookie("session", domain="mahj.test")
    thief.set_cookie("session", cookie.value, domain="mahj.test")
    return thief


def opens(client, url="/director/") -> bool:
    response = client.get(url, environ_base={"REMOTE_ADDR": "198.51.100.66"})
    if response.status_code == 302:
        assert "/auth/sign-in" in response.headers["Location"]
        return False
    assert response.status_code == 200, response.status_code
    return True


def test_a_cookie_copied_before_sign_out_opens_nothing_after(app, client, tournament):
    thief = copy_of(client, app)
    backup = f"/results/director/{tournament.id}/backup.json"
    assert opens(thief) and opens(thief, backup)
    client.post("/auth/sign-out")
    assert not opens(thief)
    assert not opens(thief, backup)
    assert not opens(client)


def test_a_new_password_ends_every_session(app, client, director):
    thief = copy_of(client, app)
    assert opens(thief)
    director.set_password("a brand new passphrase")
    db.session.commit()
    assert not opens(thief)
    assert not opens(client)
    sign_in(client, password="a brand new passphrase")
    assert opens(client)


def test_removal_from_the_staff_ends_that_persons_sessions(app, client, tournament):
    gail = make_user("gail@example.com", "Gail Guide", "guide password")
    staff = TournamentStaff(tournament_id=tournament.id, user_id=gail.id, role="table-guide")
    db.session.add(staff)
    db.session.commit()
    guide = app.test_client()
    sign_in(guide, "gail@example.com", "guide password")
    assert opens(guide)
    client.post(f"/director/t/{tournament.id}/staff/{staff.id}/remove")
    assert not opens(guide)
    assert opens(client)  # the director who removed them stays signed in


def test_a_cookie_from_before_session_versions_is_refused(app, client, director):
    with client.session_transaction() as session:
        session["_user_id"] = str(director.id)
    assert not opens(client)


@pytest.mark.parametrize("idle, since_sign_in, still_open", [
    (60, 3600, True),                  # in use this past minute
    (3 * 3600, 10 * 3600, True),       # a long lunch, on a long day
    (4 * 3600 + 60, 5 * 3600, False),  # idle past SESSION_IDLE_SECONDS
    (60, 16 * 3600 + 60, False),       # in use, but signed in since yesterday
])
def test_staff_sessions_end_when_idle_or_after_a_long_day(app, client, director, idle,
                                                         since_sign_in, still_open):
    now = int(time.time())
    with client.session_transaction() as session:
        session["seen_at"] = now - idle
        session["signed_in_at"] = now - since_sign_in
    assert opens(client) is still_open
    if not still_open:
        page = client.get("/auth/sign-in").get_data(as_text=True)
        assert "signed out after a while" in page


def test_use_keeps_a_session_alive(app, client, director):
    now = int(time.time())
    with client.session_transaction() as session:
        session["seen_at"] = now - 3 * 3600
    assert opens(client)
    with client.session_transaction() as session:
        assert session["seen_at"] >= now


def test_changing_ones_password_keeps_this_session_and_ends_the_others(app, client, director):
    thief = copy_of(client, app)
    assert opens(thief)
    response = client.post("/auth/password", data={
        "current": "correct horse", "password": "a brand new passphrase",
        "repeat": "a brand new passphrase"})
    assert response.status_code == 302
    assert opens(client)
    assert not opens(thief)


def test_a_common_password_is_refused_at_the_field_when_changing_it(app, client, director):
    response = client.post("/auth/password", data={
        "current": "correct horse", "password": "iloveyou12345", "repeat": "iloveyou12345"})
    assert response.status_code == 422
    assert "most common" in response.get_data(as_text=True)
    db.session.refresh(director)
    assert director.check_password("correct horse")
