"""One poll per live page. The page sends the version of every live part it shows; the
answer is 204 while all are current (usually answered by blueprints.live.fast before
Flask builds a request), else the parts that changed as htmx out-of-band swaps, each
carrying its new version. A lost poll costs nothing: the next one sends the same versions
and gets the same parts.

The parts that belong to other audiences (the table's panel, its call bar, the console's
grid, the director's bar, the queue of calls, the big screen's board) are built by those
blueprints and found here by name (core.live): this blueprint renders only the round
clock, which is core's."""

from __future__ import annotations

from flask import Blueprint, make_response, redirect, render_template, request, url_for
from flask_login import current_user, login_required

from blueprints.common import link, wants_partial
from core import clock as clock_service
from core import live
from core.access import ANY_STAFF, staff_tournament
from core.calls import DISMISSED_COOKIE, dismissed_ids
from core.lookup import BadLink, tournament_by_code
from core.numbers import small_int
from core.rounds import seated, seated_mark
from core.table_pages import asked_round

from . import service

bp = Blueprint("live", __name__, url_prefix="/live")

BAR, QUEUE = "bar", "queue"
# The overview lays itself out by whether round 1 is seated ("Run the event" first, the
# director's bar): it sends what it was laid out for, and reloads when that changed.
SEATED = "seated"


def table_url(table, round_no: int | None = None) -> str:
    """The poll URL of a table page (round_no: a page pinned to that round, r=)."""
    return link("live.table", table, round_no)


@bp.get("/t/<code>/<int:number>")
def table(code, number):
    """The table page's poll: the clock, the sheet's panel and the call bar."""
    round_no = asked_round(request.args)
    shown = {name: request.args.get(name)
             for name in (service.CLOCK, service.PANEL, service.REVIEW, service.CALL,
                          "shown")}
    try:
        poll = service.table_poll(code, number, request.args.get("k"), round_no, shown,
                                  dismissed_ids(request.cookies.get(DISMISSED_COOKIE)))
    except BadLink:
        # 404 as every table URL answers a wrong token; static/js/app.js still shows it
        # where the call bar was, and the poll stops once it is shown (after settling:
        # removing the poll first would drop its answer).
        response = make_response(live.build("calls.invalid_link"), 404)
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
        parts.append(_clock(poll.tournament, live_url))
    if service.PANEL in poll.changed:
        parts.append(live.build("table.panel", poll.table, poll.state, live_url).render())
    if service.REVIEW in poll.changed:
        parts.append(live.build("table.review", poll.table, poll.state, live_url).render())
    if service.CALL in poll.changed:
        parts.append(live.build("calls.table_bar", poll.table, live_url,
                                call=poll.call).render())
    return _parts(parts, clock_changed=service.CLOCK in poll.changed)


@bp.get("/screen/<code>")
def screen(code):
    """The big screen's poll: the clock and the board (leaders, announcements)."""
    found = clock_service.clock_by_code(code)
    tournament = tournament_by_code(code)
    if found is None or tournament is None:
        return make_response("", 404)
    if not wants_partial():
        return redirect(url_for("display.screen", code=tournament.code))
    public, clock = found
    live_url = url_for("live.screen", code=tournament.code)
    parts = []
    clock_changed = _clock_changed(clock)
    if clock_changed:
        parts.append(_clock(public, live_url))
    board = live.build("display.board", tournament, live_url)
    if request.args.get("board") != board.version:
        parts.append(board.render())
    return _parts(parts, clock_changed)


@bp.get("/console/<int:tournament_id>")
@login_required
def console(tournament_id):
    """The clock console's poll: the clock, the grid of tables and the director's bar
    (staff only)."""
    tournament = staff_tournament(tournament_id, ANY_STAFF)
    if not wants_partial():
        return redirect(url_for("clock.console", tournament_id=tournament.id))
    clock = clock_service.clock_view(tournament)
    live_url = url_for("live.console", tournament_id=tournament.id)
    parts = []
    clock_changed = _clock_changed(clock)
    if clock_changed:
        parts.append(_clock(tournament, live_url))
    grid = live.build("clock.grid", tournament, clock, live_url)
    if request.args.get("grid") != grid.version:
        parts.append(grid.render())
    parts += _bar(tournament, live_url, url_for("clock.console", tournament_id=tournament.id))
    return _parts(parts, clock_changed)


@bp.get("/director/<int:tournament_id>")
@login_required
def director(tournament_id):
    """The poll of any other director page: the director's bar, the clock and the queue
    of calls where the page shows them (staff only). `back` is the page the bar's pause
    and resume return to."""
    tournament = staff_tournament(tournament_id, ANY_STAFF)
    if not wants_partial():
        return redirect(url_for("clock.console", tournament_id=tournament.id))
    if SEATED in request.args and request.args[SEATED] != seated_mark(seated(tournament)):
        response = make_response("", 200)
        response.headers["HX-Refresh"] = "true"
        return response
    live_url = url_for("live.director", tournament_id=tournament.id,
                       back=request.args.get("back"), table=request.args.get("table"))
    parts = []
    clock_changed = (service.CLOCK in request.args
                     and _clock_changed(clock_service.clock_view(tournament)))
    if clock_changed:
        parts.append(_clock(tournament, live_url))
    if QUEUE in request.args:
        queue = live.build("calls.queue", tournament, current_user)
        if request.args.get(QUEUE) != queue.version:
            parts.append(queue.render())
    return _parts(parts + _bar(tournament, live_url, request.args.get("back")),
                  clock_changed)


def _bar(tournament, live_url: str, back: str | None) -> list[str]:
    """The director's bar when the page shows it (its version in the poll) and it changed."""
    if BAR not in request.args:
        return []
    shown = live.build("clock.bar", tournament, live_url, back,
                       small_int(request.args.get("table")) or None)
    return [] if request.args.get(BAR) == shown.version else [shown.render()]


def _clock_changed(clock) -> bool:
    return not clock_service.unchanged(clock, request.args.get(service.CLOCK),
                                       request.args.get("shown"))


def _clock(tournament, live_url: str) -> str:
    return render_template("clock/_clock.html", tournament=tournament, live_url=live_url,
                           oob=True)


def _parts(parts: list[str], clock_changed: bool = False):
    """The changed parts out of band, or 204 with none."""
    if not parts:
        return _no_change()
    response = make_response("\n".join(parts), 200)
    response.vary.add("HX-Request")
    response.headers["Cache-Control"] = "no-store"
    if clock_changed:
        # The parts of a page that follow the clock without being live parts themselves
        # (the console's controls: their own request, on this event).
        response.headers["HX-Trigger"] = "clockChanged"
    return response


def _no_change():
    response = make_response("", 204)
    response.vary.add("HX-Request")
    return response
