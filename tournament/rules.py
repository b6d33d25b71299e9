"""Tournament rule sets: every number and switch the five organisers' sheets name.

A `RuleSet` is a plain frozen value. `PRESETS` holds one per sheet in ../shared/rules, with
the numbers of the side-by-side table in ../shared/rules/README.md. A tournament stores its
own edited copy as JSON (`RuleSet.to_dict` / `RuleSet.from_dict`); `from_dict` refuses
anything a director could not have meant, with `InvalidRules` naming the field.

`RULE_FIELDS` and `wording()` feed the director's edit form and the rules page: a label and
help text for each field, and the sheet's own words for it. Scoring lives in scoring.py;
this module only describes the rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace
from typing import Any

from .errors import FieldError

SIGNOFF_CHOICES = ("winner", "all", "across", None)
HEAVENLY_CHOICES = ("bonus", "self_picked", None)
TIME_CALLED_CHOICES = ("game", "round")
TIEBREAK_CHOICES = ("tile_bag", "draw", "shared", None)
SCORES_FINAL_CHOICES = ("submitted", "verified")
CHANGES_AFTER_SUBMIT_CHOICES = ("amendment", "ruling")
MOVEMENT_CHOICES = ("east_stays", "imported")


class InvalidRules(FieldError):
    """A rule set that cannot be used; `field` names the rule, the message says why."""


@dataclass(frozen=True)
class MiniTournament:
    """An optional extra competition over a run of rounds (those scores count twice)."""

    first_round: int
    last_round: int

    def to_dict(self) -> dict[str, int]:
        return {"first_round": self.first_round, "last_round": self.last_round}


@dataclass(frozen=True)
class RuleSet:
    """Every number and switch of one tournament's rules.

    Penalties are stored as negative numbers (or 0), bonuses as positive ones. A penalty of
    None means the rule set has no such rule: the matching game entry is refused.
    """

    key: str
    name: str
    short_name: str
    sheet: str
    # scoring
    self_pick_bonus: int
    jokerless_bonus: int
    thrower_penalty: tuple[int, int, int, int, int]  # winner's exposures 0, 1, 2, 3, 4
    quint_two_exposure_penalty: int | None
    wall_game_points: int
    heavenly: str | None  # "bonus" | "self_picked" | None
    heavenly_bonus: int  # used only when heavenly == "bonus"
    blind_pass_peek_penalty: int | None
    misnamed_exposure_penalty: int | None
    misnamed_discard_penalty: int | None
    misnamed_tile_game: bool
    misnamed_tile_penalty: int
    misnamed_tile_others_bonus: int
    mah_jongg_in_error: bool
    error_all_exposed_points: int
    error_one_intact_bonus: int
    time_called_zeroes: str  # "game" | "round"
    # round and paperwork
    games_per_round: int
    round_minutes: int
    game_signoff: str | None  # "winner" | "all" | "across" | None
    round_signoff_all: bool
    table_guide_verifies: bool
    tiebreak: str | None  # "tile_bag" | "draw" | "shared" | None (the director chooses)
    mini_tournament: MiniTournament | None
    sessions: bool
    # procedure
    clock_extensions: bool  # the director may add minutes to a running round
    pause_for_rulings: bool  # the clock may be paused (for a ruling) without an override
    scores_final: str  # "submitted" | "verified": when a sheet's scores stop being provisional
    changes_after_submit: str  # "amendment" | "ruling"
    joker_exchange_self_picked: bool
    voided_round_wins: bool  # games won still count in a round voided by time
    mini_entry_closes: bool  # opting in or out closes when the mini's first round starts
    west_checks_sheet: bool  # West checks East's sheet before it is submitted
    director_ends_round: bool  # the director may end one table's round from its sheet
    movement: str  # "east_stays" | "imported" (the organiser's seating for every round)

    @property
    def final_states(self) -> tuple[str, ...]:
        """The sheet states whose scores are final; earlier ones count as provisional."""
        return ("verified",) if self.scores_final == "verified" else ("submitted", "verified")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict that `from_dict` turns back into an equal RuleSet."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                value = list(value)
            elif isinstance(value, MiniTournament):
                value = value.to_dict()
            out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """Build a RuleSet from stored JSON, refusing anything incomplete or nonsensical."""
        if not isinstance(data, dict):
            raise InvalidRules("rules", "The rules must be a set of named values.")
        names = [f.name for f in fields(cls)]
        for name in data:
            if name not in names:
                raise InvalidRules(str(name), f"There is no rule called '{name}'.")
        data = _with_later_fields(data)
        for name in names:
            if name not in data:
                raise InvalidRules(name, f"{_label(name)} is missing.")
        values = {name: _check_field(name, data[name]) for name in names}
        mini = values["mini_tournament"]
        rules = cls(**values)
        if mini is not None and mini.last_round < mini.first_round:
            raise InvalidRules(
                "mini_tournament", "The mini tournament cannot end before it starts."
            )
        if rules.scores_final == "verified" and not rules.table_guide_verifies:
            raise InvalidRules(
                "scores_final", "Scores can become final at verification only when a table "
                "guide verifies the sheets (switch that rule on, or make scores final when "
                "submitted)."
            )
        return rules


@dataclass(frozen=True)
class RuleField:
    """How the edit form and the rules page show one RuleSet field."""

    name: str
    label: str
    kind: str  # "points" | "penalty" | "choice" | "flag" | "count" | "rounds"
    help: str
    optional: bool = False  # None allowed: "this tournament has no such rule"
    choices: tuple[tuple[str | None, str], ...] = ()


RULE_FIELDS: list[RuleField] = [
    RuleField("self_pick_bonus", "Self-pick bonus", "points",
              "Added to the card value when the winner picked the winning tile."),
    RuleField("jokerless_bonus", "No-joker bonus", "points",
              "Added when the winning hand has no jokers. Never for Singles & Pairs."),
    RuleField("thrower_penalty", "Thrower penalty by the winner's exposures", "penalty",
              "What the player who threw the winning tile loses, for a winner with "
              "0, 1, 2, 3 or 4 exposures."),
    RuleField("quint_two_exposure_penalty", "Thrower penalty: Quint hand with 2 exposures",
              "penalty", "Replaces the 2-exposure penalty when the winning hand is a Quint "
              "hand. Empty: no special rule.", optional=True),
    RuleField("wall_game_points", "Wall game points", "points",
              "Each player whose hand is not dead and who did not declare Mah Jongg in "
              "error gets this when the wall runs out."),
    RuleField("heavenly", "Heavenly or earthly hand", "choice",
              "East's Mah Jongg straight after the deal or the Charleston.", optional=True,
              choices=(("bonus", "earns its own bonus"),
                       ("self_picked", "counts as self-picked"),
                       (None, "no special rule"))),
    RuleField("heavenly_bonus", "Heavenly or earthly hand bonus", "points",
              "Used only when a heavenly hand earns its own bonus. Never added to the "
              "self-pick bonus."),
    RuleField("blind_pass_peek_penalty", "Looked at a blind-pass tile", "penalty",
              "For looking at a stolen tile in a blind pass of either Charleston. "
              "Empty: no such penalty.", optional=True),
    RuleField("misnamed_exposure_penalty", "Misnamed a tile called for an exposure",
              "penalty", "Empty: no such penalty.", optional=True),
    RuleField("misnamed_discard_penalty", "Misnamed discard that completes a Mah Jongg",
              "penalty", "The Mah Jongg scores; the player who misnamed the discard gets "
              "this instead of the thrower penalty.", optional=True),
    RuleField("misnamed_tile_game", "Misnamed discard that does not complete the Mah Jongg",
              "flag", "On: the game ends, the misnamer loses points and the other three "
              "gain. Off: the director decides."),
    RuleField("misnamed_tile_penalty", "Misnamed discard, no Mah Jongg: misnamer", "penalty",
              "Used only when the rule above is on."),
    RuleField("misnamed_tile_others_bonus", "Misnamed discard, no Mah Jongg: each other player",
              "points", "Used only when the rule above is on. A dead hand still scores 0."),
    RuleField("mah_jongg_in_error", "Mah Jongg declared in error, hands exposed", "flag",
              "On: the two outcomes below can be entered. Off: the director decides."),
    RuleField("error_all_exposed_points", "Mah Jongg in error, every hand exposed", "points",
              "What each player scores when all the other players exposed their hands."),
    RuleField("error_one_intact_bonus", "Mah Jongg in error, one hand left intact", "points",
              "For the only player who did not expose their hand; the others score 0."),
    RuleField("time_called_zeroes", "Time called before a game ends", "choice",
              "Which games then score 0 for every player.",
              choices=(("game", "that game"), ("round", "the whole round at that table"))),
    RuleField("games_per_round", "Games per round", "count", "Including the Charleston."),
    RuleField("round_minutes", "Minutes per round", "count", "The round clock, 1 to 240."),
    RuleField("game_signoff", "Who initials each game", "choice",
              "Whose initials confirm each game's scores.", optional=True,
              choices=(("winner", "the winner (West when East wins or for a wall game)"),
                       ("all", "every player, one tap each on East's phone"),
                       ("across", "the player across verifies each score, one tap each "
                                  "on East's phone"),
                       (None, "nobody per game"))),
    RuleField("round_signoff_all", "Every player initials the round total", "flag", ""),
    RuleField("table_guide_verifies", "A table guide verifies scores at round end", "flag", ""),
    RuleField("tiebreak", "Ties for a prize place", "choice",
              "How the results page offers to settle a tie for a prize place; the standings "
              "say which applied.", optional=True,
              choices=(("tile_bag", "tile-bag draw (first to draw three jokers places higher)"),
                       ("draw", "a draw the director records"),
                       ("shared", "the tied players share the place"),
                       (None, "the director chooses for each tie"))),
    RuleField("mini_tournament", "Mini tournament rounds", "rounds",
              "First and last round of an optional mini tournament whose scores count "
              "twice. Empty: none.", optional=True),
    RuleField("sessions", "Play in sessions of several rounds", "flag", ""),
    RuleField("clock_extensions", "The director may add minutes to a round", "flag",
              "Off: the clock console offers no extra minutes and says why."),
    RuleField("pause_for_rulings", "The clock may be paused for a ruling", "flag",
              "Off: pausing needs the director's override with a written reason, which is "
              "kept in the audit trail."),
    RuleField("scores_final", "Scores are final", "choice",
              "Until then a sheet's scores count in the standings as provisional.",
              choices=(("submitted", "when East submits the sheet"),
                       ("verified", "when a table guide verifies the sheet"))),
    RuleField("changes_after_submit", "A director's change to a submitted sheet", "choice",
              "A ruling is shown as such on the sheet, the player's page and the audit trail, "
              "and the amendment form says so before it is saved.",
              choices=(("amendment", "is an amendment"),
                       ("ruling", "is a ruling (the sheet says no changes after submission)"))),
    RuleField("joker_exchange_self_picked", "A joker exchange that completes the hand", "flag",
              "On: offered by name under \"how was it won\" and scored as self-picked."),
    RuleField("voided_round_wins", "Games won count in a round voided by time", "flag",
              "Used only when time called zeroes the whole round."),
    RuleField("mini_entry_closes", "Mini tournament entry closes when its first round starts",
              "flag", "After that, opting a player in or out needs the director's override "
              "with a written reason, kept in the audit trail."),
    RuleField("west_checks_sheet", "West checks East's sheet before it is submitted", "flag",
              "On: East cannot submit until West has checked the sheet on East's phone."),
    RuleField("director_ends_round", "The director may end one table's round", "flag",
              "On: the table's sheet offers the director to end its round with a written "
              "reason; the games not played score what the director decides, the games "
              "played keep their scores."),
    RuleField("movement", "How players move after each round", "choice",
              "Chosen on the Seating page too. An imported seating is a CSV of round, table, "
              "seat and player number for every round.",
              choices=(("east_stays", "each seat's move, as chosen on the Seating page "
                                      "(East stays, unless changed there)"),
                       ("imported", "the organiser's own seating for every round, imported"))),
]

_IDENTITY = ("key", "name", "short_name", "sheet")
_KIND = {f.name: f.kind for f in RULE_FIELDS}
_OPTIONAL = {f.name for f in RULE_FIELDS if f.optional}
_CHOICES = {f.name: tuple(value for value, _ in f.choices) for f in RULE_FIELDS if f.choices}


def _label(name: str) -> str:
    for f in RULE_FIELDS:
        if f.name == name:
            return f.label
    return {"key": "The rule set's key", "name": "The rule set's name",
            "short_name": "The rule set's short name", "sheet": "The sheet's file name"}[name]


# No sheet gives a bonus or penalty near this; bounding it keeps a game's points (and a
# round's sum of them) well inside the database's INTEGER, where a typo of 99999999999
# would otherwise fail every save once the rules are fixed by the first score.
MAX_RULE_POINTS = 1000


def _whole(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRules(name, f"{_label(name)} must be a whole number.")
    if not -MAX_RULE_POINTS <= value <= MAX_RULE_POINTS:
        raise InvalidRules(name, f"{_label(name)} must be between -{MAX_RULE_POINTS} and "
                                 f"{MAX_RULE_POINTS}.")
    return value


def _check_field(name: str, value: Any) -> Any:
    label = _label(name)
    if name in _IDENTITY:
        if not isinstance(value, str) or not value.strip():
            raise InvalidRules(name, f"{label} must be some text.")
        return value
    if value is None:
        if name in _OPTIONAL:
            return None
        raise InvalidRules(name, f"{label} must be filled in.")
    kind = _KIND[name]
    if name == "thrower_penalty":
        if not isinstance(value, list | tuple) or len(value) != 5:
            raise InvalidRules(name, f"{label} needs five numbers: for 0, 1, 2, 3 and 4 "
                                     "exposures.")
        numbers = tuple(_whole(name, number) for number in value)
        if any(number > 0 for number in numbers):
            raise InvalidRules(name, f"{label} cannot be more than 0.")
        if any(more > fewer for fewer, more in zip(numbers, numbers[1:], strict=False)):
            raise InvalidRules(name, f"{label} cannot get smaller as the winner's exposures "
                                     "grow.")
        return numbers
    if kind == "penalty":
        if _whole(name, value) > 0:
            raise InvalidRules(name, f"{label} cannot be more than 0.")
        return value
    if kind == "points":
        if _whole(name, value) < 0:
            raise InvalidRules(name, f"{label} cannot be negative.")
        return value
    if kind == "flag":
        if not isinstance(value, bool):
            raise InvalidRules(name, f"{label} must be on or off.")
        return value
    if kind == "choice":
        if value not in _CHOICES[name] or isinstance(value, bool):
            allowed = ", ".join(repr(choice) for choice in _CHOICES[name] if choice)
            raise InvalidRules(name, f"{label} must be one of {allowed}.")
        return value
    if kind == "count":
        _whole(name, value)
        if name == "round_minutes" and not 1 <= value <= 240:
            raise InvalidRules(name, f"{label} must be between 1 and 240.")
        if name == "games_per_round" and not 1 <= value <= 20:
            raise InvalidRules(name, f"{label} must be between 1 and 20.")
        return value
    # kind == "rounds": the mini tournament
    if not isinstance(value, dict) or set(value) != {"first_round", "last_round"}:
        raise InvalidRules(name, f"{label} needs a first round and a last round.")
    first = _whole(name, value["first_round"])
    last = _whole(name, value["last_round"])
    if first < 1:
        raise InvalidRules(name, f"{label} must start at round 1 or later.")
    return MiniTournament(first, last)


# The "not stated" column of the README table: what a preset uses where its sheet is silent.
_NOT_STATED: dict[str, Any] = {
    "self_pick_bonus": 10,
    "jokerless_bonus": 10,
    "thrower_penalty": (0, 0, -10, -25, -25),
    "quint_two_exposure_penalty": -25,
    "wall_game_points": 10,
    "heavenly": None,
    "heavenly_bonus": 10,
    "blind_pass_peek_penalty": None,
    "misnamed_exposure_penalty": None,
    "misnamed_discard_penalty": -25,
    "misnamed_tile_game": False,
    "misnamed_tile_penalty": -25,
    "misnamed_tile_others_bonus": 10,
    "mah_jongg_in_error": False,
    "error_all_exposed_points": 0,
    "error_one_intact_bonus": 10,
    "time_called_zeroes": "game",
    "games_per_round": 4,
    "round_minutes": 50,
    "game_signoff": None,
    "round_signoff_all": False,
    "table_guide_verifies": False,
    "tiebreak": None,
    "mini_tournament": None,
    "sessions": False,
    "clock_extensions": True,
    "pause_for_rulings": True,
    "scores_final": "submitted",
    "changes_after_submit": "amendment",
    "joker_exchange_self_picked": False,
    "voided_round_wins": True,
    "mini_entry_closes": False,
    "west_checks_sheet": False,
    "director_ends_round": False,
    "movement": "east_stays",
}

# Rules added after tournaments were first stored: a stored rule set (or a backup) without
# them takes its preset's value, so it keeps loading and means what its sheet says.
_LATER_FIELDS = ("clock_extensions", "pause_for_rulings", "scores_final",
                 "changes_after_submit", "joker_exchange_self_picked", "voided_round_wins",
                 "mini_entry_closes", "west_checks_sheet", "director_ends_round",
                 "movement")


def _with_later_fields(data: dict[str, Any]) -> dict[str, Any]:
    missing = [name for name in _LATER_FIELDS if name not in data]
    if not missing:
        return data
    preset = _STARTS.get(data.get("key")) if isinstance(data.get("key"), str) else None
    filled = dict(data)
    for name in missing:
        filled[name] = getattr(preset, name) if preset else _NOT_STATED[name]
    return filled


def _preset(key: str, name: str, short_name: str, sheet: str, **rules: Any) -> RuleSet:
    return RuleSet(key=key, name=name, short_name=short_name, sheet=sheet,
                   **{**_NOT_STATED, **rules})


PRESETS: dict[str, RuleSet] = {
    "tnt": _preset(
        "tnt", "Tile Nation Tournaments (TNT)", "TNT", "000_5ca60a422e8b9084.txt",
        heavenly="bonus", blind_pass_peek_penalty=-10, misnamed_exposure_penalty=-10,
        misnamed_tile_game=True, mah_jongg_in_error=True, game_signoff="winner",
        round_signoff_all=True, sessions=True, changes_after_submit="ruling",
        joker_exchange_self_picked=True,
    ),
    "city-mahj": _preset(
        "city-mahj", "City Mahj", "City Mahj", "001_58163e568a1b39df.txt",
        blind_pass_peek_penalty=-10, misnamed_tile_game=True, mah_jongg_in_error=True,
        game_signoff="winner", changes_after_submit="ruling",
    ),
    "hidden-tile": _preset(
        "hidden-tile", "Hidden Tile Mahjong (HTM)", "Hidden Tile", "002_b319f328912ee255.txt",
        jokerless_bonus=20, thrower_penalty=(-10, -10, -20, -25, -25),
        quint_two_exposure_penalty=None, blind_pass_peek_penalty=-10,
        time_called_zeroes="round", table_guide_verifies=True, tiebreak="tile_bag",
        clock_extensions=False, pause_for_rulings=False, scores_final="verified",
        joker_exchange_self_picked=True, voided_round_wins=False, director_ends_round=True,
    ),
    "rules-of-the-road": _preset(
        "rules-of-the-road", "Rules of the Road", "Rules of the Road",
        "003_2a7852c2773d05d0.txt",
    ),
    "destination": _preset(
        "destination", "Destination Mah Jongg", "Destination", "004_469325624ddf7854.txt",
        jokerless_bonus=20, thrower_penalty=(-10, -10, -20, -25, -25),
        quint_two_exposure_penalty=None, heavenly="self_picked", blind_pass_peek_penalty=-10,
        mah_jongg_in_error=True, game_signoff="all", mini_tournament=MiniTournament(10, 12),
        changes_after_submit="ruling", joker_exchange_self_picked=True, mini_entry_closes=True,
        west_checks_sheet=True,
    ),
}


# A director's own rule set may start from nothing. Sensible zeros: no bonus, no penalty,
# every extra rule off, nobody initials per game. The numbers every organiser's sheet
# states (BLANK_TO_FILL) start empty on the rules form and must be typed before the set is
# saved, so a blank set never scores a game with a zero nobody chose.
BLANK_KEY = "blank"
BLANK_TO_FILL = ("self_pick_bonus", "jokerless_bonus", "thrower_penalty", "wall_game_points")
BLANK = RuleSet(
    key=BLANK_KEY, name="A blank rule set", short_name="Own", sheet="none",
    **{**_NOT_STATED, "self_pick_bonus": 0, "jokerless_bonus": 0,
       "thrower_penalty": (0, 0, 0, 0, 0), "quint_two_exposure_penalty": None,
       "wall_game_points": 0, "heavenly_bonus": 0, "misnamed_discard_penalty": None,
       "misnamed_tile_penalty": 0, "misnamed_tile_others_bonus": 0,
       "error_one_intact_bonus": 0},
)
_STARTS: dict[str, RuleSet] = {**PRESETS, BLANK_KEY: BLANK}


def starting_rules(key: str) -> RuleSet:
    """The rule set a director starts from: a preset, or BLANK; KeyError for anything else."""
    return _STARTS[key]


# The director types her event's name; "rules" is added wherever the app speaks of them
# ("Under Crak Your Bags rules"), so a trailing "rules" she typed is dropped, not doubled.
MAX_NAME = 60
_RULES_ENDING = re.compile(r"(?:^| )(?:rules|rule set|rules set)$", re.IGNORECASE)


def rule_set_name(text: str) -> str:
    """Her rule set's name as stored: spaces tidied, a trailing "rules" dropped;
    InvalidRules (field "name") when nothing is left, it is too long or not plain text."""
    name = _RULES_ENDING.sub("", " ".join((text or "").split()))
    if not name:
        raise InvalidRules("name", "Please give your rule set a name, like your event's: "
                                   "\"Crak Your Bags\".")
    if len(name) > MAX_NAME:
        raise InvalidRules("name", f"Keep the name under {MAX_NAME} characters.")
    if any(not ch.isprintable() for ch in name):
        raise InvalidRules("name", "The name can only hold letters, numbers and punctuation.")
    return name


def named(rules: RuleSet, text: str) -> RuleSet:
    """`rules` under the director's own name, shown everywhere the preset's was."""
    name = rule_set_name(text)
    return replace(rules, name=name, short_name=name)


def own_name(rules: RuleSet) -> bool:
    """True when the director gave the rule set a name of her own."""
    start = _STARTS.get(rules.key)
    return start is None or rules.name != start.name


def kept_from_preset(rules: RuleSet, field: str) -> bool:
    """True where `rules` holds the very value its preset has for `field`: only then do
    the preset sheet's words describe it."""
    preset = PRESETS.get(rules.key)
    return preset is not None and getattr(preset, field) == getattr(rules, field)


