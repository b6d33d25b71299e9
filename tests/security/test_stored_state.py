"""No stored state makes a page answer 500. A backup import, a manual database edit or a
bug elsewhere may leave a row the forms would never make; the pages that read it still
answer, for the director to see and put right."""

from __future__ import annotations

from datetime import timedelta

import pytest

from models import Round, db, utcnow
from tests.conftest import make_tournament
from tests.security.test_access import build

NOW = utcnow()


def every_page(app, tournament) -> list[str]:
    """Every GET page of the tournament, its tables' and its players' pages, for table 1
    and 2 and round 1 and 2."""
    urls = []
    tokens = {t.number: t.token for t in tournament.tables}
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static":
            continue
        for n in (1, 2):
            values = dict(tournament_id=tournament.id, code=tournament.code, number=n,
                          table_no=n, round_no=n)
            try:
                url = build(rule, **values)
            except Exception:
                continue
            if rule.rule.startswith(("/t/<code>/", "/live/t/", "/calls/t/")):
                url += f"?k={tokens[n]}"
            urls.append(url)
    return sorted(set(urls))


def walk(app, client, tournament):
    failed, answered = [], 0
    for url in every_page(app, tournament):
        response = client.get(url)
        if response.status_code >= 500:
            failed.append(url)
        answered += response.status_code == 200
    assert not failed
    assert answered >= 40  # the walk reached the pages, not only their refusals


@pytest.mark.parametrize("clock", [
    dict(started_at=None, ended_at=NOW),
    dict(started_at=None, paused_at=NOW),
    dict(started_at=None, paused_seconds=60),
    dict(started_at=NOW - timedelta(minutes=5), paused_at=NOW, ended_at=NOW),
])
def test_a_clock_no_action_could_make_breaks_no_page(app, client, director, clock):
    app.config["PROPAGATE_EXCEPTIONS"] = False
    tournament = make_tournament(director, players=8, rounds=2)
    rnd = db.session.scalar(db.select(Round).where(Round.tournament_id == tournament.id))
    for key, value in clock.items():
        setattr(rnd, key, value)
    db.session.commit()
    walk(app, client, tournament)


@pytest.mark.parametrize("movement", ["east_stays", "imported"])
@pytest.mark.parametrize("seating", [
    {"2": {"x": {"E": 1, "S": 2, "W": 3, "N": 4}}},
    {"x": {"1": {"E": 1}}},
    {"2": {"1": {"E": "one", "Q": 2}}},
    {"2": ["E", 1]},
    ["E", 1],
])
def test_an_imported_seating_of_any_shape_breaks_no_page(app, client, director, movement,
                                                          seating):
    app.config["PROPAGATE_EXCEPTIONS"] = False
    tournament = make_tournament(director, players=8, rounds=3, preset="hidden-tile")
    tournament.rules = {**tournament.rules, "movement": movement}
    tournament.imported_seating = seating
    db.session.commit()
    walk(app, client, tournament)
