"""Staff invitations, as both sides see them: the director hands out a link (join the
staff, or set a new password), its owner opens it. How long a link lives, how one is made
(only the secret's hash is kept) and whose password a director may have reset."""

from __future__ import annotations

from datetime import timedelta

from flask import current_app
from sqlalchemy import select

from models import StaffInvitation, TournamentStaff, User, db, utcnow
from models.invitation import new_secret

# Long enough to set up staff the week before an event; short enough that a link left in
# a drawer or on a printed sheet after the event is dead.
DEFAULT_LIFETIME = timedelta(days=7)


def invitation_lifetime() -> timedelta:
    return current_app.config.get("INVITATION_LIFETIME", DEFAULT_LIFETIME)


def may_reset_password(director: User | None, account: User) -> bool:
    """Whether `director` directs every tournament `account` works on. Only then may they
    hand out a new password for it: otherwise they could take over an account that opens
    someone else's tournament."""
    if director is None:
        return False
    directed = select(TournamentStaff.tournament_id).where(
        TournamentStaff.user_id == director.id, TournamentStaff.role == "director")
    elsewhere = db.session.scalar(select(TournamentStaff.id).where(
        TournamentStaff.user_id == account.id,
        TournamentStaff.tournament_id.not_in(directed)).limit(1))
    return elsewhere is None


def issue(tournament_id: int, issuer: User, *, purpose: str, email: str, role: str,
          account: User | None = None) -> tuple[StaffInvitation, str]:
    """A new invitation ("join" or "reset") and its one-time secret, for the link; only
    the secret's hash is stored."""
    secret, hashed = new_secret()
    invitation = StaffInvitation(
        tournament_id=tournament_id, purpose=purpose, email=email, role=role,
        user_id=account.id if account is not None else None, secret_hash=hashed,
        expires_at=utcnow() + invitation_lifetime(), created_by_id=issuer.id)
    db.session.add(invitation)
    db.session.flush()
    return invitation, secret
