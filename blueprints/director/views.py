"""The director's pages: tournaments, rules, players, seating, schedule, cards, staff.

Views are thin: parse the form, call service, commit once, render. A SetupError (or an
InvalidRules) rolls everything back and shows its message at the field it names, 422."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import (
    Blueprint,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_login import current_user, login_required
from sqlalchemy.exc import IntegrityError

from blueprints.common import external_url, is_loopback, render_page_or_partial
from core import access
from core.access import ANY_STAFF, MANAGE
from core.lookup import movement_of, rules_of
from core.qr import qr_svg
from core.rounds import round_row
from core.words import MOVEMENT_WORDS
from models import db, utcnow
from tournament.rules import PRESETS, RULE_FIELDS, InvalidRules, readings, wording

from . import audit_trail, forms, service
from .service import SetupError

bp = Blueprint("director", __name__, url_prefix="/director")
DIRECTOR_ONLY = ("director",)


@bp.before_request
@login_required
def _signed_in():
    """Every director page needs a signed-in user."""


def _manage(tournament_id):
    return access.staff_tournament(tournament_id, MANAGE)


# Two requests at the same moment can both pass a service's checks and then hit a unique
# constraint (the same player number, round 1 seated twice): that is a clash, answered 409
# with the message at the field, never a 500.
CLASH = 409


def _fail(form, error: SetupError):
    """Undo everything of this request and put the message at its field (or the form)."""
    db.session.rollback()
    target = getattr(form, error.field, None) if error.field else None
    if target is not None and hasattr(target, "errors"):
        if not isinstance(target.errors, list):
            target.errors = list(target.errors)
        target.errors.append(error.message)
    else:
        form.form_errors.append(error.message)


def lookup_url(tournament) -> str:
    """The players' seat lookup (player.lookup)."""
    return external_url("player.lookup", tournament, code=tournament.code)


def table_url(tournament, table) -> str:
    return external_url("table.page", tournament, code=tournament.code, number=table.number,
                        k=table.token)


# --- home, create, overview ------------------------------------------------------------

@bp.get("/")
def home():
    """The tournaments this user staffs."""
    tournaments = access.my_tournaments(current_user)
    return render_template("director/home.html", tournaments=tournaments,
                           roles=service.STAFF_ROLES,
                           can_import=any(role == "director" for _, role in tournaments))


@bp.route("/new", methods=["GET", "POST"])
def new_tournament():
    """Create a tournament from one of the five rule sets."""
    form = forms.TournamentForm()
    if not form.is_submitted():
        form.preset.data = "tnt"
        form.rounds.data = 3
    if form.validate_on_submit():
        try:
            tournament = service.create_tournament_from_form(
                current_user, name=form.name.data, preset=form.preset.data,
                rounds=form.rounds.data, starts_on=form.starts_on.data,
                ends_on=form.ends_on.data, venue=form.venue.data or "",
                games_per_round=form.games_per_round.data,
                round_minutes=form.round_minutes.data, prize_places=form.prize_places.data,
                sessions=form.sessions.data or "", mini=form.mini_range(form.preset.data))
        except SetupError as error:
            _fail(form, error)
        else:
            db.session.commit()
            flash(f"Created {tournament.name}. Next: add the players.")
            return redirect(url_for("director.tournament", tournament_id=tournament.id))
    status = 422 if form.is_submitted() else 200
    return render_template("director/tournament_form.html", form=form, tournament=None,
                           presets=PRESETS, wording=wording), status


@bp.get("/t/<int:tournament_id>")
def tournament(tournament_id):
    """One tournament's overview: a big link to every page that runs it."""
    tournament = access.staff_tournament(tournament_id, ANY_STAFF)
    return render_template(
        "director/tournament.html", tournament=tournament,
        role=access.staff_role(tournament), roles=service.STAFF_ROLES,
        players=service.player_count(tournament),
        substitutes_needed=service.substitutes_needed(tournament),
        seated=service.seated(tournament), locked=service.scores_entered(tournament),
        rules=PRESETS.get(tournament.preset))


# --- details and rules -----------------------------------------------------------------

