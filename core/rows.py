"""Plain rows for pages that only show what they read."""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass
from typing import Any

from flask import current_app, has_request_context, request
from sqlalchemy import event
from sqlalchemy.exc import InvalidRequestError
from sqlalchemy.orm import Session

from models import db


def read_rows(statement, params: dict):
    """`statement`'s result on the session's connection, in its transaction, after
    flushing anything pending (as the session's own execute would). For read-only views:
    the session's ORM execution costs several times a small statement itself, and
    entities more again, so a page that only shows the rows reads them this way."""
    return _read_connection().execute(statement, params)


def shows_only(view):
    """Marks a table's view that answers a post without writing anything (the entry
    wizard's preview of what East has tapped): it reads as a GET does (only_shows)."""
    view.shows_only = True
    return view


def only_shows() -> bool:
    """Whether this request writes nothing: a GET or HEAD, or a post to a view marked
    @shows_only. Such a request reads plain rows (core.table_pages.shown_table_from_link),
    a fraction of the entities' cost; a write gets the entities."""
    if request.method in ("GET", "HEAD"):
        return True
    view = current_app.view_functions.get(request.endpoint)
    return getattr(view, "shows_only", False)


# Where a request that only shows keeps its reading connection (see _read_connection).
_SHOWN_CONNECTION = "_shown_connection"


def _read_connection():
    """What a read sees: the session's connection, in its transaction, after flushing
    anything pending (as the session's own execute would).

    A request that only shows (only_shows) and has not opened the session reads instead
    on a connection of its own from the pool, given back as the request ends
    (close_shown_connection): the session's transaction and its closing cost more than a
    table page's three reads together (the page: 4% of its instructions). A request that
    opens the session after such reads (a write, or an entity loaded) gives that
    connection back first (_hand_over_to_the_session) and reads through the session from
    then on, so it sees what it wrote; what it read before came from the
    database as committed, as a read in the session's transaction would have. On
    PostgreSQL the connection reads outside a transaction, as the session's does in such
    a request (core.reads)."""
    if has_request_context() and not db.session.registry.has() and only_shows():
        connection = request.__dict__.get(_SHOWN_CONNECTION)
        if connection is None:
            connection = request.__dict__[_SHOWN_CONNECTION] = db.engine.connect()
        return connection
    session = db.session()
    if session.new or session.dirty or session.deleted:
        session.flush()
    return session.connection()


def close_shown_connection(_error=None) -> None:
    """Give the request's reading connection (if it took one) back to the pool: a
    teardown of every request (app.create_app), and as the request opens the session."""
    connection = request.__dict__.pop(_SHOWN_CONNECTION, None)
    if connection is not None:
        connection.close()


@event.listens_for(Session, "after_transaction_create")
def _hand_over_to_the_session(session, transaction):
    """A request that read on its own connection and now opens the session (a table whose
    call is shown loads the call) gives that connection back first, before the session
    takes one from the pool, so that it takes the same one: a request holds one connection
    at a time. Holding both grew every worker's pool to two connections, which on
    PostgreSQL split the prepared statements and the server's caches between them: 10% more
    database CPU at a round end. Every read's rows are fetched when it runs (read_rows'
    callers take .first(), .all() or .scalar() at once), so nothing is left to read on it."""
    if transaction.parent is None and has_request_context():
        close_shown_connection()


def request_reads() -> dict:
    """Rows this request has read already, for a later reader of the same rows in the
    same request (none outside a request). Kept on the request, not on flask.g: an app
    context can outlive a request (tests, CLI). Forgotten as soon as the request writes
    anything: what was read before may no longer be so."""
    if not has_request_context():
        return {}
    return request.__dict__.setdefault("_reads", {})


def _forget_reads() -> None:
    if has_request_context():
        request.__dict__.pop("_reads", None)


@event.listens_for(Session, "after_flush")
def _forget_after_flush(session, flush_context):
    _forget_reads()


@event.listens_for(Session, "do_orm_execute")
def _forget_before_a_write(state):
    if not state.is_select:  # an INSERT, UPDATE or DELETE through the session
        _forget_reads()


