"""Plain rows for pages that only show what they read."""

from __future__ import annotations

from flask import has_request_context, request
from sqlalchemy import event
from sqlalchemy.orm import Session

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
