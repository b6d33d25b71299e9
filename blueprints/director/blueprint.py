"""The director's blueprint and what its pages share.

Pages are thin: parse the form, call the setup modules (each write one core.writes unit),
render. A page shows a refusal (SetupError, InvalidRules) at the field it names, 422, and a
clash with another screen, 409, through `Saving`; a refusal or conflict no page shows is
answered by the error handlers here."""

from __future__ import annotations

import functools

from flask import Blueprint, flash, g, redirect, render_template, url_for
from flask_login import login_required
from sqlalchemy.exc import IntegrityError

from blueprints.common import external_url
from core.errors import Conflict, Refused, attach
from core.rounds import seated
from tournament.errors import FieldError

from .common import SetupError

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
    """A refusal no page placed on a form: its message on a plain page."""
    return render_template("errors/error.html", code=Refused.status,
                           title="That cannot be done", text=error.message), Refused.status


@bp.errorhandler(Conflict)
def conflict(error: Conflict):
    """A conflict no page showed beside its form: its message on a plain page."""
    return render_template("errors/error.html", code=Conflict.status,
                           title="Changed meanwhile", text=error.message), Conflict.status


class Saving:
    """A page's write: `with Saving(form, clash=(field, message)) as saving:` around the
    calls. A refusal (core.errors.Refused, or the rules' own InvalidRules) lands on its
    form field (status 422); a clash with another screen
    (the unique constraint refusing what another request stored first) puts `clash` on
    the form (status 409). Either way the unit has rolled back and the rest of the block
    is skipped; `saving.saved` tells the page whether to redirect."""

    def __init__(self, form, clash: tuple[str, str] | None = None, field: str | None = None):
        # `field`: the one field of a small form every refusal is shown at.
        self.form, self.clash, self.field, self.status = form, clash, field, None

    @property
    def saved(self) -> bool:
        return self.status is None

    def __enter__(self) -> Saving:
        return self

    def __exit__(self, kind, error, traceback) -> bool:
        if kind is None:
            return False
        if issubclass(kind, FieldError):
            attach(self.form, SetupError(self.field, error.message) if self.field else error)
            self.status = Refused.status
            return True
        if issubclass(kind, IntegrityError) and self.clash is not None:
            attach(self.form, SetupError(*self.clash))
            self.status = CLASH
            return True
        return False


def number_clash(number) -> str:
    if number:
        return (f"Number {number} was just given to another player; nothing was saved. "
                "Choose another number.")
    return ("Another player was added at the same moment and took that number; nothing was "
            "saved. Please add this player again.")


def seating_required(view):
    """A page that prints the seating (below @staff_required): back to the seating page,
    with a word why, until round 1 is seated."""

    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        if not seated(g.tournament):
            flash("Seat round 1 first; every later round follows from it.", "warning")
            return redirect(url_for("director.seating", tournament_id=g.tournament.id))
        return view(*args, **kwargs)

    return wrapper


def lookup_url(tournament) -> str:
    """The players' seat lookup (player.lookup)."""
    return external_url("player.lookup", tournament, code=tournament.code)


def table_url(tournament, table) -> str:
    return external_url("table.page", tournament, code=tournament.code, number=table.number,
                        k=table.token)
