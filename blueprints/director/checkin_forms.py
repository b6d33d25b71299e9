"""The check-in page's forms. Every message is in plain words and shows at its field."""

from __future__ import annotations

from wtforms import BooleanField, HiddenField, SelectField, StringField
from wtforms.validators import AnyOf, InputRequired, Length, Optional

from blueprints.common import Form

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

    def names(self) -> list[str]:
        return [f.data for f in (self.name1, self.name2, self.name3) if f.data and f.data.strip()]


class ArrivalForm(Form):
    """Someone here who is not on the list: a late entry, or a substitute."""

    name = StringField("Name", validators=[InputRequired("Please type the name."),
                                           NAME_LENGTH])
    number = WholeNumberField("Number", validators=[Optional()])
    substitute = BooleanField("A substitute (plays, not ranked)")
