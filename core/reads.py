"""On PostgreSQL, a request that only shows (a GET or HEAD, or a post to a view marked
core.rows.shows_only: the entry wizard's preview) reads outside a transaction
until it writes.

psycopg opens every transaction with its own round trip (BEGIN) and the request's end
closes it with another (ROLLBACK): two of a table page's twelve, for nothing. Under READ
COMMITTED, PostgreSQL's default and ours, each statement reads its own snapshot whether
or not a transaction surrounds it, so plain SELECTs see the same rows either way. (SQLite
needs nothing: its driver begins a transaction only before a write.)

What a transaction does change is kept: before the first statement that is not a plain
SELECT (any write, a SAVEPOINT, a row lock FOR UPDATE or FOR SHARE, a CTE), the connection
goes back to transactions, so psycopg sends BEGIN first and the writes commit or roll
back together, as everywhere else. Other requests (the posts that write) are untouched.
The preview is a post East's phone makes at every answer tapped, about nineteen a
table-round. In a transaction it ended in a ROLLBACK, and psycopg forgets every statement
it prepared on the connection at a ROLLBACK (and sends DEALLOCATE ALL): the requests after
it had the server parse and plan each query again, about four times the database server's
CPU of a table-round (bench.write_cost --postgres). Outside one, a preview is three round
trips instead of six, and the prepared statements stay."""

from __future__ import annotations

import functools
import re
import weakref

from flask import has_request_context
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.pool import Pool

from core.rows import only_shows

# On the pooled connection's record while it reads outside a transaction.
OUTSIDE = "reads_outside_transaction"
# The engines whose statements are watched for the first write (install): only their
# connections may read outside a transaction.
_WATCHED: weakref.WeakSet = weakref.WeakSet()
LOCKING = re.compile(r"\bFOR\s+(?:UPDATE|SHARE|NO\s+KEY\s+UPDATE|KEY\s+SHARE)\b", re.I)


@functools.lru_cache(maxsize=4096)
def plain_read(statement: str) -> bool:
    """Whether `statement` is a SELECT that locks no row. Remembered per statement text:
    the search took up to 75 microseconds (a table link's 2.6 KB read), at every statement
    of a request that reads outside a transaction, about 3% of a wizard preview's CPU on
    PostgreSQL; SQLAlchemy sends the same few hundred texts over and over."""
    head = statement.lstrip()[:6]
    return head.upper() == "SELECT" and not LOCKING.search(statement)


def _read_outside_transaction(connection) -> None:
    """A connection taken from the pool by a request that only shows, the session's or
    the request's own for its plain reads (core.rows), reads outside a transaction."""
    if not has_request_context() or not only_shows():
        return
    proxied = connection.connection
    driver = proxied.driver_connection
    # Only a connection whose transaction has not started yet (psycopg begins lazily, at
    # the first statement): never one that already wrote or locked.
    if driver.autocommit or driver.info.transaction_status != 0:  # 0: IDLE
        return
    driver.autocommit = True
    proxied.info[OUTSIDE] = True


def install(engine: Engine) -> None:
    """Watch this engine's statements, if it is PostgreSQL through psycopg. (Only there:
    any statement listener makes SQLAlchemy run every engine's statements through its
    event hooks.)"""
    if engine.dialect.driver == "psycopg" and engine not in _WATCHED:
        event.listen(engine, "engine_connect", _read_outside_transaction)
        event.listen(engine, "before_cursor_execute", _transaction_before_writing)
        _WATCHED.add(engine)


def _transaction_before_writing(conn, cursor, statement, parameters, context, executemany):
    info = conn.connection.info
    if OUTSIDE in info and not plain_read(statement):
        del info[OUTSIDE]
        conn.connection.driver_connection.autocommit = False


@event.listens_for(Pool, "checkin")
def _back_to_transactions(dbapi_connection, connection_record):
    if connection_record.info.pop(OUTSIDE, None) and dbapi_connection is not None:
        try:
            dbapi_connection.autocommit = False
        except Exception:
            connection_record.invalidate()
