"""The front desk's form: a paper sheet's games as rows of typed boxes, read into game
records (seats typed as E/S/W/N, a player's number or name; values in digits).

Reading a row only turns what was typed into a record, with a plain-words SheetError at
the box that cannot be read; whether the game itself holds together is the rules
engine's to say (tournament.scoring, through desk_writes.check_games)."""

from __future__ import annotations

from typing import Any

from wtforms import BooleanField, Form, StringField, TextAreaField
from wtforms.validators import Optional

from blueprints.common import Form as CheckedForm
from core.words import SEAT_NAMES, SEATS

from .forms import VersionedForm
from .sheet_writes import SheetError

WALL_WORDS = ("wall", "-")
TIME_WORDS = ("time",)
SEAT_HELP = "Type E, S, W or N, or the player's number or name."


class DeskGameForm(Form):
    """One game of the paper sheet, in the order its row is read (and tabbed)."""

    winner = StringField("Winner", validators=[Optional()])
    value = StringField("Card value", validators=[Optional()])
    thrower = StringField("Thrower", validators=[Optional()])
    exposures = StringField("Winner's exposures", validators=[Optional()])
    self = BooleanField("Self-picked")
    jokerless = BooleanField("No jokers")
    dead = StringField("Dead hands", validators=[Optional()])
    peek = StringField("Looked at a blind pass", validators=[Optional()])
    misnamed = StringField("Misnamed an exposure tile", validators=[Optional()])

    TYPED = ("winner", "value", "thrower", "exposures", "dead", "peek", "misnamed")

    def blank(self) -> bool:
        return not (any((self[name].data or "").strip() for name in self.TYPED)
                    or self.self.data or self.jokerless.data)


class DeskSheetForm(VersionedForm):
    """The sheet's own boxes; its games are `rows` (a row per game, by its number: not a
    FieldList, which numbers the rows posted and so moves a game up when the row of a
    game kept as entered has no boxes)."""

    initialled = BooleanField("The paper sheet is initialled as the rules require")
    reason = TextAreaField("Why does this sheet change? (shown to the table)",
                           validators=[Optional()])


class PaperForm(CheckedForm):
    """The director's switch between paper and phone: the CSRF token alone (the table and
    the choice are the buttons')."""


def game_rows(count: int, formdata=None) -> list[DeskGameForm]:
    """Game 1..`count`'s rows, read from `formdata` (None: empty rows to fill in)."""
    return [DeskGameForm(formdata, prefix=field_name(number, "")) for number in
            range(1, count + 1)]


def field_name(number: int, box: str) -> str:
    """The name (and id) of game `number`'s box `box` in the desk form."""
    return f"games-{number - 1}-{box}"


def read_seat(text: str, seats: dict[str, Any], number: int, box: str) -> str | None:
    """A seat typed as its letter, its wind, or the seated player's number or name."""
    typed = (text or "").strip()
    if not typed:
        return None
    upper = typed.upper()
    if upper in SEATS:
        return upper
    for seat, wind in SEAT_NAMES.items():
        if upper == wind.upper():
            return seat
    if typed.isascii() and typed.isdigit():
        found = [seat for seat, player in seats.items() if str(player.number) == typed]
    else:
        lowered = typed.lower()
        found = [seat for seat, player in seats.items() if player.name.lower() == lowered]
        found = found or [seat for seat, player in seats.items()
                          if player.name.lower().startswith(lowered)
                          or any(word.startswith(lowered)
                                 for word in player.name.lower().split())]
    if len(found) == 1:
        return found[0]
    if found:
        raise SheetError(field_name(number, box), f"\u201c{typed}\u201d could be "
                         + " or ".join(seats[s].name for s in found) + ". " + SEAT_HELP)
    raise SheetError(field_name(number, box), f"No one at this table is \u201c{typed}\u201d. "
                     + SEAT_HELP)


def _seat_list(text: str, seats, number: int, box: str) -> list[str]:
    parts = (text or "").replace(",", " ").split()
    found = []
    for part in parts:
        seat = read_seat(part, seats, number, box)
        if seat and seat not in found:
            found.append(seat)
    return found


def _whole(text: str, number: int, box: str, message: str) -> int | None:
    typed = (text or "").strip()
    if not typed:
        return None
    if not (typed.isascii() and typed.isdigit()) or len(typed) > 3:
        raise SheetError(field_name(number, box), message)
    return int(typed)


def row_record(row: DeskGameForm, number: int, seats: dict[str, Any],
               misnamed_exposure: bool) -> dict[str, Any] | None:
    """Game `number`'s record as typed, or None for a row left empty."""
    if row.blank():
        return None
    typed = (row.winner.data or "").strip()
    word = typed.lower()
    penalties = [{"seat": seat, "kind": "blind_pass_peek"}
                 for seat in _seat_list(row.peek.data, seats, number, "peek")]
    if misnamed_exposure:
        penalties += [{"seat": seat, "kind": "misnamed_exposure"}
                      for seat in _seat_list(row.misnamed.data, seats, number, "misnamed")]
    dead = _seat_list(row.dead.data, seats, number, "dead")
    extras: dict[str, Any] = {}
    if penalties:
        extras["penalties"] = penalties
    if word in TIME_WORDS:
        return {"outcome": "time"}
    if word in WALL_WORDS:
        return {"outcome": "wall", **({"dead": dead} if dead else {}), **extras}
    if not typed:
        raise SheetError(field_name(number, "winner"), "Who won? " + SEAT_HELP
                         + " For a wall game type wall; for time called, time.")
    winner = read_seat(typed, seats, number, "winner")
    value = _whole(row.value.data, number, "value",
                   "Type the card value in digits, like 25.")
    if value is None:
        raise SheetError(field_name(number, "value"), "Type the card value of the winning "
                         "hand, like 25.")
    thrower = read_seat(row.thrower.data, seats, number, "thrower")
    exposures = _whole(row.exposures.data, number, "exposures",
                       "Type the winner's exposures as one digit, 0 to 4.")
    if thrower and exposures is None:
        raise SheetError(field_name(number, "exposures"), "How many exposures did the "
                         "winner have? The thrower's penalty depends on it: type 0 to 4.")
    record: dict[str, Any] = {"outcome": "mahjong", "winner": winner, "value": value,
                              "self_picked": bool(row.self.data),
                              "jokerless": bool(row.jokerless.data)}
    if thrower:
        record["discarder"] = thrower
    if exposures is not None:
        record["exposures"] = exposures
    if dead:
        record["dead"] = dead
    return {**record, **extras}


def row_texts(record: dict[str, Any]) -> dict[str, Any]:
    """What the desk's row shows for a stored game record."""
    outcome = record.get("outcome")
    penalties = record.get("penalties") or []
    texts: dict[str, Any] = {
        "dead": " ".join(record.get("dead") or []),
        "peek": " ".join(p["seat"] for p in penalties if p["kind"] == "blind_pass_peek"),
        "misnamed": " ".join(p["seat"] for p in penalties
                             if p["kind"] == "misnamed_exposure"),
    }
    if outcome == "wall":
        texts["winner"] = "wall"
    elif outcome == "time":
        texts["winner"] = "time"
    elif outcome == "mahjong":
        texts.update(winner=record.get("winner") or "", value=str(record.get("value") or ""),
                     thrower=record.get("discarder") or "",
                     exposures="" if record.get("exposures") is None
                     or not record.get("discarder") else str(record["exposures"]),
                     self=bool(record.get("self_picked")),
                     jokerless=bool(record.get("jokerless")))
    else:
        texts["winner"] = outcome or ""
    return texts
