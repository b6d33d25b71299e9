"""The table blueprint and what its pages share: the loader of a page a table's QR link
opens (/t/<code>/<number>?k=<token>; the token is checked on every URL, GET and POST), its
links, the one answer to a sheet write (done, or the page again with the refusal) and the
context of the table's page (the live blueprint shows it too).

Thin: the pages parse the form, call the writes (sheet_writes, signoffs) and render the
page or, for htmx, its partial. Every write answers a plain post with a redirect, so
nothing needs JavaScript."""

from __future__ import annotations

import functools

from flask import (
    Blueprint,
    abort,
    flash,
    g,
    make_response,
    redirect,
    render_template,
    request,
    session,
)
from markupsafe import Markup, escape
from wtforms.widgets import HiddenInput

from blueprints.common import new_request_key, table_links, wants_partial
from core import sheets
from core.errors import Conflict, Replay
from core.lookup import BadLink
from core.numbers import small_int
from core.rows import only_shows
from core.table_pages import table_link
from core.words import MAX_ROW_NUMBER
from tournament.errors import FieldError

from .drafts import shown_draft
from .forms import ConfirmGameForm, InitialForm, TimeCalledForm
from .own_phone_writes import moved_on, my_seat, own_phones
from .sheet_reads import next_stop, next_tables

bp = Blueprint("table", __name__, url_prefix="/t")

CONFLICT = ("Someone changed this sheet from another phone while you were entering. The "
            "sheet below is the current one. Check it: if your game is not there, tap "
            "Save again.")


@bp.errorhandler(BadLink)
def bad_link(error):
    """A wrong or rotated token: a plain page, nothing about the table."""
    return render_template("table/invalid_link.html"), 404


def query_int(name: str) -> int | None:
    """A whole number from the query string, or None when it is missing, not plain ASCII
    digits ("²" passes str.isdigit but not int) or too big for an SQL INTEGER."""
    return small_int(request.args.get(name), MAX_ROW_NUMBER)


def _round(table, round_no: int | None):
    """The round asked for (r=), or the table's current round; None for an unseated one.
    A request that only shows it reads its plain row (core.sheets.poll_state), a fraction
    of the entity's cost; a write gets the entity."""
    if only_shows():
        state = sheets.poll_state(table, round_no or None)
        return state.round if state else None
    if round_no:
        found = sheets.round_and_version(table, round_no)
        return found[0] if found else None
    return sheets.current_round(table)


def table_round(view):
    """@table_link, and the round this request is for on g.round: r= in the query (or the
    form's round_no), else the table's current round; 404 when the table has no such
    seated round."""

    @table_link
    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        asked = g.asked_round or small_int(request.form.get("round_no"), MAX_ROW_NUMBER)
        g.round = _round(g.table, asked)
        if g.round is None:
            abort(404)
        return view(*args, **kwargs)

    return wrapper


def done(target: str, message: str | None = None, shown=None):
    """Success: a redirect for a plain post. For htmx, the page that comes next in this
    same answer (`shown()`: a response), so no second request can fail after the write
    went through and leave the phone on the browser's own "no internet" page: a whole page
    replaces the body (at `target`'s address), a part replaces itself where it is. Without
    `shown`, HX-Redirect."""
    # a resend after a lost reply must not say it twice
    if message and ("message", message) not in session.get("_flashes", []):
        flash(message)
    if wants_partial() and shown is not None:
        response = make_response(shown())
        if response.headers.get("HX-Retarget") == "body":
            response.headers["HX-Push-Url"] = target
        elif message:
            # a part swapped in place shows what changed itself (a confirmed row); its
            # message would otherwise wait for the next whole page
            session["_flashes"] = [f for f in session.get("_flashes", [])
                                   if f != ("message", message)]
        return response
    if wants_partial():
        response = make_response("", 200)
        response.headers["HX-Redirect"] = target
        return response
    return redirect(target, code=303)


def whole_page(response):
    """An htmx answer that is a whole page: it replaces the body, shown from its top."""
    response = make_response(response)
    response.headers["HX-Retarget"] = "body"
    response.headers["HX-Reswap"] = "innerHTML show:window:top"
    return response


def answer(write, *, target: str, message: str | None = None, refused, again: bool = False,
           shown=None):
    """Run one sheet write and answer it: the one place the table's refusals become
    answers. Applied: done (a redirect to `target`, saying `message`); applied already (a
    resend after a lost reply): done too, for the person who sent it it simply worked
    (the message said again only with `again`). Otherwise `refused(error, status)` shows
    the page again: 409 for a conflict (the sheet changed meanwhile: the page reads it as
    it is now, the write's unit having rolled back), else the refusal's own status (422
    unless it says 409: the sheet as it stands, not the answer, refuses it). `shown`: the
    page that follows, for htmx (done)."""
    try:
        write()
    except Replay:
        return done(target, message if again else None, shown)
    except Conflict as error:
        return refused(error, error.status)
    except FieldError as error:
        return refused(error, getattr(error, "status", 422))
    return done(target, message, shown)


