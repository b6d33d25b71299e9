"""The pages a table's QR link opens: the table's page, entering a game, time called, the
round review with the players' initials and West's check, and submitting."""

from __future__ import annotations

from flask import (
    abort,
    current_app,
    flash,
    g,
    make_response,
    redirect,
    render_template,
    request,
)
from sqlalchemy.exc import SQLAlchemyError

from blueprints.common import link, render_page_or_partial, table_links, wants_partial
from core import sheets
from core.errors import Conflict
from core.lookup import rules_of
from core.rows import shows_only
from core.table_pages import table_link
from core.words import SEAT_NAMES, SEATS

from . import drafts, entry_html, own_phone_writes, round_ends, sheet_writes, signoffs
from .entry import EntryState, outcome_choices, penalty_kinds, scores_shown
from .forms import (
    GameDefaults,
    GameForm,
    GameInitialForm,
    InitialForm,
    SubmitForm,
    TimeCalledForm,
    WestCheckForm,
)
from .own_phone_writes import own_phones
from .pages import (
    CONFLICT,
    answer,
    bp,
    page_context,
    query_int,
    sent,
    shown,
    stamp,
    table_round,
    versioned,
    whole_page,
)
from .sheet_view import sheet_view

TIME_NOT_CONFIRMED = ("Nothing was recorded. Tick \u201cYes, the director called time\u201d "
                      "first, then tap the button again.")


# ---- the table page -----------------------------------------------------------------


@bp.get("/<code>/<int:number>")
@table_link
def page(code, number):
    """The table's page: round, clock, seats, where each goes next, the sheet so far.

    Its live panel polls with v=<round>-<sheet version>-<clock version>-<clock state>-
    <players version> (sheets.PollState): 204 when nothing changed, the panel when the
    sheet, the clock or a player's name changed, a full refresh when the table has moved
    on to another round. The page reads
    the table, the clock, the round and the call bar's call in one query
    (core.table_pages); the 204 comes from the one poll (blueprints/live)."""
    table = g.table
    asked = g.asked_round
    state = sheets.poll_state(table, asked)
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
    view = sheet_view(table, rnd, panel=True)
    context = page_context(table, view, state.clock_state)
    if not wants_partial():  # the whole page (render_page_or_partial's choice)
        # no round comes before the first
        context["other_open"] = (sheets.open_rounds_before(table, rnd.number)
                                 if rnd.number > 1 else [])
    poll_url = context["page_url"] if asked else link("table.page", table)
    return render_page_or_partial("table/page.html", "table/_panel.html", poll_url=poll_url,
                                  poll_token=state.token, **context)


def table_page(table, round_no: int):
    """The table's whole page for round `round_no`, as the answer to a write that leads
    there (pages.done)."""
    state = sheets.poll_state(table, round_no)
    rnd = state.round
    view = sheet_view(table, rnd, panel=True)
    context = page_context(table, view, state.clock_state)
    context["other_open"] = (sheets.open_rounds_before(table, rnd.number)
                             if rnd.number > 1 else [])
    return whole_page(render_template("table/page.html", poll_url=context["page_url"],
                                      poll_token=state.token, **context))


# ---- entering a game ----------------------------------------------------------------


def entry_context(table, view, form, *, refused=None, conflict=None, director=False,
                  save_url=None, preview_url=None, conflict_game=None) -> dict:
    """The entry page's context: the wizard's state (blueprints.table.entry) for this form,
    and where the page saves, previews and goes back to."""
    rules = view.rules
    state = EntryState.of(form, rules, view.adjustments_for(form.game_no.data), refused,
                          sheet=None if director else {row.number: row.record
                                                       for row in view.games})
    to = table_links(table, view.round.number)
    return dict(
        tournament=table.tournament, table=table, view=view, form=form, **state.context(),
        **entry_html.wizard(form, view.seats, rules, state.plan, state.errors,
                            outcome_choices(rules), penalty_kinds(rules)),
        conflict=conflict, conflict_game=conflict_game, director=director,
        own_phones=set() if director else own_phones(view.sheet),
        save_url=save_url or to("table.save_game"),
        preview_url=preview_url or to("table.preview_game"),
        back_url=to("table.page"),
        # the page's one poll (blueprints/live): the clock and the call bar; a director
        # amending the sheet has neither
        live_url=None if director else to("live.table"),
    )


CHANGED_SCORES = ("The scores changed since the button was shown: here they are for the "
                  "answers as they are now. Check them, then the player named on the "
                  "button taps it again.")


def render_entry(status: int = 200, **context):
    return render_page_or_partial("table/entry.html", "table/_entry.html", status=status,
                                  **context)


def conflict_words(theirs) -> str:
    if theirs is None:
        return CONFLICT
    return (f"Another phone saved game {theirs.number} while you were entering it. Nothing "
            "from this phone was saved. Compare the two, then choose.")


