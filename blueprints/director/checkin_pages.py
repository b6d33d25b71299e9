"""The check-in pages: the list at the door (found by name or number), a player's tap
named back before it counts, undo, round 1 seated from the players here, a late
arrival's table, and the printed list for a desk without Wi-Fi."""

from __future__ import annotations

from flask import abort, flash, g, redirect, render_template, request, url_for
from flask_login import current_user

from core.access import DESK, staff_required
from core.rounds import initial_seating, seated

from . import checkin
from . import players as player_rows
from .blueprint import Saving, bp, number_clash
from .checkin_forms import ArrivalForm, MarkForm, SubstituteNamesForm, TakeSeatForm
from .common import SetupError, played_rounds

# A search longer than any name or number is no search: cut, never refused.
MAX_QUERY = 60


def matches(players, query: str):
    """The players a search finds: by number (those starting with the digits typed, the
    exact number first), else by name (any word of it starting with what is typed)."""
    query = " ".join(query.split()).casefold()[:MAX_QUERY]
    if not query:
        return list(players)
    if query.isascii() and query.isdigit():
        found = [p for p in players if str(p.number).startswith(query)]
        return sorted(found, key=lambda p: (str(p.number) != query, p.number))
    return [p for p in players
            if any(word.startswith(query) for word in _words(p.name))
            or p.name.casefold().startswith(query)]


def _words(name: str) -> list[str]:
    return name.casefold().replace("-", " ").split()


def _page(tournament, *, names_form=None, arrival_form=None, status=200):
    query = request.args.get("q", "")[:MAX_QUERY]
    pick = _player_arg("pick")
    done = _player_arg("done")
    was = request.args.get("was", "")
    return render_template(
        "director/checkin.html", tournament=tournament, query=query,
        players=matches(tournament.players, query), everyone=len(tournament.players),
        pick=pick, done=done, was=was if was in checkin.ARRIVALS else "clear",
        door=checkin.door(tournament), arrivals=checkin.ARRIVALS,
        mark_form=MarkForm(), take_form=TakeSeatForm(),
        names_form=names_form or SubstituteNamesForm(),
        arrival_form=arrival_form or ArrivalForm(),
        round1_played=1 in played_rounds(tournament),
        role=g.role), status


def _player_arg(name):
    value = request.args.get(name, "")
    if not (value.isascii() and value.isdigit() and len(value) <= 9):
        return None
    return player_rows.tournament_player(g.tournament, int(value))


@bp.get("/t/<int:tournament_id>/checkin")
@staff_required(DESK)
def checkin_page(tournament_id):
    """The players at the door, found by name or number, with the counts in view."""
    return _page(g.tournament)


@bp.post("/t/<int:tournament_id>/checkin/<int:player_id>")
@staff_required(DESK)
def checkin_mark(tournament_id, player_id):
    """Mark one player here, late or not coming (or expected again: the undo)."""
    tournament = g.tournament
    player = player_rows.tournament_player(tournament, player_id)
    if player is None:
        abort(404)
    form = MarkForm()
    if not form.validate_on_submit():
        # Nothing changed: the list again, with the reason where the names are.
        flash("That was not saved; please tap the player again.", "warning")
        return _page(tournament, status=422)
    was = player.arrival or "clear"
    arrival = None if form.arrival.data == "clear" else form.arrival.data
    with Saving(form, field="arrival") as saving:
        checkin.mark(tournament, current_user, player, arrival)
    if not saving.saved:
        flash(" ".join(form.arrival.errors), "warning")
        return _page(tournament, status=saving.status)
    if arrival is None:
        return redirect(url_for("director.checkin_page", tournament_id=tournament.id,
                                q=form.q.data or None))
    # The next person types at once: the search is cleared and has the focus (no #anchor:
    # a browser skips autofocus on a page opened at one), the mark named with its undo.
    return redirect(url_for("director.checkin_page", tournament_id=tournament.id,
                            done=player.id, was=was))