def stamp(form, view, keep_key: bool = True):
    """The form, carrying the sheet's version and round as `view` shows them now."""
    shown(form.version, view.version)
    shown(form.round_no, view.round.number)
    if not (keep_key and form.request_key.data):
        form.request_key.data = new_request_key()
    return form


def shown(field, value) -> None:
    """Give a posted form's field the value the page shows now. Not `data` alone: a
    number field renders what was posted (raw_data) before its data, so a form shown again
    after a conflict would carry the stale version, and its next tap conflict again (the
    entry page's GameDefaults fields are never posted: they have no raw_data)."""
    field.data = value
    if getattr(field, "raw_data", None):
        field.raw_data = None


def sent(form) -> dict:
    """The sheet version and the request key a form carries, as every sheet write takes
    them (a form without a version is always stale)."""
    return dict(version=form.version.data or 0, key=form.request_key.data)


def versioned(form_class, view, **data):
    return stamp(form_class(formdata=None, **data), view, keep_key=False)


def page_context(table, view, clock_state: str | None = None, to=None) -> dict:
    """What the table's page (and its live panel) shows around the sheet, for a view made
    with sheet_view(panel=True); the review page's view shows the sheet without the panel
    (no next tables). `to`: the table_links of the view's round, if the caller has them."""
    panel = view.panel
    rnd = view.round
    clock_state = clock_state or sheets.clock_state(rnd)
    # the time-called form is offered up front only once this round's time is up
    time_up = clock_state in ("time_up", "ended")
    to = to or table_links(table, rnd.number)
    entry_url = to("table.entry")
    context = dict(
        tournament=table.tournament, table=table, view=view,
        clock_state=clock_state, time_up=time_up,
        page_url=to("table.page"), entry_url=entry_url, review_url=to("table.review"),
        # built only where table/_time_called.html is shown: on the review page for an
        # open sheet with games left, on the panel then only once time is called or up;
        # not while the round's clock still runs, unless a game was already entered as
        # time called (sheet_writes refuses a table's first time called then)
        time_form=(versioned(TimeCalledForm, view)
                   if view.is_open and not view.complete
                   and (not panel or time_up or view.time_called_in)
                   and (time_up or view.time_called_in
                        or sheets.minutes_still_on_clock(rnd) is None) else None),
        time_url=to("table.time_called"),
        # the entry link with g= added (a game number: plain digits, nothing to quote)
        correct_link=lambda game_no: f"{entry_url}&g={game_no:d}",
    )
    if panel:
        context["next_tables"] = next_tables(rnd, table, view.seats, view.rules,
                                             view.next_seating)
    context.update(own_phone_context(table, view, to))
    return context


def own_phone_context(table, view, to) -> dict:
    """What the pages show of the players' own phones: which seat this phone is
    (own_phone_writes.my_seat), the seats that confirm on their own phones, the games
    still waiting for their signer, and this phone's own buttons: a game it signs, its
    round total; on the table's page, the game East is entering (drafts)."""
    me = my_seat(table, view.round.number) if view.seats else None
    unconfirmed = [row for row in view.games if row.signer and not row.initials]
    context = dict(
        me=me if me in view.seats else None, own_phones=own_phones(view.sheet),
        unconfirmed=unconfirmed,
        confirm_forms={row.number: versioned(ConfirmGameForm, view, seat=row.signer,
                                             game_no=row.number,
                                             points=row.points[row.signer])
                       for row in unconfirmed} if view.is_open else {},
        me_url=to("table.this_is_me"), not_me_url=to("table.not_me"),
        confirm_game_url=to("table.confirm_game"),
        confirm_total_url=to("table.confirm_total"),
    )
    if not context["me"] and view.panel:
        context["moved_on"] = moved_on(table, view.round)
    if context["me"] and view.panel:
        context["my_draft"] = shown_draft(view, me)
        planned = next_tables(view.round, table, view.seats, view.rules, view.next_seating)
        context["my_next"] = next_stop(view.round, table, view.seats[me].id, planned[me])
    # as East's review offers it: required where the rules ask every player to initial
    # the round, a tap each player may make where they do not
    if (context["me"] and view.is_open and view.complete
            and context["me"] not in view.signoffs):
        context["my_total_form"] = versioned(InitialForm, view, seat=me,
                                             total=view.totals[me])
    return context


@bp.app_template_global()
def hidden_inputs(form, prefix: str) -> Markup:
    """A form's hidden fields with ids prefixed by `prefix` (table/_macros.html), each as
    WTForms renders it, written out here for the plain hidden inputs: the review page has
    a dozen, and WTForms' rendering of each costs more than the rest of its form."""
    parts = []
    for field in form:
        widget = field.widget
        if getattr(widget, "input_type", None) != "hidden":
            continue
        if (type(widget) is not HiddenInput or field.render_kw
                or getattr(field.flags, "disabled", False)
                or getattr(field, "_datalist", None) is not None):
            parts.append(field(id=f"{prefix}-{field.name}"))
            continue
        name = escape(field.name)
        parts.append(f'<input id="{escape(prefix)}-{name}" name="{name}" type="hidden" '
                     f'value="{escape(field._value())}">')
    return Markup("".join(parts))
