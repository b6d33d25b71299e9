"""Forms over HTTPS, directly and behind a proxy that terminates TLS: the CSRF token, the
same-origin Referer Flask-WTF requires over HTTPS (which a "no-referrer" policy made every
browser withhold), and the Origin / Sec-Fetch-Site check that refuses posts from another
site over plain HTTP too."""

from __future__ import annotations

import re

import pytest

from app import create_app
from tests.conftest import make_user

HTTPS = "https://mahj.test"
SIGN_IN = {"email": "ann@example.com", "password": "correct horse"}


def csrf_token(client, base_url=HTTPS, **kwargs) -> str:
    page = client.get("/auth/sign-in", base_url=base_url, **kwargs).get_data(as_text=True)
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)


@pytest.fixture
def csrf_on(app):
    app.config["WTF_CSRF_ENABLED"] = True
    make_user()
    return app


def post_sign_in(client, headers, base_url=HTTPS):
    data = {**SIGN_IN, "csrf_token": csrf_token(client, base_url)}
    return client.post("/auth/sign-in", base_url=base_url, data=data, headers=headers)


def test_the_referrer_policy_lets_a_browser_send_its_own_origin(csrf_on, client):
    # "no-referrer" made browsers send no Referer (and "Origin: null") on every form.
    response = client.get("/auth/sign-in", base_url=HTTPS)
    assert response.headers["Referrer-Policy"] == "same-origin"


def test_a_browser_form_over_https_signs_in(csrf_on, client):
    response = post_sign_in(client, {"Referer": f"{HTTPS}/auth/sign-in", "Origin": HTTPS,
                                     "Sec-Fetch-Site": "same-origin"})
    assert response.status_code == 302, response.get_data(as_text=True)
    assert "Secure" in response.headers["Set-Cookie"]
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000"


@pytest.mark.parametrize("headers", [
    {},                                                           # no Referer at all
    {"Referer": "https://evil.example/auth/sign-in"},             # another site
    {"Referer": "http://mahj.test/auth/sign-in"},                 # not over HTTPS
    {"Referer": f"{HTTPS}/auth/sign-in", "Origin": "https://evil.example"},
    {"Referer": f"{HTTPS}/auth/sign-in", "Origin": "null"},
    {"Referer": f"{HTTPS}/auth/sign-in", "Sec-Fetch-Site": "cross-site"},
    {"Referer": f"{HTTPS}/auth/sign-in", "Sec-Fetch-Site": "same-site"},
])
def test_a_form_from_elsewhere_over_https_is_refused(csrf_on, client, headers):
    response = post_sign_in(client, headers)
    assert response.status_code == 400
    assert "came from elsewhere" in response.get_data(as_text=True)


@pytest.mark.parametrize("headers", [
    {"Origin": "http://evil.example"},
    {"Origin": "http://mahj.test:8080"},
    {"Sec-Fetch-Site": "cross-site"},
])
def test_a_form_from_another_site_over_http_is_refused(csrf_on, client, headers):
    response = post_sign_in(client, headers, base_url="http://mahj.test")
    assert response.status_code == 400


def test_a_same_origin_form_over_http_signs_in(csrf_on, client):
    response = post_sign_in(client, {"Origin": "http://mahj.test",
                                     "Sec-Fetch-Site": "same-origin"},
                            base_url="http://mahj.test")
    assert response.status_code == 302


@pytest.fixture
def proxied(app, monkeypatch):
    """A second app on the same database, as `TRUST_PROXY=1` serves it behind a proxy
    that terminates TLS for mahj.example and appends the client's address."""
    monkeypatch.setenv("TRUST_PROXY", "1")
    monkeypatch.setenv("TRUSTED_HOSTS", "mahj.example")
    monkeypatch.delenv("BASE_URL", raising=False)
    behind = create_app({"DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"],
                         "TESTING": True, "WTF_CSRF_ENABLED": True,
                         "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1"})
    make_user()
    yield behind
    with behind.app_context():
        from models import db

        db.engine.dispose()


def proxy_headers(client_address="203.0.113.9", spoofed=None):
    chain = f"{spoofed}, {client_address}" if spoofed else client_address
    return {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "mahj.example",
            "X-Forwarded-For": chain}


def test_behind_a_tls_proxy_a_browser_form_signs_in(proxied):
    client = proxied.test_client()
    base = "http://10.0.0.2:8000"  # the proxy talks plain HTTP to gunicorn
    token = csrf_token(client, base, headers=proxy_headers())
    response = client.post("/auth/sign-in", base_url=base, data={**SIGN_IN, "csrf_token": token},
                           headers={**proxy_headers(), "Origin": "https://mahj.example",
                                    "Referer": "https://mahj.example/auth/sign-in",
                                    "Sec-Fetch-Site": "same-origin"})
    assert response.status_code == 302, response.get_data(as_text=True)
    assert "Secure" in response.headers["Set-Cookie"]
    assert "Strict-Transport-Security" in response.headers
    home = client.get("/director/", base_url=base, headers=proxy_headers())
    assert home.status_code == 200


def test_behind_a_tls_proxy_a_form_without_a_referer_is_refused(proxied):
    client = proxied.test_client()
    base = "http://10.0.0.2:8000"
    token = csrf_token(client, base, headers=proxy_headers())
    response = client.post("/auth/sign-in", base_url=base, data={**SIGN_IN, "csrf_token": token},
                           headers=proxy_headers())
    assert response.status_code == 400  # the HTTPS referrer check holds behind the proxy


def test_behind_a_proxy_the_rate_limit_uses_the_address_the_proxy_added(proxied):
    proxied.config["WTF_CSRF_ENABLED"] = False
    client = proxied.test_client()
    for n in range(proxied.config["LOGIN_ATTEMPTS"]):
        # The attacker makes up a new X-Forwarded-For entry each time; the proxy appends
        # the address it really saw.
        wrong = client.post("/auth/sign-in", data={**SIGN_IN, "password": "wrong guess"},
                            headers=proxy_headers(spoofed=f"198.18.0.{n}"))
        assert wrong.status_code == 422
    blocked = client.post("/auth/sign-in", data=SIGN_IN,
                          headers=proxy_headers(spoofed="198.18.1.1"))
    assert blocked.status_code == 429
    # The director at another address is not held up.
    ok = client.post("/auth/sign-in", data=SIGN_IN,
                     headers=proxy_headers(client_address="198.51.100.7"))
    assert ok.status_code == 302
