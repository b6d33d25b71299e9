"""The player's seat lookup (a player number from the poster) and the home page's
tournament code box: GET forms, no secrets."""

from wtforms import IntegerField, StringField
from wtforms.validators import InputRequired, NumberRange, StopValidation

from blueprints.common import Form

NOT_A_NUMBER = "A player number is a whole number, like 12."


class PlainNumberField(IntegerField):
    """A whole number typed in plain digits 0-9: int() also reads "１" or "٣", which the
    table's forms refuse too (blueprints.table.forms.small_int)."""

    def process_formdata(self, valuelist):
        if valuelist:
            text = (valuelist[0] or "").strip()
            if not text:
                # an empty box is InputRequired's to say, in words ("Type your player
                # number…"), not int()'s "Not a valid integer value."
                self.data = None
                return
            if not (text.isascii() and text.isdigit()):
                self.data = None
                raise ValueError(NOT_A_NUMBER)
        super().process_formdata(valuelist)

    def pre_validate(self, form):
        """A number that could not be read has its one plain message already (from
        process_formdata): the range check adds no second one, WTForms' "Not a valid
        integer value." never shows."""
        if self.process_errors:
            raise StopValidation()


class LookupForm(Form):
    class Meta:
        csrf = False  # a read-only GET search

    number = PlainNumberField("Your player number", validators=[
        InputRequired("Type your player number, from your badge or the seating list."),
        NumberRange(min=1, max=9999, message=NOT_A_NUMBER),
    ])


class CodeForm(Form):
    """The home page's "Tournament code" box (a GET form: it works without JavaScript)."""

    class Meta:
        csrf = False  # a read-only GET search

    code = StringField("Tournament code", validators=[
        InputRequired("Type the tournament's code, from the poster or the seating list."),
    ])
