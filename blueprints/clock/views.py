from flask import Blueprint

bp = Blueprint("clock", __name__, url_prefix="/clock")
