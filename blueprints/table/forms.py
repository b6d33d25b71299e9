"""The table's forms: one game (a sequence of big-button steps in one form), a player's
initials, submit, time called, verify, and the director's amendment.

`GameForm.record()` turns what East tapped into a game record for tournament.scoring;
which steps of it apply and which comes next is the wizard's (blueprints.table.entry).
MAX_ROW_NUMBER and small_int are read here by other audiences too."""

from __future__ import annotations

from typing import Any, ClassVar

from wtforms import (
    BooleanField,
    HiddenField,
    IntegerField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.fields import Label
from wtforms.validators import Optional
from wtforms.widgets import HiddenInput

from blueprints.common import Form
from core.numbers import small_int
from core.words import MAX_ROW_NUMBER, SEATS
from tournament.rules import RuleSet
from tournament.scoring import InvalidGame

MAX_TYPED = 9999  # card values, exposures: four digits at most
COMMON_VALUES = (25, 30, 35, 40, 50)
VALUE_CHOICES = [(str(v), str(v)) for v in COMMON_VALUES]
EXPOSURE_CHOICES = [(str(n), str(n)) for n in range(5)]
# The endings where a dead hand changes the points (it scores 0 instead of the wall game's,
# the misnamer's others' or the error's points): the wizard asks "Any dead hands?" and a
# save without an answer is refused, never read as "none". In a Mah Jongg only the winner
# and the thrower score, so a dead hand changes nothing there and stays an extra.
DEAD_CHANGES_POINTS = ("wall", "misnamed_tile", "error_all_exposed", "error_one_intact")

class Unanswered(InvalidGame):
    """A question that changes the score is not answered yet: the wizard asks it next, a
    save is refused at it (never a default)."""


class RowNumberField(IntegerField):
    """A hidden whole number (version, round, game): anything that is not plain digits
    within an SQL INTEGER reads as missing (the write then refuses it: stale or 422),
    never an error deeper down."""

    widget = HiddenInput()

    def process_formdata(self, valuelist):
        if valuelist:
            self.data = small_int(valuelist[0], MAX_ROW_NUMBER)


def _seat_field(label: str) -> StringField:
    """A seat chosen with big radio buttons (the template draws them)."""
    return StringField(label, validators=[Optional()])


def _seats_field(label: str) -> SelectMultipleField:
    """Seats ticked with big checkboxes (the template draws them)."""
    return SelectMultipleField(label, validate_choice=False, validators=[Optional()])


class VersionedForm(Form):
    """Every write carries the sheet version it was made against, its idempotency key and
    the round it is for (so a clock starting the next round changes nothing)."""

    version = RowNumberField(validators=[Optional()])
    request_key = HiddenField()
    round_no = RowNumberField(validators=[Optional()])


class GameAnswers:
    """Reading what was tapped into a game record, and filling the answers from a stored
    one: the same for GameForm and for the entry page's GameDefaults."""

    def card_value(self) -> int | None:
        typed = (self.value_other.data or "").strip()
        if typed:
            value = small_int(typed, MAX_TYPED)
            if value is None:
                raise InvalidGame("value", "Type the card value as a number, like 25.")
            return value
        return small_int(self.value.data, MAX_TYPED)

    def exposures_answer(self) -> int:
        """The winner's exposures for a thrown tile: they set the thrower's penalty, so an
        unanswered question or an answer that is no number from 0 to 4 is refused here,
        never read as 0."""
        text = (self.exposures.data or "").strip()
        if not text:
            raise Unanswered("exposures", "How many exposures did the winner have? Tap a "
                              "number from 0 to 4: it sets the thrower's penalty.")
        number = small_int(text, 4)
        if number is None:
            raise InvalidGame("exposures", "The winner's exposures must be a number from 0 "
                              "to 4. Tap one of the buttons.")
        return number

    def thrown_by(self) -> str | None:
        """The thrower, when the winning tile was thrown: one answer ("thrown:W") is how
        the tile came and who threw it; a post with win_by=thrown names them in thrower."""
        win_by = self.win_by.data or ""
        if win_by.startswith("thrown:"):
            return win_by.removeprefix("thrown:") or None
        return (self.thrower.data or None) if win_by == "thrown" else None

    def dead_answered(self) -> bool:
        return bool(self.dead.data) or bool(self.no_dead.data)

    def record(self, rules: RuleSet, so_far: bool = False) -> dict[str, Any]:
        """The game record for tournament.scoring (keys of steps that do not apply are
        left out, so a hidden answer from an earlier choice never counts). `so_far`: the
        answers given, a question not answered yet left out instead of refused (what the
        players' own phones are shown while East enters: blueprints.table.drafts)."""
        outcome = self.outcome.data or None
        record: dict[str, Any] = {"outcome": outcome}
        if outcome == "mahjong":
            record["winner"] = self.winner.data or None
            record["value"] = self.card_value()
            win_by = self.win_by.data
            if win_by == "self":
                record["self_picked"] = True
            elif win_by == "joker_exchange":
                record["self_picked"] = record["joker_exchange"] = True
            elif win_by == "heavenly":
                record["heavenly"] = True
            elif win_by and win_by.startswith("thrown"):
                record["discarder"] = self.thrown_by()
                # asked after the thrower: until then the thrower is the missing answer
                if (self.exposures.data or "").strip() or (record["discarder"]
                                                           and not so_far):
                    record["exposures"] = self.exposures_answer()
                if self.misnamed_discard.data and rules.misnamed_discard_penalty is not None:
                    record["misnamed_discard"] = True
                if self.quint.data and record.get("exposures") == 2:
                    record["quint"] = True
            record["jokerless"] = bool(self.jokerless.data)
            record["singles_and_pairs"] = bool(self.singles_and_pairs.data)
        elif outcome == "misnamed_tile":
            record["misnamer"] = self.misnamer.data or None
        elif outcome == "error_one_intact":
            record["intact"] = self.intact.data or None
        if outcome in DEAD_CHANGES_POINTS and not self.dead_answered() and not so_far:
            raise Unanswered("dead", "Were any hands dead? Tap each dead hand, or "
                             "\u201cNo dead hands\u201d: a dead hand scores 0.")
        if outcome and outcome != "time":
            record["dead"] = list(dict.fromkeys(self.dead.data or []))
            record["in_error"] = list(dict.fromkeys(self.in_error.data or []))
            penalties = []
            for kind in ("blind_pass_peek", "misnamed_exposure"):
                for seat in getattr(self, f"pen_{kind}").data or []:
                    penalties.append({"seat": seat, "kind": kind})
            record["penalties"] = penalties
        return {k: v for k, v in record.items() if v not in (None, [], False)} | {
            "outcome": outcome}

    def load(self, record: dict[str, Any], note: str = "") -> None:
        """Fill the form from a stored record (to correct a game)."""
        self.outcome.data = record.get("outcome")
        self.winner.data = record.get("winner")
        value = record.get("value")
        if value in COMMON_VALUES:
            self.value.data = str(value)
        elif value:
            self.value_other.data = str(value)
        if record.get("joker_exchange"):
            self.win_by.data = "joker_exchange"
        elif record.get("self_picked"):
            self.win_by.data = "self"
        elif record.get("heavenly"):
            self.win_by.data = "heavenly"
        elif record.get("discarder"):
            self.win_by.data = f"thrown:{record['discarder']}"
        self.thrower.data = record.get("discarder")
        if record.get("discarder"):
            self.exposures.data = str(record.get("exposures", 0))
        for name in ("misnamed_discard", "jokerless", "singles_and_pairs", "quint"):
            getattr(self, name).data = bool(record.get(name))
        self.misnamer.data = record.get("misnamer")
        self.intact.data = record.get("intact")
        self.dead.data = list(record.get("dead", []))
        # a stored game answered the question: no dead hands, or those it lists
        self.no_dead.data = not self.dead.data
        self.in_error.data = list(record.get("in_error", []))
        for kind in ("blind_pass_peek", "misnamed_exposure"):
            getattr(self, f"pen_{kind}").data = [
                p["seat"] for p in record.get("penalties", []) if p["kind"] == kind]
        self.note.data = note


class GameForm(GameAnswers, VersionedForm):
    """One game as a phone posts it (and as the entry page shows it: GameDefaults).

    The entry page asks who won and how the game ended as one question: outcome
    "mahjong:S" is a Mah Jongg by South (read here into outcome and winner)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        outcome = self.outcome.data or ""
        if outcome.startswith("mahjong:"):
            self.outcome.data = "mahjong"
            self.winner.data = outcome.removeprefix("mahjong:") or self.winner.data

    game_no = RowNumberField(validators=[Optional()])
    # "new" (the next game) or "correction" (of an entered game): after a conflict a new
    # game moves on to the next number instead of overwriting someone else's game
    entered_as = HiddenField(default="new")
    outcome = StringField("How did the game end?", validators=[Optional()])
    winner = _seat_field("Who made Mah Jongg?")
    value = StringField("Card value", validators=[Optional()])
    value_other = StringField("Other value", validators=[Optional()])
    win_by = StringField("How did they win?", validators=[Optional()])
    thrower = _seat_field("Who threw the winning tile?")
    exposures = StringField("How many exposures did the winner have?",
                            validators=[Optional()])
    misnamed_discard = BooleanField("The thrower misnamed the tile")
    jokerless = BooleanField("Jokerless")
    singles_and_pairs = BooleanField("Singles & Pairs")
    quint = BooleanField("Quint")
    misnamer = _seat_field("Who misnamed the discard?")
    intact = _seat_field("Whose hand is still intact?")
    in_error = _seats_field("Who declared Mah Jongg in error?")
    dead = _seats_field("Dead hands")
    no_dead = BooleanField("No dead hands")
    pen_blind_pass_peek = _seats_field("Looked at a blind-pass tile")
    pen_misnamed_exposure = _seats_field("Misnamed a tile called for an exposure")
    note = TextAreaField("Note (optional)", validators=[Optional()])
    # Posted by the signer's own button ("Bea Goldberg: 35 is right"): their seat. The
    # initials on the sheet come from their name. A typed `initials` (the front desk's
    # paper sheet, older pages) is still taken as it is.
    signed_by = StringField("Signed by", validators=[Optional()])
    # The scores the signer's button showed (entry.scores_shown); None from a page
    # without the button.
    shown_scores = StringField("Scores shown", validators=[Optional()], default=None)
    # East's tap that saves the game for its signer to confirm on their own phone
    confirm_later = StringField("Confirmed on the signer's phone", validators=[Optional()])
    initials = StringField("Initials", validators=[Optional()])
    reason = TextAreaField("Reason for the change", validators=[Optional()])


class DefaultField:
    """What the entry page reads of one GameForm field: WTForms' names for them."""

    __slots__ = ("name", "id", "label", "data")

    def __init__(self, name: str, id_: str, label: Label, data: Any) -> None:
        self.name, self.id, self.label, self.data = name, id_, label, data


class GameDefaults(GameAnswers):
    """GameForm as the entry page's GET builds it (formdata=None: every field at its
    default, then filled by `load` and the sheet's version), without binding WTForms'
    twenty-odd fields, which cost more than the rest of the wizard: the page reads only
    each field's data, name, id and label (its CSRF input is the template's csrf_input()).
    Whatever is posted back is read by the real GameForm, validated and CSRF-checked as
    ever."""

    _defaults: ClassVar[list[tuple[str, str, Label, Any]]] = []

    def __init__(self) -> None:
        for name, id_, label, data in self._defaults or self._read_defaults():
            setattr(self, name, DefaultField(name, id_, label,
                                             list(data) if isinstance(data, list) else data))

    @classmethod
    def _read_defaults(cls) -> list[tuple[str, str, Label, Any]]:
        """Each field's name, id, label and default, as GameForm has them (read once)."""
        form = GameForm(formdata=None, meta={"csrf": False})
        # Read once for the process: a default made afresh for each form (a callable: a
        # key, a time) would be the same on every page.
        made = [field.name for field in form if callable(field.default)]
        if made:
            raise TypeError(f"GameDefaults cannot keep the defaults of {made}")
        cls._defaults = [(field.name, field.id, field.label, field.data) for field in form]
        return cls._defaults


class ShownTotalField(IntegerField):
    """The round total a page showed beside a player's initials box (it may be below
    zero): anything else reads as missing."""

    widget = HiddenInput()

    def process_formdata(self, valuelist):
        if valuelist:
            text = str(valuelist[0]).strip()
            number = small_int(text.removeprefix("-"), MAX_ROW_NUMBER)
            self.data = None if number is None else -number if text.startswith("-") else number


class InitialForm(VersionedForm):
    seat = HiddenField()
    initials = StringField("Initials", validators=[Optional()])
    # What the initials confirm: a change to another seat's line since the page was
    # shown (three players initialling at once on their own phones) leaves it standing.
    total = ShownTotalField(validators=[Optional()])


class SubmitForm(VersionedForm):
    pass


class GameInitialForm(VersionedForm):
    """One player's tap confirming their score in one game."""

    seat = HiddenField()
    game_no = RowNumberField(validators=[Optional()])


class ConfirmGameForm(VersionedForm):
    """The signer's one tap confirming a game East saved for them to confirm, on their own
    phone or on East's; `points`: what the button showed them."""

    seat = HiddenField()
    game_no = RowNumberField(validators=[Optional()])
    points = ShownTotalField(validators=[Optional()])


class WestCheckForm(VersionedForm):
    pass


class EndRoundForm(VersionedForm):
    """The director ends one table's round: the reason, and what each seat scores for the
    games not played (typed as text, read with small_int, so a bad number is a message)."""

    reason = StringField("Why does this table's round end? (shown to the table)",
                         validators=[Optional()])
    points_E = StringField("East", validators=[Optional()])
    points_S = StringField("South", validators=[Optional()])
    points_W = StringField("West", validators=[Optional()])
    points_N = StringField("North", validators=[Optional()])

    def points(self) -> tuple[dict[str, int], str | None]:
        """Points per seat (empty: 0), or the seat whose entry is not a whole number."""
        out = {}
        for seat in SEATS:
            text = (getattr(self, f"points_{seat}").data or "").strip()
            negative = text.startswith("-")
            value = small_int(text.lstrip("+-"), 500) if text else 0
            if value is None:
                return {}, seat
            out[seat] = -value if negative else value
        return out, None


class TimeCalledForm(VersionedForm):
    # The second step, in the same form (works without JavaScript): ticked on purpose.
    confirm = BooleanField("Yes, the director called time")


class VerifyForm(VersionedForm):
    pass