# The sheets' own words, quoted from ../shared/rules/*.txt ("..." marks a cut).
_WORDING: dict[str, dict[str, str]] = {
    "tnt": {
        "self_pick_bonus": "+ 10 points for a player who PICKS their own Mahjong tile.",
        "jokerless_bonus": "+10 points for a player who has a winning hand without any "
                           "jokers. This bonus does not apply to Singles & Pairs hands.",
        "thrower_penalty": "No penalty to player throwing the winning tile to 0 or 1 "
                           "exposure. ... –10 for throwing the winning tile to a hand with two "
                           "exposures. ... –25 for throwing the winning tile to a hand with "
                           "three or more exposures.",
        "quint_two_exposure_penalty": "–25 for throwing the winning tile to a hand with two "
                                      "exposures in a quint hand.",
        "wall_game_points": "+10 for each player except players whose hands have been "
                            "declared dead or who declared Mahjong in error.",
        "heavenly": "+10 points if East has Mahjong immediately following the initial deal "
                    "(Heavenly Hand) or immediately after the Charleston (Earthly Hand).",
        "heavenly_bonus": "+10 points if East has Mahjong immediately following the initial "
                          "deal (Heavenly Hand) or immediately after the Charleston (Earthly "
                          "Hand).",
        "blind_pass_peek_penalty": "–10 points for looking at a tile in a blind pass during "
                                   "either Charleston.",
        "misnamed_exposure_penalty": "–10 points for a player who misnames a tile called for "
                                     "an exposure.",
        "misnamed_discard_penalty": "-25 points for the mis-caller if the misnamed tile is "
                                    "actually the winning Mahjong tile. The Mahjong hand "
                                    "scores normally.",
        "misnamed_tile_game": "-25 for the mis-caller if the misnamed tile is not the actual "
                              "Mahjong tile. ... +10 for the other three players at the table "
                              "and the game ends.",
        "misnamed_tile_penalty": "-25 for the mis-caller if the misnamed tile is not the "
                                 "actual Mahjong tile.",
        "misnamed_tile_others_bonus": "+10 for the other three players at the table and the "
                                      "game ends.",
        "mah_jongg_in_error": "If any part of a hand is exposed in error, that hand is "
                              "declared dead, and play continues.",
        "error_all_exposed_points": "0 points for every player at the table if Mahjong is "
                                    "declared in error and all players have exposed their "
                                    "hands.",
        "error_one_intact_bonus": "10 points to the only player who has not exposed their "
                                  "hand if all other players have exposed their hands.",
        "time_called_zeroes": "0 points for every player at the table if time is called "
                              "before the game is finished.",
        "games_per_round": "Each round is 50 minutes in length and consists of four games, "
                           "including the Charleston.",
        "round_minutes": "Each round is 50 minutes in length and consists of four games, "
                         "including the Charleston.",
        "game_signoff": "The player who has Mahjong initials the official scoresheet after "
                        "each game. ... West must initial East’s score when East wins and must "
                        "initial the scoresheet for all wall games.",
        "round_signoff_all": "East must review the completed official scoresheet with all "
                             "players at the end of the round and have each player initial "
                             "the box next to their round total.",
        "clock_extensions": "The clock will not be stopped or paused except at the sole "
                            "discretion of the Tournament Director.",
        "pause_for_rulings": "The clock will not be stopped or paused except at the sole "
                             "discretion of the Tournament Director.",
        "changes_after_submit": "Any error or discrepancy must be reported and resolved "
                                "before the scoresheet is submitted. Once submitted, no "
                                "changes may be made.",
        "joker_exchange_self_picked": "If a joker exchange gives a player their winning tile, "
                                      "the hand is considered self-picked, regardless of "
                                      "whether the joker came from the player's own rack or "
                                      "another player's exposure. This is known as the "
                                      "Finesse Move, because the exchanged joker becomes the "
                                      "player's 14th tile.",
        "sessions": "Tournament play is organized into sessions, each consisting of several "
                    "rounds.",
        "movement": "North – Moves up one table after each round ... South – Moves down one "
                    "table after each round",
    },
    "city-mahj": {
        "self_pick_bonus": "Self-pick: +10 points.",
        "jokerless_bonus": "Jokerless: +10 points, except Singles & Pairs.",
        "thrower_penalty": "To 0 or 1 exposure: No penalty. ... To 2 exposures: −10 points. "
                           "... To 3 exposures: −25 points.",
        "quint_two_exposure_penalty": "To 2 exposures in a Quint hand: −25 points.",
        "wall_game_points": "Wall game: 10 points per player.",
        "blind_pass_peek_penalty": "Looking at a stolen tile during either Charleston: −10 "
                                   "points.",
        "misnamed_discard_penalty": "Actual tile completes Mah Jongg: Mah Jongg scores "
                                    "normally; miscaller receives a −25 point penalty.",
        "misnamed_tile_game": "Actual tile does not complete Mah Jongg: Miscaller receives a "
                              "−25 point penalty; the other three players receive +10 points "
                              "each; game ends.",
        "misnamed_tile_penalty": "Miscaller receives a −25 point penalty",
        "misnamed_tile_others_bonus": "the other three players receive +10 points each",
        "mah_jongg_in_error": "If other players expose their hands before an incorrect Mah "
                              "Jongg is verified:",
        "error_all_exposed_points": "No intact hands: Game ends; all players receive 0.",
        "error_one_intact_bonus": "1 intact hand: That player receives 10 points.",
        "changes_after_submit": "Once a sheet is turned in, that score is locked in for "
                                "good, so it's worth that quick double-check before you "
                                "submit.",
        "movement": "East stays at the same table. ... North moves up 1 table. ... West moves "
                    "up 2 tables. ... South moves down 1 table.",
        "game_signoff": "After each hand, the player who made Mah Jongg signs the score sheet "
                        "— except in a wall game, or whenever East wins, when West signs "
                        "instead.",
    },
    "hidden-tile": {
        "self_pick_bonus": "Add +10 points when the winning tile is picked from the wall, "
                           "including a valid joker exchange that completes the hand.",
        "jokerless_bonus": "Add +20 points for a winning hand containing no jokers. This "
                           "bonus does not apply to Singles and Pairs hands.",
        "thrower_penalty": "The player discarding the winning tile receives a penalty based "
                           "on the winner’s exposures: −10 points for 0-1 exposures, −20 "
                           "points for 2 exposures, and −25 points for 3 or more exposures.",
        "wall_game_points": "When the wall is exhausted without Mahjong, each active player "
                            "receives 10 points. A player whose hand was declared dead "
                            "receives 0 points.",
        "blind_pass_peek_penalty": "Looking at a tile stolen during a blind pass results in "
                                   "a -10 point penalty, but the player remains in the game.",
        "misnamed_discard_penalty": "If the physical discarded tile legally completes another "
                                    "player’s Mahjong, the Mahjong is valid and the player who "
                                    "misnamed the discard receives a 25-point penalty.",
        "misnamed_tile_game": "If the caller has not touched the discard or exposed the hand, "
                              "play may continue at the Tournament Director’s discretion; "
                              "otherwise the caller’s hand is dead.",
        "mah_jongg_in_error": "otherwise the round ends and the remaining score is determined "
                              "by the Tournament Director.",
        "time_called_zeroes": "If the game is unfinished, every player at that table "
                              "receives 0 points for the round.",
        "round_minutes": "Each round ends immediately when the chime sounds. No extensions "
                         "are provided.",
        "table_guide_verifies": "At the end of every round, remain seated while an HTM Table "
                                "Guide verifies each player’s individual score.",
        "clock_extensions": "Each round ends immediately when the chime sounds. No "
                            "extensions are provided.",
        "pause_for_rulings": "Each round ends immediately when the chime sounds.",
        "scores_final": "Scoring concerns must be resolved before anyone leaves the table; "
                        "after verification, scores are final.",
        "joker_exchange_self_picked": "Add +10 points when the winning tile is picked from "
                                      "the wall, including a valid joker exchange that "
                                      "completes the hand.",
        "voided_round_wins": "If the game is unfinished, every player at that table receives "
                             "0 points for the round.",
        "director_ends_round": "Play resumes only when more than two players remain with "
                               "intact, unexposed hands; otherwise the round ends and the "
                               "remaining score is determined by the Tournament Director.",
        "movement": "After verification, follow the table assignment provided by HTM and move "
                    "promptly to the next table.",
        "tiebreak": "If two or more players are tied for a prize-winning position in the "
                    "final tournament standings, the tied players will draw from a tile bag. "
                    "The first player to draw three jokers receives the higher placement.",
    },
    "rules-of-the-road": {
        "misnamed_discard_penalty": "A mis-named discarded tile CAN be called for Mahjongg. "
                                    "The discarder is penalized, and the player calling "
                                    "Mahjongg receives the point value on the card.",
        "mah_jongg_in_error": "If Mahj is declared in error AND any part of the hand is "
                              "exposed, the player is dead, and play continues with remaining "
                              "players.",
    },
    "destination": {
        "self_pick_bonus": "PLUS 10 points – Player who PICKS their own Mah Jongg.",
        "jokerless_bonus": "PLUS 20 points – A winning hand with NO JOKERS. SINGLES & PAIRS "
                           "hands do NOT get this bonus.",
        "thrower_penalty": "MINUS 10 points – Player who THROWS Mah Jongg to a hand with NO "
                           "exposures or ONE exposure. ... MINUS 20 points – Player who THROWS "
                           "Mah Jongg to a hand with TWO exposures. ... MINUS 25 points – "
                           "Player who THROWS Mah Jongg to a hand with THREE or more "
                           "exposures.",
        "wall_game_points": "PLUS 10 points – Wall Game: ALL players get points, except for a "
                            "hand that was declared dead or Mah Jongg in error.",
        "heavenly": "In both circumstances, the game is over, and the hand is considered "
                    "self-picked.",
        "blind_pass_peek_penalty": "MINUS 10 points – if you LOOK at a stolen tile during the "
                                   "blind pass, you still play in the game.",
        "misnamed_discard_penalty": "A mis-named discarded tile can be called for MJ. The "
                                    "discarder is penalized 25 points and the MJ receives the "
                                    "point value on the card.",
        "mah_jongg_in_error": "MAH JONGG CALLED IN ERROR:",
        "error_all_exposed_points": "If the three other players expose their hands, all get 0 "
                                    "points.",
        "error_one_intact_bonus": "If one player does not expose their hand, that player gets "
                                  "PLUS 10 points while others get 0 points.",
        "time_called_zeroes": "Time’s up, each player gets a score of Zero for that game.",
        "game_signoff": "After each game East will fill it out and give it back to you to "
                        "confirm your score by signing. ... West will also receive Easts sheet "
                        "to verify their score.",
        "changes_after_submit": "If there are errors/discrepancies in the scoring, they MUST "
                                "be resolved before moving to the next table. After that "
                                "there are no changes. If necessary, call the director for a "
                                "ruling.",
        "joker_exchange_self_picked": "If a Joker is Exchanged and gives a player their MJ, "
                                      "it is self-picked. The Joker can come from their own "
                                      "rack or another rack. It is called the “Finesse Move” "
                                      "and because the Joker is the 14th tile that they are "
                                      "picking, it is self-picked; this is a type of "
                                      "strategy.",
        "mini_entry_closes": "The cost to be in this mini is an additional fee and must be "
                             "paid before round 10 starts.",
        "west_checks_sheet": "West will also receive Easts sheet to verify their score.",
        "movement": "E stays, does not move, N moves UP 1 table, S moves DOWN 1 table, W moves "
                    "UP 2 tables.",
        "mini_tournament": "During these 3 rounds, there is an optional mini tournament. ... "
                           "for an additional fee there is an opportunity for your score to "
                           "count twice.",
    },
}


