"""The request loaders put what a URL names on flask.g, or refuse it."""

from __future__ import annotations

import pytest
from flask import g
from werkzeug.exceptions import Forbidden, NotFound

from core.access import staff_required
from core.lookup import BadLink, rules_of
from core.table_pages import shown_table_from_link, table_link
from models import Table, Tournament, TournamentStaff, db
from tests.conftest import make_tournament


@staff_required(("director",))
def managed(*, tournament_id):
    return g.tournament.id, g.role


@table_link
def table_page(*, code, number):
    return g.table.number, g.tournament.code


def test_staff_required_puts_the_tournament_and_role_on_g(app, client, director):
    tournament = make_tournament(director)
    with app.test_request_context():
        from flask_login import login_user

        login_user(director)
        assert managed(tournament_id=tournament.id) == (tournament.id, "director")


def test_staff_required_refuses_other_tournaments_and_too_few_rights(app, client, director):
    tournament = make_tournament(director)
    with app.test_request_context():
        from flask_login import login_user

        login_user(director)
        with pytest.raises(NotFound):
            managed(tournament_id=tournament.id + 1000)
        staff = db.session.query(TournamentStaff).filter_by(
            tournament_id=tournament.id, user_id=director.id).one()
        staff.role = "table-guide"
        db.session.commit()
        with pytest.raises(Forbidden):
            managed(tournament_id=tournament.id)


def test_table_link_loads_the_table_or_refuses_the_link(app, director):
    tournament = make_tournament(director)
    table = db.session.query(Table).filter_by(tournament_id=tournament.id, number=2).one()
    with app.test_request_context(f"/t/{tournament.code}/2?k={table.token}"):
        assert table_page(code=tournament.code.lower(), number=2) == (2, tournament.code)
    with app.test_request_context(f"/t/{tournament.code}/2?k=wrong"), \
            pytest.raises(BadLink):
        table_page(code=tournament.code, number=2)


def test_a_get_sees_the_table_and_its_tournament_as_the_entities_have_them(app, director):
    # A page that only shows the table reads it as one plain row; every column of the
    # table and of its tournament must read as the entity's (a column added later too).
    tournament = make_tournament(director)
    # read only when asked for (about 94 KB for 600 players): still there, the same
    tournament.imported_seating = {"2": {"1": {"E": 7, "S": 8, "W": 9, "N": 10}}}
    db.session.commit()
    table = db.session.query(Table).filter_by(tournament_id=tournament.id, number=2).one()
    with app.test_request_context(f"/t/{tournament.code}/2?k={table.token}"):
        shown = shown_table_from_link(tournament.code, 2, table.token)
        assert "imported_seating" not in vars(shown.tournament)
        # the rules as stored: read as they are, parsed only if asked for
        assert rules_of(shown.tournament) == rules_of(tournament)
        assert "rules" not in vars(shown.tournament)
        assert not isinstance(shown, Table)
        for column in Table.__table__.c:
            assert getattr(shown, column.name) == getattr(table, column.name), column.name
        for column in Tournament.__table__.c:
            assert (getattr(shown.tournament, column.name)
                    == getattr(tournament, column.name)), column.name
        for token in ("wrong", "", None, "\u00e9" * 22):
            with pytest.raises(BadLink):
                shown_table_from_link(tournament.code, 2, token)
        with pytest.raises(BadLink):
            shown_table_from_link(tournament.code, 99, table.token)


def test_table_link_gives_a_get_the_plain_row_and_a_write_the_entities(app, director):
    tournament = make_tournament(director)
    table = db.session.query(Table).filter_by(tournament_id=tournament.id, number=2).one()
    url = f"/t/{tournament.code}/2?k={table.token}"
    with app.test_request_context(url, method="GET"):
        table_page(code=tournament.code, number=2)
        assert not isinstance(g.table, Table)
    with app.test_request_context(url, method="POST"):
        table_page(code=tournament.code, number=2)
        assert isinstance(g.table, Table) and g.tournament is g.table.tournament