@bp.route("/t/<int:tournament_id>/edit", methods=["GET", "POST"])
def edit_tournament(tournament_id):
    """Name, dates, venue, rounds, sessions, mini tournament, games and minutes."""
    tournament = _manage(tournament_id)
    mini = service.mini_competition(tournament)
    form = forms.EditTournamentForm(obj=tournament)
    if not form.is_submitted():
        form.sessions.data = service.sessions_text(tournament)
        form.mini.data = mini is not None
        if mini is not None:
            form.mini_first.data, form.mini_last.data = mini.first_round, mini.last_round
    if form.validate_on_submit():
        try:
            service.update_tournament(
                tournament, current_user, name=form.name.data, rounds=form.rounds.data,
                starts_on=form.starts_on.data, ends_on=form.ends_on.data,
                venue=form.venue.data or "", games_per_round=form.games_per_round.data,
                round_minutes=form.round_minutes.data, prize_places=form.prize_places.data,
                sessions=form.sessions.data or "", mini=form.mini_range(tournament.preset))
            service.set_public_url(tournament, current_user, form.public_url.data)
        except SetupError as error:
            _fail(form, error)
        except InvalidRules as error:
            _fail(form, SetupError(error.message, error.field))
        else:
            db.session.commit()
            flash("Saved the tournament's details.")
            return redirect(url_for("director.tournament", tournament_id=tournament.id))
    status = 422 if form.is_submitted() else 200
    return render_template("director/tournament_form.html", form=form, tournament=tournament,
                           presets=PRESETS, wording=wording,
                           locked=service.scores_entered(tournament)), status


def _stored_rules(tournament) -> dict:
    """The tournament's rules with every rule filled in (one stored before a rule existed
    shows its preset's value for it)."""
    return rules_of(tournament).to_dict()


@bp.route("/t/<int:tournament_id>/rules", methods=["GET", "POST"])
def rules(tournament_id):
    """Every number of the rule set, beside the sheet's words; fixed once scores are in."""
    tournament = _manage(tournament_id)
    locked = service.scores_entered(tournament)
    if request.method == "POST" and not locked:
        form = forms.rules_form(_stored_rules(tournament), formdata=request.form)
        status = 422
        if form.validate():
            try:
                service.update_rules(tournament, current_user, forms.rules_changes(form))
            except InvalidRules as error:
                _fail(form, SetupError(error.message, error.field if error.field !=
                                       "thrower_penalty" else "thrower_penalty_0"))
            except service.RulesFixed:
                # A score landed since the page was drawn: show the rules read-only.
                db.session.rollback()
                locked, status = True, 409
                form = forms.rules_form(_stored_rules(tournament))
            except SetupError as error:
                _fail(form, error)
            else:
                db.session.commit()
                flash("Saved the rules.")
                return redirect(url_for("director.rules", tournament_id=tournament.id))
    else:
        form = forms.rules_form(_stored_rules(tournament))
        status = 409 if request.method == "POST" else 200
    return render_template("director/rules.html", tournament=tournament, form=form,
                           preset_form=forms.PresetForm(preset=tournament.preset),
                           fields=forms.EDITABLE_RULES, all_fields=RULE_FIELDS,
                           wording=wording, readings=readings, locked=locked,
                           rules=_stored_rules(tournament)), status


@bp.post("/t/<int:tournament_id>/rules/preset")
def rules_preset(tournament_id):
    """Start the rules again from one of the five presets."""
    tournament = _manage(tournament_id)
    form = forms.PresetForm()
    if form.validate_on_submit():
        try:
            service.apply_preset(tournament, current_user, form.preset.data)
        except SetupError as error:
            db.session.rollback()
            flash(error.message, "error")
            return redirect(url_for("director.rules", tournament_id=tournament.id)), 303
        db.session.commit()
        flash(f"The rules now follow {PRESETS[form.preset.data].name}.")
    else:
        flash("Choose one of the rule sets.", "error")
    return redirect(url_for("director.rules", tournament_id=tournament.id))


# --- players ---------------------------------------------------------------------------

def _players_page(tournament, form=None, subs_form=None, status=200):
    return render_page_or_partial(
        "director/players.html", "director/_players.html", status=status,
        tournament=tournament, form=form or forms.PlayerForm(),
        subs_form=subs_form or forms.SubstitutesForm(),
        needed=service.substitutes_needed(tournament), count=service.player_count(tournament),
        mini=service.mini_competition(tournament), in_mini=service.in_mini(tournament),
        seated=service.seated(tournament), mini_closed=service.mini_entry_closed(tournament))


