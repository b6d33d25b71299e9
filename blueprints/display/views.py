from flask import Blueprint, abort

bp = Blueprint("display", __name__, url_prefix="/display")


@bp.get("/<code>")
def screen(code):
    """The big screen. Built in the clock issue."""
    abort(404)
