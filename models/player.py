"""Players and substitutions.

A substitute plays a withdrawn player's seat from a given round on; the substitute is
never ranked, and the withdrawn player's later games score nothing for them because the
seats (models.round.Seating) name the substitute from that round."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, String, UniqueConstraint
from sqlalchemy import false as sa_false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .base import UTCDateTime, db, utcnow


class Player(db.Model):
    __tablename__ = "player"
    __table_args__ = (
        UniqueConstraint("tournament_id", "number"),
        CheckConstraint("number >= 1", name="number_positive"),
        CheckConstraint("arrival IN ('here', 'late', 'absent')", name="arrival"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id", ondelete="CASCADE"))
    number: Mapped[int]
    name: Mapped[str] = mapped_column(String(120))
    is_substitute: Mapped[bool] = mapped_column(default=False)
    # Set when the player leaves: they play no round from this one on.
    withdrawn_from_round: Mapped[int | None]
    # At the door: None while expected, then "here", "late" (on the way) or "absent" (not
    # coming), with when it was last marked; blueprints.director.checkin keeps them.
    arrival: Mapped[str | None] = mapped_column(String(8))
    arrival_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # The entry fee as the import carried it ("$40"; "" when it carried none), and whether
    # it is paid: the printed check-in list's paid/due column.
    fee: Mapped[str] = mapped_column(String(20), default="", server_default="")
    paid: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    tournament: Mapped[Tournament] = relationship(back_populates="players")  # noqa: F821


class Substitution(db.Model):
    __tablename__ = "substitution"
    __table_args__ = (
        UniqueConstraint("tournament_id", "player_id"),
        CheckConstraint("from_round >= 1", name="from_round_positive"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"))
    substitute_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"))
    from_round: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
