"""Fixtures for the table's view tests: a seated tournament's table, its link, and a
helper that posts one game the way East's phone does."""

from __future__ import annotations

import pytest

from blueprints.table.forms import DEAD_CHANGES_POINTS
from models import Round, db
from tests.conftest import make_tournament


@pytest.fixture
def tnt(director):
    """A seated 2-table TNT tournament (8 players, 2 rounds)."""
    return make_tournament(director, players=8, rounds=2)


@pytest.fixture
def hidden(director):
    return make_tournament(director, players=8, rounds=2, preset="hidden-tile",
                           name="HTM Open", code="HTM111")


class TableClient:
    """East's phone at one table: URLs carry the table's token."""

    def __init__(self, client, tournament, number=1):
        self.client = client
        self.tournament = tournament
        self.table = next(t for t in tournament.tables if t.number == number)
        self.base = f"/t/{tournament.code}/{number}"

    def url(self, path="", **params):
        params = {"k": self.table.token, **params}
        query = "&".join(f"{k}={v}" for k, v in params.items())
        return f"{self.base}{path}?{query}"

    def get(self, path="", **params):
        return self.client.get(self.url(path, **params))

    def post(self, path, data, headers=None, **params):
        return self.client.post(self.url(path, **params), data=data, headers=headers or {})

    def sheet(self, round_no=1):
        from core.sheets import sheet_for

        rnd = db.session.scalar(db.select(Round).where(
            Round.tournament_id == self.tournament.id, Round.number == round_no))
        db.session.expire_all()
        return sheet_for(rnd, self.table)

    def version(self, round_no=1):
        sheet = self.sheet(round_no)
        return sheet.version if sheet else 1

    def save(self, game_no, initials="AB", key=None, version=None, round_no=1, headers=None,
             **fields):
        """Post game `game_no` as a new game, or as a correction when it is entered."""
        return self.post("/game", self.game_data(game_no, initials, key, version, round_no,
                                                 **fields), headers=headers)

    def game_data(self, game_no, initials="AB", key=None, version=None, round_no=1,
                  **fields):
        """What `save` posts (read from the sheet as it is now)."""
        import secrets

        sheet = self.sheet(round_no)
        entered = sheet is not None and any(g.number == game_no for g in sheet.games)
        data = {"game_no": game_no, "round_no": round_no,
                "entered_as": "correction" if entered else "new",
                "version": version if version is not None else self.version(round_no),
                "request_key": key or secrets.token_urlsafe(8), "initials": initials}
        data.update(fields)
        # The entry page asks "Any dead hands?" where they change the points; a test that
        # names none answers "No dead hands", as East's one tap does.
        if data.get("outcome") in DEAD_CHANGES_POINTS and "dead" not in data:
            data.setdefault("no_dead", "y")
        return data


@pytest.fixture
def east(client, tnt):
    return TableClient(client, tnt)


@pytest.fixture
def east_htm(client, hidden):
    return TableClient(client, hidden)


class QueryCount:
    """Counts the SQL statements sent while it is open (before_cursor_execute)."""

    def __init__(self):
        self.statements: list[str] = []

    def __len__(self):
        return len(self.statements)

    def __enter__(self):
        from sqlalchemy import event

        event.listen(db.engine, "before_cursor_execute", self._seen)
        return self

    def __exit__(self, *exc):
        from sqlalchemy import event

        event.remove(db.engine, "before_cursor_execute", self._seen)

    def _seen(self, conn, cursor, statement, parameters, context, executemany):
        self.statements.append(statement)


def count_queries() -> QueryCount:
    return QueryCount()
