"""The tournament's own pages: the director's home, a new tournament, its overview,
its details and rules, and the audit trail."""

from __future__ import annotations

from flask import flash, g, redirect, render_template, request, url_for
from flask_login import current_user

from core import access
from core.access import ANY_STAFF, MANAGE, staff_required
from core.errors import attach
from core.lookup import rules_of
from core.rounds import seated, seated_mark
from core.writes import unit
from tournament.rules import (
    BLANK_KEY,
    BLANK_TO_FILL,
    PRESETS,
    RULE_FIELDS,
    InvalidRules,
    kept_from_preset,
    own_name,
    readings,
    rule_words,
    wording,
)

from . import audit_trail, common, forms, tables, tournaments
from . import players as player_rows
from . import staff as staff_rows
from .blueprint import Saving, bp
from .common import SetupError

# A blank rule set is filled in on the rules page: until she saves it the new tournament
# plays TNT's (the house's default), and its to-do says the rules are not checked yet.
BLANK_START_FROM = "tnt"


@bp.get("/")
def home():
    """The tournaments this user staffs."""
    mine = access.my_tournaments(current_user)
    return render_template("director/home.html", tournaments=mine,
                           roles=staff_rows.STAFF_ROLES,
                           can_create=access.may_create_tournaments(current_user))


@bp.route("/new", methods=["GET", "POST"])
def new_tournament():
    """Create a tournament from one of the five rule sets."""
    if not access.may_create_tournaments(current_user):
        return render_template("errors/error.html", code=403, title="Not allowed",
                               text=access.CREATE_REFUSED), 403
    form = forms.TournamentForm()
    if not form.is_submitted():
        form.preset.data = "tnt"
        form.rounds.data = 3
    if form.validate_on_submit():
        blank = form.preset.data == BLANK_KEY
        with Saving(form):
            tournament = tournaments.create_tournament_from_form(
                current_user, name=form.name.data,
                preset=BLANK_START_FROM if blank else form.preset.data,
                rounds=form.rounds.data, starts_on=form.starts_on.data,
                ends_on=form.ends_on.data, venue=form.venue.data or "",
                games_per_round=form.games_per_round.data,
                round_minutes=form.round_minutes.data, prize_places=form.prize_places.data,
                sessions=form.sessions.data or "", mini=form.mini_range(form.preset.data))
            if blank:
                flash(f"Created {tournament.name}. Next: your own rules. Fill in your "
                      "sheet's numbers and give your rules a name, then save them.")
                return redirect(url_for("director.rules", tournament_id=tournament.id,
                                        start=BLANK_KEY))
            flash(f"Created {tournament.name}. Next: add the players.")
            return redirect(url_for("director.tournament", tournament_id=tournament.id))
    status = 422 if form.is_submitted() else 200
    return render_template("director/tournament_form.html", form=form, tournament=None,
                           presets=PRESETS, wording=wording), status


@bp.get("/t/<int:tournament_id>")
@staff_required(ANY_STAFF)
def tournament(tournament_id):
    """One tournament's overview: a big link to every page that runs it."""
    tournament = g.tournament
    return render_template(
        "director/tournament.html", tournament=tournament,
        role=g.role, roles=staff_rows.STAFF_ROLES,
        players=common.player_count(tournament),
        substitutes_needed=player_rows.substitutes_needed(tournament),
        seated=seated(tournament), seated_mark=seated_mark,
        locked=tournaments.scores_entered(tournament),
        rules=rules_of(tournament))


@bp.route("/t/<int:tournament_id>/edit", methods=["GET", "POST"])
@staff_required(MANAGE)
def edit_tournament(tournament_id):
    """Name, dates, venue, rounds, sessions, mini tournament, games and minutes."""
    tournament = g.tournament
    mini = common.mini_competition(tournament)
    form = forms.EditTournamentForm(obj=tournament)
    if not form.is_submitted():
        form.sessions.data = tournaments.sessions_text(tournament)
        form.mini.data = mini is not None
        if mini is not None:
            form.mini_first.data, form.mini_last.data = mini.first_round, mini.last_round
    if form.validate_on_submit():
        # The details and the address are one change: both saved, or neither.
        with Saving(form) as saving, unit():
            tournaments.update_tournament(
                tournament, current_user, name=form.name.data, rounds=form.rounds.data,
                starts_on=form.starts_on.data, ends_on=form.ends_on.data,
                venue=form.venue.data or "", games_per_round=form.games_per_round.data,
                round_minutes=form.round_minutes.data, prize_places=form.prize_places.data,
                sessions=form.sessions.data or "", mini=form.mini_range(tournament.preset))
            tables.set_public_url(tournament, current_user, form.public_url.data)
        if saving.saved:
            flash("Saved the tournament's details.")
            return redirect(url_for("director.tournament", tournament_id=tournament.id))
    status = 422 if form.is_submitted() else 200
    return render_template("director/tournament_form.html", form=form, tournament=tournament,
                           presets=PRESETS, wording=wording,
                           locked=tournaments.scores_entered(tournament)), status


