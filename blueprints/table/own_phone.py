"""A player's own phone on the table's page: "this is me" and "not me", and the one-tap
confirmations a player gives from it (a game they sign, their round total); East's phone
confirms a game the same way for a player who has no phone (from the review).

Thin, as the table's other pages: the writes are in own_phone_writes and signoffs; every
answer is the table's page (or, from East's review, the review) as it now is."""

from __future__ import annotations

from flask import flash, g, request

from blueprints.common import link
from core.errors import Conflict

from . import own_phone_writes, signoffs
from .forms import ConfirmGameForm, InitialForm
from .pages import answer, bp, sent, table_round
from .table_views import review_page, table_page

FROM_REVIEW = "review"


def _back_to_page(error, status):
    """A refusal on the player's phone: said at the top of the table's page, which shows
    the sheet as it now is (the other phone's confirmation, a changed game)."""
    flash(error.message if not isinstance(error, Conflict) else
          "The sheet changed meanwhile: here it is as it is now.")
    response = table_page(g.table, g.round.number)
    response.status_code = status
    return response


def _answer(write, message=None, from_review=False):
    target = link("table.review" if from_review else "table.page", g.table, g.round.number)
    if from_review:
        def refused(error, status):
            if isinstance(error, Conflict) or status == 409:
                # the other phone confirmed first, or the game changed: said at the top
                return review_page(g.table, g.round, status=status, conflict=error.message)
            return review_page(g.table, g.round, status=status,
                               errors={"confirm": error.message})
        return answer(write, target=target, message=message, refused=refused,
                      shown=lambda: review_page(g.table, g.round))
    # a resend after a lost answer says it again: the first answer never arrived
    return answer(write, target=target, message=message, refused=_back_to_page,
                  again=True, shown=lambda: table_page(g.table, g.round.number))


@bp.post("/<code>/<int:number>/me")
@table_round
def this_is_me(code, number):
    """This phone is one player's at this table for this round."""
    seat = request.form.get("seat", "")
    player = own_phone_writes.seats_of(g.round, g.table).get(seat)
    return _answer(lambda: own_phone_writes.claim_seat(g.table, g.round, seat),
                   f"This phone is {player.name}'s for this round." if player else None)


@bp.post("/<code>/<int:number>/not-me")
@table_round
def not_me(code, number):
    """This phone is nobody's at this table again."""
    return _answer(lambda: own_phone_writes.release_seat(g.table, g.round),
                   "This phone is the table's again.")


@bp.post("/<code>/<int:number>/confirm-game")
@table_round
def confirm_game(code, number):
    """The signer's one tap confirming a game East saved for them to confirm."""
    form = ConfirmGameForm()
    seat = form.seat.data or ""
    mine = own_phone_writes.my_seat(g.table, g.round.number) == seat
    return _answer(lambda: own_phone_writes.confirm_game(
        g.table, g.round, form.game_no.data or 0, seat, shown_points=form.points.data,
        own_phone=mine, **sent(form)),
        f"Game {form.game_no.data} confirmed.",
        from_review=request.args.get("to") == FROM_REVIEW)


@bp.post("/<code>/<int:number>/confirm-total")
@table_round
def confirm_total(code, number):
    """A player confirms their round total on their own phone."""
    form = InitialForm()
    seat = form.seat.data or ""
    return _answer(lambda: signoffs.sign_round(
        g.table, g.round, seat, "", shown_total=form.total.data,
        where=own_phone_writes.ON_OWN_PHONE
        if own_phone_writes.my_seat(g.table, g.round.number) == seat else "",
        **sent(form)), "Your round total is confirmed.")