def wording(rules_key: str, field: str) -> str | None:
    """The sheet's own words for `field` in preset `rules_key`; None where the sheet is silent.

    "..." in a quote marks words left out. Unknown preset or field: None.
    """
    return _WORDING.get(rules_key, {}).get(field)


# Where a sheet's line can be read more than one way, the reading the app follows, beside
# the rule it concerns. docs/rules/README.md ("Rulings") carries the same words.
_READINGS: dict[str, tuple[str, ...]] = {
    "thrower_penalty": (
        "The thrower can be neither the winner nor a dead hand. A self-picked win has no "
        "thrower.",
        "City's \"to 3 exposures\" reads as 3 or more.",
    ),
    "heavenly": (
        "A heavenly or earthly hand is East's win with no discard: it earns the rule set's "
        "heavenly bonus (or the self-pick bonus where the sheet says it counts as "
        "self-picked), never both.",
    ),
    "blind_pass_peek_penalty": (
        "Penalties recorded during a game (blind-pass peek, misnamed exposure tile) stand "
        "even if the player's hand later goes dead; a dead player scores the penalty alone.",
        "A player who peeks in both Charlestons loses 10 twice.",
    ),
    "misnamed_exposure_penalty": (
        "Penalties recorded during a game (blind-pass peek, misnamed exposure tile) stand "
        "even if the player's hand later goes dead; a dead player scores the penalty alone.",
    ),
    "misnamed_discard_penalty": (
        "A misnamed discard that completes a Mah Jongg: the misnamer's -25 replaces the "
        "normal thrower penalty (it is not added to it).",
        "Rules of the Road says \"the discarder is penalized\" without a number: -25 unless "
        "the director changes it.",
    ),
    "misnamed_tile_game": (
        "\"Director decides\" outcomes are entered as an ordinary game plus director "
        "adjustments, each with a written reason.",
    ),
    "misnamed_tile_others_bonus": (
        "A dead player in a misnamed-tile game gets 0, not the +10 of \"the other three\".",
    ),
    "mah_jongg_in_error": (
        "\"Director decides\" outcomes are entered as an ordinary game plus director "
        "adjustments, each with a written reason.",
    ),
    "error_all_exposed_points": (
        "Penalties recorded in a game that ends \"Mah Jongg in error, all exposed\" still "
        "count (the sheets say \"all 0\").",
    ),
    "time_called_zeroes": (
        "A game stopped by time (time called) scores 0 for every player, penalties included: "
        "the game did not count. Where the rule set says \"round\", every game of that "
        "table's round scores 0.",
        "A game after a time-called game was never played: the table cannot save it, and "
        "cannot mark a game time called once a later game is saved.",
    ),
    "pause_for_rulings": (
        "Hidden Tile's \"Each round ends immediately when the chime sounds\" is read as no "
        "pause for a ruling; the director can still pause with a written reason, kept in the "
        "audit trail.",
    ),
    "scores_final": (
        "Until a table guide verifies a sheet its scores count as provisional; a director's "
        "change to a verified sheet returns it to awaiting verification.",
    ),
    "changes_after_submit": (
        "\"No changes after submission\" binds the table, not the director: a director's "
        "change to a submitted sheet is a ruling, shown as such with its reason.",
    ),
    "joker_exchange_self_picked": (
        "A joker exchange that completes the hand is entered under its own name and scores "
        "the self-pick bonus, never a thrower penalty.",
    ),
    "voided_round_wins": (
        "A round voided by time counts no games won, as it counts no points.",
    ),
    "mini_entry_closes": (
        "Destination's \"before round 10 starts\" is read as the first round of the mini "
        "tournament, whichever round the director sets.",
    ),
    "director_ends_round": (
        "A round the director ends keeps the games already played; the games not played "
        "score 0 plus the director's adjustments, each with the written reason.",
    ),
    "movement": (
        "Hidden Tile's \"table assignment provided by HTM\" is the organiser's own seating: "
        "import it for every round, or use the usual movement; Rules of the Road says nothing "
        "and uses the usual movement.",
    ),
    "tiebreak": (
        "Where the sheet is silent the director chooses for each tie between a recorded draw "
        "and shared places; the results page says which applied.",
    ),
}


