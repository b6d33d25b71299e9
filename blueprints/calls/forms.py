"""Forms for calling the director and for resolving a call."""

from __future__ import annotations

from wtforms import HiddenField, IntegerField, RadioField, SelectField, TextAreaField
from wtforms.fields import SelectChoice
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from blueprints.common import Form
from core.words import SEAT_NAMES, SEATS
from models import CALL_REASONS

from .queue import ADJUSTMENT_MAX, RULING_MAX
from .table_calls import NOTE_MAX


class CallForm(Form):
    """One tap calls; the reason and the note are optional."""

    reason = RadioField("Reason (optional)", validate_choice=False,
                        choices=[SelectChoice(k, v) for k, v in CALL_REASONS.items()])
    note = TextAreaField(
        "Note (optional)",
        validators=[Length(max=NOTE_MAX, message=(
            f"Please keep the note to {NOTE_MAX} characters or fewer."))],
        render_kw={"maxlength": NOTE_MAX, "rows": 2},
    )
    request_key = HiddenField()

    def validate_reason(self, field):
        if field.data and field.data not in CALL_REASONS:
            field.data = None
            raise ValidationError("Please choose one of the reasons shown.")


class WholeNumberField(IntegerField):
    """An IntegerField whose complaint about letters is in plain words."""

    def process_formdata(self, valuelist):
        try:
            super().process_formdata(valuelist)
        except ValueError as error:
            raise ValueError("Please give a whole number, for example -10.") from error


SEAT_CHOICES = [SelectChoice("", "No change to points")] + [
    SelectChoice(seat, name) for seat, name in SEAT_NAMES.items()]


class ResolveForm(Form):
    """The ruling in words and, where it changes points, one adjustment on the sheet."""

    ruling = TextAreaField(
        "Ruling",
        validators=[InputRequired("Please write the ruling in words."),
                    Length(max=RULING_MAX,
                           message=f"Please keep the ruling to {RULING_MAX} characters or fewer.")],
        render_kw={"rows": 3, "maxlength": RULING_MAX},
    )
    seat = SelectField("Seat whose points change", choices=SEAT_CHOICES,
                       validate_choice=False, default="")
    points = WholeNumberField(
        "Points (for example -10)",
        validators=[Optional(),
                    NumberRange(-ADJUSTMENT_MAX, ADJUSTMENT_MAX,
                                f"Points must be between -{ADJUSTMENT_MAX} and {ADJUSTMENT_MAX}.")],
        # No numbers-only keypad: an iPhone's has no minus key, and a ruling's points are
        # mostly minus. The full keyboard's number row has it.
        render_kw={"pattern": "-?[0-9]*", "autocomplete": "off"},
    )
    game_no = WholeNumberField(
        "Game number (optional: the game in progress)",
        validators=[Optional(), NumberRange(1, 99, "Please give a game number of 1 or more.")],
        render_kw={"inputmode": "numeric"},
    )

    def __init__(self, *args, games_per_round: int = 4, **kwargs):
        super().__init__(*args, **kwargs)
        self.games_per_round = games_per_round

    def validate_ruling(self, field):
        if not (field.data or "").strip():
            raise ValidationError("Please write the ruling in words.")

    def validate_seat(self, field):
        if field.data and field.data not in SEATS:
            raise ValidationError("Please choose East, South, West or North.")
        if not field.data and self.points.data not in (None, 0):
            raise ValidationError("Please choose the seat whose points change.")

    def validate(self, extra_validators=None) -> bool:
        valid = super().validate(extra_validators)
        # Checked after every field (Optional() ends a field's own checks when it is empty).
        if self.seat.data in SEATS and not self.points.errors \
                and not self.points.data:
            self.points.errors = ["Please give the points for that seat (not 0), "
                                  "for example -10."]
            valid = False
        return valid

    def validate_game_no(self, field):
        if field.data is not None and field.data > self.games_per_round:
            raise ValidationError(f"A round here has {self.games_per_round} games; "
                                  f"please give 1 to {self.games_per_round}.")

    def wants_adjustment(self) -> bool:
        return bool(self.seat.data) and bool(self.points.data)
