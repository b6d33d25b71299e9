"""Calls for the director from a table, and who claimed them.

The queue is read from these rows alone, so every worker and host sees the same queue."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .base import UTCDateTime, db, utcnow

CALL_REASONS = {
    "ruling": "Ruling question",
    "scoring": "Scoring",
    "dead_hand": "Dead-hand claim",
    "misnamed_tile": "Misnamed tile",
    "tile_count": "Tile count",
    "joker_exchange": "Joker exchange",
    "conduct": "Conduct",
    "other": "Other",
}
CALL_STATES = ("open", "claimed", "resolved", "cancelled")


class DirectorCall(db.Model):
    __tablename__ = "director_call"
    __table_args__ = (
        CheckConstraint("state IN ('open', 'claimed', 'resolved', 'cancelled')", name="state"),
        Index("ix_director_call_tournament_state", "tournament_id", "state"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id", ondelete="CASCADE"))
    table_id: Mapped[int] = mapped_column(ForeignKey("table.id", ondelete="CASCADE"), index=True)
    round_id: Mapped[int | None] = mapped_column(ForeignKey("round.id", ondelete="SET NULL"))
    reason: Mapped[str] = mapped_column(String(32), default="")
    note: Mapped[str] = mapped_column(String(280), default="")
    state: Mapped[str] = mapped_column(String(16), default="open")
    # A table guide hands a call on to a director.
    needs_director: Mapped[bool] = mapped_column(default=False)
    called_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    first_claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    resolved_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    resolved_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    ruling: Mapped[str] = mapped_column(Text, default="")
    cancelled_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)
    version: Mapped[int] = mapped_column(default=1)

    table: Mapped[Table] = relationship()  # noqa: F821
    claims: Mapped[list[CallClaim]] = relationship(
        back_populates="call", cascade="all, delete-orphan", order_by="CallClaim.claimed_at"
    )


class CallClaim(db.Model):
    """A director or guide saying "I'm going"; several may claim one call."""

    __tablename__ = "call_claim"

    id: Mapped[int] = mapped_column(primary_key=True)
    call_id: Mapped[int] = mapped_column(
        ForeignKey("director_call.id", ondelete="CASCADE"), index=True
    )
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"))
    claimed_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    released_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    call: Mapped[DirectorCall] = relationship(back_populates="claims")
    user: Mapped[User] = relationship()  # noqa: F821
