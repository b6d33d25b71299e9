"""Pages that carry a secret are never kept in a cache: a table's page and everything
under its token, the table cards, the Staff answer with a new password, every staff page
and the sign-in form. Public pages and static files keep their caching."""

from __future__ import annotations

import pytest

from tests.conftest import make_tournament


@pytest.fixture
def seated(director):
    return make_tournament(director, code="STORE1")


def table_urls(t):
    table = t.tables[0]
    return [f"/t/{t.code}/1?k={table.token}", f"/t/{t.code}/1/game?k={table.token}",
            f"/calls/t/{t.code}/1?k={table.token}"]


def test_table_pages_are_not_stored(app, client, seated):
    client.post("/auth/sign-out")  # a player's phone: no staff session
    for url in table_urls(seated):
        response = client.get(url)
        assert response.status_code in (200, 204), (url, response.status_code)
        assert response.headers["Cache-Control"] == "no-store", url


def test_staff_pages_are_not_stored(app, client, seated):
    for url in (f"/director/t/{seated.id}/cards", f"/director/t/{seated.id}/staff",
                "/director/", f"/results/director/{seated.id}/backup.json"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.headers["Cache-Control"] == "no-store", url


def test_the_answer_with_a_new_password_is_not_stored(app, client, seated):
    response = client.post(f"/director/t/{seated.id}/staff",
                           data={"email": "cora@example.com", "name": "Cora",
                                 "role": "co-director"})
    assert response.headers["Cache-Control"] == "no-store"


def test_the_sign_in_form_is_not_stored(app, client):
    assert client.get("/auth/sign-in").headers["Cache-Control"] == "no-store"


def test_public_pages_and_static_files_keep_their_caching(app, client, seated):
    client.post("/auth/sign-out")
    assert "no-store" not in client.get(f"/p/{seated.code}").headers.get("Cache-Control", "")
    static = client.get("/static/vendor/htmx.min.js")
    assert "no-store" not in static.headers["Cache-Control"]