class PrecompiledRead:
    """A read-only statement every table page runs, compiled once per database dialect
    and run on the driver's own cursor, its values converted as SQLAlchemy would convert
    them (its bind and result processors). Rows are tuples that also name their columns
    (a column named twice is named once: read such a statement by position).

    SQLAlchemy's execution of a small statement (the execution context, the statement's
    cache key, the result's metadata) costs about three times the statement itself on
    SQLite: 90 microseconds against 26 for a table link's read, and a page runs three.
    Run in the session (`rows`), the statement listeners still see each one
    (before_cursor_execute: core.reads, and the tests that count statements) and a failure
    is handled as SQLAlchemy handles one; `run` is the unchanged poll's, outside any
    session."""

    def __init__(self, statement) -> None:
        self.statement = statement
        self._by_dialect: dict[tuple[str, str], _Compiled] = {}

    def compiled(self, dialect) -> _Compiled:
        key = (dialect.name, dialect.driver)
        found = self._by_dialect.get(key)
        if found is None:
            found = self._by_dialect[key] = _Compiled.of(self.statement, dialect)
        return found

    def run(self, dbapi_connection, dialect, params: dict) -> list[tuple]:
        """The rows, on a driver connection of `dialect` outside any session (the
        unchanged poll's): no listener sees the statement, and a driver's error is raised
        as it is, for the caller to handle (blueprints.live.fast drops the connection)."""
        query = self.compiled(dialect)
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(query.sql, query.values(params))
            return query.rows(cursor.fetchall())
        finally:
            cursor.close()

    def rows(self, params: dict) -> list[tuple]:
        """The rows, on the session's connection, in its transaction, after flushing
        anything pending (as read_rows)."""
        connection = _read_connection()
        query = self.compiled(connection.dialect)
        values = query.values(params)
        cursor = None
        try:
            cursor = connection.connection.cursor()
            for listener in connection.dispatch.before_cursor_execute:
                listener(connection, cursor, query.sql, values, None, False)
            cursor.execute(query.sql, values)
            fetched = cursor.fetchall()
            cursor.close()
        except BaseException as error:
            # What SQLAlchemy's own execution does with a failed statement (a private
            # method, so tests/core/test_rows.py checks what it does): the driver's error
            # wrapped in its DBAPIError, the handle_error hooks run, the cursor closed, and
            # on a lost connection the connection and the pool's others invalidated.
            connection._handle_dbapi_exception(error, query.sql, values, cursor, None)
        return query.rows(fetched)


@dataclass(frozen=True)
class _Compiled:
    sql: str
    binds: dict[str, Any]                  # every parameter's value, processed as SQLAlchemy
    processors: dict[str, Any]             # would; the ones given per run get theirs here
    order: tuple[str, ...] | None          # parameter names in order (positional drivers)
    results: tuple[Any, ...]               # per column: SQLAlchemy's result processor, or None
    row: type                              # the rows' type (a namedtuple of the columns)
    required: frozenset[str]               # the parameters each run must be given

    @classmethod
    def of(cls, statement, dialect) -> _Compiled:
        compiled = statement.compile(dialect=dialect)
        if "POSTCOMPILE" in compiled.string:  # an expanding parameter: not compiled ahead
            raise RuntimeError("a precompiled read must compile to fixed SQL")
        processors = {name: fn for name, bind in compiled.binds.items()
                      if (fn := bind.type.dialect_impl(dialect).bind_processor(dialect))
                      is not None}
        binds = {name: (processors[name](bind.value) if name in processors else bind.value)
                 for name, bind in compiled.binds.items()}
        columns = statement.selected_columns
        results = tuple(column.type.dialect_impl(dialect).result_processor(dialect, None)
                        for column in columns)
        order = tuple(compiled.positiontup) if compiled.positional else None
        row = namedtuple("Row", [column.key for column in columns], rename=True)
        required = frozenset(name for name, bind in compiled.binds.items() if bind.required)
        return cls(compiled.string, binds, processors, order, results, row, required)

    def values(self, params: dict):
        if not self.required <= params.keys():
            # as SQLAlchemy refuses it (the driver would be sent NULL)
            missing = ", ".join(sorted(self.required - params.keys()))
            raise InvalidRequestError(f"A value is required for bind parameter {missing}")
        values = dict(self.binds)
        for name, value in params.items():
            values[name] = self.processors[name](value) if name in self.processors else value
        return values if self.order is None else tuple(values[name] for name in self.order)

    def rows(self, fetched) -> list[tuple]:
        make, results = self.row._make, self.results
        if not any(results):
            return [make(row) for row in fetched]
        return [make([value if fn is None or value is None else fn(value)
                      for fn, value in zip(results, row, strict=True)])
                for row in fetched]
