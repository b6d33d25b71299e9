"""The round clock: the public clock partial every page includes (and its poll), and the
director's console (controls, announcements, the grid of tables)."""

from __future__ import annotations

from flask import (
    Blueprint,
    abort,
    flash,
    g,
    make_response,
    redirect,
    request,
    url_for,
)
from flask_login import current_user

from blueprints.common import render_page_or_partial, same_site_path, wants_partial
from core.access import ANY_STAFF, MANAGE, staff_required, staff_role
from core.clock import announcements, clock_by_code, clock_view, unchanged
from core.errors import Conflict, Refused
from core.lookup import movement_words
from core.rounds import round_row, waiting_for_a_seat
from core.words import clock_text

from . import actions, bar, grid
from .announcements import clear_announcement, post_announcement
from .forms import (
    AdjustForm,
    AnnouncementForm,
    ClearForm,
    EndForm,
    PauseForm,
    ResumeForm,
    SeatForm,
    StartForm,
)

bp = Blueprint("clock", __name__, url_prefix="/clock")


def _bar_for(tournament):
    """The director's bar for the signed-in staff member, or None (not staff, or nothing
    seated yet)."""
    if tournament is None or not current_user.is_authenticated:
        return None
    role = staff_role(tournament)
    # The bar's clock, calls and sheets in, and the poll that keeps them, are for the
    # staff who run the room: a scorer (front desk) has no bar, whatever page it is on.
    if role not in ANY_STAFF:
        return None
    return bar.director_bar(tournament, current_user, role in MANAGE)


bp.add_app_template_global(clock_view, "clock_for")
bp.add_app_template_global(clock_text)
bp.add_app_template_global(_bar_for, "director_bar_for")


def safe_back(value: str | None) -> str | None:
    """`value` when it is a path on this site (where the bar's forms return to), else None."""
    return same_site_path(value)


def no_change():
    response = make_response("", 204)
    response.vary.add("HX-Request")
    return response


@bp.get("/<code>")
def partial(code):
    """The clock partial for a poll: 204 while the version the phone shows is current."""
    found = clock_by_code(code)
    if found is None:
        abort(404)
    tournament, view = found
    if unchanged(view, request.args.get("v"), request.args.get("shown")):
        return no_change()
    response = render_page_or_partial("clock/page.html", "clock/_clock.html",
                                      tournament=tournament)
    # Other parts of the page (the table's sheet, the console's controls) listen for this.
    response.headers["HX-Trigger"] = "clockChanged"
    return response


# ---- the director's console ------------------------------------------------------------

def _console_context(tournament, role, forms=None, problem=None):
    view = clock_view(tournament)
    next_no = actions.next_round_number(tournament)
    next_row = round_row(tournament, next_no) if next_no else None
    can_control = role in MANAGE
    forms = forms or {}
    in_play = view is not None and view.in_play
    target_round = view.round_no if in_play else next_no
    target_row_version = view.clock_version if in_play else (
        next_row.clock_version if next_row is not None else 0)

    def prefilled(name, form_class):
        form = forms.get(name) or form_class(prefix=name)
        if hasattr(form, "version"):
            form.round_no.data = target_round
            form.version.data = target_row_version
        elif hasattr(form, "round_no"):
            form.round_no.data = next_no
        return form

    return dict(
        role=role, can_control=can_control,
        next_no=next_no, next_seated=next_row is not None, in_play=in_play,
        start_form=prefilled("start", StartForm), pause_form=prefilled("pause", PauseForm),
        resume_form=prefilled("resume", ResumeForm),
        adjust_form=prefilled("adjust", AdjustForm), end_form=prefilled("end", EndForm),
        seat_form=prefilled("seat", SeatForm),
        pause_refusal=actions.pause_refusal(tournament),
        extension_refusal=actions.extension_refusal(tournament),
        movement_words=movement_words(tournament, short=True),
        announcement_form=forms.get("announce") or AnnouncementForm(prefix="announce"),
        announcements=announcements(tournament.id), problem=problem,
        # Before seating or starting the next round: earlier sheets still not submitted.
        unsubmitted=(grid.unsubmitted_before(tournament, next_no)
                     if can_control and next_no and not in_play else []),
        # Before seating the next round: players here who would sit it out.
        waiting=(waiting_for_a_seat(tournament)
                 if can_control and next_no and not in_play else []),
        **_grid_context(tournament, view),
    )


def _grid_context(tournament, view):
    """What the grid of tables shows (and its version): the clock, one query for the
    tables. The "behind" line uses the round's own length, minutes added included."""
    tables = grid.table_grid(tournament, view)
    round_seconds = view.duration if view else tournament.round_minutes * 60
    return dict(
        tournament=tournament, view=view, grid=tables,
        grid_version=grid.grid_version(view, tables),
        games_per_round=tournament.games_per_round,
        behind_minutes=grid.behind_minutes(round_seconds, tournament.games_per_round),
    )


def _console(tournament, role, status=200, **kwargs):
    return render_page_or_partial("clock/console.html", "clock/_controls.html", status=status,
                                  **_console_context(tournament, role, **kwargs))


@bp.get("/director/<int:tournament_id>")
@staff_required(ANY_STAFF)
def console(tournament_id):
    """The director's console: the clock, its controls, announcements and every table."""
    return _console(g.tournament, g.role)


