"""Forms of the results pages: prize places, a tie group's decision, a backup upload."""

from __future__ import annotations

from flask_wtf.file import FileField, FileRequired
from wtforms import HiddenField, IntegerField, StringField, SubmitField
from wtforms.validators import InputRequired, Length, NumberRange

from blueprints.common import Form
from core.numbers import small_int


class PrizePlacesForm(Form):
    prize_places = IntegerField(
        "Prize places",
        validators=[InputRequired("Enter how many places win a prize (0 for none)."),
                    NumberRange(0, 1000, "Enter a number of prize places from 0 to 1000.")],
        render_kw={"inputmode": "numeric"},
    )
    submit = SubmitField("Save prize places")


class TieForm(Form):
    """The director's decision on one tie group: the tile-bag draw's order, or shared.

    The order comes as one field per player, `place-<player id>`, holding 1..n."""

    competition = HiddenField(validators=[InputRequired()])
    group = HiddenField(validators=[InputRequired()])
    # "draw" (record the order) or "shared" (leave the places shared); radios in the page.
    decision = StringField("Decision", default="draw")
    note = StringField("Note (optional)", validators=[Length(max=500)])
    submit = SubmitField("Save decision")

    def group_ids(self) -> list[int]:
        ids = [small_int(part) for part in (self.group.data or "").split(",") if part]
        return [] if None in ids else ids

    def places(self, formdata) -> tuple[list[int] | None, str | None]:
        """The order (player ids, best first), or an error in plain words."""
        ids = self.group_ids()
        places = {}
        for player_id in ids:
            place = small_int(formdata.get(f"place-{player_id}"), 9999)
            if place is None:
                return None, "Enter each player's place in the draw, 1 to " f"{len(ids)}."
            places[player_id] = place
        if sorted(places.values()) != list(range(1, len(ids) + 1)):
            return None, f"Give every tied player a different place, 1 to {len(ids)}."
        return sorted(ids, key=places.get), None


class ClearTieForm(Form):
    tiebreak_id = HiddenField(validators=[InputRequired()])
    submit = SubmitField("Undo this decision")


class ImportForm(Form):
    backup = FileField("Backup file (.json)",
                       validators=[FileRequired("Choose the backup file to import.")])
    submit = SubmitField("Import tournament")
