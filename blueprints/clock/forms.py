"""The director's clock forms. Each carries the round and the clock version the director
saw, so a second tap or another director's change is refused (409), never applied twice.

Every form has its own prefix: several sit on one page and their ids must not collide."""

from __future__ import annotations

from wtforms import (
    BooleanField,
    HiddenField,
    IntegerField,
    StringField,
    SubmitField,
    TextAreaField,
)
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

from blueprints.common import Form
from core.words import MAX_ROW_NUMBER

from .actions import MAX_ADJUST_MINUTES


class ClockForm(Form):
    round_no = HiddenField()
    version = HiddenField()

    def round_and_version(self) -> tuple[int, int] | None:
        """The round and version sent, or None when they are missing or not numbers."""
        try:
            round_no, version = int(self.round_no.data), int(self.version.data)
        except (TypeError, ValueError):
            return None
        if not (1 <= round_no <= MAX_ROW_NUMBER and 0 <= version <= MAX_ROW_NUMBER):
            return None  # a number no row can hold (PostgreSQL would refuse to look)
        return round_no, version


class StartForm(ClockForm):
    submit = SubmitField("Start round")


class PauseForm(ClockForm):
    reason = StringField(
        "Why pause?", validators=[DataRequired("Say why the clock is paused; every table "
                                               "will see it."), Length(max=200)])
    # Shown only where the rule set does not pause for rulings.
    override = BooleanField("Override the rules: pause anyway (kept in the audit trail)")
    # A one-tap reason ("Break", "Ruling at table 4"): used when nothing was typed.
    choice = StringField(validators=[Optional(), Length(max=200)])
    submit = SubmitField("Pause the clock")

    def validate(self, extra_validators=None) -> bool:
        if not (self.reason.data or "").strip() and (self.choice.data or "").strip():
            self.reason.data = self.choice.data.strip()
        return super().validate(extra_validators)


class ResumeForm(ClockForm):
    reason = StringField("Note (optional)", validators=[Optional(), Length(max=200)])
    submit = SubmitField("Resume the clock")


class AdjustForm(ClockForm):
    minutes = IntegerField(
        "Minutes", default=1,
        validators=[InputRequired("Enter a number of minutes."),
                    NumberRange(1, MAX_ADJUST_MINUTES,
                                f"Enter between 1 and {MAX_ADJUST_MINUTES} minutes.")])
    reason = StringField("Reason (optional)", validators=[Optional(), Length(max=200)])
    add = SubmitField("Add minutes")
    remove = SubmitField("Take minutes away")

    def signed_minutes(self) -> int:
        return -self.minutes.data if self.remove.data else self.minutes.data


class EndForm(ClockForm):
    submit = SubmitField("End the round now")


class SeatForm(Form):
    round_no = HiddenField()
    submit = SubmitField("Seat the round")


class AnnouncementForm(Form):
    text = TextAreaField(
        "Announcement for the big screen",
        validators=[DataRequired("Write the announcement first."),
                    Length(max=280, message="Keep it to 280 characters.")])
    submit = SubmitField("Post on the big screen")


class ClearForm(Form):
    """Only the CSRF token: one per announcement on the page, so no ids to collide."""