@bp.get("/<code>/<int:number>/game")
@table_round
def entry(code, number):
    """Enter the next game (or, with g=, correct an entered one)."""
    table, rnd = g.table, g.round
    view = sheet_view(table, rnd)
    if not view.is_open or view.on_paper:
        flash(sheet_writes.ON_PAPER if view.is_open else
              "This sheet was submitted. Only the director can change it now.")
        return redirect(link("table.page", table, rnd.number), code=303)
    game_no = query_int("g")
    form = GameDefaults()
    if game_no:
        row = view.game(game_no)
        if row is None:
            abort(404)
        form.load(row.record, row.note)
        form.entered_as.data = "correction"
    elif view.complete:
        return redirect(link("table.review", table, rnd.number), code=303)
    form.game_no.data = game_no or view.next_game
    stamp(form, view, keep_key=False)
    return render_entry(**entry_context(table, view, form))


@bp.post("/<code>/<int:number>/game/preview")
@shows_only
@table_round
def preview_game(code, number):
    """The live scores for what East has tapped so far (no game is saved); the answers
    so far are kept for the players' own phones, where a seat has one (drafts)."""
    table, rnd = g.table, g.round
    view = sheet_view(table, rnd)
    form = GameForm()
    # still choosing between the other phone's game and this one's: keep both in view
    theirs = (view.game(form.game_no.data or 0) if request.form.get("compare") == "1"
              and form.entered_as.data == "correction" else None)
    context = entry_context(table, view, form, conflict_game=theirs,
                            conflict=conflict_words(theirs) if theirs else None)
    if context["own_phones"]:
        draft = drafts.draft_of(form, view, context["preview"], context["errors"])
        if draft is not None:
            try:
                own_phone_writes.store_draft(table, rnd, view.sheet, draft)
            except SQLAlchemyError:
                # the players' phones miss this answer (the next one brings it); East's
                # entry must not
                current_app.logger.warning("the draft of a game was not stored",
                                           exc_info=True)
    return render_entry(**context)


@bp.post("/<code>/<int:number>/game")
@table_round
def save_game(code, number):
    """Save one game of this table's round (a new game or a correction)."""
    table, rnd = g.table, g.round
    form = GameForm()
    rules = rules_of(table.tournament)

    def refused(error, status):
        view = sheet_view(table, rnd)
        if isinstance(error, sheet_writes.KeyReused):
            # The first answers are saved: these are a correction of that game now, with
            # a key of their own (the used one would refuse them again).
            if view.game(form.game_no.data or 0) is not None:
                form.entered_as.data = "correction"
            stamp(form, view, keep_key=False)
        if not isinstance(error, Conflict):
            return render_entry(status, **entry_context(table, view, form, refused=error))
        # Typed answers stay with the game they were typed for. When another phone saved
        # that game meanwhile, both versions are shown and East chooses: keep theirs
        # (nothing more is saved) or correct the game with this phone's answers.
        theirs = (view.game(form.game_no.data or 0)
                  if form.entered_as.data != "correction" or request.form.get("compare") == "1"
                  else None)
        if theirs is not None:
            form.entered_as.data = "correction"
        stamp(form, view)
        return render_entry(status, **entry_context(
            table, view, form, conflict=conflict_words(theirs), conflict_game=theirs))

    shown = form.shown_scores.data
    if form.signed_by.data and shown is not None:
        # The signer's tap confirms the scores drawn on their button; answers changed
        # since (without JavaScript nothing redraws it) are shown again, with their scores.
        now = EntryState.of(form, rules, sheet_view(table, rnd).adjustments_for(
            form.game_no.data)).preview.points
        if scores_shown(now) != shown:
            return refused(sheet_writes.SheetError("sign", CHANGED_SCORES), 422)
    # A resend of a save whose reply was lost: to East it is simply saved (`again`).
    return answer(lambda: sheet_writes.save_game(
        table, rnd, form.game_no.data or 0, form.record(rules),
        initials=form.initials.data or "", note=form.note.data or "",
        signed_by=form.signed_by.data or None, confirm_later=form.confirm_later.data or None,
        **sent(form),
        expect_new=form.entered_as.data != "correction"),
        target=link("table.page", table, rnd.number),
        message=f"Game {form.game_no.data} saved." + (
            " Its signer confirms it on their own phone." if form.confirm_later.data else ""),
        refused=refused, again=True,
        shown=lambda: table_page(table, rnd.number))


# ---- time called, review, initials, submit --------------------------------------------


def review_page(table, rnd, *, status=200, errors=None, conflict=None, forms=None):
    context = review_context(table, rnd, errors=errors, conflict=conflict, forms=forms)
    return render_page_or_partial("table/review.html", "table/_review.html", status=status,
                                  **context)


