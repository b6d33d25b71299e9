"""Rounds with their clock instants, and who sits where in each round.

The clock columns are exactly the fields of tournament.clock.RoundClock, so the clock
survives a server restart: nothing about it lives in a process."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .base import SEAT_CHECK, UTCDateTime, db


class Round(db.Model):
    __tablename__ = "round"
    __table_args__ = (
        UniqueConstraint("tournament_id", "number"),
        CheckConstraint("number >= 1", name="number_positive"),
        CheckConstraint("duration_seconds >= 0", name="duration_not_negative"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id", ondelete="CASCADE"))
    number: Mapped[int]
    duration_seconds: Mapped[int] = mapped_column(default=50 * 60)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    paused_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    paused_seconds: Mapped[int] = mapped_column(default=0)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    pause_reason: Mapped[str] = mapped_column(String(200), default="")
    # Bumped on every clock action; polling clients send the version they show.
    clock_version: Mapped[int] = mapped_column(default=0)

    tournament: Mapped[Tournament] = relationship(back_populates="round_list")  # noqa: F821
    seats: Mapped[list[Seating]] = relationship(
        back_populates="round", cascade="all, delete-orphan"
    )


class Seating(db.Model):
    __tablename__ = "seating"
    __table_args__ = (
        UniqueConstraint("round_id", "table_id", "seat"),
        UniqueConstraint("round_id", "player_id"),
        CheckConstraint(SEAT_CHECK, name="seat"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("round.id", ondelete="CASCADE"))
    table_id: Mapped[int] = mapped_column(ForeignKey("table.id", ondelete="CASCADE"), index=True)
    seat: Mapped[str] = mapped_column(String(1))
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"), index=True)

    round: Mapped[Round] = relationship(back_populates="seats")
    table: Mapped[Table] = relationship()  # noqa: F821
    player: Mapped[Player] = relationship()  # noqa: F821
