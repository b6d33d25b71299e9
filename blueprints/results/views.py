"""Standings, prizes and results: the public standings, the director's results page
(prize places, tie-breaks, missing results), exports, the backup and its import.

Also the template globals other pages use: `leaders_for(tournament, count)` (big screen)
and `player_history(tournament, player)` (a player's scoresheet page), and the CLI command
`flask --app app import-backup FILE --director EMAIL`."""

from __future__ import annotations

import json

import click
from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    g,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_login import current_user, login_required
from sqlalchemy import select

from blueprints.common import render_page_or_partial, wants_partial
from core.access import ANY_STAFF, CREATE_REFUSED, MANAGE, may_create_tournaments, staff_required
from core.errors import attach
from core.lookup import rules_of, tournament_by_code
from core.numbers import small_int
from models import Tournament, User, db

from . import (
    backup,
    exports,
    history,
    missing,
    standings,
    standings_rows,
    standings_versions,
    tiebreaks,
)
from .forms import ClearTieForm, ImportForm, PrizePlacesForm, TieForm

# cli_group=None: the command is `flask --app app import-backup`, not under "results".
bp = Blueprint("results", __name__, url_prefix="/results", cli_group=None)


bp.add_app_template_global(standings.leaders, "leaders_for")
bp.add_app_template_global(history.player_history)
bp.add_app_template_global(standings_rows.standings_rows)


def _by_code(code: str) -> Tournament:
    tournament = tournament_by_code(code)
    if tournament is None:
        abort(404)
    return tournament


def _view_args():
    view = request.args.get("view", "official")
    return request.args.get("c", standings.MAIN), view if view == "provisional" else "official"


@bp.get("/<code>", endpoint="standings")
def public_standings(code):
    """Public standings by tournament code. htmx polls send the version shown (?v=) and,
    on the official standings, the count of games not counted yet (?o=): 204 while both
    are current; when only the count changed (a game saved at a table whose sheet is not
    final), that count alone, not the lines ranked and rendered again."""
    tournament = _by_code(code)
    key, view = _view_args()
    versions = standings_versions.results_versions(tournament)
    version = versions.every if view == "provisional" else versions.official
    me = small_int(request.args.get("me"))
    if wants_partial() and request.args.get("v") == version:
        if view == "provisional" or small_int(request.args.get("o")) == versions.open_games:
            return Response(status=204)
        response = make_response(render_template(
            "results/_standings_open.html", tournament=tournament, key=key, view=view,
            version=version, open_games=versions.open_games, me=me,
            page=small_int(request.args.get("page")),
            final_word=rules_of(tournament).scores_final))
        response.headers["HX-Reswap"] = "none"  # the lines stay; the parts swap out of band
        response.vary.add("HX-Request")
        return response
    board = standings_versions.public_board(tournament, versions, provisional=view == "provisional")
    table = board.table(key)
    lines = table.provisional if view == "provisional" else table.lines
    listed = standings_rows.standings_page(lines, small_int(request.args.get("page")), me)
    return render_page_or_partial("results/standings.html", "results/_standings.html",
                                  tournament=tournament, board=board, table=table, view=view,
                                  version=version, me=me, my_line=listed.mine, listed=listed)


def _director_page(tournament, status=200, prize_form=None, tie_errors=None):
    key, view = _view_args()
    board = standings.board(tournament, provisional=view == "provisional")
    prize_form = prize_form or PrizePlacesForm(prize_places=tournament.prize_places)
    rules = rules_of(tournament)
    return render_template(
        "results/director.html", tournament=tournament, board=board, table=board.table(key),
        view=view, prize_form=prize_form, tie_errors=tie_errors or {},
        missing=missing.missing_results(tournament), clear_form=ClearTieForm(),
        missing_verify=rules.table_guide_verifies, final_word=rules.scores_final,
        tie_choices=tiebreaks.tie_decisions(rules),
        tie_method=tiebreaks.TIE_METHODS[rules.tiebreak],
        tie_by_bag=rules.tiebreak == "tile_bag", rulings=missing.rulings(tournament),
        can_manage=g.role in MANAGE,
    ), status


@bp.get("/director/<int:tournament_id>")
@staff_required(ANY_STAFF)
def director(tournament_id):
    """The director's standings: prize places, ties, missing results, exports."""
    return _director_page(g.tournament)


@bp.post("/director/<int:tournament_id>/prize-places")
@staff_required(MANAGE)
def prize_places(tournament_id):
    """Set how many places win a prize."""
    tournament = g.tournament
    form = PrizePlacesForm()
    if form.validate_on_submit():
        try:
            tiebreaks.set_prize_places(tournament, form.prize_places.data, current_user,
                                       g.role)
        except tiebreaks.ResultsError as error:
            attach(form, error, "prize_places")
            return _director_page(tournament, 422, prize_form=form)
        flash(f"Prize places: {tournament.prize_places}.")
        return redirect(url_for(".director", tournament_id=tournament.id))
    return _director_page(tournament, 422, prize_form=form)


