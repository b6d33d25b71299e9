"""The director's forms. Every message is in plain words and shows at its field."""

from __future__ import annotations

from flask_wtf.file import FileField
from wtforms import (
    BooleanField,
    DateField,
    EmailField,
    Field,
    HiddenField,
    IntegerField,
    SelectChoice,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import (
    DataRequired,
    Email,
    InputRequired,
    Length,
    NumberRange,
    Optional,
)

from blueprints.common import Form
from blueprints.director.staff import STAFF_ROLES
from core.words import MOVEMENT_WORDS
from tournament.rules import BLANK, BLANK_KEY, BLANK_TO_FILL, MAX_NAME, PRESETS, RULE_FIELDS

WHOLE = "Please enter a whole number, like 12."


def options(pairs) -> list[SelectChoice]:
    """(value, label) pairs as the choices of a SelectField."""
    return [SelectChoice(value, label) for value, label in pairs]


class WholeNumberField(IntegerField):
    """An IntegerField whose error, when the text is not a number, is in plain words."""

    def process_formdata(self, valuelist):
        if valuelist and not valuelist[0].strip():
            # Spaces are no answer: InputRequired and Optional read raw_data, and would
            # otherwise take them for one and pass None on.
            self.raw_data = []
        if valuelist and valuelist[0].strip():
            text = valuelist[0].strip()
            try:
                if not text.lstrip("-").isascii() or len(text) > 12:
                    raise ValueError
                self.data = int(text)
            except ValueError:
                self.data = None
                raise ValueError(WHOLE) from None
        else:
            self.data = None


class PlainDateField(DateField):
    def process_formdata(self, valuelist):
        if valuelist and valuelist[0].strip():
            try:
                super().process_formdata(valuelist)
            except ValueError:
                raise ValueError("Please enter a date, like 2026-05-14.") from None
        else:
            self.data = None


def preset_choices():
    return options((key, rules.name) for key, rules in PRESETS.items())


class TournamentForm(Form):
    name = StringField("Name", validators=[
        DataRequired("Please give the tournament a name."),
        Length(max=120, message="Keep the name under 120 characters.")])
    starts_on = PlainDateField("First day", validators=[Optional()])
    ends_on = PlainDateField("Last day", validators=[Optional()])
    venue = StringField("Venue", validators=[
        Length(max=200, message="Keep the venue under 200 characters.")])
    # A blank set is started on the rules page, where its numbers are filled in: the
    # tournament is created on TNT's until she saves her own (blueprints.director).
    preset = SelectField("Rule set", choices=[
        *preset_choices(), SelectChoice(BLANK_KEY, "A blank rule set: my own numbers")])
    rounds = WholeNumberField("Rounds", validators=[
        InputRequired("Please say how many rounds."),
        NumberRange(1, 40, "Rounds must be between 1 and 40.")])
    games_per_round = WholeNumberField("Games per round", validators=[
        Optional(), NumberRange(1, 20, "Games per round must be between 1 and 20.")])
    round_minutes = WholeNumberField("Minutes per round", validators=[
        Optional(), NumberRange(1, 240, "Minutes per round must be between 1 and 240.")])
    prize_places = WholeNumberField("Prize places", default=3, validators=[
        InputRequired("Please say how many places win a prize (0 for none)."),
        NumberRange(0, 100, "Prize places must be between 0 and 100.")])
    sessions = StringField("Sessions (round ranges)", validators=[
        Length(max=200, message="Keep this under 200 characters.")])
    mini = BooleanField("Hold a mini tournament (players opt in)")
    mini_first = WholeNumberField("Mini tournament: first round", validators=[Optional()])
    mini_last = WholeNumberField("Mini tournament: last round", validators=[Optional()])

    def validate(self, extra_validators=None):
        # Not validate_mini_last: Optional() stops a field's chain, inline checks included,
        # when the box is empty, and an empty last round is what this is about.
        valid = super().validate(extra_validators)
        if self.mini.data and (self.mini_first.data is None) != (self.mini_last.data is None):
            self.mini_last.errors = [*self.mini_last.errors,
                                     "Enter both the first and the last round, or neither."]
            return False
        return valid

    def mini_range(self, preset_key: str) -> tuple[int, int] | None:
        if not self.mini.data:
            return None
        if self.mini_first.data is None and self.mini_last.data is None:
            preset = PRESETS.get(preset_key)
            if preset and preset.mini_tournament:
                return preset.mini_tournament.first_round, preset.mini_tournament.last_round
            return 1, self.rounds.data or 1
        return self.mini_first.data, self.mini_last.data


class EditTournamentForm(TournamentForm):
    """Editing: the rule set is changed on the rules page; games and minutes are required."""

    preset = None
    games_per_round = WholeNumberField("Games per round", validators=[
        InputRequired("Please say how many games a round has."),
        NumberRange(1, 20, "Games per round must be between 1 and 20.")])
    round_minutes = WholeNumberField("Minutes per round", validators=[
        InputRequired("Please say how long a round is."),
        NumberRange(1, 240, "Minutes per round must be between 1 and 240.")])
    public_url = StringField("Public address for QR codes and cards (optional)", validators=[
        Length(max=200, message="Keep the address under 200 characters.")])


class PublicUrlForm(Form):
    """The address phones reach this site on (checked by core.addresses.clean_public_url)."""

    public_url = StringField("Public address for QR codes and cards", validators=[
        Length(max=200, message="Keep the address under 200 characters.")])


class PresetForm(Form):
    preset = SelectField("Start again from the rule set", choices=[
        *preset_choices(), SelectChoice(BLANK_KEY, "A blank rule set")])


EDITABLE_RULES = [f for f in RULE_FIELDS
                  if f.name not in ("games_per_round", "round_minutes", "mini_tournament",
                                    "sessions")]
NONE_CHOICE = "none"


def rules_form_class():
    """A form with one field per editable rule (five for the thrower penalty)."""
    attrs: dict[str, Field] = {
        "rule_set_name": StringField("Your rule set's name", validators=[
            Length(max=MAX_NAME + 20, message=f"Keep the name under {MAX_NAME} characters.")]),
        # "blank" while the form shows a blank rule set not yet saved
        "start": HiddenField(),
    }
    for rule in EDITABLE_RULES:
        validators = [Optional()] if rule.optional else [
            InputRequired(f"Please fill in: {rule.label.lower()}.")]
        if rule.name == "thrower_penalty":
            for exposures in range(5):
                attrs[f"thrower_penalty_{exposures}"] = WholeNumberField(
                    str(exposures),
                    validators=[InputRequired("Please fill in every exposure count.")])
        elif rule.kind in ("points", "penalty", "count"):
            attrs[rule.name] = WholeNumberField(rule.label, validators=validators)
        elif rule.kind == "flag":
            attrs[rule.name] = BooleanField(rule.label)
        elif rule.kind == "choice":
            attrs[rule.name] = SelectField(
                rule.label, choices=options((NONE_CHOICE if value is None else value, text)
                                            for value, text in rule.choices))
    return type("RulesForm", (Form,), attrs)


def rules_form(rules: dict, formdata=None, *, name: str = "", start: str | None = None):
    """The rules form filled from the tournament's stored rules (or the posted data), under
    her own rule set's `name` ("" while it wears its preset's). With `start` "blank": a
    blank rule set, the numbers every sheet states left empty for her to fill in."""
    data: dict = {"rule_set_name": name, "start": start or ""}
    if start == BLANK_KEY:
        rules = {**rules, **{rule.name: getattr(BLANK, rule.name) for rule in EDITABLE_RULES}}
        for rule_name in BLANK_TO_FILL:
            rules[rule_name] = [None] * 5 if rule_name == "thrower_penalty" else None
    for rule in EDITABLE_RULES:
        value = rules.get(rule.name)
        if rule.name == "thrower_penalty":
            for exposures, number in enumerate(value):
                data[f"thrower_penalty_{exposures}"] = number
        elif rule.kind == "choice":
            data[rule.name] = NONE_CHOICE if value is None else value
        else:
            data[rule.name] = value
    form_class = rules_form_class()
    return form_class(formdata=formdata, data=data) if formdata is not None \
        else form_class(data=data)


def rules_changes(form) -> dict:
    """The form's values as RuleSet fields (None where a field is left empty)."""
    changes = {}
    for rule in EDITABLE_RULES:
        if rule.name == "thrower_penalty":
            changes[rule.name] = [form[f"thrower_penalty_{i}"].data for i in range(5)]
        elif rule.kind == "choice":
            value = form[rule.name].data
            changes[rule.name] = None if value == NONE_CHOICE else value
        elif rule.kind == "flag":
            changes[rule.name] = bool(form[rule.name].data)
        else:
            changes[rule.name] = form[rule.name].data
    return changes


class PlayerForm(Form):
    number = WholeNumberField("Number", validators=[
        Optional(), NumberRange(1, 100000, "The number must be 1 or more.")])
    name = StringField("Name", validators=[
        DataRequired("Please enter the player's name."),
        Length(max=120, message="Keep the name under 120 characters.")])
    mini = BooleanField("Entered in the mini tournament")
    # Shown only once mini entry has closed under the rules.
    mini_override = StringField("Reason for the override (mini entry is closed)", validators=[
        Length(max=280, message="Keep the reason under 280 characters.")])


class SubstitutesForm(Form):
    names = TextAreaField("Substitutes' names, one a line", validators=[
        Length(max=2000, message="That is too long.")])


class WithdrawForm(Form):
    from_round = WholeNumberField("Leaves from round", validators=[
        InputRequired("Please say from which round the player leaves.")])
    # Checked when saved (players.withdraw_player: a free substitute of this tournament),
    # with a plain message.
    substitute = SelectField("Substitute", choices=[], validate_choice=False)
    new_substitute = StringField("…or a new substitute's name", validators=[
        Length(max=120, message="Keep the name under 120 characters.")])


def without_bom(text: str | None) -> str | None:
    """A pasted list without the byte-order mark some spreadsheets copy before it (an
    invisible character every form refuses elsewhere)."""
    return text.removeprefix("\ufeff") if text else text


class ImportForm(Form):
    file = FileField("CSV file")
    text = TextAreaField("…or paste the lines here", render_kw={"rows": 6},
                         filters=[without_bom], validators=[
                             Length(max=200_000, message="That is too long for one import.")])
    confirm = HiddenField()


class SeatingForm(Form):
    method = SelectField("How to seat round 1", choices=options([
        ("draw", "Random draw"), ("number", "By player number")]))
    seed = WholeNumberField("Draw number (seed)", validators=[
        Optional(), NumberRange(0, 999_999_999, "The draw number must be 0 or more.")])


class MovementForm(Form):
    movement = SelectField("How players move after each round", choices=options([
        ("east_stays", MOVEMENT_WORDS["east_stays"]),
        ("imported", "The organiser's own seating for every round (import a CSV)")]))


class SeatingImportForm(Form):
    file = FileField("CSV file: round, table, seat, player number")
    text = TextAreaField("…or paste the lines here", render_kw={"rows": 6},
                         filters=[without_bom], validators=[
                             Length(max=200_000, message="That is too long for one import.")])


class SwapForm(Form):
    first = WholeNumberField("First player's number", validators=[
        InputRequired("Please enter a player number.")])
    second = WholeNumberField("Second player's number", validators=[
        InputRequired("Please enter a player number.")])


class StaffForm(Form):
    email = EmailField("Email", validators=[
        DataRequired("Please enter their email address."),
        Email("That does not look like an email address."),
        Length(max=254, message="That email address is too long.")])
    role = SelectField("Role", choices=options(STAFF_ROLES.items()))


class ConfirmForm(Form):
    """A button that only needs the CSRF token."""
