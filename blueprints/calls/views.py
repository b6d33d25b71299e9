from flask import Blueprint

bp = Blueprint("calls", __name__, url_prefix="/calls")
