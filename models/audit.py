"""The audit trail: who changed what, when, from what to what, and why.

`record()` adds the row to the current session; the caller's transaction commits it
together with the change it describes, so there is never a change without its row."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from .base import UTCDateTime, db, utcnow


class AuditEvent(db.Model):
    __tablename__ = "audit_event"
    __table_args__ = (Index("ix_audit_event_tournament_at", "tournament_id", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int | None] = mapped_column(
        ForeignKey("tournament.id", ondelete="CASCADE")
    )
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    actor_user_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    # Who, in words: "Ann Lee (director)", "Table 7 (East)".
    actor: Mapped[str] = mapped_column(String(120), default="")
    action: Mapped[str] = mapped_column(String(64))
    subject: Mapped[str] = mapped_column(String(64), default="")
    before: Mapped[Any | None] = mapped_column(JSON)
    after: Mapped[Any | None] = mapped_column(JSON)
    reason: Mapped[str] = mapped_column(Text, default="")


def record(
    action: str,
    *,
    tournament_id: int | None,
    subject: str = "",
    before: Any = None,
    after: Any = None,
    reason: str = "",
    actor: str = "",
    actor_user_id: int | None = None,
) -> AuditEvent:
    """Add an audit row to the session; it commits with the caller's change."""
    event = AuditEvent(
        tournament_id=tournament_id, action=action[:64], subject=subject[:64], before=before,
        after=after, reason=reason, actor=actor[:120], actor_user_id=actor_user_id,
        at=utcnow(),
    )
    db.session.add(event)
    return event