def _stored_rules(tournament) -> dict:
    """The tournament's rules with every rule filled in (one stored before a rule existed
    shows its preset's value for it)."""
    return rules_of(tournament).to_dict()


def _rule_words(tournament) -> dict[str, tuple[str | None, str, bool]]:
    """{rule: (the preset sheet's quote or None, the rule in plain words, kept the preset's
    value)} for the tournament's stored rules."""
    stored = rules_of(tournament)
    return {rule.name: (*rule_words(stored, rule.name), kept_from_preset(stored, rule.name))
            for rule in RULE_FIELDS}


# Where the rules refuse a value, the form field that shows it.
_FORM_FIELD = {"thrower_penalty": "thrower_penalty_0", "name": "rule_set_name",
               "short_name": "rule_set_name"}


@bp.route("/t/<int:tournament_id>/rules", methods=["GET", "POST"])
@staff_required(MANAGE)
def rules(tournament_id):
    """Every number of the rule set, beside the sheet's words or her own in plain words;
    fixed once scores are in. ?start=blank shows a blank rule set, saved only when she
    saves it."""
    tournament = g.tournament
    locked = tournaments.scores_entered(tournament)
    stored = rules_of(tournament)
    name = stored.name if own_name(stored) else ""
    if request.method == "POST" and not locked:
        form = forms.rules_form(_stored_rules(tournament), formdata=request.form)
        status = 422
        if form.validate():
            try:
                tournaments.save_rules(tournament, current_user, forms.rules_changes(form),
                                       name=form.rule_set_name.data or "",
                                       start=form.start.data or None)
            except InvalidRules as error:
                attach(form, SetupError(_FORM_FIELD.get(error.field, error.field),
                                        error.message))
            except common.RulesFixed:
                # A score landed since the page was drawn: show the rules read-only.
                locked, status = True, 409
                form = forms.rules_form(_stored_rules(tournament))
            except SetupError as error:
                attach(form, error)
            else:
                flash("Saved the rules.")
                return redirect(url_for("director.rules", tournament_id=tournament.id))
    else:
        start = BLANK_KEY if request.args.get("start") == BLANK_KEY and not locked else None
        form = forms.rules_form(_stored_rules(tournament), name=name, start=start)
        status = 409 if request.method == "POST" else 200
    return render_template("director/rules.html", tournament=tournament, form=form,
                           preset_form=forms.PresetForm(preset=tournament.preset),
                           fields=forms.EDITABLE_RULES, all_fields=RULE_FIELDS,
                           words=_rule_words(tournament), readings=readings, locked=locked,
                           rules=_stored_rules(tournament), rule_set=rules_of(tournament),
                           started_from=PRESETS.get(tournament.preset),
                           blank=form.start.data == BLANK_KEY,
                           to_fill_names=BLANK_TO_FILL), status


@bp.post("/t/<int:tournament_id>/rules/preset")
@staff_required(MANAGE)
def rules_preset(tournament_id):
    """Start the rules again from one of the five presets, or show a blank rule set to
    fill in (nothing changes until she saves it)."""
    tournament = g.tournament
    form = forms.PresetForm()
    if form.validate_on_submit():
        if form.preset.data == BLANK_KEY:
            return redirect(url_for("director.rules", tournament_id=tournament.id,
                                    start=BLANK_KEY, _anchor="rules-form"))
        try:
            tournaments.apply_preset(tournament, current_user, form.preset.data)
        except SetupError as error:
            flash(error.message, "error")
            return redirect(url_for("director.rules", tournament_id=tournament.id)), 303
        flash(f"The rules now follow {PRESETS[form.preset.data].name}.")
    else:
        flash("Choose one of the rule sets.", "error")
    return redirect(url_for("director.rules", tournament_id=tournament.id))


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
@staff_required(MANAGE)
def audit(tournament_id):
    """The audit trail: who changed what and when, before and after; filterable, printable."""
    tournament = g.tournament
    wanted, errors = _audit_filter(request.args)
    lines, matched = audit_trail.trail(tournament.id, wanted)
    return render_template("director/audit.html", tournament=tournament, lines=lines,
                           matched=matched, wanted=wanted, errors=errors,
                           kinds=audit_trail.kinds_in(tournament.id),
                           shown_max=audit_trail.SHOWN, args=request.args), \
        422 if errors else 200
