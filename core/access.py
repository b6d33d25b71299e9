"""Staff access checks, shared by every staff page.

A director sees only the tournaments they staff: `staff_tournament` answers 404 (not 403)
for any other, so the URL does not even confirm that the tournament exists."""

from __future__ import annotations

import functools

from flask import abort, g
from flask_login import current_user, login_required
from sqlalchemy import select

from models import Tournament, TournamentStaff, db

# Which roles may do what. Table guides take calls and verify sheets; only directors and
# co-directors change the tournament, seating, rules or locked sheets.
MANAGE = ("director", "co-director")
ANY_STAFF = ("director", "co-director", "table-guide")
# A scorer is a front-desk volunteer: they key in and submit paper sheets, and see
# nothing else. Table guides never change points, so they do not key sheets in.
DESK = ("director", "co-director", "scorer")
# Printed score sheets hold names and seats only: any staff may print them.
PRINT = (*ANY_STAFF, "scorer")

# Creating a tournament (or importing one from a backup) is the site operator's to grant:
# on a hosted site any account can be signed in, a table guide's included.
CREATE_REFUSED = ("This account may not create tournaments or import backups on this site. "
                  "Ask the site's operator to allow it (on the server: flask --app app "
                  "may-create-tournaments EMAIL), or ask a director here to add you to "
                  "their tournament's staff.")


def may_create_tournaments(user=None) -> bool:
    user = user or current_user
    return bool(getattr(user, "is_authenticated", False)
                and getattr(user, "may_create_tournaments", False))


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
    g.tournament, g.role = tournament, role
    return tournament


def staff_required(roles=ANY_STAFF):
    """The one loader of a staff page whose URL names a tournament (`tournament_id`):
    signed in, on that tournament's staff in one of `roles` (else 404 / 403 as
    staff_tournament), with the tournament and the role on flask.g."""

    def decorate(view):
        @functools.wraps(view)
        @login_required
        def wrapper(*args, **kwargs):
            staff_tournament(kwargs["tournament_id"], roles)
            return view(*args, **kwargs)

        return wrapper

    return decorate


def my_tournaments(user) -> list[tuple[Tournament, str]]:
    rows = db.session.execute(
        select(Tournament, TournamentStaff.role)
        .join(TournamentStaff, TournamentStaff.tournament_id == Tournament.id)
        .where(TournamentStaff.user_id == user.id)
        .order_by(Tournament.starts_on.desc().nulls_last(), Tournament.id.desc())
    )
    return [(t, role) for t, role in rows]
