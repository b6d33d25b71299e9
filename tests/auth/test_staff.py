"""Staff management: a director adds co-directors and table guides by email (a new
account with a password shown once, or an existing account attached), every change
audited; they can then sign in and see the tournament."""

from __future__ import annotations

import re

from sqlalchemy import select

from models import AuditEvent, TournamentStaff, User, db
from tests.conftest import make_user, sign_in


def test_adding_a_new_person_creates_an_account_and_shows_the_password_once(
        app, client, tournament):
    response = client.post(f"/director/t/{tournament.id}/staff",
                           data={"email": "Cora@Example.com", "name": "Cora Co",
                                 "role": "co-director"})
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    password = re.search(r'<p class="password"><code>([^<]+)</code>', body).group(1)
    user = db.session.scalar(select(User).where(User.email == "cora@example.com"))
    assert user.check_password(password) and password not in user.password_hash
    assert "shown only once" in body
    # The password is not shown again.
    assert password not in client.get(f"/director/t/{tournament.id}/staff").get_data(
        as_text=True)
    event = db.session.scalar(select(AuditEvent).where(AuditEvent.action == "staff.add"))
    assert event.after["role"] == "co-director" and password not in str(event.after)
    # The co-director signs in and sees the tournament.
    other = app.test_client()
    sign_in(other, "cora@example.com", password)
    assert other.get(f"/director/t/{tournament.id}/players").status_code == 200


def test_an_existing_account_is_attached_without_a_new_password(client, tournament):
    existing = make_user("gail@example.com", "Gail", "gail password")
    response = client.post(f"/director/t/{tournament.id}/staff",
                           data={"email": "gail@example.com", "role": "table-guide"})
    assert response.status_code == 302
    staff = db.session.scalar(select(TournamentStaff).where(
        TournamentStaff.user_id == existing.id))
    assert staff.role == "table-guide"
    assert existing.check_password("gail password")


def test_adding_someone_twice_is_refused_at_the_field(client, tournament):
    response = client.post(f"/director/t/{tournament.id}/staff",
                           data={"email": "ann@example.com", "role": "co-director"})
    assert response.status_code == 422
    assert "already works on this tournament" in response.get_data(as_text=True)


def test_bad_email_is_refused_at_the_field(client, tournament):
    response = client.post(f"/director/t/{tournament.id}/staff",
                           data={"email": "not-an-email", "role": "co-director"})
    assert response.status_code == 422
    assert 'id="email-error"' in response.get_data(as_text=True)
    assert db.session.scalar(select(User).where(User.email == "not-an-email")) is None


def test_removing_staff_and_never_the_last_director(client, tournament, director):
    client.post(f"/director/t/{tournament.id}/staff",
                data={"email": "gail@example.com", "role": "table-guide"})
    staff = db.session.scalar(select(TournamentStaff).where(
        TournamentStaff.role == "table-guide"))
    assert client.post(f"/director/t/{tournament.id}/staff/{staff.id}/remove").status_code \
        == 302
    assert db.session.get(TournamentStaff, staff.id) is None
    mine = db.session.scalar(select(TournamentStaff).where(
        TournamentStaff.user_id == director.id))
    client.post(f"/director/t/{tournament.id}/staff/{mine.id}/remove")
    assert db.session.get(TournamentStaff, mine.id) is not None
    assert {e.action for e in db.session.scalars(select(AuditEvent))} >= {"staff.remove"}
