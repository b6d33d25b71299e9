"""A one-time link that lets one person join a tournament's staff, or set a new password.

Staff accounts belong to the people who use them: a director never chooses or sees
another person's password. The director gets a link (shown once, printable as a QR code)
and hands it over; whoever opens it sets their own password, or, when the email already
has an account, signs in as that account to accept. Only a SHA-256 of the link's secret is
stored, so a copy of the database holds no usable link."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .base import UTCDateTime, db, utcnow

# "join": become staff of the tournament in `role` (the account is made, or proven, when
# the link is opened). "reset": `user` sets a new password.
PURPOSES = ("join", "reset")


def new_secret() -> tuple[str, str]:
    """A fresh link secret and the hash that is stored in its place."""
    secret = secrets.token_urlsafe(32)
    return secret, secret_hash(secret)


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


class StaffInvitation(db.Model):
    __tablename__ = "staff_invitation"
    __table_args__ = (
        CheckConstraint("purpose IN ('join', 'reset')", name="purpose"),
        CheckConstraint("role IN ('director', 'co-director', 'table-guide', 'scorer')",
                        name="role"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournament.id", ondelete="CASCADE"), index=True)
    purpose: Mapped[str] = mapped_column(String(8))
    email: Mapped[str] = mapped_column(String(254))
    role: Mapped[str] = mapped_column(String(16))
    # The account whose password a "reset" link sets; none for "join".
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("user.id", ondelete="CASCADE"), index=True)
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))

    tournament: Mapped[Tournament] = relationship()  # noqa: F821
    user: Mapped[User | None] = relationship(foreign_keys=[user_id])  # noqa: F821

    def usable(self, now: datetime | None = None) -> bool:
        return self.used_at is None and (now or utcnow()) < self.expires_at
