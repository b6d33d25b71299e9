"""Fixtures for the director's pages: a second director, a table guide, and helpers to
put a game on a sheet (which fixes the rules)."""

from __future__ import annotations

import html
import re

import pytest

from models import GameEntry, Scoresheet, TournamentStaff, db
from tests.conftest import make_user


@pytest.fixture
def other_director(app):
    """A second director with a tournament of their own (not signed in)."""
    from tests.conftest import make_tournament

    user = make_user("bob@example.com", "Bob Other", "other password")
    make_tournament(user, name="Bob's Open", players=8)
    return user


@pytest.fixture
def guide(app, tournament):
    """A table guide on `tournament` (not signed in); password "guide password"."""
    user = make_user("gail@example.com", "Gail Guide", "guide password")
    db.session.add(TournamentStaff(tournament_id=tournament.id, user_id=user.id,
                                   role="table-guide"))
    db.session.commit()
    return user


def enter_a_game(tournament, round_no=1):
    """Put one entered game on table 1 of round `round_no` (as its East would; the
    round's clock need not have started)."""
    from core.rounds import ensure_round

    rnd = ensure_round(tournament, round_no)
    sheet = Scoresheet(round_id=rnd.id, table_id=tournament.tables[0].id)
    sheet.games.append(GameEntry(number=1, record={"outcome": "wall"},
                                 points_e=10, points_s=10, points_w=10, points_n=10))
    db.session.add(sheet)
    db.session.commit()
    return sheet


def error_at(body: str, field: str) -> str:
    """The message shown at a form field (the field() macro's <p id="<field>-error">)."""
    match = re.search(rf'<p class="error" id="{re.escape(field)}-error"[^>]*>(.*?)</p>', body,
                      re.S)
    return html.unescape(match.group(1)) if match else ""