@bp.get("/t/<int:tournament_id>/players")
def players(tournament_id):
    """Every player, how many substitutes are needed, and a form to add one."""
    return _players_page(_manage(tournament_id))


@bp.post("/t/<int:tournament_id>/players")
def add_player(tournament_id):
    """Add one player."""
    tournament = _manage(tournament_id)
    form = forms.PlayerForm()
    status = 422
    if form.validate_on_submit():
        try:
            player = service.add_player(tournament, current_user, number=form.number.data,
                                        name=form.name.data, mini=form.mini.data,
                                        mini_override=form.mini_override.data or "")
            name, number = player.name, player.number
            db.session.commit()
        except SetupError as error:
            _fail(form, error)
        except IntegrityError:
            _fail(form, SetupError(_number_clash(form.number.data), "number"))
            status = CLASH
        else:
            flash(f"Added {name} as number {number}.")
            return redirect(url_for("director.players", tournament_id=tournament.id))
    return _players_page(tournament, form=form, status=status)


def _number_clash(number) -> str:
    if number:
        return (f"Number {number} was just given to another player; nothing was saved. "
                "Choose another number.")
    return ("Another player was added at the same moment and took that number; nothing was "
            "saved. Please add this player again.")


@bp.post("/t/<int:tournament_id>/players/substitutes")
def add_substitutes(tournament_id):
    """Add the substitutes the field needs to fill every table."""
    tournament = _manage(tournament_id)
    form = forms.SubstitutesForm()
    status = 422
    if form.validate_on_submit():
        names = [n for n in (form.names.data or "").splitlines() if n.strip()]
        needed = service.substitutes_needed(tournament)
        if not names:
            names = [""] * (needed or 0)
        if not names:
            form.names.errors.append("The field already fills every table; type a name to "
                                     "add a spare substitute.")
        else:
            try:
                added = len(service.add_substitutes(tournament, current_user, names))
                db.session.commit()
            except SetupError as error:
                _fail(form, SetupError(error.message, "names"))
            except IntegrityError:
                _fail(form, SetupError(_number_clash(None), "names"))
                status = CLASH
            else:
                flash(f"Added {added} substitute(s).")
                return redirect(url_for("director.players", tournament_id=tournament.id))
    return _players_page(tournament, subs_form=form, status=status)


def _player_or_404(tournament, player_id):
    player = service.tournament_player(tournament, player_id)
    if player is None:
        abort(404)
    return player


@bp.route("/t/<int:tournament_id>/players/<int:player_id>", methods=["GET", "POST"])
def edit_player(tournament_id, player_id):
    """Change a player's number, name or mini tournament entry."""
    tournament = _manage(tournament_id)
    player = _player_or_404(tournament, player_id)
    form = forms.PlayerForm(obj=player)
    mini = service.mini_competition(tournament)
    status = None
    if not form.is_submitted():
        form.mini.data = player.id in service.in_mini(tournament)
    if form.validate_on_submit():
        try:
            service.edit_player(tournament, current_user, player,
                                number=form.number.data or player.number, name=form.name.data,
                                mini=form.mini.data if mini else None,
                                mini_override=form.mini_override.data or "")
            name = player.name
            db.session.commit()
        except SetupError as error:
            _fail(form, error)
        except IntegrityError:
            _fail(form, SetupError(_number_clash(form.number.data), "number"))
            status = CLASH
        else:
            flash(f"Saved {name}.")
            return redirect(url_for("director.players", tournament_id=tournament.id))
    status = status or (422 if form.is_submitted() else 200)
    return render_template("director/player_form.html", tournament=tournament, player=player,
                           form=form, mini=mini,
                           mini_closed=service.mini_entry_closed(tournament)), status


