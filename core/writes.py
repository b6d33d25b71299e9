"""One unit of work for every write.

A write runs inside `unit()` (a context manager, for a view that makes several service
calls one change: a resolved call and its adjustment) or as a function decorated with
`@write` (a service's own transaction). Either way:

- nothing of it stays in the session when anything raises: the unit rolls back;
- what it adds (its rows, its audit rows from models.record) commits together, once, when
  the outermost unit ends; a unit inside another only joins it;
- `@write` runs the function once more from the start on an IntegrityError (a row another
  request inserted between our read and our insert), when the function says that is safe;
- `claim(key)` records a request key (models.AppliedRequest) in the same transaction, or
  raises core.errors.Replay when that request was applied already. A commit that fails on
  the key's own unique row is a resend applied meanwhile: Replay too.

Services never commit or roll back; views never commit. A service that must read the row
as it stands after a refused write (to show the conflict) raises first and lets the unit
roll back; the view then reads it (core.errors.Conflict carries what it needs)."""

from __future__ import annotations

import functools
from contextlib import contextmanager
from typing import Any

from sqlalchemy.exc import IntegrityError

from core.errors import Replay
from models import AppliedRequest, db

KEY_LENGTH = 64  # models.AppliedRequest.key
_DEPTH = "mahjtable.unit_depth"


def _depth() -> int:
    return db.session.info.get(_DEPTH, 0)


def in_unit() -> bool:
    return _depth() > 0


@contextmanager
def unit(key: str | None = None):
    """One transaction: commit at the end of the outermost unit, roll back on any error."""
    session = db.session
    outer = not in_unit()
    session.info[_DEPTH] = _depth() + 1
    try:
        yield session
        if outer:
            try:
                session.commit()
            except IntegrityError:
                session.rollback()
                if key and applied(key):
                    raise Replay() from None
                raise
    except BaseException:
        if outer:
            session.rollback()
        raise
    finally:
        session.info[_DEPTH] = _depth() - 1


def write(function=None, *, retry: bool = False):
    """Decorate a service write: it runs in a unit (joining one already open); with
    `retry=True` an IntegrityError in the outermost unit reruns it once from the start.
    A `key=` keyword is cut to what AppliedRequest stores, so lookup and insert agree."""

    def decorate(function):
        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any):
            if kwargs.get("key"):
                kwargs["key"] = str(kwargs["key"])[:KEY_LENGTH]
            attempts = 2 if retry and not in_unit() else 1
            for attempt in range(1, attempts + 1):
                try:
                    with unit():
                        return function(*args, **kwargs)
                except IntegrityError:
                    if attempt == attempts:
                        raise
            raise AssertionError("unreachable")  # pragma: no cover

        return wrapper

    return decorate(function) if function is not None else decorate


def applied(key: str | None) -> bool:
    return bool(key) and db.session.get(AppliedRequest, key) is not None


def claim(key: str | None, current: Any = None, **row: Any) -> None:
    """Record this request's key in the unit, or raise Replay(current) if it was applied.
    `row`: AppliedRequest's other columns (e.g. sheet_id)."""
    if not key:
        return
    if applied(key):
        raise Replay(current)
    db.session.add(AppliedRequest(key=key, **row))
