"""The whole hosted flow over real TLS: gunicorn with a throwaway self-signed certificate
(made here with the openssl command), Chromium signs a director in, East saves a game and
the table calls the director, who says "I'm going". Every form is posted over HTTPS, where
Flask-WTF insists on a same-origin Referer, so a referrer policy that withholds it would
refuse them all."""

from __future__ import annotations

import subprocess

import pytest
from playwright.sync_api import expect

from e2e.conftest import PHONE, LiveServer, committed_tournament, sign_in


@pytest.fixture(scope="module")
def https_server(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("https")
    cert, key = workdir / "cert.pem", workdir / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True, timeout=60)
    server = LiveServer(workdir, tls=(cert, key))
    server.migrate()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def https_phone(browser):
    contexts = []

    def make():
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                      ignore_https_errors=True)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        refused = []
        page.on("response", lambda r: r.status >= 400 and refused.append((r.status, r.url)))
        page.refused = refused
        return page

    yield make
    for context in contexts:
        context.close()


def tap(page, name, value):
    page.locator(f"label[for='{name}-{value}']").click()


def test_sign_in_save_a_game_and_call_the_director_over_https(https_server, https_phone):
    assert https_server.url.startswith("https://")
    email, password = "https-director@example.com", "https-password-1"
    https_server.add_director(email, password)
    made = committed_tournament(https_server, email, "Secure Open", 8)
    t = {"id": made["id"], "code": made["code"], "token": made["tokens"][0]}

    director = https_phone()
    sign_in(director, https_server, email, password)
    cookie = next(c for c in director.context.cookies() if c["name"] == "session")
    assert cookie["secure"] and cookie["httpOnly"]

    east = https_phone()
    response = east.goto(f"{https_server.url}/t/{t['code']}/1?k={t['token']}")
    assert response.headers["referrer-policy"] == "same-origin"
    assert "max-age" in response.headers["strict-transport-security"]
    assert response.headers["cache-control"] == "no-store"
    east.get_by_role("link", name="Enter game 1").click()
    tap(east, "outcome", "mahjong\\:S")
    tap(east, "value", "30")
    tap(east, "win_by", "self")
    east.locator(".sign-button").click()  # South's own button: "…: 40 is right"
    expect(east.get_by_text("Game 1 saved.")).to_be_visible()
    expect(east.locator("h1")).to_contain_text("Table 1")
    expect(east.locator("#sheet .game-card").first).to_contain_text("self-picked")

    east.get_by_role("button", name="Call the director").click()
    expect(east.locator("#table-call")).to_contain_text("The director has been called")

    director.goto(f"{https_server.url}/calls/director/{t['id']}")
    card = director.locator(".call-card", has_text="Table 1")
    expect(card).to_be_visible()
    card.get_by_role("button", name="I'm going").click()
    expect(card).to_contain_text("Going: Dee Director")
    expect(east.locator("#table-call")).to_contain_text("Dee Director is on the way",
                                                        timeout=8_000)

    # Not one form or request was refused on the way.
    assert director.refused == [] and east.refused == []