@bp.post("/t/<int:tournament_id>/checkin/<int:player_id>/takes/<int:substitute_id>")
@staff_required(DESK)
def checkin_take_seat(tournament_id, player_id, substitute_id):
    """A late arrival takes a substitute's seat from the next round (one tap)."""
    tournament = g.tournament
    player = player_rows.tournament_player(tournament, player_id)
    substitute = player_rows.tournament_player(tournament, substitute_id)
    if player is None or substitute is None:
        abort(404)
    form = TakeSeatForm()
    if not form.validate_on_submit():
        flash("That was not saved; please tap the seat again.", "warning")
        return _page(tournament, status=422)
    try:
        from_round = checkin.take_substitute_seat(tournament, current_user, player, substitute)
    except SetupError as refused:
        flash(refused.message, "warning")
        return _page(tournament, status=409)
    flash(f"{player.name} takes {substitute.name}’s seat from round {from_round}; "
          f"{substitute.name} keeps the games played.")
    return redirect(url_for("director.checkin_page", tournament_id=tournament.id))


@bp.post("/t/<int:tournament_id>/checkin/seat")
@staff_required(DESK)
def checkin_seat(tournament_id):
    """Seat round 1 from the players here, with the substitutes named; or, once round 1
    has started, add the substitutes a late arrival's table needs."""
    tournament = g.tournament
    form = SubstituteNamesForm(taken_names=[p.name for p in tournament.players])
    status = 422
    if form.validate_on_submit():
        # a refusal (too few names) is said at the first box left empty, where the name
        # is missing
        boxes = (form.name1, form.name2, form.name3)
        empty = next((box.name for box in boxes[:checkin.door(tournament).substitutes_needed]
                      if not (box.data or "").strip()), "name1")
        with Saving(form, field=empty,
                    clash=("name1", number_clash(None))) as saving:
            if seated(tournament) and 1 in played_rounds(tournament):
                for name in form.names():
                    checkin.add_arrival(tournament, current_user, name=name, number=None,
                                        is_substitute=True)
                door = checkin.door(tournament)
                flash(f"Added {len(form.names())} substitute(s)."
                      + (f" The players waiting play from round {door.joins_from}."
                         if door.joins_from else ""))
            else:
                gone = checkin.seat_from_here(tournament, current_user, form.names(),
                                              form.method.data or "draw")
                flash(f"Round 1 is seated: {len(initial_seating(tournament))} tables. "
                      f"{len(gone)} player(s) not here are withdrawn from round 1; "
                      "tap one to bring them back.")
            return redirect(url_for("director.checkin_page", tournament_id=tournament.id))
        status = saving.status
    return _page(tournament, names_form=form, status=status)


@bp.post("/t/<int:tournament_id>/checkin/add")
@staff_required(DESK)
def checkin_add(tournament_id):
    """Someone here who is not on the list: added and marked here."""
    tournament = g.tournament
    form = ArrivalForm(listed=[(p.name, p.number) for p in tournament.players])
    status = 422
    if form.validate_on_submit():
        with Saving(form, clash=("number", number_clash(form.number.data))) as saving:
            player = checkin.add_arrival(tournament, current_user, name=form.name.data,
                                         number=form.number.data,
                                         is_substitute=form.substitute.data)
            flash(f"Added {player.name} as number {player.number}: here.")
            return redirect(url_for("director.checkin_page", tournament_id=tournament.id))
        status = saving.status
    return _page(tournament, arrival_form=form, status=status)


@bp.get("/t/<int:tournament_id>/checkin/print")
@staff_required(DESK)
def checkin_print(tournament_id):
    """The check-in list on paper: number, name, a box to tick, and paid or due."""
    tournament = g.tournament
    players = [p for p in tournament.players if not p.is_substitute]
    return render_template("director/checkin_print.html", tournament=tournament,
                           players=players, fees=any(p.fee or p.paid for p in players))
