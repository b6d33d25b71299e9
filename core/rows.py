"""Plain rows for pages that only show what they read."""

from __future__ import annotations

from models import db


def read_rows(statement, params: dict):
    """`statement`'s result on the session's connection, in its transaction, after
    flushing anything pending (as the session's own execute would). For read-only views:
    the session's ORM execution costs several times a small statement itself, and
    entities more again, so a page that only shows the rows reads them this way."""
    session = db.session()
    if session.new or session.dirty or session.deleted:
        session.flush()
    return session.connection().execute(statement, params)