@bp.route("/t/<int:tournament_id>/players/<int:player_id>/withdraw", methods=["GET", "POST"])
def withdraw_player(tournament_id, player_id):
    """A player leaves: before seating they leave the field, after it a substitute takes
    their seat from a given round on."""
    tournament = _manage(tournament_id)
    player = _player_or_404(tournament, player_id)
    form = forms.WithdrawForm()
    status = None
    free = service.free_substitutes(tournament)
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
            substitute = service.tournament_player(tournament, int(choice))
        try:
            if form.substitute.data and substitute is None:
                raise SetupError("Choose a substitute from the list.", "substitute")
            service.withdraw_player(tournament, current_user, player,
                                    from_round=form.from_round.data, substitute=substitute,
                                    new_substitute_name=form.new_substitute.data or "")
            name = player.name
            db.session.commit()
        except SetupError as error:
            _fail(form, error)
        except IntegrityError:
            _fail(form, SetupError("Someone else changed this player or the seating at the "
                                   "same moment; nothing was saved. Please try again.",
                                   "substitute"))
            status = CLASH
        else:
            flash(f"{name} has left; the seating is updated.")
            return redirect(url_for("director.players", tournament_id=tournament.id))
    status = status or (422 if form.is_submitted() else 200)
    return render_template("director/withdraw.html", tournament=tournament, player=player,
                           form=form, seated=service.seated(tournament)), status


def _next_unstarted_round(tournament) -> int:
    """The first round after every played one (service.round_played)."""
    last = max(service.played_rounds(tournament), default=0)
    return min(last + 1, tournament.rounds)


@bp.route("/t/<int:tournament_id>/players/import", methods=["GET", "POST"])
def import_players(tournament_id):
    """Import players from a CSV: a preview with every row's problem, then one save."""
    tournament = _manage(tournament_id)
    form = forms.ImportForm()
    preview, text, status = None, "", 200
    if form.validate_on_submit():
        try:
            upload = form.file.data
            if upload and getattr(upload, "filename", ""):
                text = service.decode_csv(upload.read())
            else:
                text = form.text.data or ""
            if not text.strip():
                raise SetupError("Choose a CSV file, or paste the players' lines.", "file")
        except SetupError as error:
            _fail(form, error)
            status = 422
        else:
            if form.confirm.data == "yes":
                preview = service.import_players(tournament, current_user, text)
                if preview.ok:
                    db.session.commit()
                    flash(f"Imported {len(preview.rows)} players.")
                    return redirect(url_for("director.players", tournament_id=tournament.id))
                db.session.rollback()
                status = 422
            else:
                preview = service.preview_import(tournament, text)
                status = 200 if preview.ok else 422
    elif form.is_submitted():
        status = 422
    return render_template("director/import.html", tournament=tournament, form=form,
                           preview=preview, text=text), status


# --- seating ---------------------------------------------------------------------------

def _seating_page(tournament, form=None, swap_form=None, status=200, movement_form=None,
                  import_form=None, import_problems=()):
    rnd = round_row(tournament, 1)
    tables = []
    if rnd is not None:
        by_table = {}
        for s in rnd.seats:
            by_table.setdefault(s.table.number, {})[s.seat] = s.player
        tables = sorted(by_table.items())
    return render_template(
        "director/seating.html", tournament=tournament, round1=rnd, tables=tables,
        form=form or forms.SeatingForm(method=tournament.seating_method or "draw"),
        swap_form=swap_form or forms.SwapForm(), count=service.player_count(tournament),
        needed=service.substitutes_needed(tournament),
        unseated=service.unseated_players(tournament),
        played=service.played_rounds(tournament), movement=movement_of(tournament),
        movement_words=MOVEMENT_WORDS,
        movement_form=movement_form or forms.MovementForm(
            movement=movement_of(tournament)),
        import_form=import_form or forms.SeatingImportForm(),
        import_problems=import_problems, movement_fixed=service.scores_entered(tournament),
    ), status


@bp.post("/t/<int:tournament_id>/seating/movement")
def seating_movement(tournament_id):
    """Choose the movement: the usual one, or the organiser's imported seating."""
    tournament = _manage(tournament_id)
    form = forms.MovementForm()
    if form.validate_on_submit():
        try:
            service.set_movement(tournament, current_user, form.movement.data)
        except (InvalidRules, SetupError) as error:
            _fail(form, SetupError(error.message, "movement"))
        else:
            db.session.commit()
            flash("Movement saved.")
            return redirect(url_for("director.seating", tournament_id=tournament.id))
    return _seating_page(tournament, movement_form=form, status=422)


