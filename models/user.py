"""Accounts: people who sign in (directors, co-directors, table guides) and failed sign-ins.

Players never sign in; a table is reached by its secret link (see models.table)."""

from __future__ import annotations

from datetime import datetime

from flask import current_app, has_app_context
from flask_login import UserMixin
from sqlalchemy import Index, String, false
from sqlalchemy.orm import Mapped, mapped_column, relationship
from werkzeug.security import check_password_hash, generate_password_hash

from .base import UTCDateTime, db, utcnow
from .password_policy import WeakPassword, password_problem


class User(UserMixin, db.Model):
    __tablename__ = "user"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    name: Mapped[str] = mapped_column(String(120))
    password_hash: Mapped[str] = mapped_column(String(256))
    # Part of the id kept in every session cookie: raising it ends every session of this
    # account at its next request (sign-out, a new password, removal from a staff).
    session_version: Mapped[int] = mapped_column(default=1, server_default="1")
    # Creating a tournament makes one its director, and importing a backup creates one: on
    # a hosted site the operator grants this (cli.py), never an invitation to a staff.
    may_create_tournaments: Mapped[bool] = mapped_column(default=False,
                                                         server_default=false())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    staff: Mapped[list[TournamentStaff]] = relationship(  # noqa: F821
        back_populates="user", cascade="all, delete-orphan"
    )

    def set_password(self, password: str) -> None:
        """Raises WeakPassword for one the policy refuses (see models.password_policy)."""
        if problem := password_problem(password):
            raise WeakPassword(problem)
        # Production keeps werkzeug's scrypt; the test suite sets a cheap method because
        # hashing once per test fixture cost minutes of every run.
        method = "scrypt"
        if has_app_context():
            method = current_app.config.get("PASSWORD_HASH_METHOD", "scrypt")
        self.password_hash = generate_password_hash(password, method=method)
        self.end_sessions()

    def end_sessions(self) -> None:
        """Sign this account out everywhere, e.g. on a phone someone else copied a cookie
        from; the caller commits."""
        self.session_version = (self.session_version or 0) + 1

    def get_id(self) -> str:
        return f"{self.id}.{self.session_version}"

    def check_password(self, password: str) -> bool:
        return check_password_hash(self.password_hash, password)


class LoginAttempt(db.Model):
    """One failed sign-in. Kept in the database, not in a worker's memory, so the rate
    limit holds across gunicorn workers and hosts."""

    __tablename__ = "login_attempt"
    __table_args__ = (Index("ix_login_attempt_email_at", "email", "at"),
                      Index("ix_login_attempt_remote_addr_at", "remote_addr", "at"),
                      Index("ix_login_attempt_at", "at"))

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254))
    remote_addr: Mapped[str] = mapped_column(String(64), default="")
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
