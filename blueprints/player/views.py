from flask import Blueprint, abort, render_template

from . import service

bp = Blueprint("player", __name__)


@bp.get("/")
def home():
    """The public home page: tournaments in progress and a way in for directors."""
    return render_template("player/home.html", tournaments=service.tournaments_in_progress())


@bp.get("/p/<code>")
def tournament(code):
    """A tournament's public page: seat lookup, standings, display."""
    tournament = service.tournament_by_code(code)
    if tournament is None:
        abort(404)
    return render_template("player/tournament.html", tournament=tournament)
