"""Opening a staff invitation link: join a tournament's staff, or set a new password.

How a link is made is core.invitations (the director's staff page hands them out); this
module decides what a link may do when it is opened. A link is spent by one conditional
UPDATE, so two people opening it at the same moment cannot both use it. Each use is one
core.writes unit, with its audit row."""

from __future__ import annotations

from sqlalchemy import select, update

from core.errors import Refused
from core.invitations import may_reset_password
from core.words import staff_actor, unshowable
from core.writes import write
from models import StaffInvitation, TournamentStaff, User, db, record, utcnow
from models.invitation import secret_hash

# token_urlsafe(32) is 43 characters: anything much longer is not one of ours.
MAX_SECRET = 100


class InvitationError(Refused):
    """An invitation that cannot be used as asked, at `field` (None: the whole form); the
    message says why in plain words."""


def find(secret: str | None) -> StaffInvitation | None:
    """The open invitation whose link carries `secret`, or None (unknown, used, expired)."""
    if not secret or len(secret) > MAX_SECRET:
        return None
    invitation = db.session.scalar(
        select(StaffInvitation).where(StaffInvitation.secret_hash == secret_hash(secret)))
    if invitation is None or not invitation.usable():
        return None
    return invitation


def account_for(invitation: StaffInvitation) -> User | None:
    """The account this invitation concerns, if there is one yet."""
    if invitation.purpose == "reset":
        return invitation.user
    return db.session.scalar(select(User).where(User.email == invitation.email))


def clean_name(name: str) -> str:
    name = (name or "").strip()
    if unshowable(name):
        raise InvitationError("name",
                              "Your name has characters in it that cannot be shown; please "
                              "retype it.")
    return name


def _spend(invitation: StaffInvitation) -> None:
    spent = db.session.execute(
        update(StaffInvitation)
        .where(StaffInvitation.id == invitation.id, StaffInvitation.used_at.is_(None))
        .values(used_at=utcnow()))
    if spent.rowcount != 1:
        raise InvitationError(None, "This invitation link has just been used.")


def _join(invitation: StaffInvitation, account: User) -> None:
    _spend(invitation)
    already = db.session.scalar(select(TournamentStaff).where(
        TournamentStaff.tournament_id == invitation.tournament_id,
        TournamentStaff.user_id == account.id))
    if already is None:
        db.session.add(TournamentStaff(tournament_id=invitation.tournament_id,
                                       user_id=account.id, role=invitation.role))
    db.session.flush()
    record("staff.add", tournament_id=invitation.tournament_id, subject=f"user:{account.id}",
           after={"email": account.email, "role": invitation.role,
                  "invitation": invitation.id},
           actor=staff_actor(account, invitation.role), actor_user_id=account.id)


@write
def accept_as_new(invitation: StaffInvitation, name: str, password: str) -> User:
    """Make the invited email's account with the name and password its owner chose, and
    put it on the tournament's staff."""
    if invitation.purpose != "join" or account_for(invitation) is not None:
        raise InvitationError(None, "This email already has an account: sign in to accept.")
    from blueprints.auth.service import create_user

    user, _ = create_user(invitation.email, clean_name(name), password)
    db.session.flush()
    _join(invitation, user)
    return user


@write
def accept_as(invitation: StaffInvitation, user: User) -> None:
    """Put the signed-in `user` on the staff, when the invitation is for their email."""
    if invitation.purpose != "join" or user.email != invitation.email:
        raise InvitationError(None, "This invitation is for another account.")
    _join(invitation, user)


@write
def set_password(invitation: StaffInvitation, password: str) -> User:
    """Give the account of a password link the password its owner chose. Checked again
    now, not only when the link was made: the account may since have been given a role
    elsewhere, or been taken off this tournament."""
    account = account_for(invitation)
    role = db.session.scalar(select(TournamentStaff.role).where(
        TournamentStaff.tournament_id == invitation.tournament_id,
        TournamentStaff.user_id == invitation.user_id)) if account is not None else None
    issuer = db.session.get(User, invitation.created_by_id) if invitation.created_by_id \
        else None
    if invitation.purpose != "reset" or role not in ("co-director", "table-guide", "scorer") \
            or not may_reset_password(issuer, account):
        raise InvitationError(None, "This link can no longer change that password. Ask "
                                    "the director for a new one.")
    _spend(invitation)
    account.set_password(password)
    record("user.password_reset", tournament_id=invitation.tournament_id,
           subject=f"user:{account.id}", after={"invitation": invitation.id},
           actor=staff_actor(account, role), actor_user_id=account.id)
    return account
