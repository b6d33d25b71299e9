"""The player's seat lookup: a player number from the poster (a GET form, no secrets)."""

from flask_wtf import FlaskForm
from wtforms import IntegerField
from wtforms.validators import InputRequired, NumberRange


class LookupForm(FlaskForm):
    class Meta:
        csrf = False  # a read-only GET search

    number = IntegerField("Your player number", validators=[
        InputRequired("Type your player number, from your badge or the seating list."),
        NumberRange(min=1, max=9999, message="A player number is a whole number, like 12."),
    ])
