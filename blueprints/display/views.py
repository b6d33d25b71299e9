from flask import Blueprint

bp = Blueprint("display", __name__, url_prefix="/display")
