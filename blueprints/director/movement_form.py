"""The movement's form: a named pattern, the director's own numbers, a draw or the
organiser's seating. The same form shows a schedule (read from the address, nothing
saved) and saves it (posted, with its CSRF token)."""

from __future__ import annotations

from wtforms import HiddenField, SelectField
from wtforms.validators import NumberRange, Optional

from blueprints.common import Form
from tournament.movement import MOST_TABLES_MOVED, SEATS

from .forms import WholeNumberField, options
from .movement import CHOICES

_SEAT_FIELDS = {"E": "east", "S": "south", "W": "west", "N": "north"}
_RANGE = (f"A move is a number of tables from -{MOST_TABLES_MOVED} to {MOST_TABLES_MOVED}: "
          "0 stays, 1 moves up one table, -1 moves down one.")


def _move(label: str) -> WholeNumberField:
    return WholeNumberField(label, validators=[
        Optional(), NumberRange(-MOST_TABLES_MOVED, MOST_TABLES_MOVED, message=_RANGE)],
        # No numbers-only keypad: an iPhone's has no minus key for "-1" (down a table).
        render_kw={"autocomplete": "off"})


class MovementChoiceForm(Form):
    pattern = SelectField("How players move after each round", choices=options(CHOICES))
    east = _move("East")
    south = _move("South")
    west = _move("West")
    north = _move("North")
    seed = HiddenField()

    def validate(self, extra_validators=None):
        valid = super().validate(extra_validators)
        if self.pattern.data == "own":
            for seat in SEATS:
                move = self[_SEAT_FIELDS[seat]]
                if move.data is None and not move.errors:
                    move.errors = [*move.errors, "Give every seat's move for your own "
                                                 "numbers: 0 stays, 1 up, -1 down."]
                    valid = False
        if self.seed.data and not (self.seed.data.isascii() and self.seed.data.isdigit()
                                   and len(self.seed.data) <= 6):
            self.pattern.errors = [*self.pattern.errors,
                                   "The draw number must be a whole number; show the "
                                   "schedule again."]
            valid = False
        return valid

    def moves(self) -> dict[str, int]:
        return {seat: self[_SEAT_FIELDS[seat]].data for seat in SEATS}

    def draw_seed(self) -> int | None:
        return int(self.seed.data) if self.seed.data else None

    def fill(self, movement) -> None:
        """Show `movement` in the fields (the current one, before any choice)."""
        self.pattern.data = movement.kind if movement.kind != "moves" else movement.pattern
        for seat in SEATS:
            self[_SEAT_FIELDS[seat]].data = movement.moves[seat]
        self.seed.data = str(movement.seed) if movement.kind == "draw" else ""
