"""The staff page: invitations, password links and removal; only a director manages
the staff."""

from __future__ import annotations

from flask import abort, flash, g, make_response, redirect, render_template, request, url_for
from flask_login import current_user

from blueprints.common import external_url
from core.access import staff_required
from core.qr import qr_svg
from models import utcnow

from . import forms
from . import staff as staff_rows
from .blueprint import DIRECTOR_ONLY, Saving, bp
from .common import SetupError


def _staff_page(tournament, form, status=200, *, link=None, invitation=None):
    """The staff page; `link` is a one-time invitation or password link, shown this once
    (so the answer must not be kept by any cache)."""
    response = make_response(render_template(
        "director/staff.html", tournament=tournament, form=form,
        staff=staff_rows.staff_list(tournament), roles=staff_rows.STAFF_ROLES,
        invitations=staff_rows.pending_invitations(tournament), link=link,
        invitation=invitation, qr=qr_svg(link, scale=5) if link else None,
        remove_form=forms.ConfirmForm(), me=current_user, now=utcnow()), status)
    response.headers["Cache-Control"] = "no-store"
    return response


def _invitation_url(secret: str) -> str:
    return external_url("auth.invitation", k=secret)


@bp.route("/t/<int:tournament_id>/staff", methods=["GET", "POST"])
@staff_required(DIRECTOR_ONLY)
def staff(tournament_id):
    """Co-directors and table guides: only a director manages them."""
    tournament = g.tournament
    form = forms.StaffForm()
    if form.validate_on_submit():
        with Saving(form):
            invitation, secret = staff_rows.invite_staff(
                tournament, current_user, email=form.email.data, role=form.role.data)
            return _staff_page(tournament, forms.StaffForm(formdata=None),
                               link=_invitation_url(secret), invitation=invitation)
    return _staff_page(tournament, form, 422 if form.is_submitted() else 200)


@bp.post("/t/<int:tournament_id>/staff/<int:staff_id>/password-link")
@staff_required(DIRECTOR_ONLY)
def staff_password_link(tournament_id, staff_id):
    """A one-time link with which a co-director or table guide sets a new password."""
    tournament = g.tournament
    form = forms.ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    page_form = forms.StaffForm(formdata=None)
    with Saving(page_form):
        invitation, secret = staff_rows.password_link(tournament, current_user, staff_id)
        return _staff_page(tournament, page_form, link=_invitation_url(secret),
                           invitation=invitation)
    return _staff_page(tournament, page_form, 422)


@bp.post("/t/<int:tournament_id>/staff/invitations/cancel")
@staff_required(DIRECTOR_ONLY)
def cancel_invitation(tournament_id):
    """Withdraw an invitation that has not been used: its link stops working."""
    tournament = g.tournament
    form = forms.ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        staff_rows.cancel_invitation(tournament, current_user,
                                     request.form.get("invitation", type=int))
    except SetupError:
        abort(404)
    flash("Invitation withdrawn: its link no longer works.")
    return redirect(url_for("director.staff", tournament_id=tournament.id))


@bp.post("/t/<int:tournament_id>/staff/<int:staff_id>/remove")
@staff_required(DIRECTOR_ONLY)
def remove_staff(tournament_id, staff_id):
    """Take someone off this tournament's staff."""
    tournament = g.tournament
    form = forms.ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        staff_rows.remove_staff(tournament, current_user, staff_id)
    except SetupError as error:
        flash(error.message, "error")
    else:
        flash("Removed.")
    return redirect(url_for("director.staff", tournament_id=tournament.id))