@bp.post("/t/<int:tournament_id>/seating/import")
def seating_import(tournament_id):
    """Import the organiser's seating for every round: every problem listed, or all saved."""
    tournament = _manage(tournament_id)
    form = forms.SeatingImportForm()
    if form.validate_on_submit():
        try:
            upload = form.file.data
            if upload and getattr(upload, "filename", ""):
                text = service.decode_csv(upload.read())
            else:
                text = form.text.data or ""
            if not text.strip():
                raise SetupError("Choose a CSV file, or paste the seating's lines.", "file")
            result = service.import_seating(tournament, current_user, text)
        except SetupError as error:
            _fail(form, SetupError(error.message, "file"))
        else:
            if result.ok:
                db.session.commit()
                flash(f"Imported the seating: {result.rounds} rounds, {result.tables} tables. "
                      "Round 1 is seated.")
                return redirect(url_for("director.seating", tournament_id=tournament.id))
            db.session.rollback()
            return _seating_page(tournament, import_form=form, status=422,
                                 import_problems=result.problems)
    return _seating_page(tournament, import_form=form, status=422)


@bp.get("/t/<int:tournament_id>/seating")
def seating(tournament_id):
    """Round 1's seats, the draw (with its seed) or seating by number, and swaps."""
    return _seating_page(_manage(tournament_id))


@bp.post("/t/<int:tournament_id>/seating")
def seat(tournament_id):
    """Draw (or redo the draw, or seat by number) round 1; later rounds are rebuilt."""
    tournament = _manage(tournament_id)
    form = forms.SeatingForm()
    status = 422
    if form.validate_on_submit():
        try:
            service.seat(tournament, current_user, form.method.data, form.seed.data)
            method, seed = tournament.seating_method, tournament.seating_seed
            db.session.commit()
        except SetupError as error:
            _fail(form, error)
        except IntegrityError:
            _fail(form, SetupError("Round 1 was being seated from another screen at the same "
                                   "moment; nothing was saved here. Below is the seating "
                                   "that was saved; redo it if you need to.", "method"))
            status = CLASH
        else:
            flash("Round 1 is seated." + (f" Draw number {seed}." if method == "draw" else ""))
            return redirect(url_for("director.seating", tournament_id=tournament.id))
    return _seating_page(tournament, form=form, status=status)


@bp.post("/t/<int:tournament_id>/seating/swap")
def swap(tournament_id):
    """Swap two players' round-1 seats before round 1 starts."""
    tournament = _manage(tournament_id)
    form = forms.SwapForm()
    status = 422
    if form.validate_on_submit():
        try:
            service.swap_players(tournament, current_user, form.first.data, form.second.data)
            db.session.commit()
        except SetupError as error:
            _fail(form, error)
        except IntegrityError:
            _fail(form, SetupError("The seating was changed from another screen at the same "
                                   "moment; nothing was saved. Check the seats below and try "
                                   "again.", "first"))
            status = CLASH
        else:
            flash(f"Swapped players {form.first.data} and {form.second.data}.")
            return redirect(url_for("director.seating", tournament_id=tournament.id))
    return _seating_page(tournament, swap_form=form, status=status)


def _need_seating(tournament):
    if not service.seated(tournament):
        flash("Seat round 1 first; every later round follows from it.", "warning")
        return redirect(url_for("director.seating", tournament_id=tournament.id))
    return None


@bp.get("/t/<int:tournament_id>/schedule")
def schedule(tournament_id):
    """The full seating schedule: round by table by seat, one round per printed page."""
    tournament = _manage(tournament_id)
    if (early := _need_seating(tournament)) is not None:
        return early
    plan = service.schedule(tournament)
    return render_template("director/schedule.html", tournament=tournament, plan=plan)


@bp.get("/t/<int:tournament_id>/itineraries")
def itineraries(tournament_id):
    """Each player's table and seat in every round (printable slips)."""
    tournament = _manage(tournament_id)
    if (early := _need_seating(tournament)) is not None:
        return early
    plan = service.itineraries(tournament)
    return render_template("director/itineraries.html", tournament=tournament, plan=plan)


