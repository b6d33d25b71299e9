"""The field's pages: the players, substitutes, a player's details, a player who
leaves, and the CSV import."""

from __future__ import annotations

from flask import abort, flash, g, redirect, render_template, url_for
from flask_login import current_user

from blueprints.common import render_page_or_partial
from core.access import MANAGE, staff_required
from core.errors import attach
from core.rounds import seated
from core.words import repeated_name
from core.writes import unit

from . import checkin, common, forms, player_import
from . import players as player_rows
from .blueprint import Saving, bp, number_clash
from .common import SetupError


def _players_page(tournament, form=None, subs_form=None, status=200):
    return render_page_or_partial(
        "director/players.html", "director/_players.html", status=status,
        tournament=tournament, form=form or forms.PlayerForm(),
        subs_form=subs_form or forms.SubstitutesForm(),
        needed=player_rows.substitutes_needed(tournament), count=common.player_count(tournament),
        mini=common.mini_competition(tournament), in_mini=player_rows.in_mini(tournament),
        seated=seated(tournament), mini_closed=player_rows.mini_entry_closed(tournament))


@bp.get("/t/<int:tournament_id>/players")
@staff_required(MANAGE)
def players(tournament_id):
    """Every player, how many substitutes are needed, and a form to add one."""
    return _players_page(g.tournament)


@bp.post("/t/<int:tournament_id>/players")
@staff_required(MANAGE)
def add_player(tournament_id):
    """Add one player."""
    tournament = g.tournament
    form = forms.PlayerForm()
    status = 422
    if form.validate_on_submit():
        with Saving(form, clash=("number", number_clash(form.number.data))) as saving:
            player = player_rows.add_player(tournament, current_user, number=form.number.data,
                                            name=form.name.data, mini=form.mini.data,
                                            mini_override=form.mini_override.data or "")
            _seat_joining(tournament)
            flash(f"Added {player.name} as number {player.number}.")
            return redirect(url_for("director.players", tournament_id=tournament.id))
        status = saving.status
    return _players_page(tournament, form=form, status=status)


@bp.post("/t/<int:tournament_id>/players/substitutes")
@staff_required(MANAGE)
def add_substitutes(tournament_id):
    """Add the substitutes the field needs to fill every table."""
    tournament = g.tournament
    form = forms.SubstitutesForm()
    status = 422
    if form.validate_on_submit():
        names = [n for n in (form.names.data or "").splitlines() if n.strip()]
        needed = player_rows.substitutes_needed(tournament)
        if not names:
            names = [""] * (needed or 0)
        repeated = repeated_name(names, [p.name for p in tournament.players])
        if not names:
            form.names.errors.append("The field already fills every table; type a name to "
                                     "add a spare substitute.")
        elif repeated:
            form.names.errors.append(f"{repeated} is already a name on the list: add a last "
                                     "initial or a number, so the two are told apart.")
        else:
            with Saving(form, clash=("names", number_clash(None)), field="names") as saving:
                added = len(player_rows.add_substitutes(tournament, current_user, names))
                _seat_joining(tournament)
                flash(f"Added {added} substitute(s).")
                return redirect(url_for("director.players", tournament_id=tournament.id))
            status = saving.status
    return _players_page(tournament, subs_form=form, status=status)


def _seat_joining(tournament):
    """A player added once play has begun joins at a table of her own as soon as it has
    four (checkin.seat_joining), as from the check-in page."""
    if seated(tournament):
        with unit():
            checkin.seat_joining(tournament, current_user)


def _player_or_404(tournament, player_id):
    player = player_rows.tournament_player(tournament, player_id)
    if player is None:
        abort(404)
    return player