@bp.get("/director/<int:tournament_id>/grid", endpoint="grid")
@staff_required(ANY_STAFF)
def grid_partial(tournament_id):
    """The grid of tables for a poll: 204 while the version shown is current."""
    tournament = g.tournament
    # Only the clock and the grid (two queries) before the 204: the forms, announcements
    # and next round of the whole console are built only for a full page.
    context = _grid_context(tournament, clock_view(tournament))
    if request.args.get("v") == context["grid_version"]:
        return no_change()
    if wants_partial():
        return render_page_or_partial("clock/console.html", "clock/_grid.html", **context)
    return _console(tournament, g.role)


def _run(tournament, role, name, form, action):
    """Validate `form`, do `action(round_no, version)`; refusals re-show the console."""
    if not form.validate_on_submit():
        return _console(tournament, role, 422, forms={name: form},
                        problem="Nothing was changed. Please check the form below.")
    sent = form.round_and_version() if hasattr(form, "version") else None
    if hasattr(form, "version") and sent is None:
        return _console(tournament, role, 409,
                        problem="That form was incomplete. Nothing was changed; here is the "
                                "clock as it is now.")
    # Where to come back to is settled before the write: nothing after the commit may fail.
    back = safe_back(request.form.get("back"))
    try:
        message = action(*(sent or ()))
    except Conflict as error:
        # The clock as it is now: the forms are drawn again from the round, not the post.
        return _console(tournament, role, error.status, problem=error.message)
    except Refused as error:
        return _console(tournament, role, error.status, forms={name: form},
                        problem=error.message)
    flash(message, "success")
    # The bar's forms come back to the page they were tapped on.
    return redirect(back or url_for("clock.console", tournament_id=tournament.id), 303)


@bp.post("/director/<int:tournament_id>/start")
@staff_required(MANAGE)
def start(tournament_id):
    """Start the next round (its seating must exist)."""
    tournament, role = g.tournament, g.role

    def act(round_no, version):
        actions.start_round(tournament, round_no, version, current_user, role)
        return f"Round {round_no} has started."

    return _run(tournament, role, "start", StartForm(prefix="start"), act)


@bp.post("/director/<int:tournament_id>/pause")
@staff_required(MANAGE)
def pause(tournament_id):
    """Pause the clock, saying why."""
    tournament, role = g.tournament, g.role
    form = PauseForm(prefix="pause")

    def act(round_no, version):
        actions.pause(tournament, round_no, version, form.reason.data, current_user, role,
                      override=bool(form.override.data))
        return "The clock is paused."

    return _run(tournament, role, "pause", form, act)


@bp.post("/director/<int:tournament_id>/resume")
@staff_required(MANAGE)
def resume(tournament_id):
    """Restart a paused clock."""
    tournament, role = g.tournament, g.role
    form = ResumeForm(prefix="resume")

    def act(round_no, version):
        actions.resume(tournament, round_no, version, form.reason.data or "", current_user,
                       role)
        return "The clock is running again."

    return _run(tournament, role, "resume", form, act)


@bp.post("/director/<int:tournament_id>/adjust")
@staff_required(MANAGE)
def adjust(tournament_id):
    """Add minutes to the round or take them away."""
    tournament, role = g.tournament, g.role
    form = AdjustForm(prefix="adjust")

    def act(round_no, version):
        minutes = form.signed_minutes()
        actions.adjust(tournament, round_no, version, minutes, form.reason.data or "",
                       current_user, role)
        amount = f"{abs(minutes)} minute{'s' if abs(minutes) != 1 else ''}"
        return f"Added {amount}." if minutes > 0 else f"Took {amount} away."

    return _run(tournament, role, "adjust", form, act)


@bp.post("/director/<int:tournament_id>/end")
@staff_required(MANAGE)
def end(tournament_id):
    """End the round now."""
    tournament, role = g.tournament, g.role

    def act(round_no, version):
        actions.end_round(tournament, round_no, version, current_user, role)
        return f"Round {round_no} has ended."

    return _run(tournament, role, "end", EndForm(prefix="end"), act)


@bp.post("/director/<int:tournament_id>/seat")
@staff_required(MANAGE)
def seat(tournament_id):
    """Seat the next round by the movement (a separate act from starting it)."""
    tournament, role = g.tournament, g.role
    form = SeatForm(prefix="seat")

    def act():
        try:
            round_no = int(form.round_no.data)
        except (TypeError, ValueError):
            raise actions.ClockRefused("That form was incomplete. Nothing was changed.") \
                from None
        actions.seat_round(tournament, round_no, current_user, role)
        return f"Round {round_no} is seated. Start it when the players are in their seats."

    return _run(tournament, role, "seat", form, act)


@bp.post("/director/<int:tournament_id>/announcements")
@staff_required(MANAGE)
def announce(tournament_id):
    """Post an announcement on the big screen."""
    tournament, role = g.tournament, g.role
    form = AnnouncementForm(prefix="announce")

    def act():
        post_announcement(tournament, form.text.data, current_user, role)
        return "The announcement is on the big screen."

    return _run(tournament, role, "announce", form, act)


@bp.post("/director/<int:tournament_id>/announcements/<int:announcement_id>/clear")
@staff_required(MANAGE)
def clear(tournament_id, announcement_id):
    """Take an announcement off the big screen."""
    tournament, role = g.tournament, g.role

    def act():
        try:
            clear_announcement(tournament, announcement_id, current_user, role)
        except LookupError:
            abort(404)
        return "The announcement is off the big screen."

    return _run(tournament, role, "clear", ClearForm(), act)
