"""Fixtures for the call tests: a table's link, co-directors and guides on their own
clients, and a way to place a call straight through the service."""

from __future__ import annotations

import pytest

from models import DirectorCall, TournamentStaff, db
from tests.conftest import make_user, sign_in


@pytest.fixture
def table(tournament):
    return tournament.tables[0]


@pytest.fixture
def table_url(table):
    """Where the table's call bar posts and polls (the table's token in ?k=)."""
    code, token = table.tournament.code, table.token
    return lambda suffix="": f"/calls/t/{code}/{table.number}{suffix}?k={token}"


HX = {"HX-Request": "true"}


def staff_client(app, tournament, role, email, name):
    user = make_user(email=email, name=name)
    db.session.add(TournamentStaff(tournament_id=tournament.id, user_id=user.id, role=role))
    db.session.commit()
    client = app.test_client()
    sign_in(client, email=email)
    return user, client


@pytest.fixture
def co_director(app, tournament):
    """(user, signed-in client) of a co-director of `tournament`."""
    return staff_client(app, tournament, "co-director", "bob@example.com", "Bob Codirector")


@pytest.fixture
def guide(app, tournament):
    """(user, signed-in client) of a table guide of `tournament`."""
    return staff_client(app, tournament, "table-guide", "gail@example.com", "Gail Guide")


@pytest.fixture
def place(table):
    """Place a call from `table` through the service; returns the call."""
    from blueprints.calls import table_calls

    def make(reason="", note=""):
        call, _ = table_calls.place_call(table, reason, note)
        return call

    return make


def calls_of(table) -> list[DirectorCall]:
    db.session.expire_all()
    return list(db.session.scalars(db.select(DirectorCall)
                                   .where(DirectorCall.table_id == table.id)
                                   .order_by(DirectorCall.id)))
