"""The address in QR codes and printed cards: a page opened at 127.0.0.1 says its codes
would be dead on a phone and offers this laptop's network addresses; the director sets a
per-tournament public address (BASE_URL stays the default); bad addresses change nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from blueprints.director import tables
from core.addresses import clean_public_url
from core.errors import Refused
from models import AuditEvent, Tournament, db


def cards_url(tournament):
    return f"/director/t/{tournament.id}/cards"


@pytest.mark.parametrize("typed, stored", [
    ("http://192.168.1.10:8000", "http://192.168.1.10:8000"),
    ("192.168.1.10:8000/", "http://192.168.1.10:8000"),
    ("https://mahj.example.org", "https://mahj.example.org"),
    ("https://example.org/mahj", "https://example.org/mahj"),
    ("", None),
    ("   ", None),
])
def test_addresses_that_phones_can_open(typed, stored):
    assert clean_public_url(typed) == stored


@pytest.mark.parametrize("typed, words", [
    ("http://127.0.0.1:8000", "this computer itself"),
    ("localhost:8000", "this computer itself"),
    ("http://[::1]:8000", "this computer itself"),
    ("ftp://192.168.1.10", "like http://192.168.1.10:8000"),
    ("http://192.168.1.10:80x", "like http://"),
    ("http://me:pw@192.168.1.10", "like http://"),
    ("http://192.168.1.10/?k=1", "like http://"),
    ("http://a b", "like http://"),
    ("http://" + "a" * 300 + ".org", "like http://"),
    ("http://10.0.0.1\x00", "cannot be shown"),
])
def test_addresses_that_are_refused(typed, words):
    with pytest.raises(Refused) as refused:
        clean_public_url(typed)
    assert words in refused.value.message and refused.value.field == "public_url"


def test_cards_from_loopback_say_so_and_offer_the_laptops_addresses(app, client, tournament,
                                                                   monkeypatch):
    monkeypatch.setattr(tables, "lan_addresses", lambda: ["192.168.1.10", "10.0.0.5"])
    # As printed from the venue laptop's own browser, or with BASE_URL left at loopback.
    monkeypatch.setitem(app.config, "BASE_URL", "http://127.0.0.1:8000")
    page = " ".join(client.get(cards_url(tournament)).get_data(as_text=True).split())
    assert "These QR codes point at 127.0.0.1:8000, which only this" in page
    assert 'value="http://192.168.1.10:8000"' in page and "Use http://10.0.0.5:8000" in page
    poster = client.get(f"/director/t/{tournament.id}/poster").get_data(as_text=True)
    assert "only this computer can open" in " ".join(poster.split())


def test_cards_with_a_network_base_url_do_not_warn(app, client, tournament, monkeypatch):
    monkeypatch.setitem(app.config, "BASE_URL", "http://192.168.1.10:8000")
    page = client.get(cards_url(tournament)).get_data(as_text=True)
    assert "only this computer can open" not in page
    assert "QR codes and cards use <strong>192.168.1.10:8000</strong>" in page


def test_one_tap_sets_the_address_every_code_then_uses(app, client, tournament, monkeypatch):
    monkeypatch.setitem(app.config, "BASE_URL", "http://127.0.0.1:8000")
    response = client.post(f"/director/t/{tournament.id}/public-address",
                           data={"public_url": "http://192.168.1.10:8000"},
                           )
    assert response.status_code == 302
    db.session.expire_all()
    assert db.session.get(Tournament, tournament.id).public_url == "http://192.168.1.10:8000"
    [event] = db.session.scalars(select(AuditEvent).where(
        AuditEvent.action == "tournament.public_url")).all()
    assert event.before == {"public_url": None}
    cards = client.get(cards_url(tournament)).get_data(
        as_text=True)
    assert "only this computer can open" not in cards
    assert f"http://192.168.1.10:8000/t/{tournament.code}/1?k=" in cards
    poster = client.get(f"/director/t/{tournament.id}/poster").get_data(as_text=True)
    assert f"http://192.168.1.10:8000/p/{tournament.code}" in poster
    screen = client.get(f"/display/{tournament.code}").get_data(as_text=True)
    assert f"192.168.1.10:8000/<wbr>p/<wbr>{tournament.code}" in screen


def test_a_bad_address_is_refused_at_the_field_and_changes_nothing(client, tournament):
    response = client.post(f"/director/t/{tournament.id}/public-address",
                           data={"public_url": "http://127.0.0.1:8000"})
    assert response.status_code == 422
    assert "this computer itself" in response.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(Tournament, tournament.id).public_url is None


def test_base_url_stays_the_default_and_the_tournament_wins(app, client, tournament,
                                                           monkeypatch):
    monkeypatch.setitem(app.config, "BASE_URL", "http://base.example:9000")
    page = client.get(cards_url(tournament)).get_data(as_text=True)
    assert f"http://base.example:9000/t/{tournament.code}/1" in page
    tournament.public_url = "https://mahj.example.org"
    db.session.commit()
    page = client.get(cards_url(tournament)).get_data(as_text=True)
    assert f"https://mahj.example.org/t/{tournament.code}/1" in page


def test_the_details_form_sets_and_clears_the_address(client, tournament):
    form = {"name": tournament.name, "rounds": "3", "games_per_round": "4",
            "round_minutes": "50", "prize_places": "3", "public_url": "192.168.1.20:8000"}
    response = client.post(f"/director/t/{tournament.id}/edit", data=form)
    assert response.status_code == 302
    db.session.expire_all()
    assert db.session.get(Tournament, tournament.id).public_url == "http://192.168.1.20:8000"
    response = client.post(f"/director/t/{tournament.id}/edit",
                           data={**form, "public_url": "localhost"})
    assert response.status_code == 422
    db.session.expire_all()
    assert db.session.get(Tournament, tournament.id).public_url == "http://192.168.1.20:8000"
    client.post(f"/director/t/{tournament.id}/edit", data={**form, "public_url": ""})
    db.session.expire_all()
    assert db.session.get(Tournament, tournament.id).public_url is None


def test_lan_addresses_are_never_loopback():
    for address in tables.lan_addresses():
        assert not address.startswith("127.")
