"""Readers of what happened around the play: the calls to the director, the
announcements, and the director's recorded tie-breaks."""

from __future__ import annotations

from models import (
    CALL_REASONS,
    Announcement,
    DirectorCall,
    Tiebreak,
    db,
)

from .checks import (
    CALL_STATES,
    LONG_TEXT,
    BackupError,
    _bool,
    _choice,
    _entries,
    _instant,
    _int,
    _text,
)
from .read_tournament import Into


def read_calls(data: dict, into: Into) -> None:
    tid, tables, rounds, calls = into.tid, into.tables, into.rounds, into.calls
    for entry in _entries(data, "calls"):
        call = DirectorCall(
            tournament_id=tid, table_id=tables[entry["table"]].id,
            round_id=rounds[entry["round"]].id if entry.get("round") is not None else None,
            reason=_choice(entry.get("reason", ""), "A call's reason",
                           ("", *CALL_REASONS)),
            note=_text(entry.get("note"), "A call's note", 280),
            state=_choice(entry.get("state"), "A call's state", CALL_STATES),
            needs_director=_bool(entry.get("needs_director", False), "Needs the director"),
            called_at=_instant(entry.get("called_at")),
            first_claimed_at=_instant(entry.get("first_claimed_at")),
            resolved_at=_instant(entry.get("resolved_at")),
            ruling=_text(entry.get("ruling"), "A ruling", LONG_TEXT, lines=True),
            cancelled_at=_instant(entry.get("cancelled_at")),
            updated_at=_instant(entry.get("updated_at")),
            version=_int(entry.get("version", 1), "A call's version", 1))
        db.session.add(call)
        calls.append(call)


def read_announcements(data: dict, into: Into) -> None:
    tid, announcements = into.tid, into.announcements
    for entry in _entries(data, "announcements"):
        announcement = Announcement(
            tournament_id=tid, text=_text(entry.get("text"), "An announcement", 280,
                                          required=True),
            active=_bool(entry.get("active"), "An announcement's state"),
            created_at=_instant(entry.get("created_at")))
        db.session.add(announcement)
        announcements.append(announcement)
    db.session.flush()  # the tie-breaks and the audit name these rows by their ids


def read_tiebreaks(data: dict, into: Into) -> None:
    tid, players, competitions = into.tid, into.players, into.competitions
    tiebreaks = into.tiebreaks

    def competition_key(ref) -> str:
        if ref == "main":
            return ref
        if isinstance(ref, str) and ref.startswith("competition#") and ref[12:].isdecimal() \
                and len(ref) < 20 and int(ref[12:]) < len(competitions):
            return f"competition:{competitions[int(ref[12:])].id}"
        raise BackupError("A tie-break in this backup names no competition of it.")

    tiebreaks = []
    for entry in _entries(data, "tiebreaks"):
        order = entry.get("players")
        if not isinstance(order, list):
            raise BackupError("A tie-break's players in this backup are damaged.")
        tiebreak = Tiebreak(
            tournament_id=tid, competition_key=competition_key(entry.get("competition")),
            player_ids=[players[n].id for n in order],
            note=_text(entry.get("note"), "A tie-break's note", LONG_TEXT, lines=True),
            recorded_at=_instant(entry.get("recorded_at")))
        db.session.add(tiebreak)
        tiebreaks.append(tiebreak)
    db.session.flush()
