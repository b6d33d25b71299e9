"""Every director page renders for the tournament's director."""

import pytest


@pytest.mark.parametrize("path", [
    "", "/edit", "/rules", "/players", "/players/import", "/seating", "/schedule",
    "/itineraries", "/meetings", "/cards", "/poster", "/staff",
])
def test_director_pages_render(client, tournament, path):
    response = client.get(f"/director/t/{tournament.id}{path}")
    assert response.status_code == 200, response.get_data(as_text=True)[:3000]


def test_home_and_new(client, director):
    assert client.get("/director/").status_code == 200
    assert client.get("/director/new").status_code == 200
