from flask import Blueprint, abort

bp = Blueprint("calls", __name__, url_prefix="/calls")


@bp.get("/director/<int:tournament_id>")
def queue(tournament_id):
    """The director's queue. Built in the calls issue."""
    abort(404)
