"""Co-directors and table guides: invitations and password links (made by
core.invitations), the staff list, and removal."""

from __future__ import annotations

from sqlalchemy import delete, select

from core.invitations import issue, may_reset_password
from core.writes import write
from models import (
    StaffInvitation,
    Tournament,
    TournamentStaff,
    User,
    db,
)

from .common import (
    SetupError,
    audit,
    plain_text,
)

# The one place a role gets its words: the staff form, the staff list, home and overview.
STAFF_ROLES = {"director": "Director", "co-director": "Co-director",
               "table-guide": "Table guide", "scorer": "Scorer (front desk)"}


@write
def invite_staff(tournament: Tournament, user: User, *, email: str,
                 role: str) -> tuple[StaffInvitation, str]:
    """An invitation for `email` to work on this tournament in `role`, and its one-time
    secret (for the link; only its hash is kept). Nobody is attached yet: whoever opens
    the link sets their own password, or proves they own the existing account. The answer
    is the same whether or not `email` has an account, so a director learns nothing about
    other people's accounts from it."""
    if role not in STAFF_ROLES:
        raise SetupError("role", "Choose a role.")
    email = plain_text(email, "email", "The email address").lower()
    if db.session.scalar(select(TournamentStaff.id).join(User).where(
            TournamentStaff.tournament_id == tournament.id, User.email == email)) is not None:
        raise SetupError("email", "That person already works on this tournament.")
    # One open invitation per address: a new one replaces the link given out before.
    db.session.execute(delete(StaffInvitation).where(
        StaffInvitation.tournament_id == tournament.id, StaffInvitation.purpose == "join",
        StaffInvitation.email == email, StaffInvitation.used_at.is_(None)))
    invitation, secret = issue(tournament.id, user, purpose="join", email=email, role=role)
    audit(tournament, user, "staff.invite", f"invitation:{invitation.id}",
          after={"email": email, "role": role,
                 "expires_at": invitation.expires_at.isoformat()})
    return invitation, secret


@write
def password_link(tournament: Tournament, user: User,
                  staff_id: int) -> tuple[StaffInvitation, str]:
    """A one-time link with which a co-director or table guide of this tournament sets a
    new password. Refused for a director, and for anyone who also works on a tournament
    this director does not direct: a new password there would hand this director the keys
    to someone else's event."""
    staff = db.session.get(TournamentStaff, staff_id)
    if staff is None or staff.tournament_id != tournament.id:
        raise SetupError(None, "That person does not work on this tournament.")
    if staff.user_id == user.id:
        raise SetupError(None, "Change your own password from “Change my password”.")
    if staff.role == "director":
        raise SetupError(None, "Only a director can change their own password.")
    if not may_reset_password(user, staff.user):
        raise SetupError(None, f"{staff.user.name} also works on other tournaments, so only they "
                               "can change their password.")
    db.session.execute(delete(StaffInvitation).where(
        StaffInvitation.purpose == "reset", StaffInvitation.user_id == staff.user_id,
        StaffInvitation.used_at.is_(None)))
    invitation, secret = issue(tournament.id, user, purpose="reset", email=staff.user.email,
                                role=staff.role, account=staff.user)
    audit(tournament, user, "staff.password_link", f"user:{staff.user_id}",
          after={"expires_at": invitation.expires_at.isoformat()})
    return invitation, secret


def pending_invitations(tournament: Tournament) -> list[StaffInvitation]:
    """Open invitations to join this tournament, newest first (expired ones included, so
    the director sees that a link lapsed)."""
    return list(db.session.scalars(
        select(StaffInvitation).where(StaffInvitation.tournament_id == tournament.id,
                                      StaffInvitation.purpose == "join",
                                      StaffInvitation.used_at.is_(None))
        .order_by(StaffInvitation.id.desc())))


@write
def cancel_invitation(tournament: Tournament, user: User, invitation_id: int | None) -> None:
    invitation = db.session.get(StaffInvitation, invitation_id) if invitation_id else None
    if invitation is None or invitation.tournament_id != tournament.id \
            or invitation.used_at is not None:
        raise SetupError(None, "That invitation is no longer open.")
    audit(tournament, user, "staff.cancel_invitation", f"invitation:{invitation.id}",
          before={"email": invitation.email, "role": invitation.role})
    db.session.delete(invitation)


def staff_list(tournament: Tournament) -> list[TournamentStaff]:
    return list(db.session.scalars(
        select(TournamentStaff).where(TournamentStaff.tournament_id == tournament.id)
        .order_by(TournamentStaff.id)))


@write
def remove_staff(tournament: Tournament, user: User, staff_id: int) -> None:
    staff = db.session.get(TournamentStaff, staff_id)
    if staff is None or staff.tournament_id != tournament.id:
        raise SetupError(None, "That person does not work on this tournament.")
    if staff.user_id == user.id:
        raise SetupError(None, "You cannot remove yourself.")
    if staff.role == "director" and sum(1 for s in staff_list(tournament)
                                        if s.role == "director") <= 1:
        raise SetupError(None, "A tournament needs at least one director.")
    audit(tournament, user, "staff.remove", f"user:{staff.user_id}",
          before={"email": staff.user.email, "role": staff.role})
    # Their open sessions end too: a phone they handed back (or lost) opens nothing more.
    staff.user.end_sessions()
    # A password link given out for this tournament dies with the role it was given for.
    db.session.execute(delete(StaffInvitation).where(
        StaffInvitation.tournament_id == tournament.id, StaffInvitation.purpose == "reset",
        StaffInvitation.user_id == staff.user_id, StaffInvitation.used_at.is_(None)))
    db.session.delete(staff)
