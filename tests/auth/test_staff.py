"""Staff management: a director invites co-directors and table guides by email with a
one-time link; whoever opens it sets their own password (a new account) or signs in as
the existing account to accept. A director never sees anyone's password, learns nothing
about accounts that are not on their staff, and can give a co-director or guide a new
password only through a new link."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from sqlalchemy import func, select

from models import AuditEvent, StaffInvitation, TournamentStaff, User, db, utcnow
from tests.conftest import make_tournament, make_user, sign_in

NEW_PASSWORD = "a fresh long password"


def invite(client, tournament, email, role="co-director"):
    """The link the staff page shows once after inviting `email`."""
    response = client.post(f"/director/t/{tournament.id}/staff",
                           data={"email": email, "role": role})
    assert response.status_code == 200, response.get_data(as_text=True)
    body = response.get_data(as_text=True)
    return unescape(re.search(r'<p class="password"><code>([^<]+)</code>', body).group(1)), \
        response


def path_of(link):
    return link.split("mahj.test", 1)[1]


def staff_roles(tournament):
    return {s.user.email: s.role for s in db.session.scalars(
        select(TournamentStaff).where(TournamentStaff.tournament_id == tournament.id))}


def test_a_new_person_chooses_their_own_password_through_a_one_time_link(
        app, client, tournament):
    link, response = invite(client, tournament, "Cora@Example.com")
    body = response.get_data(as_text=True)
    assert "shown only once" in body and "<svg" in body          # printable as a QR code
    assert response.headers["Cache-Control"] == "no-store"
    # No account yet, no password anywhere, and only a hash of the link's secret is kept.
    assert db.session.scalar(select(User).where(User.email == "cora@example.com")) is None
    secret = link.split("k=", 1)[1]
    stored = db.session.scalar(select(StaffInvitation))
    assert secret not in stored.secret_hash and len(stored.secret_hash) == 64
    assert secret not in client.get(f"/director/t/{tournament.id}/staff").get_data(
        as_text=True)
    event = db.session.scalar(select(AuditEvent).where(AuditEvent.action == "staff.invite"))
    assert secret not in str(event.after)

    cora = app.test_client()
    page = cora.get(path_of(link))
    assert page.status_code == 200 and "Choose a password" in page.get_data(as_text=True)
    assert page.headers["Cache-Control"] == "no-store"
    done = cora.post(path_of(link), data={"name": "Cora Co", "password": NEW_PASSWORD,
                                          "repeat": NEW_PASSWORD})
    assert done.status_code == 302
    user = db.session.scalar(select(User).where(User.email == "cora@example.com"))
    assert user.name == "Cora Co" and user.check_password(NEW_PASSWORD)
    assert staff_roles(tournament)["cora@example.com"] == "co-director"
    assert not user.may_create_tournaments  # the operator's to grant, not an invitation's
    assert cora.get(f"/director/t/{tournament.id}/players").status_code == 200
    # Single use: the same link again is refused, and creates nothing.
    again = app.test_client().post(path_of(link), data={
        "name": "Mallory", "password": "another long one", "repeat": "another long one"})
    assert again.status_code == 404 and "no longer valid" in again.get_data(as_text=True)
    assert user.check_password(NEW_PASSWORD)


def test_an_expired_or_unknown_link_is_refused(app, client, tournament):
    link, _ = invite(client, tournament, "late@example.com")
    invitation = db.session.scalar(select(StaffInvitation))
    invitation.expires_at = utcnow() - timedelta(seconds=1)
    db.session.commit()
    stranger = app.test_client()
    for path in (path_of(link), "/auth/invitation?k=nope", "/auth/invitation",
                 "/auth/invitation?k=%D0%B0", "/auth/invitation?k=" + "x" * 5000):
        response = stranger.post(path, data={"name": "Late", "password": NEW_PASSWORD,
                                             "repeat": NEW_PASSWORD})
        assert response.status_code == 404, path
    assert db.session.scalar(select(User).where(User.email == "late@example.com")) is None


def test_the_new_password_must_be_long_enough_and_typed_twice(app, client, tournament):
    link, _ = invite(client, tournament, "cora@example.com")
    cora = app.test_client()
    short = cora.post(path_of(link), data={"name": "Cora", "password": "short",
                                           "repeat": "short"})
    assert short.status_code == 422 and "10 to 200 characters" in short.get_data(as_text=True)
    differ = cora.post(path_of(link), data={"name": "Cora", "password": NEW_PASSWORD,
                                            "repeat": NEW_PASSWORD + "x"})
    assert differ.status_code == 422 and "not the same" in differ.get_data(as_text=True)
    nul = cora.post(path_of(link), data={"name": "Co\x00ra", "password": NEW_PASSWORD,
                                         "repeat": NEW_PASSWORD})
    assert nul.status_code == 422
    assert db.session.scalar(select(func.count()).select_from(User)) == 1
    assert db.session.scalar(select(StaffInvitation)).used_at is None


def test_another_directors_account_is_never_attached_or_named_without_accepting(
        app, client, tournament):
    """The pre-hijack: a director must not make themselves, through an account they made
    for someone's email, staff of that person's tournament; nor learn whose an email is."""
    make_user("gail@example.com", "Gail Secretname", "gail password 1")
    link, response = invite(client, tournament, "gail@example.com", "table-guide")
    assert "Secretname" not in response.get_data(as_text=True)
    assert "gail@example.com" not in staff_roles(tournament)
    staff_page = client.get(f"/director/t/{tournament.id}/staff").get_data(as_text=True)
    assert "Secretname" not in staff_page and "Invited, not yet joined" in staff_page
    # The director who holds the link cannot accept it for her...
    page = client.get(path_of(link)).get_data(as_text=True)
    assert "Secretname" not in page and "another account" in page
    assert client.post(path_of(link), data={}).status_code == 403
    anonymous = app.test_client()
    assert "Sign in to accept" in anonymous.get(path_of(link)).get_data(as_text=True)
    assert anonymous.post(path_of(link), data={"name": "X", "password": NEW_PASSWORD,
                                               "repeat": NEW_PASSWORD}).status_code == 403
    assert "gail@example.com" not in staff_roles(tournament)
    # ...only Gail, signed in as herself, accepts.
    gail = app.test_client()
    sign_in(gail, "gail@example.com", "gail password 1")
    assert gail.post(path_of(link), data={}).status_code == 302
    assert staff_roles(tournament)["gail@example.com"] == "table-guide"
    assert db.session.scalar(select(User).where(User.email == "gail@example.com")) \
        .check_password("gail password 1")


def test_a_new_invitation_replaces_the_old_link(app, client, tournament):
    first, _ = invite(client, tournament, "cora@example.com")
    second, _ = invite(client, tournament, "cora@example.com", "table-guide")
    assert app.test_client().get(path_of(first)).status_code == 404
    assert app.test_client().get(path_of(second)).status_code == 200


def test_withdrawing_an_invitation_kills_its_link(app, client, tournament):
    link, _ = invite(client, tournament, "cora@example.com")
    invitation = db.session.scalar(select(StaffInvitation))
    response = client.post(f"/director/t/{tournament.id}/staff/invitations/cancel",
                           data={"invitation": invitation.id})
    assert response.status_code == 302
    assert app.test_client().get(path_of(link)).status_code == 404
    assert client.post(f"/director/t/{tournament.id}/staff/invitations/cancel",
                       data={"invitation": "99999"}).status_code == 404


def test_another_tournaments_invitation_cannot_be_withdrawn(app, client, tournament):
    bob = make_user("bob@example.com", "Bob", "bob password 1")
    theirs = make_tournament(bob, players=4, code="BOBS01", seated=False)
    db.session.add(StaffInvitation(tournament_id=theirs.id, purpose="join",
                                   email="x@example.com", role="table-guide",
                                   secret_hash="0" * 64, expires_at=utcnow() + timedelta(1)))
    db.session.commit()
    theirs_id = db.session.scalar(select(StaffInvitation.id))
    assert client.post(f"/director/t/{tournament.id}/staff/invitations/cancel",
                       data={"invitation": theirs_id}).status_code == 404
    assert db.session.get(StaffInvitation, theirs_id) is not None


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
    assert db.session.scalar(select(StaffInvitation)) is None


def test_removing_staff_and_never_the_last_director(app, client, tournament, director):
    link, _ = invite(client, tournament, "gail@example.com", "table-guide")
    app.test_client().post(path_of(link), data={"name": "Gail", "password": NEW_PASSWORD,
                                                "repeat": NEW_PASSWORD})
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


# --- new passwords ----------------------------------------------------------------------

def add_staff_row(tournament, user, role):
    row = TournamentStaff(tournament_id=tournament.id, user_id=user.id, role=role)
    db.session.add(row)
    db.session.commit()
    return row


def password_link(client, tournament, staff):
    return client.post(f"/director/t/{tournament.id}/staff/{staff.id}/password-link")


def test_a_director_resets_a_guides_password_only_through_a_new_link(
        app, client, tournament):
    gail = make_user("gail@example.com", "Gail Guide", "gail password 1")
    row = add_staff_row(tournament, gail, "table-guide")
    response = password_link(client, tournament, row)
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    body = response.get_data(as_text=True)
    link = unescape(re.search(r'<p class="password"><code>([^<]+)</code>', body).group(1))
    assert gail.check_password("gail password 1")            # nothing changed yet
    owner = app.test_client()
    assert owner.post(path_of(link), data={"password": NEW_PASSWORD,
                                           "repeat": NEW_PASSWORD}).status_code == 302
    db.session.refresh(gail)
    assert gail.check_password(NEW_PASSWORD) and not gail.check_password("gail password 1")
    assert app.test_client().post(path_of(link), data={
        "password": "attacker long pw", "repeat": "attacker long pw"}).status_code == 404


@pytest.mark.parametrize("role", ["director", "co-director", "table-guide"])
def test_no_password_link_for_someone_who_works_on_another_directors_tournament(
        app, client, tournament, role):
    """Mallory must not reset Bob's password: Bob also runs, or helps at, Carol's event."""
    carol = make_user("carol@example.com", "Carol", "carol password 1")
    bob = make_user("bob@example.com", "Bob", "bob password 1")
    carols = make_tournament(carol, players=4, code="CAROL1", seated=False)
    add_staff_row(carols, bob, role)
    row = add_staff_row(tournament, bob, "table-guide")
    response = password_link(client, tournament, row)
    assert response.status_code == 422
    assert "also works on other tournaments" in response.get_data(as_text=True)
    assert db.session.scalar(select(StaffInvitation)) is None


def test_a_password_link_dies_when_its_holder_gains_a_role_elsewhere(app, client, tournament):
    bob = make_user("bob@example.com", "Bob", "bob password 1")
    row = add_staff_row(tournament, bob, "co-director")
    body = password_link(client, tournament, row).get_data(as_text=True)
    link = unescape(re.search(r'<p class="password"><code>([^<]+)</code>', body).group(1))
    carol = make_user("carol@example.com", "Carol", "carol password 1")
    add_staff_row(make_tournament(carol, players=4, code="CAROL1", seated=False), bob,
                  "director")
    response = app.test_client().post(path_of(link), data={"password": NEW_PASSWORD,
                                                           "repeat": NEW_PASSWORD})
    assert response.status_code == 422
    db.session.refresh(bob)
    assert bob.check_password("bob password 1")


def test_no_password_link_for_a_co_director_of_rank_director_or_oneself(
        client, tournament, director):
    dee = make_user("dee@example.com", "Dee", "dee password 1")
    row = add_staff_row(tournament, dee, "director")
    assert password_link(client, tournament, row).status_code == 422
    mine = db.session.scalar(select(TournamentStaff).where(
        TournamentStaff.user_id == director.id))
    assert password_link(client, tournament, mine).status_code == 422
    assert db.session.scalar(select(StaffInvitation)) is None


def test_removing_someone_kills_their_password_link(app, client, tournament):
    gail = make_user("gail@example.com", "Gail Guide", "gail password 1")
    row = add_staff_row(tournament, gail, "table-guide")
    body = password_link(client, tournament, row).get_data(as_text=True)
    link = unescape(re.search(r'<p class="password"><code>([^<]+)</code>', body).group(1))
    client.post(f"/director/t/{tournament.id}/staff/{row.id}/remove")
    assert app.test_client().get(path_of(link)).status_code == 404


def test_changing_ones_own_password(app, client, director):
    page = client.get("/auth/password")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    wrong = client.post("/auth/password", data={"current": "not it", "password": NEW_PASSWORD,
                                                "repeat": NEW_PASSWORD})
    assert wrong.status_code == 422 and "not your current password" in wrong.get_data(
        as_text=True)
    short = client.post("/auth/password", data={"current": "correct horse",
                                                "password": "tiny", "repeat": "tiny"})
    assert short.status_code == 422
    assert director.check_password("correct horse")
    ok = client.post("/auth/password", data={"current": "correct horse",
                                             "password": NEW_PASSWORD, "repeat": NEW_PASSWORD})
    assert ok.status_code == 302
    db.session.refresh(director)
    assert director.check_password(NEW_PASSWORD)
    assert app.test_client().get("/auth/password").status_code == 302   # needs sign-in


def test_cli_set_password(app, director):
    runner = app.test_cli_runner()
    result = runner.invoke(args=["set-password", "Ann@Example.com"],
                           input=f"{NEW_PASSWORD}\n{NEW_PASSWORD}\n")
    assert result.exit_code == 0, result.output
    assert NEW_PASSWORD not in result.output
    db.session.refresh(director)
    assert director.check_password(NEW_PASSWORD)
    short = runner.invoke(args=["set-password", "ann@example.com"], input="short\nshort\n")
    assert short.exit_code != 0 and "10 characters" in short.output
    nobody = runner.invoke(args=["set-password", "no@example.com"])
    assert nobody.exit_code != 0 and "No account" in nobody.output


def test_audit_rows_name_staff_with_their_role(app, client, tournament):
    """The director's invitation and the newcomer's joining both say who, in which role."""
    link, _ = invite(client, tournament, "gus@example.com", role="table-guide")
    app.test_client().post(path_of(link), data={"name": "Gus Guide", "password": NEW_PASSWORD,
                                                "repeat": NEW_PASSWORD})
    actors = {e.action: e.actor for e in db.session.scalars(select(AuditEvent))}
    assert actors["staff.invite"] == "Ann Director (director)"
    assert actors["staff.add"] == "Gus Guide (table-guide)"


# --- who may create tournaments -------------------------------------------------------------

def test_a_table_guide_can_neither_create_a_tournament_nor_import_one(app, client, tournament):
    """Creating a tournament makes one its director, and the import creates one: on a
    hosted site any account can sign in, so a guide (or anyone invited) must not."""
    from models import Tournament

    guide = make_user("gail@example.com", "Gail Guide", "guide password")
    add_staff_row(tournament, guide, "table-guide")
    client.post("/auth/sign-out")
    sign_in(client, "gail@example.com", "guide password")
    count = db.session.query(Tournament).count()
    assert client.get("/director/new").status_code == 403
    response = client.post("/director/new", data={"name": "Mine", "preset": "tnt",
                                                  "rounds": "3", "prize_places": "3"})
    assert response.status_code == 403
    assert "may not create tournaments" in response.get_data(as_text=True)
    assert client.get("/results/import").status_code == 403
    assert db.session.query(Tournament).count() == count
    assert "Create a tournament" not in client.get("/director/").get_data(as_text=True)


def test_the_operator_grants_and_revokes_the_right_from_the_command_line(app, client):
    make_user("gail@example.com", "Gail Guide", "guide password")
    runner = app.test_cli_runner()
    result = runner.invoke(args=["may-create-tournaments", "gail@example.com"])
    assert result.exit_code == 0, result.output
    sign_in(client, "gail@example.com", "guide password")
    assert client.get("/director/new").status_code == 200
    result = runner.invoke(args=["may-create-tournaments", "gail@example.com", "--revoke"])
    assert result.exit_code == 0, result.output
    assert client.get("/director/new").status_code == 403
    result = runner.invoke(args=["may-create-tournaments", "nobody@example.com"])
    assert result.exit_code != 0 and "No account" in result.output


def test_create_director_accounts_may_create_tournaments(app, client):
    from models import User

    result = app.test_cli_runner().invoke(args=[
        "create-director", "dee@example.com", "--password", "a long enough secret"])
    assert result.exit_code == 0, result.output
    assert db.session.scalar(db.select(User.may_create_tournaments)
                             .where(User.email == "dee@example.com")) is True
