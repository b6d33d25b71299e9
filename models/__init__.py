"""SQLAlchemy 2.0 typed models, one module per aggregate. Import models from here."""

from .audit import AuditEvent, record
from .base import SEATS, db, utcnow
from .call import CALL_REASONS, CallClaim, DirectorCall
from .invitation import StaffInvitation
from .player import Player, Substitution
from .round import Round, Seating
from .sheet import AppliedRequest, GameEntry, RoundSignoff, Scoresheet
from .table import Table, new_token
from .tournament import (
    ROLES,
    Announcement,
    Competition,
    CompetitionEntry,
    Tiebreak,
    Tournament,
    TournamentStaff,
)
from .user import LoginAttempt, User

__all__ = [
    "SEATS", "ROLES", "CALL_REASONS", "db", "utcnow", "record", "new_token",
    "AuditEvent", "CallClaim", "DirectorCall", "Player", "Substitution", "Round", "Seating",
    "AppliedRequest", "GameEntry", "RoundSignoff", "Scoresheet", "Table", "Announcement",
    "Competition", "CompetitionEntry", "Tiebreak", "Tournament", "TournamentStaff",
    "LoginAttempt", "User", "StaffInvitation",
]
