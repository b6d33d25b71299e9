"""A table's scoresheet for one round, its games, the players' initials on their totals,
and the keys of requests already applied (so a resent save is applied once).

Points are stored beside the game record so standings are one query; they are always
what tournament.scoring.score_game gives for the record under the tournament's rules."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    CheckConstraint,
    ForeignKey,
    String,
    Text,
    UniqueConstraint,
    event,
    inspect,
)
from sqlalchemy.orm import Mapped, Session, mapped_column, relationship

from .base import SEAT_CHECK, SEATS, UTCDateTime, db, utcnow

SHEET_STATES = ("open", "submitted", "verified")


class Scoresheet(db.Model):
    __tablename__ = "scoresheet"
    __table_args__ = (
        UniqueConstraint("round_id", "table_id"),
        CheckConstraint("state IN ('open', 'submitted', 'verified')", name="state"),
        CheckConstraint("version >= 1", name="version_positive"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("round.id", ondelete="CASCADE"), index=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("table.id", ondelete="CASCADE"), index=True)
    # Every change bumps the version; a save against an older version is refused (409).
    version: Mapped[int] = mapped_column(default=1)
    state: Mapped[str] = mapped_column(String(16), default="open")
    submitted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    submitted_by: Mapped[str] = mapped_column(String(80), default="")
    verified_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    verified_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    amended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    amended_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    amend_reason: Mapped[str] = mapped_column(Text, default="")
    # West's check of East's sheet before it is submitted, where the rule set asks for it
    # (Destination: "West will also receive Easts sheet to verify their score").
    west_checked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    west_initials: Mapped[str] = mapped_column(String(8), default="")
    # Director adjustments (from a call's ruling) for a game East has not saved yet:
    # [{"game": 2, "seat": "N", "points": -10, "reason": "..."}]; merged into that game's
    # record's "adjustments" when it is saved.
    pending_adjustments: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    # The director has this table score the round on paper (no phone, no Wi-Fi): its page
    # offers no entry, and the front desk keys the sheet in.
    on_paper: Mapped[bool] = mapped_column(default=False, server_default="0")
    # The seats whose player said "this is me" on their own phone this round: East's
    # phone then says it waits for them. Which phone is whose is that phone's own cookie;
    # a column a seat, so four phones claiming at once each write only their own.
    phone_e: Mapped[bool] = mapped_column(default=False, server_default="0")
    phone_s: Mapped[bool] = mapped_column(default=False, server_default="0")
    phone_w: Mapped[bool] = mapped_column(default=False, server_default="0")
    phone_n: Mapped[bool] = mapped_column(default=False, server_default="0")
    # The version the last write that changed what the sheet says (not a player's
    # confirmation of it) left: East's next game, entered against an older version, is
    # still saved when only confirmations came since (players confirming on their own
    # phones while East enters it).
    content_version: Mapped[int] = mapped_column(default=0, server_default="0")
    # East's answers so far for the game East is entering ({"game", "record", "points"}),
    # kept only while a seat has its own phone, so that phone's page can show them
    # (blueprints.table.drafts); cleared when a game is saved. `draft_at` is when they were
    # last stored: the table page's poll compares it, and a draft it makes stale is not
    # shown (core.sheets.draft_mark).
    draft: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    draft_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)
    # The games summed per seat, kept by `_keep_seat_totals` on every flush that changes a
    # game, so the standings read one row per sheet instead of every game's record: how
    # many games, each seat's points, best game and games won by Mah Jongg, and whether
    # time was called (the rule set decides at read time what that does to the wins).
    games_count: Mapped[int] = mapped_column(default=0, server_default="0")
    total_e: Mapped[int] = mapped_column(default=0, server_default="0")
    total_s: Mapped[int] = mapped_column(default=0, server_default="0")
    total_w: Mapped[int] = mapped_column(default=0, server_default="0")
    total_n: Mapped[int] = mapped_column(default=0, server_default="0")
    best_e: Mapped[int | None]
    best_s: Mapped[int | None]
    best_w: Mapped[int | None]
    best_n: Mapped[int | None]
    won_e: Mapped[int] = mapped_column(default=0, server_default="0")
    won_s: Mapped[int] = mapped_column(default=0, server_default="0")
    won_w: Mapped[int] = mapped_column(default=0, server_default="0")
    won_n: Mapped[int] = mapped_column(default=0, server_default="0")
    time_called: Mapped[bool] = mapped_column(default=False, server_default="0")

    round: Mapped[Round] = relationship()  # noqa: F821
    table: Mapped[Table] = relationship()  # noqa: F821
    games: Mapped[list[GameEntry]] = relationship(
        back_populates="sheet", cascade="all, delete-orphan", order_by="GameEntry.number"
    )
    signoffs: Mapped[list[RoundSignoff]] = relationship(
        back_populates="sheet", cascade="all, delete-orphan"
    )


class GameEntry(db.Model):
    __tablename__ = "game_entry"
    __table_args__ = (
        UniqueConstraint("sheet_id", "number"),
        CheckConstraint("number >= 1", name="number_positive"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    sheet_id: Mapped[int] = mapped_column(ForeignKey("scoresheet.id", ondelete="CASCADE"))
    number: Mapped[int]
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    points_e: Mapped[int] = mapped_column(default=0)
    points_s: Mapped[int] = mapped_column(default=0)
    points_w: Mapped[int] = mapped_column(default=0)
    points_n: Mapped[int] = mapped_column(default=0)
    # The seat who had to initial this game (tournament.scoring.signer) and what they wrote.
    signer: Mapped[str | None] = mapped_column(String(1))
    initials: Mapped[str] = mapped_column(String(8), default="")
    note: Mapped[str] = mapped_column(String(280), default="")
    # Every player's initials on this game where the rule set has each player sign each game
    # ({"S": "RA", ...}); cleared when the game's scores change.
    seat_initials: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)
    # When a director last amended (or entered) this game: the director's ruling is final
    # under every rule set, so from then on only a director changes it.
    ruled_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # That change's written reason, kept with the game: a second ruling on the sheet (the
    # sheet keeps only its latest reason) must not hide the first from the table and the
    # players.
    ruling: Mapped[str] = mapped_column(Text, default="", server_default="")
    ruled_by: Mapped[str] = mapped_column(String(120), default="", server_default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    sheet: Mapped[Scoresheet] = relationship(back_populates="games")

    @property
    def points(self) -> dict[str, int]:
        return {"E": self.points_e, "S": self.points_s, "W": self.points_w, "N": self.points_n}

    @points.setter
    def points(self, value: dict[str, int]) -> None:
        self.points_e, self.points_s = value["E"], value["S"]
        self.points_w, self.points_n = value["W"], value["N"]


class RoundSignoff(db.Model):
    """A player's initials beside their round total."""

    __tablename__ = "round_signoff"
    __table_args__ = (
        UniqueConstraint("sheet_id", "seat"),
        CheckConstraint(SEAT_CHECK, name="seat"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    sheet_id: Mapped[int] = mapped_column(ForeignKey("scoresheet.id", ondelete="CASCADE"))
    seat: Mapped[str] = mapped_column(String(1))
    initials: Mapped[str] = mapped_column(String(8))
    signed_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    sheet: Mapped[Scoresheet] = relationship(back_populates="signoffs")


class AppliedRequest(db.Model):
    """The idempotency key of a write already applied (a save, a submit, a call).

    A form carries a fresh key; a resend with the same key (double tap, retry on bad
    Wi-Fi) finds it here and changes nothing twice. Written in the same transaction as
    the change it guards."""

    __tablename__ = "applied_request"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    sheet_id: Mapped[int | None] = mapped_column(
        ForeignKey("scoresheet.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


def seat_totals(games) -> dict[str, Any]:
    """Scoresheet's summed columns for these games (GameEntry rows, or anything with
    `record` and `points_e`..`points_n`); the migration that added them uses it too."""
    values: dict[str, Any] = {"games_count": len(games), "time_called": False}
    for seat in SEATS:
        column = seat.lower()
        points = [getattr(game, f"points_{column}") or 0 for game in games]
        values[f"total_{column}"] = sum(points)
        values[f"best_{column}"] = max(points) if points else None
        values[f"won_{column}"] = sum(
            1 for game in games if (game.record or {}).get("outcome") == "mahjong"
            and (game.record or {}).get("winner") == seat)
    values["time_called"] = any((game.record or {}).get("outcome") == "time"
                                for game in games)
    return values


@event.listens_for(Session, "before_flush")
def _keep_seat_totals(session, flush_context, instances) -> None:
    """Sum again the games of every sheet whose games this flush adds, changes or deletes,
    whichever code made the change (a table's save, a director's amendment, an import)."""
    sheets: dict[Scoresheet, list[GameEntry]] = {}  # a sheet, and its games added by id
    for game in (*session.new, *session.dirty, *session.deleted):
        if isinstance(game, GameEntry):
            sheet = game.sheet
            if sheet is None and game.sheet_id is not None:
                sheet = session.get(Scoresheet, game.sheet_id)
                if sheet is not None and game in session.new and game not in sheet.games:
                    sheets.setdefault(sheet, []).append(game)
            if sheet is not None:
                sheets.setdefault(sheet, [])
    for sheet in (*session.new, *session.dirty):
        if isinstance(sheet, Scoresheet) and (
                sheet in session.new or inspect(sheet).attrs.games.history.has_changes()):
            sheets.setdefault(sheet, [])
    for sheet, added in sheets.items():
        if sheet in session.deleted:
            continue
        games = [game for game in (*sheet.games, *added) if game not in session.deleted]
        for name, value in seat_totals(games).items():
            if getattr(sheet, name) != value:
                setattr(sheet, name, value)
