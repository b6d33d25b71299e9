"""The seating's pages: the movement, round 1 (drawn, by number or imported), swaps,
and the printed schedule, itineraries and repeat meetings."""

from __future__ import annotations

from flask import flash, g, redirect, render_template, url_for
from flask_login import current_user

from core.access import MANAGE, staff_required
from core.lookup import movement_of
from core.rounds import round_row, stored_seating

from . import checkin, common, forms, movement_pages, player_import, tournaments
from . import players as player_rows
from . import seating as seat_rows
from .blueprint import Saving, bp, seating_required
from .common import SetupError


def _seating_page(tournament, form=None, swap_form=None, status=200, movement_form=None,
                  import_form=None, import_problems=()):
    rnd = round_row(tournament, 1)
    players = {p.id: p for p in tournament.players}
    # Every seated round, not only round 1: a late table shows from the round it joins.
    rounds = [(number, sorted((table, {seat: players[pid] for seat, pid in seats.items()})
                              for table, seats in by_table.items()))
              for number, by_table in sorted(stored_seating(tournament).items())]
    return render_template(
        "director/seating.html", tournament=tournament, round1=rnd, rounds=rounds,
        door=checkin.door(tournament),
        form=form or forms.SeatingForm(method=tournament.seating_method or "draw"),
        swap_form=swap_form or forms.SwapForm(), count=common.player_count(tournament),
        needed=player_rows.substitutes_needed(tournament),
        unseated=player_rows.unseated_players(tournament),
        played=common.played_rounds(tournament), movement=movement_of(tournament),
        **movement_pages.movement_context(tournament, movement_form),
        import_form=import_form or forms.SeatingImportForm(),
        import_problems=import_problems, movement_fixed=tournaments.scores_entered(tournament),
    ), status


@bp.post("/t/<int:tournament_id>/seating/movement")
@staff_required(MANAGE)
def seating_movement(tournament_id):
    """Choose the usual movement or the organiser's imported seating (the choice before
    movements had patterns; a page drawn then still posts here)."""
    tournament = g.tournament
    form = forms.MovementForm()
    if form.validate_on_submit():
        with Saving(form, field="movement"):
            tournaments.set_movement(tournament, current_user, form.movement.data)
            flash("Movement saved.")
            return redirect(url_for("director.seating", tournament_id=tournament.id))
    return _seating_page(tournament, status=422)


@bp.post("/t/<int:tournament_id>/seating/import")
@staff_required(MANAGE)
def seating_import(tournament_id):
    """Import the organiser's seating for every round: every problem listed, or all saved."""
    tournament = g.tournament
    form = forms.SeatingImportForm()
    if form.validate_on_submit():
        with Saving(form, field="file"):
            upload = form.file.data
            if upload and getattr(upload, "filename", ""):
                text = player_import.decode_csv(upload.read())
            else:
                text = form.text.data or ""
            if not text.strip():
                raise SetupError("file", "Choose a CSV file, or paste the seating's lines.")
            result = seat_rows.import_seating(tournament, current_user, text)
            if result.ok:
                flash(f"Imported the seating: {result.rounds} rounds, {result.tables} tables. "
                      "Round 1 is seated.")
                return redirect(url_for("director.seating", tournament_id=tournament.id))
            return _seating_page(tournament, import_form=form, status=422,
                                 import_problems=result.problems)
    return _seating_page(tournament, import_form=form, status=422)


@bp.get("/t/<int:tournament_id>/seating")
@staff_required(MANAGE)
def seating(tournament_id):
    """Round 1's seats, the draw (with its seed) or seating by number, and swaps."""
    return _seating_page(g.tournament)


@bp.post("/t/<int:tournament_id>/seating")
@staff_required(MANAGE)
def seat(tournament_id):
    """Draw (or redo the draw, or seat by number) round 1; later rounds are rebuilt."""
    tournament = g.tournament
    form = forms.SeatingForm()
    status = 422
    if form.validate_on_submit():
        with Saving(form, clash=("method", "Round 1 was being seated from another screen at "
                                 "the same moment; nothing was saved here. Below is the "
                                 "seating that was saved; redo it if you need to.")) as saving:
            seat_rows.seat(tournament, current_user, form.method.data, form.seed.data)
            flash("Round 1 is seated." + (f" Draw number {tournament.seating_seed}."
                                          if tournament.seating_method == "draw" else ""))
            return redirect(url_for("director.seating", tournament_id=tournament.id))
        status = saving.status
    return _seating_page(tournament, form=form, status=status)


@bp.post("/t/<int:tournament_id>/seating/swap")
@staff_required(MANAGE)
def swap(tournament_id):
    """Swap two players' round-1 seats before round 1 starts."""
    tournament = g.tournament
    form = forms.SwapForm()
    status = 422
    if form.validate_on_submit():
        with Saving(form, clash=("first", "The seating was changed from another screen at the "
                                 "same moment; nothing was saved. Check the seats below and "
                                 "try again.")) as saving:
            seat_rows.swap_players(tournament, current_user, form.first.data, form.second.data)
            flash(f"Swapped players {form.first.data} and {form.second.data}.")
            return redirect(url_for("director.seating", tournament_id=tournament.id))
        status = saving.status
    return _seating_page(tournament, swap_form=form, status=status)


@bp.get("/t/<int:tournament_id>/schedule")
@staff_required(MANAGE)
@seating_required
def schedule(tournament_id):
    """The full seating schedule: round by table by seat, one round per printed page."""
    tournament = g.tournament
    plan = seat_rows.schedule(tournament)
    return render_template("director/schedule.html", tournament=tournament, plan=plan)


@bp.get("/t/<int:tournament_id>/itineraries")
@staff_required(MANAGE)
@seating_required
def itineraries(tournament_id):
    """Each player's table and seat in every round (printable slips)."""
    tournament = g.tournament
    plan = seat_rows.itineraries(tournament)
    return render_template("director/itineraries.html", tournament=tournament, plan=plan)


@bp.get("/t/<int:tournament_id>/meetings")
@staff_required(MANAGE)
@seating_required
def meetings(tournament_id):
    """Pairs of players who meet more than once, and in which rounds."""
    tournament = g.tournament
    return render_template("director/meetings.html", tournament=tournament,
                           report=seat_rows.meetings_report(tournament),
                           tables=len(tournament.tables))
