from flask import Blueprint, abort

bp = Blueprint("table", __name__, url_prefix="/t")


@bp.get("/<code>/<int:number>")
def page(code, number):
    """The table's page, opened from its QR link (?k=token). Built in the table issue."""
    abort(404)
