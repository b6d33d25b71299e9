"""The clock console follows the rule set: no extensions and no pause for rulings under
Hidden Tile ("Each round ends immediately when the chime sounds. No extensions are
provided."), with the director's written, audited override for a pause."""

from __future__ import annotations

import pytest

from tests.clock.conftest import audit, started
from tests.clock.test_clock_views import clock_columns, fresh, post, url
from tests.conftest import make_tournament


@pytest.fixture
def htm(director):
    return make_tournament(director, players=8, preset="hidden-tile", code="HTMCLK")


def test_hidden_tile_console_offers_no_extra_minutes_and_says_why(client, htm):
    started(htm, 1, minutes_ago=10)
    page = client.get(url(htm)).get_data(as_text=True)
    assert 'id="no-extensions"' in page and "no extensions are provided" in page
    assert "Add minutes" not in page and "Take minutes away" in page


def test_hidden_tile_refuses_added_minutes_but_corrects_a_clock(client, htm):
    rnd = started(htm, 1, minutes_ago=10)
    before = clock_columns(fresh(htm))
    response = post(client, htm, "adjust", 1, rnd.clock_version, minutes=5, add="1")
    assert response.status_code == 422
    assert "no extensions are provided" in response.get_data(as_text=True)
    assert clock_columns(fresh(htm)) == before and not audit(htm, "clock.adjust")
    response = post(client, htm, "adjust", 1, rnd.clock_version, minutes=5, remove="1",
                    reason="started late")
    assert response.status_code == 303
    assert fresh(htm).duration_seconds == 45 * 60


def test_tnt_console_still_adds_minutes(client, tournament):
    # tnt: "The clock will not be stopped or paused except at the sole discretion of the
    # Tournament Director."
    started(tournament, 1, minutes_ago=10)
    page = client.get(url(tournament)).get_data(as_text=True)
    assert "Add minutes" in page and 'id="no-extensions"' not in page
    assert 'id="no-pause"' not in page


def test_hidden_tile_pauses_only_on_the_directors_written_override(client, htm):
    rnd = started(htm, 1, minutes_ago=10)
    page = client.get(url(htm)).get_data(as_text=True)
    assert 'id="no-pause"' in page and "Override the rules" in page
    before = clock_columns(fresh(htm))
    response = post(client, htm, "pause", 1, rnd.clock_version, reason="Ruling at table 2")
    assert response.status_code == 422
    assert "the clock is not paused" in response.get_data(as_text=True)
    assert clock_columns(fresh(htm)) == before
    response = post(client, htm, "pause", 1, rnd.clock_version, override="y", reason="  ")
    assert response.status_code == 422 and fresh(htm).paused_at is None
    response = post(client, htm, "pause", 1, rnd.clock_version, override="y",
                    reason="Fire alarm")
    assert response.status_code == 303 and fresh(htm).paused_at is not None
    [event] = audit(htm, "clock.pause_override")
    assert event.reason == "Fire alarm" and not audit(htm, "clock.pause")
