"""A tournament, the people who staff it, its competitions, announcements and tiebreaks.

`rules` holds the tournament's own copy of a preset (tournament.rules.RuleSet.to_dict()),
so a director's edits never touch the preset and a finished event keeps its numbers."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import JSON, CheckConstraint, Date, ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .base import UTCDateTime, db, utcnow

ROLES = ("director", "co-director", "table-guide", "scorer")


class Tournament(db.Model):
    __tablename__ = "tournament"
    __table_args__ = (
        CheckConstraint("rounds >= 1", name="rounds_positive"),
        CheckConstraint("games_per_round >= 1", name="games_positive"),
        CheckConstraint("round_minutes >= 1", name="minutes_positive"),
        CheckConstraint("prize_places >= 0", name="prize_places_not_negative"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True)
    name: Mapped[str] = mapped_column(String(120))
    starts_on: Mapped[date | None] = mapped_column(Date)
    ends_on: Mapped[date | None] = mapped_column(Date)
    venue: Mapped[str] = mapped_column(String(200), default="")
    preset: Mapped[str] = mapped_column(String(32))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    rounds: Mapped[int] = mapped_column(default=3)
    games_per_round: Mapped[int] = mapped_column(default=4)
    round_minutes: Mapped[int] = mapped_column(default=50)
    prize_places: Mapped[int] = mapped_column(default=3)
    # How round 1 was seated: "draw" (random, with its seed kept) or "number".
    seating_method: Mapped[str | None] = mapped_column(String(16))
    seating_seed: Mapped[int | None]
    # The organiser's own seating for every round, where the rules' movement is "imported":
    # {"2": {"1": {"E": player id, ...}, ...}, ...} (JSON keys are text). Loaded when read:
    # a 600-player, 12-round import is about 94 KB of JSON, and every table page loads its
    # tournament but reads the seating only to say where a seat goes next.
    imported_seating: Mapped[dict[str, Any] | None] = mapped_column(JSON, deferred=True)
    # How players move after each round (tournament.movement.Movement.to_dict()): each
    # seat's move or a fresh draw. None: the usual East-stays movement, as every tournament
    # had before a movement could be chosen. The rules' "movement" still says whether the
    # organiser's imported seating is used instead.
    movement: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # The address phones reach this site on (QR codes, printed cards, the big screen);
    # None: BASE_URL, else the address of the request.
    public_url: Mapped[str | None] = mapped_column(String(200))
    # Counts changes to the players (added, renamed, renumbered, withdrawn, a substitute
    # named): the live parts' fingerprints include it, so a part that shows names
    # refreshes when one is corrected (blueprints.director.common.players_changed).
    players_version: Mapped[int] = mapped_column(default=0, server_default="0")
    # When the director last saved the rules page (None: never, or a preset applied since):
    # her to-do keeps "check the rules" until then.
    rules_checked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    staff: Mapped[list[TournamentStaff]] = relationship(
        back_populates="tournament", cascade="all, delete-orphan"
    )
    players: Mapped[list[Player]] = relationship(  # noqa: F821
        back_populates="tournament", cascade="all, delete-orphan", order_by="Player.number"
    )
    tables: Mapped[list[Table]] = relationship(  # noqa: F821
        back_populates="tournament", cascade="all, delete-orphan", order_by="Table.number"
    )
    round_list: Mapped[list[Round]] = relationship(  # noqa: F821
        back_populates="tournament", cascade="all, delete-orphan", order_by="Round.number"
    )
    competitions: Mapped[list[Competition]] = relationship(
        back_populates="tournament", cascade="all, delete-orphan",
        order_by="Competition.first_round",
    )


class TournamentStaff(db.Model):
    __tablename__ = "tournament_staff"
    __table_args__ = (
        UniqueConstraint("tournament_id", "user_id"),
        CheckConstraint("role IN ('director', 'co-director', 'table-guide', 'scorer')",
                        name="role"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(16))

    tournament: Mapped[Tournament] = relationship(back_populates="staff")
    user: Mapped[User] = relationship(back_populates="staff")  # noqa: F821


class Competition(db.Model):
    """A ranking over a range of rounds: a session, or a mini tournament whose
    entrants opt in (Destination's paid mini over rounds 10-12). The main standings
    over all rounds are implicit and have no row."""

    __tablename__ = "competition"
    __table_args__ = (
        CheckConstraint("kind IN ('session', 'mini')", name="kind"),
        CheckConstraint("first_round >= 1 AND last_round >= first_round", name="round_range"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(80))
    first_round: Mapped[int]
    last_round: Mapped[int]
    entrants_only: Mapped[bool] = mapped_column(default=False)

    tournament: Mapped[Tournament] = relationship(back_populates="competitions")
    entries: Mapped[list[CompetitionEntry]] = relationship(
        back_populates="competition", cascade="all, delete-orphan"
    )


class CompetitionEntry(db.Model):
    __tablename__ = "competition_entry"
    __table_args__ = (UniqueConstraint("competition_id", "player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    competition_id: Mapped[int] = mapped_column(
        ForeignKey("competition.id", ondelete="CASCADE")
    )
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"))

    competition: Mapped[Competition] = relationship(back_populates="entries")


class Announcement(db.Model):
    """A message the director posts to the big screen."""

    __tablename__ = "announcement"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournament.id", ondelete="CASCADE"), index=True
    )
    text: Mapped[str] = mapped_column(String(280))
    active: Mapped[bool] = mapped_column(default=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))


class Tiebreak(db.Model):
    """A recorded order for one tie group (Hidden Tile's tile-bag draw)."""

    __tablename__ = "tiebreak"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournament.id", ondelete="CASCADE"), index=True
    )
    # "main" or "competition:<id>"
    competition_key: Mapped[str] = mapped_column(String(32), default="main")
    player_ids: Mapped[list[int]] = mapped_column(JSON)
    note: Mapped[str] = mapped_column(Text, default="")
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    recorded_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("user.id", ondelete="SET NULL")
    )