def readings(field: str) -> tuple[str, ...]:
    """The app's reading of ambiguous sheet lines about `field` (empty where none)."""
    return _READINGS.get(field, ())


# Where each game's scores are checked one by one, whose initials stand beside a seat's
# score: its own player's ("all"), or the player across the table's ("across": West checks
# East, North checks South, and back).
ACROSS = {"E": "W", "S": "N", "W": "E", "N": "S"}


def score_checker(rules: RuleSet, seat: str) -> str | None:
    """The seat who initials `seat`'s score in each game; None where nobody does."""
    if rules.game_signoff == "all":
        return seat
    if rules.game_signoff == "across":
        return ACROSS[seat]
    return None


def _pts(value: int) -> str:
    value = abs(value)
    return f"{value} point" if value == 1 else f"{value} points"


def _thrower_in_words(penalty: tuple[int, ...]) -> str:
    # runs of equal numbers read as one phrase: "0 or 1 exposures", "3 or 4"
    runs: list[tuple[int, int, int]] = []
    for exposures, value in enumerate(penalty):
        if runs and runs[-1][2] == value:
            runs[-1] = (runs[-1][0], exposures, value)
        else:
            runs.append((exposures, exposures, value))
    if len(runs) == 1 and runs[0][2] == 0:
        return "The player who throws the winning tile loses nothing."
    parts = []
    for first, last, value in runs:
        if first == last:
            span = f"{first} exposure" if first == 1 else f"{first} exposures"
        elif last == len(penalty) - 1:
            span = f"{first} or more exposures"
        elif last == first + 1:
            span = f"{first} or {last} exposures"
        else:
            span = f"{first} to {last} exposures"
        parts.append(f"{'nothing' if value == 0 else _pts(value)} to a hand with {span}")
    return "The player who throws the winning tile loses " + ", ".join(parts) + "."


