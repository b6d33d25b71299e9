"""The movement on the Seating page: choose a pattern, see the schedule it gives for this
field (nothing saved), then use it."""

from __future__ import annotations

from flask import flash, g, redirect, request, url_for
from flask_login import current_user

from core.access import MANAGE, staff_required
from core.lookup import movement_plan

from . import movement as movements
from .blueprint import Saving, bp
from .movement_form import MovementChoiceForm


def movement_context(tournament, form: MovementChoiceForm | None = None) -> dict:
    """The Seating page's movement section: the form, and the schedule of the movement it
    names (a choice read from the address: ?pattern=...), else of the current one."""
    current = movement_plan(tournament)
    chosen = None
    if form is None:
        if "pattern" in request.args:
            form = MovementChoiceForm(formdata=request.args, meta={"csrf": False})
            if form.validate():
                chosen = movements.candidate(tournament, form.pattern.data, form.moves(),
                                             form.draw_seed())
                form.seed.data = str(chosen.seed) if chosen.kind == "draw" else ""
        else:
            form = MovementChoiceForm(formdata=None)
            form.fill(current)
    shown = chosen or current
    save_form = None
    if chosen is not None and (chosen.kind, chosen.pattern, dict(chosen.moves), chosen.seed) != \
            (current.kind, current.pattern, dict(current.moves), current.seed):
        save_form = MovementChoiceForm(formdata=None)
        save_form.fill(chosen)
    return dict(movement_now=current, movement_choice=form, movement_chosen=chosen,
                movement_save=save_form,
                movement_seated=movements.last_seated(tournament),
                preview=movements.preview(tournament, shown))


@bp.post("/t/<int:tournament_id>/movement")
@staff_required(MANAGE)
def movement(tournament_id):
    """Use the movement whose schedule was shown, for the rounds not yet seated."""
    from .seating_pages import _seating_page

    tournament = g.tournament
    form = MovementChoiceForm()
    if form.validate_on_submit():
        with Saving(form, field="pattern"):
            chosen = movements.candidate(tournament, form.pattern.data, form.moves(),
                                         form.draw_seed())
            saved = movements.change_movement(tournament, current_user, chosen)
            flash(f"Movement saved: {movements.describe(saved)}"
                  + ("." if saved.from_round <= 1 else
                     f", from round {saved.from_round + 1} on."))
            return redirect(url_for("director.seating", tournament_id=tournament.id)
                            + "#movement-card")
    return _seating_page(tournament, movement_form=form, status=422)

