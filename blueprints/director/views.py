from flask import Blueprint, render_template
from flask_login import current_user, login_required

from blueprints.auth import service as auth_service

bp = Blueprint("director", __name__, url_prefix="/director")


@bp.before_request
@login_required
def _signed_in():
    """Every director page needs a signed-in user."""


@bp.get("/")
def home():
    """The tournaments this user staffs."""
    return render_template("director/home.html",
                           tournaments=auth_service.my_tournaments(current_user))


@bp.get("/t/<int:tournament_id>")
def tournament(tournament_id):
    """One tournament's overview for its staff."""
    tournament = auth_service.staff_tournament(tournament_id)
    return render_template("director/tournament.html", tournament=tournament,
                           role=auth_service.staff_role(tournament))
