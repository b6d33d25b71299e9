"""The table's pages, reached by the table's QR link (/t/<code>/<number>?k=<token>; the
token is checked on every URL, GET and POST), and the staff's view of any sheet.

Thin: parse the form, call blueprints.table.service, render the page or, for htmx, its
partial. Every write answers a plain post with a redirect, so nothing needs JavaScript."""

from __future__ import annotations

from flask import (
    Blueprint,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_login import current_user, login_required

from blueprints.common import (
    SEAT_NAMES,
    new_request_key,
    render_page_or_partial,
    wants_partial,
)
from core import sheets
from core.access import ANY_STAFF, MANAGE, staff_role, staff_tournament
from core.lookup import BadLink, rules_of, table_from_link
from core.rounds import round_row
from tournament.scoring import InvalidGame

from . import service
from .forms import (
    EXPOSURE_CHOICES,
    FIELD_STEP,
    MAX_ROW_NUMBER,
    VALUE_CHOICES,
    EndRoundForm,
    GameForm,
    GameInitialForm,
    InitialForm,
    SubmitForm,
    TimeCalledForm,
    Unanswered,
    VerifyForm,
    WestCheckForm,
    small_int,
)

bp = Blueprint("table", __name__, url_prefix="/t")

CONFLICT = ("Someone changed this sheet from another phone while you were entering. The "
            "sheet below is the current one. Check it: if your game is not there, tap "
            "Save again.")


@bp.errorhandler(BadLink)
def bad_link(error):
    """A wrong or rotated token: a plain page, nothing about the table."""
    return render_template("table/invalid_link.html"), 404


# ---- helpers ------------------------------------------------------------------------


def _table(code: str, number: int):
    return table_from_link(code, number, request.args.get("k"))


def _table_and_round(code: str, number: int):
    """The table from its link and the round this request is for (r=, else the table's
    current round); 404 when the table has no seated round."""
    table = _table(code, number)
    rnd = _round(table, _asked_round())
    if rnd is None:
        abort(404)
    return table, rnd


def _round(table, round_no: int | None):
    """The round asked for (r=), or the table's current round; 404 for an unseated one."""
    if round_no:
        state = sheets.poll_state(table, round_no)
        if state is None:
            abort(404)
        return state.round
    return sheets.current_round(table)


def _query_int(name: str) -> int | None:
    """A whole number from the query string, or None when it is missing, not plain ASCII
    digits ("²" passes str.isdigit but not int) or too big for an SQL INTEGER."""
    return small_int(request.args.get(name), MAX_ROW_NUMBER)


def _asked_round() -> int | None:
    return _query_int("r") or small_int(request.form.get("round_no"), MAX_ROW_NUMBER)


def _link(endpoint: str, table, round_no: int | None = None, **values) -> str:
    return url_for(endpoint, code=table.tournament.code, number=table.number, k=table.token,
                   r=round_no, **values)


def _done(target: str, message: str | None = None):
    """Success: a redirect for a plain post, HX-Redirect for htmx."""
    # a resend after a lost reply must not say it twice
    if message and ("message", message) not in session.get("_flashes", []):
        flash(message)
    if wants_partial():
        response = make_response("", 200)
        response.headers["HX-Redirect"] = target
        return response
    return redirect(target, code=303)


def _stamp(form, view, keep_key: bool = True) -> None:
    form.version.data = view.version
    form.round_no.data = view.round.number
    if not (keep_key and form.request_key.data):
        form.request_key.data = new_request_key()


# What the scores box says while a question is still unanswered (in the form's words).
NEXT_QUESTION = {
    "outcome": "Next: how did the game end?",
    "winner": "Next: who made Mah Jongg?",
    "value": "Next: what is the hand worth on the card?",
    "win_by": "Next: was the winning tile self-picked or thrown?",
    "thrower": "Next: who threw the winning tile?",
    "exposures": "Next: how many exposures did the winner have?",
    "misnamer": "Next: who misnamed the discard?",
    "in_error": "Next: who declared Mah Jongg in error?",
    "intact": "Next: whose hand is still intact?",
}


def _errors_at_steps(error_field: str, message: str, form: GameForm) -> dict[str, str]:
    step = FIELD_STEP.get(error_field, "outcome")
    if error_field == "discarder" and form.win_by.data != "thrown":
        step = "win_by"
        if not form.win_by.data:
            message = "Was the winning tile self-picked or thrown? Choose one."
    if error_field == "in_error" and form.outcome.data in ("error_all_exposed",
                                                           "error_one_intact"):
        step = "in_error"
    return {step: message}


def _missing(error: InvalidGame, record: dict) -> bool:
    """An error that only says a step is not answered yet (not a contradiction)."""
    if error.field in ("outcome",) and not record.get("outcome"):
        return True
    if error.field in ("winner", "value", "misnamer", "intact"):
        return not record.get(error.field)
    if error.field == "discarder":
        return not record.get("discarder")
    return error.field == "in_error" and not record.get("in_error")


def _entry_context(table, view, form, *, errors=None, preview=None, conflict=None,
                   director=False, save_url=None, preview_url=None, conflict_game=None):
    rules = view.rules
    record = None
    unanswered = False
    if preview is None:
        try:
            record = form.record(rules)
            preview = service.preview(rules, record, view.adjustments_for(form.game_no.data))
        except Unanswered as error:
            preview, unanswered = service.Preview(error=error), True
        except InvalidGame as error:
            preview = service.Preview(error=error)
    hint = None
    if errors:
        hint = "Please check the answer marked above: " + next(iter(errors.values()))
    elif unanswered:
        hint = NEXT_QUESTION.get(preview.error.field, preview.error.message)
    elif preview.error is not None:
        error = preview.error
        if record is not None and _missing(error, record):
            hint = NEXT_QUESTION.get(form.plan(rules).get("next"), error.message)
        elif form.outcome.data:
            errors = _errors_at_steps(error.field, error.message, form)
    return dict(
        tournament=table.tournament, table=table, view=view, form=form, rules=rules,
        plan=form.plan(rules), preview=preview, hint=hint, errors=errors or {},
        conflict=conflict, conflict_game=conflict_game, director=director,
        outcome_choices=form.outcome_choices(rules),
        penalty_kinds=service.penalty_kinds(rules),
        value_choices=VALUE_CHOICES, exposure_choices=EXPOSURE_CHOICES,
        save_url=save_url or _link("table.save_game", table, view.round.number),
        preview_url=preview_url or _link("table.preview_game", table, view.round.number),
        back_url=_link("table.page", table, view.round.number),
    )


def _render_entry(status: int = 200, **context):
    return render_page_or_partial("table/entry.html", "table/_entry.html", status=status,
                                  **context)


def _page_context(table, view, clock_state: str | None = None):
    rnd = view.round
    clock_state = clock_state or sheets.clock_state(rnd)
    return dict(
        tournament=table.tournament, table=table, view=view,
        next_tables=service.next_tables(rnd, table),
        clock_state=clock_state,
        # the time-called form is offered up front only once this round's time is up
        time_up=clock_state in ("time_up", "ended"),
        page_url=_link("table.page", table, rnd.number),
        entry_url=_link("table.entry", table, rnd.number),
        review_url=_link("table.review", table, rnd.number),
        time_form=_versioned(TimeCalledForm, view),
        time_url=_link("table.time_called", table, rnd.number),
        other_open=sheets.open_rounds_before(table, rnd.number),
        correct_link=lambda game_no: _link("table.entry", table, rnd.number, g=game_no),
    )


def _versioned(form_class, view, **data):
    form = form_class(formdata=None, **data)
    _stamp(form, view, keep_key=False)
    return form


# ---- the table page -----------------------------------------------------------------


@bp.get("/<code>/<int:number>")
def page(code, number):
    """The table's page: round, clock, seats, where each goes next, the sheet so far.

    Its live panel polls with v=<round>-<sheet version>-<clock version>-<clock state>
    (sheets.PollState): 204 when nothing changed, the panel when the sheet or the clock
    changed, a full refresh when the table has moved on to another round. The 204 costs
    two queries (the table with its tournament; the round with its sheet's version)."""
    table = _table(code, number)
    asked = _query_int("r")
    state = sheets.poll_state(table, asked or None)
    if state is None:
        if asked:
            abort(404)
        return render_template("table/not_seated.html", table=table,
                               tournament=table.tournament)
    rnd = state.round
    # A poll: answered from the one query above, before anything else is read or built.
    shown = request.args.get("v")
    if wants_partial() and shown:
        if shown == state.token:
            return "", 204
        if shown.split("-")[0] != str(rnd.number):
            response = make_response("", 200)
            response.headers["HX-Refresh"] = "true"
            return response
    view = service.sheet_view(table, rnd)
    context = _page_context(table, view, state.clock_state)
    poll_url = (_link("table.page", table, rnd.number) if asked else
                url_for("table.page", code=table.tournament.code, number=table.number,
                        k=table.token))
    return render_page_or_partial("table/page.html", "table/_panel.html", poll_url=poll_url,
                                  poll_token=state.token, **context)


# ---- entering a game ----------------------------------------------------------------


@bp.get("/<code>/<int:number>/game")
def entry(code, number):
    """Enter the next game (or, with g=, correct an entered one)."""
    table, rnd = _table_and_round(code, number)
    view = service.sheet_view(table, rnd)
    page_url = _link("table.page", table, rnd.number)
    if not view.is_open:
        flash("This sheet was submitted. Only the director can change it now.")
        return redirect(page_url, code=303)
    game_no = _query_int("g")
    form = GameForm(formdata=None)
    if game_no:
        row = view.game(game_no)
        if row is None:
            abort(404)
        form.load(row.record, row.note)
        form.entered_as.data = "correction"
    elif view.complete:
        return redirect(_link("table.review", table, rnd.number), code=303)
    form.game_no.data = game_no or view.next_game
    _stamp(form, view, keep_key=False)
    return _render_entry(**_entry_context(table, view, form))


@bp.post("/<code>/<int:number>/game/preview")
def preview_game(code, number):
    """The live scores for what East has tapped so far (nothing is saved)."""
    table, rnd = _table_and_round(code, number)
    view = service.sheet_view(table, rnd)
    form = GameForm()
    # still choosing between the other phone's game and this one's: keep both in view
    theirs = (view.game(form.game_no.data or 0) if request.form.get("compare") == "1"
              and form.entered_as.data == "correction" else None)
    return _render_entry(**_entry_context(table, view, form, conflict_game=theirs,
                                          conflict=_conflict_words(theirs) if theirs else None))


@bp.post("/<code>/<int:number>/game")
def save_game(code, number):
    """Save one game of this table's round (a new game or a correction)."""
    table, rnd = _table_and_round(code, number)
    form = GameForm()
    form.validate_on_submit()
    rules = rules_of(table.tournament)
    page_url = _link("table.page", table, rnd.number)
    try:
        record = form.record(rules)
        sheet = service.save_game(
            table, rnd, form.game_no.data or 0, record, initials=form.initials.data or "",
            note=form.note.data or "", version=form.version.data or 0,
            key=form.request_key.data, actor=_east(table, rnd),
            expect_new=form.entered_as.data != "correction")
    except service.Replayed:
        # the first tap got through (its reply was lost): to East it is simply saved
        return _done(page_url, f"Game {form.game_no.data} saved.")
    except InvalidGame as error:
        view = service.sheet_view(table, rnd)
        errors = _errors_at_steps(error.field, error.message, form)
        return _render_entry(422, **_entry_context(table, view, form, errors=errors))
    except service.SheetError as error:
        view = service.sheet_view(table, rnd)
        errors = _errors_at_steps(error.field, error.message, form)
        status = 409 if error.field in ("sheet", "game") else 422
        return _render_entry(status, **_entry_context(table, view, form, errors=errors))
    except service.StaleSheet:
        view = service.sheet_view(table, rnd)
        # Typed answers stay with the game they were typed for. When another phone saved
        # that game meanwhile, both versions are shown and East chooses: keep theirs
        # (nothing more is saved) or correct the game with this phone's answers.
        theirs = (view.game(form.game_no.data or 0)
                  if form.entered_as.data != "correction" or request.form.get("compare") == "1"
                  else None)
        if theirs is not None:
            form.entered_as.data = "correction"
        _stamp(form, view)
        return _render_entry(409, **_entry_context(
            table, view, form, conflict=_conflict_words(theirs), conflict_game=theirs))
    game = next(g for g in sheet.games if g.number == form.game_no.data)
    return _done(page_url, f"Game {game.number} saved.")


def _conflict_words(theirs) -> str:
    if theirs is None:
        return CONFLICT
    return (f"Another phone saved game {theirs.number} while you were entering it. Nothing "
            "from this phone was saved. Compare the two, then choose.")


def _east(table, rnd) -> str:
    seats = service.seats_of(rnd, table)
    east = seats.get("E")
    return f"Table {table.number} East" + (f" ({east.name})" if east else "")


# ---- time called, review, initials, submit --------------------------------------------


@bp.post("/<code>/<int:number>/time")
def time_called(code, number):
    """Record every game not yet played as time called."""
    table, rnd = _table_and_round(code, number)
    form = TimeCalledForm()
    form.validate_on_submit()
    review_url = _link("table.review", table, rnd.number)
    if not form.confirm.data:
        return _review(table, rnd, status=422, errors={"time": TIME_NOT_CONFIRMED})
    try:
        service.record_time_called(table, rnd, version=form.version.data or 0,
                                   key=form.request_key.data, actor=_east(table, rnd))
    except service.Replayed:
        return _done(review_url)
    except (service.StaleSheet, service.SheetError) as error:
        return _review(table, rnd, status=409, conflict=getattr(error, "message", CONFLICT))
    return _done(review_url, "The remaining games are recorded as time called.")


TIME_NOT_CONFIRMED = ("Nothing was recorded. Tick \u201cYes, the director called time\u201d "
                      "first, then tap the button again.")


def _review(table, rnd, *, status=200, errors=None, conflict=None, forms=None):
    view = service.sheet_view(table, rnd)
    forms = forms or {}
    initial_forms = {}
    for seat in view.seats:
        form = forms.get(seat) or _versioned(InitialForm, view, seat=seat)
        if seat in forms:
            _stamp(form, view)
        initial_forms[seat] = form
    context = _page_context(table, view)
    context.update(
        errors=errors or {}, conflict=conflict, initial_forms=initial_forms,
        game_initial_forms={(number, seat): _versioned(GameInitialForm, view, seat=seat,
                                                       game_no=number)
                            for number, seats in view.games_to_initial for seat in seats},
        game_initial_url=_link("table.initial_game", table, rnd.number),
        west_form=_versioned(WestCheckForm, view),
        west_url=_link("table.west_check", table, rnd.number),
        submit_form=_versioned(SubmitForm, view),
        initial_url=_link("table.initial", table, rnd.number),
        submit_url=_link("table.submit", table, rnd.number),
    )
    return render_page_or_partial("table/review.html", "table/_review.html", status=status,
                                  **context)


@bp.get("/<code>/<int:number>/review")
def review(code, number):
    """The round review: every game, each player's total, initials, submit."""
    table, rnd = _table_and_round(code, number)
    return _review(table, rnd)


@bp.post("/<code>/<int:number>/initial")
def initial(code, number):
    """A player initials their round total."""
    table, rnd = _table_and_round(code, number)
    form = InitialForm()
    form.validate_on_submit()
    seat = form.seat.data or ""
    review_url = _link("table.review", table, rnd.number)
    try:
        service.sign_round(table, rnd, seat, form.initials.data or "",
                           version=form.version.data or 0, key=form.request_key.data)
    except service.Replayed:
        return _done(review_url)
    except service.SheetError as error:
        status = 409 if error.field == "sheet" else 422
        return _review(table, rnd, status=status, errors={error.field: error.message},
                       forms={seat: form} if seat in service.SEATS else None)
    except service.StaleSheet:
        return _review(table, rnd, status=409, conflict=CONFLICT,
                       forms={seat: form} if seat in service.SEATS else None)
    return _done(review_url, f"{SEAT_NAMES.get(seat, seat)} initialled.")


@bp.post("/<code>/<int:number>/game-initial")
def initial_game(code, number):
    """A player's one tap confirming their score in one game."""
    table, rnd = _table_and_round(code, number)
    form = GameInitialForm()
    form.validate_on_submit()
    seat = form.seat.data or ""
    review_url = _link("table.review", table, rnd.number)
    try:
        service.initial_game(table, rnd, form.game_no.data or 0, seat,
                             version=form.version.data or 0, key=form.request_key.data)
    except service.Replayed:
        return _done(review_url)
    except service.SheetError as error:
        return _review(table, rnd, status=409 if error.field == "sheet" else 422,
                       errors={"game_initials": error.message})
    except service.StaleSheet:
        return _review(table, rnd, status=409, conflict=CONFLICT)
    return _done(review_url, f"{SEAT_NAMES.get(seat, seat)} initialled game "
                             f"{form.game_no.data}.")


@bp.post("/<code>/<int:number>/west-check")
def west_check(code, number):
    """West has checked East's sheet."""
    table, rnd = _table_and_round(code, number)
    form = WestCheckForm()
    form.validate_on_submit()
    review_url = _link("table.review", table, rnd.number)
    try:
        service.west_check(table, rnd, version=form.version.data or 0,
                           key=form.request_key.data)
    except service.Replayed:
        return _done(review_url)
    except service.SheetError as error:
        return _review(table, rnd, status=409 if error.field == "sheet" else 422,
                       errors={"west": error.message})
    except service.StaleSheet:
        return _review(table, rnd, status=409, conflict=CONFLICT)
    return _done(review_url, "West checked the sheet.")


@bp.post("/<code>/<int:number>/submit")
def submit(code, number):
    """East submits the round: the sheet is locked."""
    table, rnd = _table_and_round(code, number)
    form = SubmitForm()
    form.validate_on_submit()
    page_url = _link("table.page", table, rnd.number)
    try:
        service.submit_sheet(table, rnd, version=form.version.data or 0,
                             key=form.request_key.data, actor=_east(table, rnd))
    except service.Replayed:
        return _done(page_url)
    except service.SheetError as error:
        status = 409 if error.field == "sheet" else 422
        return _review(table, rnd, status=status, errors={"submit": error.message})
    except service.StaleSheet:
        return _review(table, rnd, status=409, conflict=CONFLICT)
    return _done(page_url, "Round submitted. Thank you!")


# ---- staff: any sheet, verify, amend ------------------------------------------------


def _staff_sheet(tournament_id, table_no, round_no, roles=ANY_STAFF):
    tournament = staff_tournament(tournament_id, roles)
    table = service.table_by_number(tournament, table_no)
    rnd = round_row(tournament, round_no)
    if table is None or rnd is None or not service.seats_of(rnd, table):
        abort(404)
    return tournament, table, rnd


def _staff_urls(tournament, table, rnd):
    ids = dict(tournament_id=tournament.id, table_no=table.number, round_no=rnd.number)
    return ids


@bp.get("/director/<int:tournament_id>/<int:table_no>/<int:round_no>")
@login_required
def director_sheet(tournament_id, table_no, round_no):
    """A staff view of one table's sheet: verify it, or amend it with a reason."""
    tournament, table, rnd = _staff_sheet(tournament_id, table_no, round_no)
    return _director_page(tournament, table, rnd)


def _director_page(tournament, table, rnd, status=200, errors=None, conflict=None,
                   end_form=None):
    view = service.sheet_view(table, rnd)
    ids = _staff_urls(tournament, table, rnd)
    return render_template(
        "table/director_sheet.html", tournament=tournament, table=table, view=view,
        role=staff_role(tournament), errors=errors or {}, conflict=conflict,
        verify_form=_versioned(VerifyForm, view), ids=ids,
        verify_url=url_for("table.verify", **ids),
        end_form=end_form or _versioned(EndRoundForm, view),
        end_url=url_for("table.end_round", **ids),
        amend_link=lambda game_no: url_for("table.amend", game_no=game_no, **ids),
        table_link=_link("table.page", table, rnd.number),
    ), status


@bp.post("/director/<int:tournament_id>/<int:table_no>/<int:round_no>/verify")
@login_required
def verify(tournament_id, table_no, round_no):
    """A table guide (or director) marks a submitted sheet verified."""
    tournament, table, rnd = _staff_sheet(tournament_id, table_no, round_no)
    form = VerifyForm()
    form.validate_on_submit()
    target = url_for("table.director_sheet", tournament_id=tournament.id,
                     table_no=table.number, round_no=rnd.number)
    sheet = service.sheet_for(rnd, table)
    if sheet is None:
        return _director_page(tournament, table, rnd, 422,
                              errors={"verify": "This table has entered no game yet."})
    try:
        service.verify_sheet(sheet, current_user, version=form.version.data or 0,
                             key=form.request_key.data)
    except service.Replayed:
        return _done(target)
    except service.SheetError as error:
        return _director_page(tournament, table, rnd, 409, errors={"verify": error.message})
    except service.StaleSheet:
        return _director_page(tournament, table, rnd, 409, conflict=CONFLICT)
    return _done(target, "Sheet verified.")


@bp.post("/director/<int:tournament_id>/<int:table_no>/<int:round_no>/end")
@login_required
def end_round(tournament_id, table_no, round_no):
    """The director ends this table's round with a reason and the points for the rest."""
    tournament, table, rnd = _staff_sheet(tournament_id, table_no, round_no, MANAGE)
    form = EndRoundForm()
    form.validate_on_submit()
    target = url_for("table.director_sheet", tournament_id=tournament.id,
                     table_no=table.number, round_no=rnd.number)
    points, bad_seat = form.points()
    if bad_seat:
        return _director_page(tournament, table, rnd, 422, end_form=form, errors={
            "end_points": f"{SEAT_NAMES[bad_seat]}: type a whole number of points, like 10 "
                          "or -10 (at most 500)."})
    try:
        service.end_table_round(table, rnd, reason=form.reason.data or "", points=points,
                                user=current_user, version=form.version.data or 0,
                                key=form.request_key.data)
    except service.Replayed:
        return _done(target)
    except (service.SheetError, InvalidGame) as error:
        field = "end_reason" if getattr(error, "field", "") == "end_reason" else "end"
        return _director_page(tournament, table, rnd, 422, end_form=form,
                              errors={field: error.message})
    except service.StaleSheet:
        return _director_page(tournament, table, rnd, 409, conflict=CONFLICT)
    return _done(target, f"Table {table.number}'s round {rnd.number} ended.")


def _amend_urls(ids, game_no):
    return (url_for("table.amend", game_no=game_no, **ids),
            url_for("table.amend_preview", game_no=game_no, **ids))


@bp.route("/director/<int:tournament_id>/<int:table_no>/<int:round_no>/game/<int:game_no>",
          methods=["GET", "POST"])
@login_required
def amend(tournament_id, table_no, round_no, game_no):
    """A director changes a game (also on a locked sheet), always with a written reason."""
    tournament, table, rnd = _staff_sheet(tournament_id, table_no, round_no, MANAGE)
    view = service.sheet_view(table, rnd)
    ids = _staff_urls(tournament, table, rnd)
    if game_no < 1 or game_no > min(len(view.games) + 1, tournament.games_per_round):
        abort(404)
    save_url, preview_url = _amend_urls(ids, game_no)
    back = url_for("table.director_sheet", **ids)
    common = dict(director=True, save_url=save_url, preview_url=preview_url)
    if request.method == "GET":
        form = GameForm(formdata=None)
        row = view.game(game_no)
        if row is not None:
            form.load(row.record, row.note)
            form.initials.data = row.initials
            form.entered_as.data = "correction"
        form.game_no.data = game_no
        _stamp(form, view, keep_key=False)
        return _render_entry(**_entry_context(table, view, form, **common), back=back)
    form = GameForm()
    form.validate_on_submit()
    form.game_no.data = game_no
    try:
        record = form.record(view.rules)
        service.save_game(table, rnd, game_no, record, initials=form.initials.data or "",
                          note=form.note.data or "", version=form.version.data or 0,
                          key=form.request_key.data, actor=f"{current_user.name} (director)",
                          user=current_user, reason=form.reason.data or "", director=True)
    except service.Replayed:
        return _done(back)
    except InvalidGame as error:
        errors = _errors_at_steps(error.field, error.message, form)
        return _render_entry(422, **_entry_context(table, view, form, errors=errors, **common),
                             back=back)
    except service.SheetError as error:
        errors = _errors_at_steps(error.field, error.message, form)
        return _render_entry(422, **_entry_context(table, view, form, errors=errors, **common),
                             back=back)
    except service.StaleSheet:
        view = service.sheet_view(table, rnd)
        _stamp(form, view)
        return _render_entry(409, **_entry_context(table, view, form, conflict=CONFLICT,
                                                   **common), back=back)
    return _done(back, f"Game {game_no} amended.")


@bp.post("/director/<int:tournament_id>/<int:table_no>/<int:round_no>/game/<int:game_no>"
         "/preview")
@login_required
def amend_preview(tournament_id, table_no, round_no, game_no):
    """The live scores while a director amends a game."""
    tournament, table, rnd = _staff_sheet(tournament_id, table_no, round_no, MANAGE)
    view = service.sheet_view(table, rnd)
    ids = _staff_urls(tournament, table, rnd)
    save_url, preview_url = _amend_urls(ids, game_no)
    form = GameForm()
    form.game_no.data = game_no
    return _render_entry(**_entry_context(table, view, form, director=True, save_url=save_url,
                                          preview_url=preview_url),
                         back=url_for("table.director_sheet", **ids))
