"""The check-in page's forms. Every message is in plain words and shows at its field."""

from __future__ import annotations

from wtforms import BooleanField, HiddenField, SelectField, StringField
from wtforms.validators import AnyOf, InputRequired, Length, Optional, ValidationError

from blueprints.common import Form
from core.words import repeated_name, same_name

from .forms import WholeNumberField, options

NAME_LENGTH = Length(max=120, message="Keep the name under 120 characters.")


class MarkForm(Form):
    """A player marked here, late or not coming; "clear" (expected again) is the undo."""

    arrival = HiddenField(validators=[AnyOf(("here", "late", "absent", "clear"),
                                            message="Mark the player here, late or not "
                                                    "coming.")])
    q = HiddenField()


class TakeSeatForm(Form):
    """A late arrival takes a substitute's seat (the ids are in the address)."""


class SubstituteNamesForm(Form):
    """Up to three substitutes by name: never more is needed to fill a table."""

    name1 = StringField("Substitute 1", validators=[NAME_LENGTH])
    name2 = StringField("Substitute 2", validators=[NAME_LENGTH])
    name3 = StringField("Substitute 3", validators=[NAME_LENGTH])
    method = SelectField("Seat round 1", default="draw", choices=options([
        ("draw", "by a random draw"), ("number", "by player number")]),
        validators=[Optional()])

    def __init__(self, *args, taken_names=(), **kwargs):
        super().__init__(*args, **kwargs)
        # Names already on the list: a substitute under one of them would make two lines
        # of the same name in the standings and at the seat lookup.
        self.taken_names = list(taken_names)

    def names(self) -> list[str]:
        return [f.data for f in (self.name1, self.name2, self.name3) if f.data and f.data.strip()]

    def validate(self, extra_validators=None) -> bool:
        valid = super().validate(extra_validators)
        before = list(self.taken_names)
        for box in (self.name1, self.name2, self.name3):
            name = (box.data or "").strip()
            if not name:
                continue
            if repeated_name([name], before):
                box.errors.append(f"{name} is already a name on the list: add a last "
                                  f"initial or a number, so the two are told apart.")
                valid = False
            before.append(name)
        return valid


class ArrivalForm(Form):
    """Someone here who is not on the list: a late entry, or a substitute."""

    name = StringField("Name", validators=[InputRequired("Please type the name."),
                                           NAME_LENGTH])
    number = WholeNumberField("Number", validators=[Optional()])
    substitute = BooleanField("A substitute (plays, not ranked)")

    def __init__(self, *args, listed=(), **kwargs):
        super().__init__(*args, **kwargs)
        # (name, number) of everyone on the list: the person at the desk may simply not
        # have found her, and a second entry would split her scores.
        self.listed = {same_name(name): number for name, number in listed}

    def validate_name(self, field):
        number = self.listed.get(same_name(field.data or ""))
        if number is not None:
            raise ValidationError(
                f"{field.data.strip()} is already on the list as number {number}: find "
                f"number {number} above and mark them here. Someone else of that name? "
                f"Add a middle or last initial.")
