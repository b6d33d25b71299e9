"""The request keys of a sheet's writes, and the refusal every sheet write raises.

A form's key is stored bound to its sheet and to what the write does (`scoped`), so a key
another table or another write used is a new request, never a "replay" that silently
drops this one. A write that passes what it sends (`content`) has its key bound to that
too: a resend with the same answers is a Replay, the same key with other answers is
refused in plain words (KeyReused), never answered "saved" while the first answers stay.
blueprints.table.sheet_writes claims the keys in the write's unit (begin_write)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from core.errors import Refused, Replay
from core.sheets import ensure_sheet
from core.writes import applied
from models import Round, Scoresheet, Table


class SheetError(Refused):
    """A write refused in plain words at `field`: 422 for an answer to change, 409
    (`status`) where the sheet as it now stands refuses it (submitted, already full)."""

    def __init__(self, field: str | None, message: str, status: int = 422):
        super().__init__(field, message)
        self.status = status



def scoped(key: str | None, sheet: Scoresheet, *request: Any) -> str | None:
    """The stored form of a form's key: bound to this sheet and this request (what it
    writes), so a key that another table (or another write here) already used is a new
    request, never a "replay" that silently drops this one. A hash fits the 64 characters
    of AppliedRequest.key and never equals a raw key another blueprint stores there."""
    if not key:
        return None
    scope = "|".join(str(part) for part in (sheet.id, *request, key))
    return hashlib.sha256(scope.encode()).hexdigest()


class BoundKey(str):
    """A request's stored key that also names what the request sent (`content_key`):
    a resend of the same key with other answers is told apart from a true resend."""

    content_key: str


class KeyReused(SheetError):
    """The request key came back with other answers than it first carried. The first
    answers were applied; these are not, and the sender is told so rather than
    "saved"."""

    def __init__(self):
        super().__init__("sheet", "These answers are not the ones this page first sent, "
                         "and those first answers are what was saved. Nothing else was "
                         "changed: look at the sheet as it is now, and change it again if "
                         "it needs it.", status=409)


def sheet_and_key(round_: Round, table: Table, key: str | None, *request: Any,
                  games: bool = False, content: Any = None) -> tuple[Scoresheet, str | None]:
    """This round's sheet (created in the unit when missing; with its games read in the
    same query when the write changes them: `games`) and the request's stored key;
    Replay when that request was applied already (whatever it would meet now). With
    `content` (what the request sends, as JSON), the key is bound to it: the same key
    with other content raises KeyReused."""
    sheet = ensure_sheet(round_, table, games=games)
    scoped_key = scoped(key, sheet, *request)
    if scoped_key is None or content is None:
        if applied(scoped_key):
            raise Replay()
        return sheet, scoped_key
    digest = hashlib.sha256(json.dumps(content, sort_keys=True, default=str).encode())
    bound = BoundKey(scoped_key)
    bound.content_key = scoped(key, sheet, *request, "content", digest.hexdigest())
    if applied(bound.content_key):
        raise Replay()
    if applied(bound):
        raise KeyReused()
    return sheet, bound