@bp.get("/t/<int:tournament_id>/meetings")
def meetings(tournament_id):
    """Pairs of players who meet more than once, and in which rounds."""
    tournament = _manage(tournament_id)
    if (early := _need_seating(tournament)) is not None:
        return early
    return render_template("director/meetings.html", tournament=tournament,
                           report=service.meetings_report(tournament),
                           tables=len(tournament.tables))


# --- table cards, tokens, poster -------------------------------------------------------

@bp.get("/t/<int:tournament_id>/cards")
def table_cards(tournament_id):
    """One printable card per table: the number, a QR code to its page, a typed link."""
    tournament = _manage(tournament_id)
    if (early := _need_seating(tournament)) is not None:
        return early
    return _cards_page(tournament)


def _cards_page(tournament, status=200, address_form=None):
    cards = []
    for table in tournament.tables:
        url = table_url(tournament, table)
        cards.append({"table": table, "url": url, "qr": qr_svg(url, scale=8)})
    return render_template("director/cards.html", tournament=tournament, cards=cards,
                           form=forms.ConfirmForm(),
                           **_address_check(tournament, address_form)), status


def _address_check(tournament, form=None) -> dict:
    """Whether the printed codes would point at this computer itself (127.0.0.1), and the
    addresses to offer instead: this laptop's on the venue network, at this port."""
    base = lookup_url(tournament)
    loopback = is_loopback(base)
    port = urlsplit(base).port
    offers = [f"http://{address}" + (f":{port}" if port and port != 80 else "")
              for address in service.lan_addresses()] if loopback else []
    return {"base_loopback": loopback, "base_host": urlsplit(base).netloc,
            "address_offers": offers,
            "address_form": form or forms.PublicUrlForm(formdata=None,
                                                        public_url=tournament.public_url)}


@bp.post("/t/<int:tournament_id>/public-address")
def public_address(tournament_id):
    """Set the address the QR codes and cards use (from the cards page's offers)."""
    tournament = _manage(tournament_id)
    form = forms.PublicUrlForm()
    # A post without the field at all is not "clear the address": it is a broken form.
    if "public_url" not in request.form:
        form.public_url.errors = ["Give the address, or leave the box empty for the default."]
    elif form.validate_on_submit():
        try:
            service.set_public_url(tournament, current_user, form.public_url.data)
        except SetupError as error:
            _fail(form, error)
        else:
            db.session.commit()
            flash(f"QR codes and cards now use {tournament.public_url or 'the default address'}."
                  " Print the table cards and the poster again.")
            return redirect(url_for("director.table_cards", tournament_id=tournament.id))
    return _cards_page(tournament, 422, form)


@bp.post("/t/<int:tournament_id>/tables/<int:number>/rotate")
def rotate_token(tournament_id, number):
    """Give a table a new link: its old QR code stops working."""
    tournament = _manage(tournament_id)
    table = service.tournament_table(tournament, number)
    if table is None:
        abort(404)
    form = forms.ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    service.rotate_token(tournament, current_user, table)
    db.session.commit()
    flash(f"Table {number} has a new link. Print its new card; the old QR code no longer "
          "works.")
    return redirect(url_for("director.table_cards", tournament_id=tournament.id)
                    + f"#table-{number}")


@bp.get("/t/<int:tournament_id>/poster")
def poster(tournament_id):
    """A printable poster with the QR code of the players' seat lookup."""
    tournament = _manage(tournament_id)
    url = lookup_url(tournament)
    return render_template("director/poster.html", tournament=tournament, url=url,
                           qr=qr_svg(url, scale=12),
                           base_loopback=is_loopback(url), base_host=urlsplit(url).netloc)


# --- staff -----------------------------------------------------------------------------

def _staff_page(tournament, form, status=200, *, link=None, invitation=None):
    """The staff page; `link` is a one-time invitation or password link, shown this once
    (so the answer must not be kept by any cache)."""
    response = make_response(render_template(
        "director/staff.html", tournament=tournament, form=form,
        staff=service.staff_list(tournament), roles=service.STAFF_ROLES,
        invitations=service.pending_invitations(tournament), link=link,
        invitation=invitation, qr=qr_svg(link, scale=5) if link else None,
        remove_form=forms.ConfirmForm(), me=current_user, now=utcnow()), status)
    response.headers["Cache-Control"] = "no-store"
    return response