def review_context(table, rnd, *, errors=None, conflict=None, forms=None) -> dict:
    """The review's context (its page, and its part of the page's poll: live_parts)."""
    view = sheet_view(table, rnd)
    forms = forms or {}
    initial_forms = {}
    # The forms are built only where the page shows them (table/_review.html): each
    # costs more than the rest of its part of the page.
    initials_shown = view.is_open and view.complete
    for seat in view.seats:
        if seat in forms:
            initial_forms[seat] = forms[seat]
            stamp(forms[seat], view)
            shown(forms[seat].total, view.totals[seat])
        elif initials_shown:
            initial_forms[seat] = versioned(InitialForm, view, seat=seat,
                                            total=view.totals[seat])
    to = table_links(table, rnd.number)
    context = page_context(table, view, to=to)
    context.update(
        errors=errors or {}, conflict=conflict, initial_forms=initial_forms,
        game_initial_forms={(number, seat): versioned(GameInitialForm, view, seat=seat,
                                                      game_no=number)
                            for number, seats in view.games_to_initial for seat in seats},
        game_initial_url=to("table.initial_game"),
        west_form=(versioned(WestCheckForm, view)
                   if view.is_open and view.complete and view.west_check_needed else None),
        west_url=to("table.west_check"),
        submit_form=versioned(SubmitForm, view) if view.is_open else None,
        initial_url=to("table.initial"),
        submit_url=to("table.submit"),
        live_url=to("live.table"),
        # an open sheet's review follows the players' confirmations from their phones
        review_token=sheets.poll_state(table, rnd.number).token if view.is_open else None,
    )
    return context


def review_again(error_key: str | None = None, forms=None):
    """`refused` for a write of the review page: the page again, with the refusal at
    `error_key` (None: the refusal's own field), or the conflict."""

    def refused(error, status):
        if isinstance(error, Conflict):
            return review_page(g.table, g.round, status=status, conflict=CONFLICT,
                               forms=forms)
        return review_page(g.table, g.round, status=status, forms=forms,
                           errors={error_key or error.field: error.message})

    return refused


@bp.post("/<code>/<int:number>/time")
@table_round
def time_called(code, number):
    """Record every game not yet played as time called."""
    table, rnd = g.table, g.round
    form = TimeCalledForm()
    if not form.confirm.data:
        return review_page(table, rnd, status=422, errors={"time": TIME_NOT_CONFIRMED})
    return answer(lambda: round_ends.record_time_called(table, rnd, **sent(form)),
                  target=link("table.review", table, rnd.number),
                  message="The remaining games are recorded as time called.",
                  # said as a conflict: the sheet changed, or time can no longer be called
                  refused=lambda error, status: review_page(
                      table, rnd, status=409,
                      conflict=CONFLICT if isinstance(error, Conflict) else error.message))


@bp.get("/<code>/<int:number>/review")
@table_round
def review(code, number):
    """The round review: every game, each player's total, initials, submit."""
    sheet = sheets.sheet_for(g.round, g.table)
    if sheet is not None and sheet.on_paper:
        flash(sheet_writes.ON_PAPER)
        return redirect(link("table.page", g.table, g.round.number), code=303)
    return review_page(g.table, g.round)


@bp.post("/<code>/<int:number>/initial")
@table_round
def initial(code, number):
    """A player initials their round total."""
    table, rnd = g.table, g.round
    form = InitialForm()
    seat = form.seat.data or ""
    return answer(lambda: signoffs.sign_round(
        table, rnd, seat, form.initials.data or "", shown_total=form.total.data,
        **sent(form)),
        target=link("table.review", table, rnd.number),
        message=f"{SEAT_NAMES.get(seat, seat)} initialled.",
        refused=review_again(forms={seat: form} if seat in SEATS else None),
        shown=lambda: review_page(table, rnd))


@bp.post("/<code>/<int:number>/game-initial")
@table_round
def initial_game(code, number):
    """A player's one tap confirming their score in one game."""
    table, rnd = g.table, g.round
    form = GameInitialForm()
    seat = form.seat.data or ""
    return answer(lambda: signoffs.initial_game(
        table, rnd, form.game_no.data or 0, seat, **sent(form)),
        target=link("table.review", table, rnd.number),
        message=f"{SEAT_NAMES.get(seat, seat)} initialled game {form.game_no.data}.",
        refused=review_again("game_initials"), shown=lambda: review_page(table, rnd))


@bp.post("/<code>/<int:number>/west-check")
@table_round
def west_check(code, number):
    """West has checked East's sheet."""
    form = WestCheckForm()
    return answer(lambda: signoffs.west_check(g.table, g.round, **sent(form)),
                  target=link("table.review", g.table, g.round.number),
                  message="West checked the sheet.", refused=review_again("west"),
                  shown=lambda: review_page(g.table, g.round))


@bp.post("/<code>/<int:number>/submit")
@table_round
def submit(code, number):
    """East submits the round: the sheet is locked."""
    form = SubmitForm()
    return answer(lambda: signoffs.submit_sheet(g.table, g.round, **sent(form)),
                  target=link("table.page", g.table, g.round.number),
                  message="Round submitted. Thank you!", refused=review_again("submit"),
                  shown=lambda: table_page(g.table, g.round.number))
