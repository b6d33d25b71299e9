from flask import Blueprint, abort

bp = Blueprint("clock", __name__, url_prefix="/clock")


@bp.app_context_processor
def _clock_helpers():
    return {"clock_for": lambda tournament: None}


@bp.get("/director/<int:tournament_id>")
def console(tournament_id):
    """The director's console. Built in the clock issue."""
    abort(404)
