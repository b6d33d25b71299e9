"""Who may open the director's pages: only a tournament's own staff (404 for anyone
else, so a URL does not even confirm that a tournament exists), and table guides are
kept off the pages that change the tournament (403)."""

from __future__ import annotations

import pytest

from models import Player, TournamentStaff, db
from tests.conftest import sign_in


def director_urls(app, tournament):
    """Every director URL of `tournament`, with real ids for its other parts."""
    player = tournament.players[0]
    staff = db.session.scalars(
        db.select(TournamentStaff).where(TournamentStaff.tournament_id == tournament.id)
    ).first()
    values = {"tournament_id": tournament.id, "player_id": player.id, "number": 1,
              "substitute_id": tournament.players[1].id,
              "staff_id": staff.id, "round_no": 1, "table_no": 1}
    urls = []
    for rule in app.url_map.iter_rules():
        if not rule.endpoint.startswith("director.") or "tournament_id" not in rule.arguments:
            continue
        path = rule.rule
        for name in rule.arguments:
            path = path.replace(f"<int:{name}>", str(values[name]))
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            urls.append((method, path))
    return urls


def test_every_director_url_of_a_tournament_is_404_to_another_director(
        app, client, tournament, other_director):
    urls = director_urls(app, tournament)
    assert len(urls) >= 20
    client.post("/auth/sign-out")
    sign_in(client, "bob@example.com", "other password")
    names_before = [p.name for p in tournament.players]
    for method, path in urls:
        response = client.open(path, method=method, data={"name": "Hacked", "number": "1"})
        assert response.status_code == 404, (method, path, response.status_code)
    db.session.expire_all()
    assert [p.name for p in db.session.get(type(tournament), tournament.id).players] == \
        names_before


def test_signed_out_visitors_are_sent_to_sign_in(app, client, tournament):
    client.post("/auth/sign-out")
    response = client.get(f"/director/t/{tournament.id}/players")
    assert response.status_code == 302 and "/auth/sign-in" in response.headers["Location"]


def test_a_tournament_that_does_not_exist_is_404(client, director):
    assert client.get("/director/t/99999").status_code == 404
    assert client.get("/director/t/99999/players").status_code == 404


MANAGE_PAGES = ["/edit", "/rules", "/players", "/players/import", "/seating", "/schedule",
                "/itineraries", "/meetings", "/cards", "/poster", "/staff"]


@pytest.mark.parametrize("path", MANAGE_PAGES)
def test_a_table_guide_gets_403_on_manage_pages(client, tournament, guide, path):
    client.post("/auth/sign-out")
    sign_in(client, "gail@example.com", "guide password")
    assert client.get(f"/director/t/{tournament.id}{path}").status_code == 403


def test_a_table_guide_sees_the_overview_but_no_setup_links(client, tournament, guide):
    client.post("/auth/sign-out")
    sign_in(client, "gail@example.com", "guide password")
    page = client.get(f"/director/t/{tournament.id}")
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert f"/calls/director/{tournament.id}" in body
    assert f"/director/t/{tournament.id}/players" not in body


def test_a_table_guide_cannot_add_a_player(client, tournament, guide):
    client.post("/auth/sign-out")
    sign_in(client, "gail@example.com", "guide password")
    response = client.post(f"/director/t/{tournament.id}/players", data={"name": "Sneaky"})
    assert response.status_code == 403
    assert db.session.scalar(db.select(Player).where(Player.name == "Sneaky")) is None


def test_only_a_director_manages_staff_not_a_co_director(client, tournament):
    from tests.conftest import make_user

    co = make_user("cora@example.com", "Cora Co", "co password")
    db.session.add(TournamentStaff(tournament_id=tournament.id, user_id=co.id,
                                   role="co-director"))
    db.session.commit()
    client.post("/auth/sign-out")
    sign_in(client, "cora@example.com", "co password")
    assert client.get(f"/director/t/{tournament.id}/players").status_code == 200
    assert client.get(f"/director/t/{tournament.id}/staff").status_code == 403
    response = client.post(f"/director/t/{tournament.id}/staff",
                           data={"email": "x@example.com", "role": "director"})
    assert response.status_code == 403


def test_overview_links_to_every_page_and_the_clock_calls_and_results(client, tournament):
    body = client.get(f"/director/t/{tournament.id}").get_data(as_text=True)
    for path in ["/edit", "/rules", "/players", "/seating", "/schedule", "/itineraries",
                 "/meetings", "/cards", "/poster", "/staff"]:
        assert f"/director/t/{tournament.id}{path}" in body, path
    for url in [f"/clock/director/{tournament.id}", f"/calls/director/{tournament.id}",
                f"/results/director/{tournament.id}", f"/display/{tournament.code}",
                f"/p/{tournament.code}"]:
        assert url in body, url


def test_home_lists_only_my_tournaments(client, tournament, other_director):
    body = client.get("/director/").get_data(as_text=True)
    assert "Test Open" in body and "Bob&#39;s Open" not in body and "Bob's Open" not in body
    assert "Create a tournament" in body
