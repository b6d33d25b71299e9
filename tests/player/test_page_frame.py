"""The frame of every page: players' pages carry no "Director sign-in" in their header
(it sits at the foot of the page), and every page names a favicon that exists."""

from __future__ import annotations


def header(html: str) -> str:
    return html.split('<header class="site-header">')[1].split("</header>")[0]


def test_player_pages_keep_director_sign_in_out_of_the_header(app, tournament):
    visitor = app.test_client()
    for path in ("/", f"/p/{tournament.code}", f"/results/{tournament.code}"):
        html = visitor.get(path).get_data(as_text=True)
        assert "Director sign-in" not in header(html), path
        assert 'href="/auth/sign-in">Director sign-in</a>' in html.split("<footer")[1], path


def test_every_page_names_a_favicon_that_is_served(app, tournament):
    visitor = app.test_client()
    html = visitor.get("/").get_data(as_text=True)
    href = html.split('<link rel="icon" type="image/svg+xml" href="')[1].split('"')[0]
    response = visitor.get(href)
    assert response.status_code == 200 and b"<svg" in response.data