@bp.route("/t/<int:tournament_id>/players/<int:player_id>", methods=["GET", "POST"])
@staff_required(MANAGE)
def edit_player(tournament_id, player_id):
    """Change a player's number, name or mini tournament entry."""
    tournament = g.tournament
    player = _player_or_404(tournament, player_id)
    form = forms.PlayerForm(obj=player)
    mini = common.mini_competition(tournament)
    status = None
    if not form.is_submitted():
        form.mini.data = player.id in player_rows.in_mini(tournament)
    if form.validate_on_submit():
        with Saving(form, clash=("number", number_clash(form.number.data))) as saving:
            player_rows.edit_player(tournament, current_user, player,
                                    number=form.number.data or player.number,
                                    name=form.name.data, mini=form.mini.data if mini else None,
                                    mini_override=form.mini_override.data or "")
            flash(f"Saved {player.name}.")
            return redirect(url_for("director.players", tournament_id=tournament.id))
        status = saving.status
    status = status or (422 if form.is_submitted() else 200)
    return render_template("director/player_form.html", tournament=tournament, player=player,
                           form=form, mini=mini,
                           mini_closed=player_rows.mini_entry_closed(tournament)), status


@bp.route("/t/<int:tournament_id>/players/<int:player_id>/withdraw", methods=["GET", "POST"])
@staff_required(MANAGE)
def withdraw_player(tournament_id, player_id):
    """A player leaves: before seating they leave the field, after it a substitute takes
    their seat from a given round on."""
    tournament = g.tournament
    player = _player_or_404(tournament, player_id)
    form = forms.WithdrawForm()
    status = None
    free = player_rows.free_substitutes(tournament)
    form.substitute.choices = forms.options([("", "Choose a substitute…")] + [
        (str(p.id), f"{p.number} · {p.name}") for p in free])
    if not form.is_submitted():
        form.from_round.data = _next_unstarted_round(tournament)
    if form.validate_on_submit():
        substitute = None
        choice = form.substitute.data or ""
        # A player id from the list: plain digits ("²".isdigit() is True too) that fit the
        # id column; anything else is simply not on the list.
        if choice.isascii() and choice.isdigit() and len(choice) <= 9:
            substitute = player_rows.tournament_player(tournament, int(choice))
        with Saving(form, clash=("substitute", "Someone else changed this player or the "
                                 "seating at the same moment; nothing was saved. Please try "
                                 "again.")) as saving:
            if form.substitute.data and substitute is None:
                raise SetupError("substitute", "Choose a substitute from the list.")
            player_rows.withdraw_player(tournament, current_user, player,
                                        from_round=form.from_round.data, substitute=substitute,
                                        new_substitute_name=form.new_substitute.data or "")
            flash(f"{player.name} has left; the seating is updated.")
            return redirect(url_for("director.players", tournament_id=tournament.id))
        status = saving.status
    status = status or (422 if form.is_submitted() else 200)
    return render_template("director/withdraw.html", tournament=tournament, player=player,
                           form=form, seated=seated(tournament)), status


def _next_unstarted_round(tournament) -> int:
    """The first round after every played one (common.round_played)."""
    last = max(common.played_rounds(tournament), default=0)
    return min(last + 1, tournament.rounds)


@bp.route("/t/<int:tournament_id>/players/import", methods=["GET", "POST"])
@staff_required(MANAGE)
def import_players(tournament_id):
    """Import players from a CSV: a preview with every row's problem, then one save."""
    tournament = g.tournament
    form = forms.ImportForm()
    preview, text, status = None, "", 200
    if form.validate_on_submit():
        try:
            upload = form.file.data
            if upload and getattr(upload, "filename", ""):
                text = player_import.decode_csv(upload.read())
            else:
                text = form.text.data or ""
            if not text.strip():
                raise SetupError("file", "Choose a CSV file, or paste the players' lines.")
        except SetupError as error:
            attach(form, error)
            status = 422
        else:
            if form.confirm.data == "yes":
                preview = player_import.import_players(tournament, current_user, text)
                if preview.ok:
                    flash(f"Imported {len(preview.rows)} players.")
                    return redirect(url_for("director.players", tournament_id=tournament.id))
                status = 422
            else:
                preview = player_import.preview_import(tournament, text)
                status = 200 if preview.ok else 422
    elif form.is_submitted():
        status = 422
    return render_template("director/import.html", tournament=tournament, form=form,
                           preview=preview, text=text), status
