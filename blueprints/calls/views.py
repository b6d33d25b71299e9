"""Calling the director: the table's button and state (reached by the table's link token),
the staff's queue, a call's page with its ruling, and the history."""

from __future__ import annotations

from functools import lru_cache

from flask import (
    Blueprint,
    abort,
    flash,
    g,
    has_request_context,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_login import current_user
from markupsafe import Markup, escape
from wtforms.fields import SelectChoice

from blueprints.common import (
    link,
    new_request_key,
    render_page_or_partial,
    table_links,
    wants_partial,
)
from core.access import ANY_STAFF, MANAGE, staff_required
from core.calls import DISMISSED_COOKIE, RECENT, dismissed_ids, table_call, table_version
from core.errors import Conflict, Refused, TooMany, attach
from core.lookup import BadLink
from core.table_pages import table_link
from core.words import OPEN_STATES, SEAT_NAMES, CallState
from models import CALL_REASONS

from . import history as call_history
from . import queue as calls
from . import state, table_calls
from .forms import CallForm, ResolveForm

bp = Blueprint("calls", __name__, url_prefix="/calls")

# Every refusal a call's change can meet; each carries its HTTP status.
REFUSALS = (Refused, Conflict, TooMany)
NOT_A_DIRECTOR = ("Only a director or co-director can change points. Hand this call to a "
                  "director.")


def on_form(form, error) -> str | None:
    """Put a refusal on the form field it names; else its message, for the top of the
    page."""
    if isinstance(error, Refused) and form is not None and error.field in form._fields:
        form[error.field].errors = []
        attach(form, error)
        return None
    return error.message


# ---------------------------------------------------------------- helpers for templates


def sheet_url(tournament_id: int, table_no: int, round_no: int | None) -> str | None:
    """The director's view of a table's sheet (the table blueprint's page)."""
    if round_no is None:
        return None
    return url_for("table.director_sheet", tournament_id=tournament_id, table_no=table_no,
                   round_no=round_no)


def table_page_url(table) -> str:
    return link("table.page", table)


# The ended calls this phone has said "OK" to (ids, newest last), so its bar is back to
# the button. A cookie, not a column: each phone at the table dismisses for itself.
DISMISSED_KEEP = 20


def _dismissed() -> list[int]:
    return dismissed_ids(request.cookies.get(DISMISSED_COOKIE)
                         if has_request_context() else None)


def shown_call(table, dismissed: int | None = None):
    """The call the table's bar shows on this phone: the table's call, unless it is an
    ended call this phone has said "OK" to (or `dismissed`, said just now)."""
    call = table_call(table)
    if call is not None and call.state not in OPEN_STATES \
            and (call.id == dismissed or call.id in _dismissed()):
        return None
    return call


# table_call_context's `call` when the caller has not read it
UNREAD = object()


@lru_cache(maxsize=len(CALL_REASONS) + 1)  # keyed by the reason ticked, or none
def reason_chips(chosen: str | None) -> Markup:
    """The call form's reasons, a radio each, `chosen` ticked. Made here, not in a
    template loop: every table page shows them, and the loop cost a third of the bar."""
    return Markup("".join(
        f'\n            <label class="chip{" is-checked" if key == chosen else ""}">'
        '<input type="radio" name="reason" '
        f'value="{escape(key)}"{" checked" if key == chosen else ""}> {escape(label)}'
        '</label>\n          ' for key, label in CALL_REASONS.items()))


def table_call_context(table, form: CallForm | None = None, error: str | None = None,
                       dismissed: int | None = None, call=UNREAD) -> dict:
    """Everything the table's call bar shows, read from the database (`call`: the call
    this phone's bar shows, when the caller has read it already, see shown_call)."""
    if call is UNREAD:
        call = shown_call(table, dismissed)
    return {
        "call": call,
        "version": table_version(call),
        "waited": state.waited_seconds(call) if call else 0,
        "on_the_way": state.on_the_way(call) if call else "",
        "reason": state.reason_label(call) if call else "",
        "ruling_points": (table_calls.ruling_points(call)
                          if call and call.state == CallState.RESOLVED else None),
        "form": form,
        "error": error,
        "request_key": new_request_key(),
        # a posted reason that is none of ours ticks nothing (and is not a cache key)
        "reason_chips": reason_chips(form.reason.data if form and form.reason.data
                                     in CALL_REASONS else None),
        # the bar's links share one quoting of the code and the token
        "link": table_links(table),
        "note_max": table_calls.NOTE_MAX,
    }


bp.add_app_template_global(table_call_context)
bp.add_app_template_global(sheet_url, "calls_sheet_url")


def _render_table(table, status: int = 200, **kwargs):
    tc = table_call_context(table, **kwargs)
    # A tap on a page with one poll for all its live parts (live=1) gets the bar back as
    # that poll's part, not as a second poll beside it.
    live = wants_partial() and request.method == "POST" and request.form.get("live") == "1"
    return render_page_or_partial("calls/table.html", "calls/_table_state.html", status=status,
                                  table=table, tournament=table.tournament, tc=tc,
                                  live_url=live)


@bp.errorhandler(BadLink)
def bad_link(_error):
    if wants_partial():
        # The bar on an open table page: say so in place, and stop polling.
        return render_template("calls/_invalid_link.html", text=table_calls.INVALID_LINK), 404
    return render_template("errors/error.html", code=404,
                           title="This table link is no longer valid",
                           text=table_calls.INVALID_LINK), 404


# ---------------------------------------------------------------- the table


@bp.get("/t/<code>/<int:number>")
@table_link
def table_state(code, number):
    """The table's call bar (htmx: only the bar, 204 while the version it shows is current)."""
    table = g.table
    if wants_partial() and request.args.get("v") == table_version(shown_call(table)):
        return "", 204
    return _render_table(table)


@bp.post("/t/<code>/<int:number>")
@table_link
def place(code, number):
    """Call the director from this table (a second tap shows the open call)."""
    table = g.table
    form = CallForm()
    if not form.validate():
        return _render_table(table, 422, form=form)
    try:
        table_calls.place_call(table, form.reason.data or "", form.note.data or "",
                               form.request_key.data or None)
    except REFUSALS as error:
        return _render_table(table, error.status, form=form, error=on_form(form, error))
    if wants_partial():
        return _render_table(table)
    return redirect(table_page_url(table))


@bp.post("/t/<code>/<int:number>/cancel")
@table_link
def cancel(code, number):
    """The table cancels its open call."""
    table = g.table
    try:
        table_calls.cancel_call(table, request.form.get("call_id", type=int))
    except REFUSALS as error:
        return _render_table(table, error.status, error=error.message)
    if wants_partial():
        return _render_table(table)
    return redirect(table_page_url(table))


@bp.post("/t/<code>/<int:number>/ok")
@table_link
def dismiss(code, number):
    """ "OK" on a ruling (or a cancelled call): this phone's bar goes back to the button.
    Only an ended call of this table can be dismissed; anything else shows the bar as it
    is (nothing to hide, nothing changed)."""
    table = g.table
    call = table_call(table)
    call_id = request.form.get("call_id", type=int)
    ended = call is not None and call.id == call_id and call.state not in OPEN_STATES
    if wants_partial():
        # The cookie is set by this answer; the bar drawn now already honours it.
        response = _render_table(table, dismissed=call.id if ended else None)
    else:
        response = redirect(table_page_url(table))
    if ended:
        ids = [i for i in _dismissed() if i != call.id][-(DISMISSED_KEEP - 1):] + [call.id]
        response = make_response(response)
        response.set_cookie(DISMISSED_COOKIE, ".".join(map(str, ids)),
                            max_age=int(RECENT.total_seconds()) + 60, path="/",
                            httponly=True, samesite="Lax", secure=request.is_secure)
    return response


# ---------------------------------------------------------------- the staff


def _call_or_404(tournament, call_id):
    call = state.call_in_tournament(tournament, call_id)
    if call is None:
        abort(404)
    return call


def queue_context(tournament, user, role=None, error=None, version=None) -> dict:
    """What the queue shows `user`, with its version (read first, so that a call placed
    meanwhile makes the page's next poll bring it)."""
    version = version or calls.queue_version(tournament)
    return {
        "tournament": tournament, "role": role, "error": error,
        "items": calls.open_calls(tournament, user),
        "version": version,
        "reasons": CALL_REASONS,
    }


def _render_queue(tournament, role, status=200, error=None):
    return render_page_or_partial("calls/queue.html", "calls/_queue.html", status=status,
                                  **queue_context(tournament, current_user, role, error))


@bp.get("/director/<int:tournament_id>")
@staff_required(ANY_STAFF)
def queue(tournament_id):
    """The queue of open calls, oldest first. It follows new calls as a part of its page's
    one poll (blueprints/live, the part "queue")."""
    return _render_queue(g.tournament, g.role)


@bp.get("/director/<int:tournament_id>/history")
@staff_required(ANY_STAFF)
def history(tournament_id):
    """Every call with its times and ruling; per round the median and longest waits."""
    rows = call_history.history(g.tournament)
    return render_template("calls/history.html", tournament=g.tournament, role=g.role,
                           rows=rows, stats=call_history.round_stats(rows),
                           reasons=CALL_REASONS)


def _render_call(tournament, role, call, form=None, status=200, error=None):
    form = form or ResolveForm(games_per_round=tournament.games_per_round, formdata=None)
    players = state.seat_players(call)
    form.seat.choices = [SelectChoice("", "No change to points")] + [
        SelectChoice(seat, f"{name}: {players[seat]}" if seat in players else name)
        for seat, name in SEAT_NAMES.items()]
    return render_template(
        "calls/call.html", tournament=tournament, role=role, call=call, form=form,
        error=error, table_number=call.table.number, round_no=state.round_number(call),
        waited=state.waited_seconds(call), on_the_way=state.on_the_way(call),
        claimers=[c.user.name for c in state.active_claims(call)],
        mine=any(c.user_id == current_user.id for c in state.active_claims(call)),
        reason=state.reason_label(call), can_adjust=role in MANAGE,
        players=players, seat_label=calls.seat_label, quick_rulings=calls.QUICK_RULINGS,
        quick_penalty=calls.QUICK_PENALTY,
    ), status


@bp.get("/director/<int:tournament_id>/<int:call_id>")
@staff_required(ANY_STAFF)
def detail(tournament_id, call_id):
    """One call: who is going, and the ruling form."""
    return _render_call(g.tournament, g.role, _call_or_404(g.tournament, call_id))


def _after_action(tournament, role, call, error=None):
    """Answer a claim, release or hand-on: the queue for htmx, else back where it came from."""
    back = request.form.get("back", "queue")
    if wants_partial():
        status = error.status if error else 200
        return _render_queue(tournament, role, status, error.message if error else None)
    if error is not None:
        if back == "detail":
            return _render_call(tournament, role, call, status=error.status,
                                error=error.message)
        return _render_queue(tournament, role, error.status, error.message)
    if back == "detail" and call.state in OPEN_STATES:
        return redirect(url_for("calls.detail", tournament_id=tournament.id, call_id=call.id))
    return redirect(url_for("calls.queue", tournament_id=tournament.id))


def _act_on_call(tournament_id, call_id, act):
    """Do `act(call, user, role)` on one call as staff; answer as _after_action does."""
    tournament, role = g.tournament, g.role
    call = _call_or_404(tournament, call_id)
    try:
        act(call, current_user, role)
    except REFUSALS as error:
        return _after_action(tournament, role, call, error)
    return _after_action(tournament, role, call)


@bp.post("/director/<int:tournament_id>/<int:call_id>/claim")
@staff_required(ANY_STAFF)
def claim(tournament_id, call_id):
    """ "I'm going"."""
    return _act_on_call(tournament_id, call_id, calls.claim_call)


@bp.post("/director/<int:tournament_id>/<int:call_id>/release")
@staff_required(ANY_STAFF)
def release(tournament_id, call_id):
    """Take back one's "I'm going"."""
    return _act_on_call(tournament_id, call_id, calls.release_call)


@bp.post("/director/<int:tournament_id>/<int:call_id>/needs-director")
@staff_required(ANY_STAFF)
def needs_director(tournament_id, call_id):
    """A table guide hands the call on to a director."""
    return _act_on_call(tournament_id, call_id, calls.hand_to_director)


@bp.post("/director/<int:tournament_id>/<int:call_id>/resolve")
@staff_required(ANY_STAFF)
def resolve(tournament_id, call_id):
    """Resolve with the ruling in words and, optionally, one adjustment on the sheet."""
    tournament, role = g.tournament, g.role
    call = _call_or_404(tournament, call_id)
    if request.form.get("quick") is not None:
        return _resolve_quick(tournament, role, call, request.form["quick"])
    form = ResolveForm(games_per_round=tournament.games_per_round)
    if not form.validate():
        return _render_call(tournament, role, call, form, 422)
    adjustment = None
    if form.wants_adjustment():
        if role not in MANAGE:
            form.seat.errors = [NOT_A_DIRECTOR]
            return _render_call(tournament, role, call, form, 403)
        adjustment = calls.Adjustment(form.seat.data, form.points.data, form.game_no.data)
    try:
        calls.resolve_call(call, current_user, form.ruling.data, role, adjustment)
    except REFUSALS as error:
        return _render_call(tournament, role, call, form, error.status, on_form(form, error))
    return _resolved(tournament, call, adjustment)


def _resolved(tournament, call, adjustment):
    """Back to the queue, saying what was done (a change of points names the player)."""
    message = f"Table {call.table.number}: resolved."
    if adjustment is not None:
        who = calls.seat_label(adjustment.seat, state.seat_players(call))
        message = f"Table {call.table.number}: resolved, {adjustment.points:+d} to {who}."
    flash(message)
    return redirect(url_for("calls.queue", tournament_id=tournament.id))


def _resolve_quick(tournament, role, call, key):
    """Resolve with a one-tap ruling (the ruling form's CSRF token came with it)."""
    form = ResolveForm(games_per_round=tournament.games_per_round, formdata=None)
    try:
        ruling, adjustment = calls.quick_ruling(key, state.seat_players(call))
        if adjustment is not None and role not in MANAGE:
            return _render_call(tournament, role, call, form, 403, NOT_A_DIRECTOR)
        calls.resolve_call(call, current_user, ruling, role, adjustment)
    except REFUSALS as error:
        return _render_call(tournament, role, call, form, error.status, error.message)
    return _resolved(tournament, call, adjustment)
