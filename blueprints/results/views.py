from flask import Blueprint, abort

bp = Blueprint("results", __name__, url_prefix="/results")


@bp.app_context_processor
def _results_helpers():
    return {"leaders_for": lambda tournament, count=10: []}


@bp.get("/<code>")
def standings(code):
    """Public standings. Built in the standings issue."""
    abort(404)


@bp.get("/director/<int:tournament_id>")
def director(tournament_id):
    """The director's standings, prizes and exports. Built in the standings issue."""
    abort(404)
