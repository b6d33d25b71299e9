"""The big screen in the ballroom: no sign-in, by the tournament's public code."""

from __future__ import annotations

from flask import Blueprint, abort, make_response, request

from blueprints.common import external_url, render_page_or_partial, wants_partial
from core.addresses import reachable
from core.lookup import tournament_by_code
from core.qr import qr_svg

from . import service

bp = Blueprint("display", __name__, url_prefix="/display")


def _tournament(code):
    tournament = tournament_by_code(code)
    if tournament is None:
        abort(404)
    return tournament


def _render(tournament, board):
    public_url = reachable(external_url("player.tournament", tournament, code=tournament.code))
    return render_page_or_partial(
        "display/screen.html", "display/_board.html", tournament=tournament, board=board,
        public_url=public_url, short_url=service.short_address(public_url),
        qr=qr_svg(public_url) if not wants_partial() else "")


@bp.get("/<code>")
def screen(code):
    """The big screen: round, clock, announcements, leaders, the movement between rounds."""
    tournament = _tournament(code)
    return _render(tournament, service.board(tournament))


@bp.get("/<code>/board")
def board(code):
    """The board for a poll: 204 while the version the screen shows is current."""
    tournament = _tournament(code)
    current = service.board(tournament)
    if request.args.get("v") == current.version:
        response = make_response("", 204)
        response.vary.add("HX-Request")
        return response
    return _render(tournament, current)
