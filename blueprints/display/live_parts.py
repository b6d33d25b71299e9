"""The big screen's part of its one poll (core.live): the board (leaders, news)."""

from __future__ import annotations

from flask import render_template

from blueprints.common import external_url
from core.addresses import reachable
from core.live import Part, register

from .service import board as read_board


@register("display.board")
def board(tournament, live_url: str) -> Part:
    shown = read_board(tournament)

    def render() -> str:
        return render_template(
            "display/_board.html", tournament=tournament, board=shown, live_url=live_url,
            oob=True, public_url=reachable(external_url("player.tournament", tournament,
                                                         code=tournament.code)))

    return Part(version=shown.version, render=render)
