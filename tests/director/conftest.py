"""Fixtures for the director's pages: a second director, a table guide, and helpers to
put a game on a sheet (which fixes the rules)."""

from __future__ import annotations

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


def enter_a_game(tournament):
    """Put one entered game on round 1, table 1 (as the table team would)."""
    from blueprints.director.service import round_row

    rnd = round_row(tournament, 1)
    sheet = Scoresheet(round_id=rnd.id, table_id=tournament.tables[0].id)
    sheet.games.append(GameEntry(number=1, record={"outcome": "wall"},
                                 points_e=10, points_s=10, points_w=10, points_n=10))
    db.session.add(sheet)
    db.session.commit()
    return sheet
