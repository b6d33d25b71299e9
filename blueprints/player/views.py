"""Public pages for players and onlookers: tournaments in progress, a tournament's page,
the seat lookup (player number -> this round's table and seat, the whole itinerary,
where to go next) and a player's own scoresheet. Read-only; no sign-in."""

from flask import Blueprint, abort, redirect, render_template, request, url_for

from core.lookup import tournament_by_code
from core.words import SheetState

from . import service
from .forms import CodeForm, LookupForm

bp = Blueprint("player", __name__)


def _tournament(code):
    tournament = tournament_by_code(code)
    if tournament is None:
        abort(404)
    return tournament


@bp.get("/")
def home():
    """The public home page: a tournament code box, the tournaments on now and a way in
    for directors."""
    return _home(CodeForm(formdata=None))


def _home(form, status=200):
    return render_template("player/home.html", form=form,
                           tournaments=service.tournaments_in_progress()), status


@bp.get("/p")
def find():
    """The home page's tournament code box (a GET form): to the tournament's public page,
    or the home page again with the problem at the field."""
    form = CodeForm(request.args, meta={"csrf": False})
    if not form.validate():
        return _home(form, 422)
    tournament = tournament_by_code(form.code.data or "")
    if tournament is None:
        typed = form.code.data.strip()[:16]
        form.code.errors = [f"No tournament has the code \u201c{typed}\u201d. Check the code "
                            "on the poster or the seating list."]
        return _home(form, 404)
    return redirect(url_for("player.tournament", code=tournament.code), code=303)


@bp.get("/p/<code>")
def tournament(code):
    """A tournament's public page: seat lookup, standings, display."""
    return render_template("player/tournament.html", tournament=_tournament(code),
                           form=LookupForm(formdata=None, meta={"csrf": False}))


def _where(tournament, player):
    stops = service.itinerary(tournament, player)
    round_no, when = service.round_in_play(tournament)
    by_round = {s.round_no: s for s in stops}
    if round_no is None:
        return dict(stops=stops, now=None, when=when, upcoming=None)
    if when == "next":  # between rounds: the last one ended, the next not started
        now, upcoming = by_round.get(round_no - 1), by_round.get(round_no)
    else:
        now, upcoming = by_round.get(round_no), by_round.get(round_no + 1)
        if now is not None and now.state in (SheetState.SUBMITTED, SheetState.VERIFIED):
            when = "done"  # this round's sheet is in: point at the next round
    return dict(stops=stops, now=now, when=when, upcoming=upcoming)


@bp.get("/p/<code>/seat")
def lookup(code):
    """Where do I sit? A player number gives this round's table and seat, every round's,
    and where to go next."""
    tournament = _tournament(code)
    form = LookupForm(request.args, meta={"csrf": False})
    if "number" not in request.args:
        return render_template("player/seat.html", tournament=tournament, form=form)
    if not form.validate():
        return render_template("player/seat.html", tournament=tournament, form=form), 422
    player = service.player_by_number(tournament, form.number.data)
    if player is None:
        form.number.errors = [f"There is no player {form.number.data} in this tournament. "
                              "Check the number on your badge."]
        return render_template("player/seat.html", tournament=tournament, form=form), 404
    return render_template("player/seat.html", tournament=tournament, form=form,
                           player=player, **_where(tournament, player))


@bp.get("/p/<code>/player/<int:number>")
def scores(code, number):
    """A player's own scoresheet: every game's points, each round's total and whether it
    is initialled, submitted and verified."""
    tournament = _tournament(code)
    player = service.player_by_number(tournament, number)
    if player is None:
        abort(404)
    where = _where(tournament, player)
    grand = sum(s.total or 0 for s in where["stops"])
    return render_template("player/scores.html", tournament=tournament, player=player,
                           grand_total=grand, guide_verifies=service.guide_verifies(tournament),
                           **where)
