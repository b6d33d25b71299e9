"""The big screen: no sign-in, the round and its clock, the chime, announcements, the
movement between rounds, the leaders include; its board polls with a version (204)."""

from __future__ import annotations

import re

from core.rounds import ensure_round
from models import Announcement, GameEntry, Tiebreak, db
from tests.clock.conftest import ended, games_on, started
from tests.conftest import make_tournament

HX = {"HX-Request": "true"}


def test_display_needs_no_sign_in(app, tournament):
    client = app.test_client()
    response = client.get(f"/display/{tournament.code}")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert tournament.name in page and "Round 1" in page and "50:00" in page
    assert "Find your seat for round 1." in page
    # static URLs carry a ?v= version (cached for a year)
    assert 'src="/static/audio/chime.wav?v=' in page and "Tap to enable sound" in page
    assert 'src="/static/bundle/screen.js?v=' in page and "<script>" not in page


def test_the_big_screen_opened_on_the_laptop_gives_phones_its_venue_address(
        app, tournament, monkeypatch):
    """The director opens the big screen on the laptop itself (127.0.0.1): its QR code and
    address are the laptop's on the venue Wi-Fi, which phones can open; with no such
    address, or a public address set, it keeps what it had."""
    import core.addresses

    client = app.test_client()
    url = f"/display/{tournament.code}"
    # the laptop as `mahjtable` runs it: no BASE_URL, any of its own names
    monkeypatch.setitem(app.config, "BASE_URL", "")
    monkeypatch.setitem(app.config, "TRUSTED_HOSTS", None)
    monkeypatch.setitem(app.config, "SERVER_NAME", None)
    monkeypatch.setattr(core.addresses, "lan_addresses", lambda: ["192.168.1.10"])
    page = client.get(url, base_url="http://127.0.0.1:8000").get_data(as_text=True)
    assert f"192.168.1.10:8000/<wbr>p/<wbr>{tournament.code}" in page
    assert "127.0.0.1" not in page
    page = client.get(url, base_url="http://192.168.1.20:8000").get_data(as_text=True)
    assert f"192.168.1.20:8000/<wbr>p/<wbr>{tournament.code}" in page  # as it came in
    monkeypatch.setattr(core.addresses, "lan_addresses", lambda: [])
    page = client.get(url, base_url="http://127.0.0.1:8000").get_data(as_text=True)
    assert f"127.0.0.1:8000/<wbr>p/<wbr>{tournament.code}" in page


def test_display_code_is_case_insensitive_and_unknown_is_404(client, tournament):
    assert client.get(f"/display/{tournament.code.lower()}").status_code == 200
    assert client.get("/display/NOSUCH").status_code == 404
    assert client.get("/display/NOSUCH/board").status_code == 404


def test_between_rounds_shows_the_movement(client, tournament):
    started(tournament, 1, minutes_ago=50)
    page = client.get(f"/display/{tournament.code}").get_data(as_text=True)
    assert "Move to your next table" not in page
    ended(tournament, 1)
    page = client.get(f"/display/{tournament.code}").get_data(as_text=True)
    assert "Round 1 has ended." in page
    assert "Move to your next table: <strong>East stays, South down 1, West up 2, North up 1" \
        in page
    ensure_round(tournament, 2)
    db.session.commit()
    page = client.get(f"/display/{tournament.code}").get_data(as_text=True)
    assert "Round 2 is next." in page and "Move to your next table" in page


def test_after_the_last_round(client, director):
    tournament = make_tournament(director, rounds=1, code="ONERND")
    started(tournament, 1, minutes_ago=50)
    ended(tournament, 1)
    page = client.get(f"/display/{tournament.code}").get_data(as_text=True)
    assert "That was the last round" in page and "Move to your next table" not in page


def test_board_polls_with_a_version(client, tournament):
    started(tournament, 1, minutes_ago=5)
    response = client.get(f"/display/{tournament.code}/board?v=old", headers=HX)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert html.lstrip().startswith("<div id=\"display-board\"")
    version = re.search(r"board\?v=([0-9a-f]+)", html).group(1)
    url = f"/display/{tournament.code}/board?v={version}"
    assert client.get(url, headers=HX).status_code == 204

    db.session.add(Announcement(tournament_id=tournament.id, text="Raffle at the break"))
    db.session.commit()
    response = client.get(url, headers=HX)
    assert response.status_code == 200 and "Raffle at the break" in response.get_data(
        as_text=True)


def test_board_changes_when_a_sheet_is_submitted_not_on_every_game(client, tournament):
    started(tournament, 1, minutes_ago=5)
    html = client.get(f"/display/{tournament.code}/board", headers=HX).get_data(as_text=True)
    version = re.search(r"board\?v=([0-9a-f]+)", html).group(1)
    url = f"/display/{tournament.code}/board?v={version}"
    sheet = games_on(tournament, 1, 1, 1)                  # a game on an open sheet
    assert client.get(url, headers=HX).status_code == 204    # the leaders cannot change
    sheet.games.append(GameEntry(number=2, record={"outcome": "wall"}))
    sheet.version += 1
    db.session.commit()
    assert client.get(url, headers=HX).status_code == 204
    sheet.state = "submitted"                                # now they can
    sheet.version += 1
    db.session.commit()
    assert client.get(url, headers=HX).status_code == 200


def test_board_changes_when_a_submitted_sheet_is_amended_or_a_tie_is_drawn(client,
                                                                          tournament):
    started(tournament, 1, minutes_ago=5)
    sheet = games_on(tournament, 1, 1, 2, state="submitted")

    def version():
        html = client.get(f"/display/{tournament.code}/board", headers=HX)
        return re.search(r"board\?v=([0-9a-f]+)", html.get_data(as_text=True)).group(1)

    first = version()
    sheet.version += 1                                       # a director's amendment
    db.session.commit()
    second = version()
    assert second != first
    db.session.add(Tiebreak(tournament_id=tournament.id, competition_key="main",
                            player_ids=[1, 2], note="bag"))
    db.session.commit()
    assert version() != second


def test_cleared_announcements_are_not_shown(client, tournament):
    db.session.add(Announcement(tournament_id=tournament.id, text="Old news", active=False))
    db.session.add(Announcement(tournament_id=tournament.id, text="Fresh news"))
    db.session.commit()
    page = client.get(f"/display/{tournament.code}").get_data(as_text=True)
    assert "Fresh news" in page and "Old news" not in page


def test_the_big_screen_says_no_results_yet_then_caps_the_leaders(client, tournament):
    """Not every player tied first with X before any sheet is in; then at most ten lines
    and "and N more tied"."""
    html = client.get(f"/display/{tournament.code}").get_data(as_text=True)
    assert "No results yet" in html and "leaders-list" not in html
    games_on(tournament, 1, 1, 4, state="submitted")       # four games at X for table 1
    html = client.get(f"/display/{tournament.code}").get_data(as_text=True)
    assert "No results yet" not in html
    # Only the four who played, at a real X; the 28 with no result yet are not listed.
    assert html.count('<span class="leader-rank">') == 4
    assert "more tied" not in html


def test_the_big_screen_has_one_leaders_region(client, tournament):
    """The board's box around the leaders is not a second region "Leaders" (axe: landmark
    names are unique)."""
    html = client.get(f"/display/{tournament.code}").get_data(as_text=True)
    assert 'aria-label="Leaders"' not in html
    assert html.count('aria-labelledby="leaders-title"') == 1
