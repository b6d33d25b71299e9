"""A physical table and the secret token in its QR link."""

from __future__ import annotations

import secrets
from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .base import UTCDateTime, db


def new_token() -> str:
    # 16 bytes -> 22 URL-safe characters: unguessable, still short enough for a QR code.
    return secrets.token_urlsafe(16)


class Table(db.Model):
    __tablename__ = "table"
    __table_args__ = (
        UniqueConstraint("tournament_id", "number"),
        CheckConstraint("number >= 1", name="number_positive"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id", ondelete="CASCADE"))
    number: Mapped[int]
    token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    token_rotated_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    tournament: Mapped[Tournament] = relationship(back_populates="tables")  # noqa: F821
