"""A field that takes a minus sign must not ask for a numbers-only keypad: an iPhone's has
no minus key, so a director could not type a ruling's -10, a table's -25 for the rest of
the round or a seat's move of -1 (down a table)."""

from pathlib import Path

from blueprints.calls.forms import ResolveForm
from blueprints.director.movement_form import MovementChoiceForm

NUMBERS_ONLY = 'inputmode="numeric"'


def test_a_rulings_points_and_a_seats_move_open_a_keyboard_with_a_minus(app):
    with app.test_request_context():
        assert NUMBERS_ONLY not in str(ResolveForm().points())
        form = MovementChoiceForm()
        for seat in (form.east, form.south, form.west, form.north):
            assert NUMBERS_ONLY not in str(seat())


def test_the_points_for_the_rest_of_a_round_open_a_keyboard_with_a_minus():
    template = (Path(__file__).resolve().parent.parent / "templates" / "table"
                / "director_sheet.html").read_text()
    line = next(line for line in template.splitlines() if 'id="end-points-' in line)
    assert NUMBERS_ONLY not in line
