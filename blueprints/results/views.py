from flask import Blueprint

bp = Blueprint("results", __name__, url_prefix="/results")
