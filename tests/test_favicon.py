"""Browsers ask for /favicon.ico on a first visit: an icon, not a 404 page."""


def test_the_favicon_is_a_small_cached_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response.mimetype == "image/png"
    assert response.data.startswith(b"\x89PNG") and len(response.data) < 1024
    assert response.cache_control.max_age == 31536000