@bp.post("/director/<int:tournament_id>/ties")
@staff_required(MANAGE)
def decide_tie(tournament_id):
    """Record a tie group's tile-bag draw, or leave the group's places shared."""
    tournament = g.tournament
    form = TieForm()
    group = form.group.data or ""
    if not form.validate_on_submit():
        return _director_page(tournament, 422, tie_errors={group: "Please choose a decision."})
    order = None
    if form.decision.data != "shared":
        order, error = form.places(request.form)
        if error:
            return _director_page(tournament, 422, tie_errors={group: error})
    try:
        tiebreaks.decide_tie(tournament, form.competition.data, form.group_ids(), order,
                             current_user, form.note.data or "", role=g.role)
    except tiebreaks.ResultsError as error:
        return _director_page(tournament, 422, tie_errors={group: error.message})
    flash("Tie decision saved." if order else "The tied places stay shared.")
    return redirect(url_for(".director", tournament_id=tournament.id,
                            c=form.competition.data) + "#prizes")


@bp.post("/director/<int:tournament_id>/ties/clear")
@staff_required(MANAGE)
def clear_tie(tournament_id):
    """Undo a recorded tie decision."""
    tournament = g.tournament
    form = ClearTieForm()
    tiebreak_id = small_int(form.tiebreak_id.data)
    if form.validate_on_submit() and tiebreak_id is not None:
        try:
            tiebreaks.clear_tie(tournament, tiebreak_id, current_user, g.role)
        except tiebreaks.ResultsError:
            abort(404)
        flash("The decision was removed; those players are tied again.")
        return redirect(url_for(".director", tournament_id=tournament.id) + "#prizes")
    abort(404)


def _download(body: str, filename: str, mimetype: str) -> Response:
    if mimetype == "text/csv":
        # Excel reads a CSV without a byte-order mark in the machine's own code page, and
        # "Renée" comes out garbled: the mark tells it the file is UTF-8.
        body = "\ufeff" + body
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/director/<int:tournament_id>/games.csv")
@staff_required(ANY_STAFF)
def games_csv(tournament_id):
    """Every game of every sheet, one line per seat (CSV)."""
    tournament = g.tournament
    return _download(exports.games_csv(tournament), f"{tournament.code}-games.csv",
                     "text/csv")


@bp.get("/director/<int:tournament_id>/standings.csv")
@staff_required(ANY_STAFF)
def standings_csv(tournament_id):
    """One competition's standings from submitted sheets (CSV); ?c= picks it."""
    tournament = g.tournament
    # The filename comes from the competition the key resolved to (an unknown ?c= is the
    # overall table), never from the raw ?c= (a newline there breaks the header).
    key, body = exports.standings_csv(tournament, request.args.get("c", standings.MAIN))
    suffix = "" if key == standings.MAIN else "-" + key.replace(":", "-")
    return _download(body, f"{tournament.code}-standings{suffix}.csv", "text/csv")


@bp.get("/director/<int:tournament_id>/print")
@staff_required(ANY_STAFF)
def print_page(tournament_id):
    """Every competition's standings on paper."""
    return render_template("results/print.html", tournament=g.tournament,
                           board=standings.board(g.tournament, provisional=False))


@bp.get("/director/<int:tournament_id>/backup.json")
@staff_required(MANAGE)
def backup_json(tournament_id):
    """The whole tournament as a JSON backup (directors and co-directors)."""
    tournament = g.tournament
    body = json.dumps(backup.export_tournament(tournament), indent=1, sort_keys=True,
                      ensure_ascii=False)
    return _download(body, f"{tournament.code}-backup.json", "application/json")


@bp.route("/import", methods=["GET", "POST"])
@login_required
def import_backup():
    """Import a tournament from a backup (directors only); the signed-in user becomes its
    director. Tables get fresh links, so the result page asks for new table cards."""
    if not may_create_tournaments(current_user):
        return render_template("errors/error.html", code=403, title="Not allowed",
                               text=CREATE_REFUSED), 403
    form = ImportForm()
    if form.validate_on_submit():
        try:
            data = backup.load(form.backup.data.read())
            result = backup.import_tournament(data, current_user)
        except backup.BackupError as error:
            attach(form, error, "backup")
        else:
            return render_template("results/imported.html", result=result,
                                   tournament=result.tournament)
    return render_template("results/import.html", form=form), 422 if form.errors else 200


@bp.cli.command("import-backup")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--director", "email", required=True,
              help="Email of an account on this site; it becomes the tournament's director.")
@click.option("--keep-tokens", is_flag=True,
              help="Keep the tables' links from the backup (cards already printed for the "
                   "new address); by default every table gets a new link.")
def import_backup_command(path, email, keep_tokens):
    """Import a tournament from a JSON backup (from its director's results page)."""
    user = db.session.scalar(select(User).where(User.email == email.strip().lower()))
    if user is None:
        raise click.ClickException(
            f"No account for {email}. Create it first: flask --app app create-director "
            f"{email}")
    try:
        with open(path, "rb") as handle:
            data = backup.load(handle.read())
        result = backup.import_tournament(data, user, keep_tokens=keep_tokens)
    except backup.BackupError as error:
        raise click.ClickException(str(error)) from error
    tournament = result.tournament
    click.echo(f"Imported {tournament.name} (code {tournament.code}); "
               f"{user.email} is its director.")
    if result.fresh_tokens:
        click.echo("Every table has a new link: print the table cards again "
                   "(the old QR codes no longer work).")
    else:
        click.echo("The tables keep their links from the backup.")
    for address in result.not_staff:
        click.echo(f"  not imported as staff: {address}; invite them from Staff")
