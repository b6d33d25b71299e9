"""The director's blueprint and what its pages share.

Pages are thin: parse the form, call the setup modules (each write one core.writes unit),
render. A refusal (SetupError, InvalidRules) is shown at the field it names with 422 by
the page; one the page does not show is answered here."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from flask_login import login_required

from blueprints.common import external_url
from core.errors import Conflict, Refused

from .common import seated

bp = Blueprint("director", __name__, url_prefix="/director")
DIRECTOR_ONLY = ("director",)

# Two requests at the same moment can both pass a setup check and then hit a unique
# constraint (the same player number, round 1 seated twice): that is a clash, answered 409
# with the message at the field, never a 500.
CLASH = Conflict.status


@bp.before_request
@login_required
def _signed_in():
    """Every director page needs a signed-in user."""


@bp.errorhandler(Refused)
def refused(error: Refused):
    return render_template("errors/error.html", code=Refused.status,
                           title="That cannot be done", text=error.message), Refused.status


@bp.errorhandler(Conflict)
def conflict(error: Conflict):
    return render_template("errors/error.html", code=Conflict.status,
                           title="Changed meanwhile", text=error.message), Conflict.status


def number_clash(number) -> str:
    if number:
        return (f"Number {number} was just given to another player; nothing was saved. "
                "Choose another number.")
    return ("Another player was added at the same moment and took that number; nothing was "
            "saved. Please add this player again.")


def need_seating(tournament):
    """Back to the seating page while round 1 is not seated (None once it is)."""
    if not seated(tournament):
        flash("Seat round 1 first; every later round follows from it.", "warning")
        return redirect(url_for("director.seating", tournament_id=tournament.id))
    return None


def lookup_url(tournament) -> str:
    """The players' seat lookup (player.lookup)."""
    return external_url("player.lookup", tournament, code=tournament.code)


def table_url(tournament, table) -> str:
    return external_url("table.page", tournament, code=tournament.code, number=table.number,
                        k=table.token)
