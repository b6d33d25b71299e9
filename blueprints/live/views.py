"""One poll per live page. The page sends the version of every live part it shows; the
answer is 204 while all are current (usually answered by blueprints.live.fast before
Flask builds a request), else the parts that changed as htmx out-of-band swaps, each
carrying its new version. A lost poll costs nothing: the next one sends the same versions
and gets the same parts."""

from __future__ import annotations

from flask import Blueprint, make_response, redirect, render_template, request, url_for
from flask_login import login_required

from blueprints.calls import service as calls_service
from blueprints.calls.views import DISMISSED_COOKIE, table_call_context
from blueprints.common import wants_partial
from blueprints.table import service as table_service
from blueprints.table.forms import MAX_ROW_NUMBER, small_int
from core.lookup import BadLink

from . import service

bp = Blueprint("live", __name__, url_prefix="/live")


def table_url(table, round_no: int | None = None) -> str:
    """The poll URL of a table page (round_no: a page pinned to that round, r=)."""
    return url_for("live.table", code=table.tournament.code, number=table.number,
                   k=table.token, r=round_no)


@bp.get("/t/<code>/<int:number>")
def table(code, number):
    """The table page's poll: the clock, the sheet's panel and the call bar."""
    round_no = small_int(request.args.get("r"), MAX_ROW_NUMBER) or None
    shown = {name: request.args.get(name)
             for name in (service.CLOCK, service.PANEL, service.CALL, "shown")}
    try:
        poll = service.table_poll(code, number, request.args.get("k"), round_no, shown,
                                  service.dismissed_ids(request.cookies.get(DISMISSED_COOKIE)))
    except BadLink:
        # 404 as every table URL answers a wrong token; static/js/app.js still shows it
        # where the call bar was, and the poll stops once it is shown (after settling:
        # removing the poll first would drop its answer).
        response = make_response(render_template(
            "calls/_invalid_link.html", text=calls_service.INVALID_LINK, oob=True), 404)
        response.headers["HX-Trigger-After-Settle"] = "live:stop"
        return response
    if not wants_partial():
        return redirect(url_for("table.page", code=code, number=number,
                                k=request.args.get("k"), r=round_no))
    if poll.unchanged:
        return _no_change()
    if poll.refresh:
        response = make_response("", 200)
        response.headers["HX-Refresh"] = "true"
        return response
    live_url = table_url(poll.table, round_no)
    parts = []
    if service.CLOCK in poll.changed:
        parts.append(render_template("clock/_clock.html", tournament=poll.tournament,
                                     clock_poll=True, live_url=live_url, oob=True))
    if service.PANEL in poll.changed:
        parts.append(_panel(poll, live_url))
    if service.CALL in poll.changed:
        parts.append(render_template("calls/_table_state.html",
                                     tc=table_call_context(poll.table), live_url=live_url,
                                     oob=True))
    response = make_response("\n".join(parts), 200)
    response.vary.add("HX-Request")
    response.headers["Cache-Control"] = "no-store"
    if service.CLOCK in poll.changed:
        # The parts of a page that follow the clock without being live parts themselves.
        response.headers["HX-Trigger"] = "clockChanged"
    return response


@bp.get("/screen/<code>")
def screen(code):
    """The big screen's poll: the clock and the board (leaders, announcements)."""
    from blueprints.display import service as display_service
    from core import clock as clock_service
    from core.lookup import tournament_by_code

    found = clock_service.clock_by_code(code)
    tournament = tournament_by_code(code)
    if found is None or tournament is None:
        return make_response("", 404)
    if not wants_partial():
        return redirect(url_for("display.screen", code=tournament.code))
    public, clock = found
    board = display_service.board(tournament)
    live_url = url_for("live.screen", code=tournament.code)
    parts = []
    clock_changed = not clock_service.unchanged(clock, request.args.get(service.CLOCK),
                                                request.args.get("shown"))
    if clock_changed:
        parts.append(render_template("clock/_clock.html", tournament=public, clock_poll=True,
                                     live_url=live_url, oob=True))
    if request.args.get("board") != board.version:
        from blueprints.common import external_url

        parts.append(render_template(
            "display/_board.html", tournament=tournament, board=board, live_url=live_url,
            oob=True, public_url=external_url("player.tournament", code=tournament.code)))
    if not parts:
        return _no_change()
    response = make_response("\n".join(parts), 200)
    response.vary.add("HX-Request")
    response.headers["Cache-Control"] = "no-store"
    if clock_changed:
        response.headers["HX-Trigger"] = "clockChanged"
    return response


@bp.get("/console/<int:tournament_id>")
@login_required
def console(tournament_id):
    """The clock console's poll: the clock and the grid of tables (staff only)."""
    from blueprints.clock.views import _grid_context
    from core import clock as clock_service
    from core.access import ANY_STAFF, staff_tournament

    tournament = staff_tournament(tournament_id, ANY_STAFF)
    if not wants_partial():
        return redirect(url_for("clock.console", tournament_id=tournament.id))
    clock = clock_service.clock_view(tournament)
    context = _grid_context(tournament, clock)
    live_url = url_for("live.console", tournament_id=tournament.id)
    parts = []
    clock_changed = not clock_service.unchanged(clock, request.args.get(service.CLOCK),
                                                request.args.get("shown"))
    if clock_changed:
        parts.append(render_template("clock/_clock.html", clock_poll=True, live_url=live_url,
                                     oob=True, **context))
    if request.args.get("grid") != context["grid_version"]:
        parts.append(render_template("clock/_grid.html", live_url=live_url, oob=True,
                                     **context))
    if not parts:
        return _no_change()
    response = make_response("\n".join(parts), 200)
    response.vary.add("HX-Request")
    response.headers["Cache-Control"] = "no-store"
    if clock_changed:
        # The console's controls follow the clock (their own request, on this event).
        response.headers["HX-Trigger"] = "clockChanged"
    return response


def _panel(poll, live_url: str) -> str:
    from blueprints.table.views import _page_context

    view = table_service.sheet_view(poll.table, poll.state.round)
    context = _page_context(poll.table, view, poll.state.clock_state)
    return render_template("table/_panel.html", poll_token=poll.state.token,
                           live_url=live_url, oob=True, **context)


def _no_change():
    response = make_response("", 204)
    response.vary.add("HX-Request")
    return response
