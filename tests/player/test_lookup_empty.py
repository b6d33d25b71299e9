"""An empty seat lookup (the form's own required check bypassed, as from the address bar)
is answered in plain words at the box, never with WTForms' "Not a valid integer value."."""

from tests.conftest import make_tournament


def test_an_empty_player_number_asks_for_it_in_plain_words(client, director):
    tournament = make_tournament(director, players=8)
    response = client.get(f"/p/{tournament.code}/seat?number=")
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert "Type your player number, from your badge or the seating list." in body
    assert "Not a valid integer value" not in body
    spaces = client.get(f"/p/{tournament.code}/seat?number=%20%20")
    assert spaces.status_code == 422
    assert "A player number is a whole number, like 12." in spaces.get_data(as_text=True)
