"""Fixtures for the clock views: a table guide, another director, and helpers to move a
round's stored instants (so "40 minutes in" needs no waiting)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from core.rounds import round_row
from models import AuditEvent, GameEntry, Scoresheet, Table, TournamentStaff, db, utcnow
from tests.conftest import make_tournament, make_user


@pytest.fixture(autouse=True)
def _user_per_request(app, monkeypatch):
    """The app fixture keeps one app context open for the whole test and Flask-Login
    caches the signed-in user in its `g`: forget it before every request of every client."""
    from flask import g
    from flask.testing import FlaskClient

    original = FlaskClient.open

    def open_(self, *args, **kwargs):
        g.pop("_login_user", None)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(FlaskClient, "open", open_)


@pytest.fixture
def guide(app, tournament):
    """A table guide on `tournament` (not signed in); password "guide password"."""
    user = make_user("gail@example.com", "Gail Guide", "guide password")
    db.session.add(TournamentStaff(tournament_id=tournament.id, user_id=user.id,
                                   role="table-guide"))
    db.session.commit()
    return user


@pytest.fixture
def other_tournament(app):
    """Another director's tournament (that director is not signed in)."""
    user = make_user("bob@example.com", "Bob Other", "other password")
    return make_tournament(user, name="Bob's Open", players=8, code="BOBOPN")


def started(tournament, number=1, minutes_ago=0, paused_minutes_ago=None, reason=""):
    """Mark round `number` started `minutes_ago` (and paused since `paused_minutes_ago`)."""
    rnd = round_row(tournament, number)
    now = utcnow()
    rnd.started_at = now - timedelta(minutes=minutes_ago)
    if paused_minutes_ago is not None:
        rnd.paused_at = now - timedelta(minutes=paused_minutes_ago)
        rnd.pause_reason = reason
    rnd.clock_version += 1
    db.session.commit()
    return rnd


def ended(tournament, number=1):
    rnd = round_row(tournament, number)
    rnd.ended_at = utcnow()
    rnd.clock_version += 1
    db.session.commit()
    return rnd


def games_on(tournament, table_no, round_no, count, state="open"):
    """Put `count` wall games on a table's sheet for the round."""
    rnd = round_row(tournament, round_no)
    table = db.session.scalar(db.select(Table).where(Table.tournament_id == tournament.id,
                                                     Table.number == table_no))
    sheet = Scoresheet(round_id=rnd.id, table_id=table.id, state=state)
    db.session.add(sheet)
    for n in range(1, count + 1):
        sheet.games.append(GameEntry(number=n, record={"outcome": "wall"}))
    db.session.commit()
    return sheet


def audit(tournament, action):
    return db.session.scalars(db.select(AuditEvent).where(
        AuditEvent.tournament_id == tournament.id, AuditEvent.action == action)).all()
