"""Reader of the audit trail: its words kept as written, its subjects ("round#3") turned
into the new rows' ids, and no row claiming an account of this site."""

from __future__ import annotations

from models import (
    AuditEvent,
    db,
)

from .checks import (
    LONG_TEXT,
    SUBJECT,
    SUBJECT_KINDS,
    _entries,
    _instant,
    _shallow,
    _text,
)
from .read_tournament import Into


def read_audit(data: dict, into: Into) -> None:
    tid, players, tables, rounds = into.tid, into.players, into.tables, into.rounds
    sheets, calls, competitions = into.sheets, into.calls, into.competitions
    tiebreaks, announcements = into.tiebreaks, into.announcements
    ids = {
        "tournament": lambda n: tid, "player": lambda n: players[int(n)].id,
        "table": lambda n: tables[int(n)].id, "round": lambda n: rounds[int(n)].id,
        "sheet": lambda n: sheets[n].id, "call": lambda n: calls[int(n)].id,
        "competition": lambda n: competitions[int(n)].id,
        "tiebreak": lambda n: tiebreaks[int(n)].id,
        "announcement": lambda n: announcements[int(n)].id,
    }

    def subject(text: str) -> str:
        match = SUBJECT.match(text or "")
        if not match or match.group(2) != "#" or match.group(1) not in SUBJECT_KINDS:
            return text
        kind = match.group(1)
        try:
            return f"{kind}:{ids[SUBJECT_KINDS[kind]](match.group(3))}"
        except (KeyError, ValueError, IndexError):
            return text

    # The audit trail keeps its words (who did what, as written then) but no row claims an
    # account of this site: actor_user_id is left empty, as for rows of deleted accounts.
    for entry in _entries(data, "audit"):
        db.session.add(AuditEvent(
            tournament_id=tid, at=_instant(entry.get("at"), "An audit time", required=True),
            actor=_text(entry.get("actor"), "An audit row's actor", 120),
            action=_text(entry.get("action"), "An audit action", 64, required=True),
            subject=subject(_text(entry.get("subject"), "An audit subject", 64)),
            before=_shallow(entry.get("before"), "An audit row"),
            after=_shallow(entry.get("after"), "An audit row"),
            reason=_text(entry.get("reason"), "An audit reason", LONG_TEXT, lines=True)))
