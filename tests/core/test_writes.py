"""core.writes: one transaction per write, joined by nested units, rolled back whole on
any error, retried once on an integrity conflict when the write says it is safe, and a
request key applied once."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from core.errors import Replay
from core.writes import claim, unit, write
from models import AppliedRequest, db


def keys() -> set[str]:
    return set(db.session.scalars(select(AppliedRequest.key)))


def test_a_unit_commits_what_it_adds(app):
    with unit():
        claim("k1")
    db.session.rollback()  # a later rollback cannot undo what the unit committed
    assert keys() == {"k1"}


def test_any_error_rolls_the_whole_unit_back(app):
    with pytest.raises(RuntimeError), unit():
        claim("k1")
        raise RuntimeError("refused half way")
    assert keys() == set()


def test_a_nested_unit_joins_the_outer_one(app):
    with pytest.raises(RuntimeError), unit():
        with unit():
            claim("inner")
        assert keys() == {"inner"}  # flushed within the transaction, not committed
        raise RuntimeError("the outer write fails after the inner one")
    assert keys() == set()


def test_a_claimed_key_is_a_replay(app):
    with unit():
        claim("k1")
    with pytest.raises(Replay) as raised, unit():
        claim("k1", current="the row")
    assert raised.value.current == "the row"
    assert keys() == {"k1"}


def test_write_retries_once_on_an_integrity_conflict_when_safe(app):
    calls = []

    @write(retry=True)
    def racy():
        calls.append(1)
        if len(calls) == 1:  # another request inserted the row between our read and write
            raise IntegrityError("insert", {}, Exception("duplicate"))
        claim("after-retry")

    racy()
    assert len(calls) == 2
    assert keys() == {"after-retry"}


def test_write_without_retry_raises_the_conflict(app):
    @write
    def racy():
        claim("never")
        raise IntegrityError("insert", {}, Exception("duplicate"))

    with pytest.raises(IntegrityError):
        racy()
    assert keys() == set()


def test_a_long_key_is_cut_to_what_is_stored(app):
    @write
    def keyed(*, key):
        claim(key)
        return key

    stored = keyed(key="x" * 100)
    assert len(stored) == 64 and keys() == {stored}


def test_a_resend_committed_meanwhile_is_a_replay(app):
    # Both requests read "not applied"; the second's commit meets the first's key row.
    with unit():
        db.session.add(AppliedRequest(key="same"))
    with pytest.raises(Replay), unit(key="same"):
        db.session.add(AppliedRequest(key="same"))
