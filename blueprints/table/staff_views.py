"""The staff's view of any table's sheet (/t/director/<tournament>/<table>/<round>):
verify it, end the table's round, or amend a game with a written reason."""

from __future__ import annotations

import functools

from flask import abort, g, render_template, request, url_for
from flask_login import current_user

from blueprints.common import link
from core.access import ANY_STAFF, MANAGE, staff_required
from core.errors import Conflict
from core.rounds import round_row
from core.sheets import sheet_for
from core.words import SEAT_NAMES, staff_actor

from . import round_ends, sheet_writes, signoffs
from .forms import EndRoundForm, GameDefaults, GameForm, VerifyForm
from .pages import CONFLICT, answer, bp, sent, stamp, versioned
from .sheet_reads import seats_of, table_by_number
from .sheet_view import sheet_view
from .table_views import entry_context, render_entry

SHEET = "/director/<int:tournament_id>/<int:table_no>/<int:round_no>"


def staff_sheet(roles=ANY_STAFF):
    """@staff_required(roles), and the table and the round the URL names on g.table and
    g.round (404 when the table has no seats in that round)."""

    def decorate(view):
        @staff_required(roles)
        @functools.wraps(view)
        def wrapper(*args, **kwargs):
            g.table = table_by_number(g.tournament, kwargs["table_no"])
            g.round = round_row(g.tournament, kwargs["round_no"])
            if g.table is None or g.round is None or not seats_of(g.round, g.table):
                abort(404)
            return view(*args, **kwargs)

        return wrapper

    return decorate


def _ids() -> dict:
    return dict(tournament_id=g.tournament.id, table_no=g.table.number,
                round_no=g.round.number)


def director_page(status=200, errors=None, conflict=None, end_form=None):
    tournament, table, rnd = g.tournament, g.table, g.round
    view = sheet_view(table, rnd)
    ids = _ids()
    return render_template(
        "table/director_sheet.html", tournament=tournament, table=table, view=view,
        role=g.role, errors=errors or {}, conflict=conflict,
        verify_form=versioned(VerifyForm, view), ids=ids,
        verify_url=url_for("table.verify", **ids),
        end_form=stamp(end_form, view) if end_form else versioned(EndRoundForm, view),
        end_url=url_for("table.end_round", **ids),
        amend_link=lambda game_no: url_for("table.amend", game_no=game_no, **ids),
        # The link carries the table's token, the right to enter its points: only for
        # the roles that may change points anyway, never for a table guide.
        table_link=link("table.page", table, rnd.number) if g.role in MANAGE else None,
    ), status


@bp.get(SHEET)
@staff_sheet()
def director_sheet(tournament_id, table_no, round_no):
    """A staff view of one table's sheet: verify it, or amend it with a reason."""
    return director_page()


@bp.post(SHEET + "/verify")
@staff_sheet()
def verify(tournament_id, table_no, round_no):
    """A table guide (or director) marks a submitted sheet verified."""
    form = VerifyForm()
    sheet = sheet_for(g.round, g.table)
    if sheet is None:
        return director_page(422, errors={"verify": "This table has entered no game yet."})
    return answer(lambda: signoffs.verify_sheet(sheet, current_user, **sent(form)),
        target=url_for("table.director_sheet", **_ids()), message="Sheet verified.",
        refused=lambda error, status: director_page(status, **(
            {"conflict": CONFLICT} if isinstance(error, Conflict)
            else {"errors": {"verify": error.message}})))


@bp.post(SHEET + "/end")
@staff_sheet(MANAGE)
def end_round(tournament_id, table_no, round_no):
    """The director ends this table's round with a reason and the points for the rest."""
    table, rnd = g.table, g.round
    form = EndRoundForm()
    points, bad_seat = form.points()
    if bad_seat:
        return director_page(422, end_form=form, errors={
            "end_points": f"{SEAT_NAMES[bad_seat]}: type a whole number of points, like 10 "
                          "or -10 (at most 500)."})

    def refused(error, status):
        if isinstance(error, Conflict):  # what they typed stays, for the sheet as it is now
            return director_page(status, conflict=CONFLICT, end_form=form)
        field = "end_reason" if error.field == "end_reason" else "end"
        return director_page(status, end_form=form, errors={field: error.message})

    return answer(lambda: round_ends.end_table_round(
        table, rnd, reason=form.reason.data or "", points=points, user=current_user, **sent(form)),
        target=url_for("table.director_sheet", **_ids()),
        message=f"Table {table.number}'s round {rnd.number} ended.", refused=refused)


def _amend_urls(game_no):
    ids = _ids()
    return dict(director=True, save_url=url_for("table.amend", game_no=game_no, **ids),
                preview_url=url_for("table.amend_preview", game_no=game_no, **ids))


@bp.route(SHEET + "/game/<int:game_no>", methods=["GET", "POST"])
@staff_sheet(MANAGE)
def amend(tournament_id, table_no, round_no, game_no):
    """A director changes a game (also on a locked sheet), always with a written reason."""
    tournament, table, rnd = g.tournament, g.table, g.round
    view = sheet_view(table, rnd)
    if game_no < 1 or game_no > min(len(view.games) + 1, tournament.games_per_round):
        abort(404)
    back = url_for("table.director_sheet", **_ids())
    common = _amend_urls(game_no)
    if request.method == "GET":
        form = GameDefaults()
        row = view.game(game_no)
        if row is not None:
            form.load(row.record, row.note)
            form.initials.data = row.initials
            form.entered_as.data = "correction"
        form.game_no.data = game_no
        stamp(form, view, keep_key=False)
        return render_entry(**entry_context(table, view, form, **common), back=back)
    form = GameForm()
    form.game_no.data = game_no

    def refused(error, status):
        if not isinstance(error, Conflict):
            return render_entry(status, **entry_context(table, view, form, refused=error,
                                                        **common), back=back)
        fresh = sheet_view(table, rnd)
        stamp(form, fresh)
        return render_entry(status, **entry_context(table, fresh, form, conflict=CONFLICT,
                                                    **common), back=back)

    return answer(lambda: sheet_writes.save_game(
        table, rnd, game_no, form.record(view.rules), initials=form.initials.data or "",
        note=form.note.data or "", **sent(form),
        actor=staff_actor(current_user, "director"), user=current_user,
        reason=form.reason.data or "", director=True),
        target=back, message=f"Game {game_no} amended.", refused=refused)


@bp.post(SHEET + "/game/<int:game_no>/preview")
@staff_sheet(MANAGE)
def amend_preview(tournament_id, table_no, round_no, game_no):
    """The live scores while a director amends a game."""
    view = sheet_view(g.table, g.round)
    form = GameForm()
    form.game_no.data = game_no
    return render_entry(**entry_context(g.table, view, form, **_amend_urls(game_no)),
                        back=url_for("table.director_sheet", **_ids()))