def _invitation_url(secret: str) -> str:
    return external_url("auth.invitation", k=secret)


@bp.route("/t/<int:tournament_id>/staff", methods=["GET", "POST"])
def staff(tournament_id):
    """Co-directors and table guides: only a director manages them."""
    tournament = access.staff_tournament(tournament_id, DIRECTOR_ONLY)
    form = forms.StaffForm()
    if form.validate_on_submit():
        try:
            invitation, secret = service.invite_staff(
                tournament, current_user, email=form.email.data, role=form.role.data)
        except SetupError as error:
            _fail(form, error)
            return _staff_page(tournament, form, 422)
        db.session.commit()
        return _staff_page(tournament, forms.StaffForm(formdata=None),
                           link=_invitation_url(secret), invitation=invitation)
    return _staff_page(tournament, form, 422 if form.is_submitted() else 200)


@bp.post("/t/<int:tournament_id>/staff/<int:staff_id>/password-link")
def staff_password_link(tournament_id, staff_id):
    """A one-time link with which a co-director or table guide sets a new password."""
    tournament = access.staff_tournament(tournament_id, DIRECTOR_ONLY)
    form = forms.ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        invitation, secret = service.password_link(tournament, current_user, staff_id)
    except SetupError as error:
        db.session.rollback()
        page_form = forms.StaffForm(formdata=None)
        page_form.form_errors.append(error.message)
        return _staff_page(tournament, page_form, 422)
    db.session.commit()
    return _staff_page(tournament, forms.StaffForm(formdata=None),
                       link=_invitation_url(secret), invitation=invitation)


@bp.post("/t/<int:tournament_id>/staff/invitations/cancel")
def cancel_invitation(tournament_id):
    """Withdraw an invitation that has not been used: its link stops working."""
    tournament = access.staff_tournament(tournament_id, DIRECTOR_ONLY)
    form = forms.ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        service.cancel_invitation(tournament, current_user,
                                  request.form.get("invitation", type=int))
    except SetupError:
        db.session.rollback()
        abort(404)
    db.session.commit()
    flash("Invitation withdrawn: its link no longer works.")
    return redirect(url_for("director.staff", tournament_id=tournament.id))


@bp.post("/t/<int:tournament_id>/staff/<int:staff_id>/remove")
def remove_staff(tournament_id, staff_id):
    """Take someone off this tournament's staff."""
    tournament = access.staff_tournament(tournament_id, DIRECTOR_ONLY)
    form = forms.ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        service.remove_staff(tournament, current_user, staff_id)
    except SetupError as error:
        db.session.rollback()
        flash(error.message, "error")
    else:
        db.session.commit()
        flash("Removed.")
    return redirect(url_for("director.staff", tournament_id=tournament.id))


# --- the audit trail -------------------------------------------------------------------

AUDIT_NUMBERS = {"table": "a table number, like 4", "round": "a round number, like 2",
                 "player": "a player number, like 17"}


def _audit_filter(args) -> tuple[audit_trail.AuditFilter, dict[str, str]]:
    """The filter asked for; a number that is not one is left out and named in `errors`."""
    numbers, errors = {}, {}
    for name, example in AUDIT_NUMBERS.items():
        text = (args.get(name) or "").strip()
        if text and not (text.isascii() and text.isdigit() and len(text) <= 6):
            errors[name] = f"Give {example}, or leave it empty."
        numbers[name] = int(text) if text and name not in errors else None
    return audit_trail.AuditFilter(who=(args.get("who") or "").strip()[:120],
                                   kind=(args.get("kind") or "").strip()[:32],
                                   **numbers), errors


@bp.get("/t/<int:tournament_id>/audit")
def audit(tournament_id):
    """The audit trail: who changed what and when, before and after; filterable, printable."""
    tournament = _manage(tournament_id)
    wanted, errors = _audit_filter(request.args)
    lines, matched = audit_trail.trail(tournament.id, wanted)
    return render_template("director/audit.html", tournament=tournament, lines=lines,
                           matched=matched, wanted=wanted, errors=errors,
                           kinds=audit_trail.kinds_in(tournament.id),
                           shown_max=audit_trail.SHOWN, args=request.args), \
        422 if errors else 200