def in_words(rules: RuleSet, field: str) -> str:
    """`field` of `rules` said in plain words, from its number: what the rules page and the
    printed sheet say where the director's value is not her preset sheet's."""
    value = getattr(rules, field)
    if field == "self_pick_bonus":
        return (f"A winner who picked the winning tile from the wall gets {_pts(value)} more."
                if value else "No bonus for picking the winning tile from the wall.")
    if field == "jokerless_bonus":
        return (f"A winning hand with no jokers gets {_pts(value)} more (never Singles and "
                "Pairs)." if value else "No bonus for a winning hand with no jokers.")
    if field == "thrower_penalty":
        return _thrower_in_words(value)
    if field == "quint_two_exposure_penalty":
        return ("No special rule for a Quint hand." if value is None else
                f"The thrower loses {_pts(value)} to a Quint hand with 2 exposures.")
    if field == "wall_game_points":
        return (f"When the wall runs out, each player not dead and not in error gets "
                f"{_pts(value)}." if value else "A wall game scores 0 for everyone.")
    if field == "heavenly":
        return {"bonus": f"East's Mah Jongg straight after the deal or the Charleston gets "
                         f"its own bonus of {_pts(rules.heavenly_bonus)}.",
                "self_picked": "East's Mah Jongg straight after the deal or the Charleston "
                               "counts as self-picked."}.get(
            value, "No special rule for East's Mah Jongg straight after the deal.")
    if field == "heavenly_bonus":
        return (f"{_pts(value)}." if rules.heavenly == "bonus"
                else "Not used: a heavenly hand earns no bonus of its own.")
    penalties = {"blind_pass_peek_penalty": "Looking at a stolen tile in a blind pass",
                 "misnamed_exposure_penalty": "Misnaming a tile called for an exposure",
                 "misnamed_discard_penalty": "Misnaming the discard that completes a Mah "
                                             "Jongg (the Mah Jongg scores; no thrower "
                                             "penalty)"}
    if field in penalties:
        return (f"No penalty for {penalties[field][0].lower()}{penalties[field][1:]}."
                if value is None else f"{penalties[field]} loses {_pts(value)}.")
    if field == "misnamed_tile_game":
        return (f"A misnamed discard that does not complete the Mah Jongg ends the game: the "
                f"misnamer loses {_pts(rules.misnamed_tile_penalty)}, each other player not "
                f"dead gets {_pts(rules.misnamed_tile_others_bonus)}." if value
                else "A misnamed discard that does not complete the Mah Jongg: the director "
                     "decides.")
    if field == "misnamed_tile_penalty":
        return f"The misnamer loses {_pts(value)}."
    if field == "misnamed_tile_others_bonus":
        return f"Each other player not dead gets {_pts(value)}."
    if field == "mah_jongg_in_error":
        return ("A Mah Jongg declared in error after hands were exposed scores by the two "
                "rules below." if value else "A Mah Jongg declared in error: the director "
                                             "decides.")
    if field == "error_all_exposed_points":
        return f"Every player scores {_pts(value)}." if value else "Every player scores 0."
    if field == "error_one_intact_bonus":
        return f"The one player whose hand is intact gets {_pts(value)}; the others score 0."
    if field == "time_called_zeroes":
        return ("Time called before a game ends: every game of that table's round scores 0."
                if value == "round" else "Time called before a game ends: that game scores 0 "
                                         "for everyone.")
    if field == "games_per_round":
        return f"{value} games a round, including the Charleston."
    if field == "round_minutes":
        return f"{value} minutes a round."
    if field == "mini_tournament":
        return ("No mini tournament." if value is None else
                f"A mini tournament over rounds {value.first_round} to {value.last_round}; "
                "its scores count twice.")
    rule = next(f for f in RULE_FIELDS if f.name == field)
    if rule.kind == "flag":
        return f"{rule.label}: {'yes' if value else 'no'}."
    said = next(text for choice, text in rule.choices if choice == value)
    return f"{rule.label}: {said}."


def rule_words(rules: RuleSet, field: str) -> tuple[str | None, str]:
    """(the preset sheet's quote, the rule in plain words) for `field`. The quote is given
    only where the director kept that preset's value: a quoted "MINUS 25" beside her -30
    would contradict her own rules."""
    quote = wording(rules.key, field) if kept_from_preset(rules, field) else None
    return quote, in_words(rules, field)
