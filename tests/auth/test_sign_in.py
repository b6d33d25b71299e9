"""Sign-in: hashed passwords, a rate limit kept in the database, safe redirects, and
session cookies that are HttpOnly, SameSite=Lax and Secure over HTTPS."""

from __future__ import annotations

from sqlalchemy import func, select

from models import LoginAttempt, User, db
from tests.conftest import make_user, sign_in


def cookie_header(response, name="session"):
    headers = [h for h in response.headers.getlist("Set-Cookie") if h.startswith(name + "=")]
    assert headers, response.headers
    return headers[0]


def test_passwords_are_stored_hashed(app):
    user = make_user()
    assert "correct horse" not in user.password_hash
    assert user.check_password("correct horse") and not user.check_password("wrong")


def test_sign_in_and_out(client, app):
    make_user()
    response = sign_in(client)
    assert response.headers["Location"].endswith("/director/")
    assert client.get("/director/").status_code == 200
    client.post("/auth/sign-out")
    assert client.get("/director/").status_code == 302


def test_wrong_password_is_refused_at_the_field(client, app):
    make_user()
    response = client.post("/auth/sign-in",
                           data={"email": "ann@example.com", "password": "nope"})
    assert response.status_code == 422
    assert 'id="password-error"' in response.get_data(as_text=True)


def test_rate_limit_after_five_failures_even_with_the_right_password(client, app):
    make_user()
    for _ in range(5):
        assert client.post("/auth/sign-in", data={"email": "ann@example.com",
                                                  "password": "nope"}).status_code == 422
    blocked = client.post("/auth/sign-in", data={"email": "Ann@Example.com",
                                                 "password": "correct horse"})
    assert blocked.status_code == 429
    assert "Too many wrong passwords" in blocked.get_data(as_text=True)
    assert db.session.scalar(select(func.count()).select_from(LoginAttempt)) == 5


def test_rate_limit_is_per_email_and_kept_in_the_database(client, app):
    make_user()
    make_user("bea@example.com", "Bea", "bea password")
    for _ in range(5):
        client.post("/auth/sign-in", data={"email": "ann@example.com", "password": "x"})
    # Another client (another worker, another phone) is limited too: the count is in the DB.
    other = app.test_client()
    assert other.post("/auth/sign-in", data={"email": "ann@example.com",
                                             "password": "correct horse"}).status_code == 429
    sign_in(other, "bea@example.com", "bea password")


def test_a_success_clears_the_failures(client, app):
    make_user()
    for _ in range(3):
        client.post("/auth/sign-in", data={"email": "ann@example.com", "password": "x"})
    sign_in(client)
    assert db.session.scalar(select(func.count()).select_from(LoginAttempt)) == 0


def test_next_only_goes_to_this_site(client, app):
    make_user()
    response = client.post("/auth/sign-in?next=//evil.example/x",
                           data={"email": "ann@example.com", "password": "correct horse"})
    assert response.headers["Location"].endswith("/director/")


def test_session_cookie_is_httponly_and_samesite_lax(client, app):
    make_user()
    header = cookie_header(sign_in(client))
    assert "HttpOnly" in header
    assert "SameSite=Lax" in header
    assert "Secure" not in header  # plain HTTP on a venue laptop: a Secure cookie would not stick


def test_session_cookie_is_secure_over_https(app):
    make_user()
    client = app.test_client()
    response = client.post("/auth/sign-in", base_url="https://mahj.test",
                           data={"email": "ann@example.com", "password": "correct horse"})
    assert response.status_code == 302
    header = cookie_header(response)
    assert "Secure" in header and "HttpOnly" in header and "SameSite=Lax" in header


def test_session_cookie_is_secure_when_base_url_is_https(app):
    app.config["SESSION_COOKIE_SECURE"] = True
    make_user()
    header = cookie_header(sign_in(app.test_client()))
    assert "Secure" in header


def test_emails_are_case_insensitive(client, app):
    make_user()
    sign_in(client, "ANN@example.COM")
    assert db.session.scalar(select(User.email)) == "ann@example.com"
