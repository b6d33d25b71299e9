"""Accounts, sign-in with a rate limit kept in the database, and staff access checks.

A director sees only the tournaments they staff: `staff_tournament` answers 404 (not 403)
for any other, so the URL does not even confirm that the tournament exists."""

from __future__ import annotations

import secrets
from datetime import timedelta

from flask import abort, current_app
from flask_login import current_user
from sqlalchemy import delete, func, select

from models import LoginAttempt, Tournament, TournamentStaff, User, db, utcnow

# Which roles may do what. Table guides take calls and verify sheets; only directors and
# co-directors change the tournament, seating, rules or locked sheets.
MANAGE = ("director", "co-director")
ANY_STAFF = ("director", "co-director", "table-guide")


class TooManyAttempts(Exception):
    pass


def create_user(email: str, name: str, password: str | None = None) -> tuple[User, str]:
    """Create an account; returns it and its password (generated when none is given)."""
    password = password or secrets.token_urlsafe(9)
    user = User(email=email.strip().lower(), name=name.strip() or email.split("@")[0])
    user.set_password(password)
    db.session.add(user)
    return user, password


def authenticate(email: str, password: str, remote_addr: str = "") -> User | None:
    """The user for these credentials, or None. Raises TooManyAttempts once an email has
    failed LOGIN_ATTEMPTS times from this address within the window, before even checking
    the password. Counting per email *and* address means someone guessing at a director's
    password from their own phone cannot lock the director out mid-event."""
    email = email.strip().lower()
    window = timedelta(seconds=current_app.config["LOGIN_WINDOW_SECONDS"])
    since = utcnow() - window
    failures = db.session.scalar(
        select(func.count()).select_from(LoginAttempt)
        .where(LoginAttempt.email == email, LoginAttempt.remote_addr == remote_addr[:64],
               LoginAttempt.at >= since)
    )
    if failures >= current_app.config["LOGIN_ATTEMPTS"]:
        raise TooManyAttempts()
    user = db.session.scalar(select(User).where(User.email == email))
    if user is not None and user.check_password(password):
        db.session.execute(delete(LoginAttempt).where(LoginAttempt.email == email))
        db.session.commit()
        return user
    db.session.add(LoginAttempt(email=email, remote_addr=remote_addr[:64]))
    db.session.commit()
    return None


def load_user(user_id: str) -> User | None:
    return db.session.get(User, int(user_id))


def staff_role(tournament: Tournament, user=None) -> str | None:
    user = user or current_user
    if not getattr(user, "is_authenticated", False):
        return None
    return db.session.scalar(
        select(TournamentStaff.role).where(
            TournamentStaff.tournament_id == tournament.id, TournamentStaff.user_id == user.id
        )
    )


def staff_tournament(tournament_id: int, roles=ANY_STAFF) -> Tournament:
    """The tournament if the signed-in user staffs it in one of `roles`; else 404 for a
    tournament they do not staff, 403 for one they staff with too few rights."""
    tournament = db.session.get(Tournament, tournament_id)
    if tournament is None:
        abort(404)
    role = staff_role(tournament)
    if role is None:
        abort(404)
    if role not in roles:
        abort(403)
    return tournament


def my_tournaments(user) -> list[tuple[Tournament, str]]:
    rows = db.session.execute(
        select(Tournament, TournamentStaff.role)
        .join(TournamentStaff, TournamentStaff.tournament_id == Tournament.id)
        .where(TournamentStaff.user_id == user.id)
        .order_by(Tournament.starts_on.desc().nulls_last(), Tournament.id.desc())
    )
    return [(t, role) for t, role in rows]
