"""Score one game of American Mah Jongg under a tournament's rule set.

A game arrives as the plain JSON record East entered (see DESIGN.md). `Game.from_dict`
checks it and refuses anything inconsistent with `InvalidGame`, whose `field` names the record
key and whose message a player at the table can read. `score_lines` explains every point in
plain words; `score_game` adds them up per seat. Nothing here reads a clock, a file or the
database: storing records and showing scores is the caller's business.

Rulings on what the sheets leave open are in ../shared/rules/README.md and tournament/README.md.
One choice is ours: director adjustments still count in a game stopped by time (and in a round
voided by time), because they are the director's own deliberate rulings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tournament.rules import RuleSet

from .errors import FieldError

SEATS = ("E", "S", "W", "N")
OUTCOMES = ("mahjong", "wall", "time", "misnamed_tile", "error_all_exposed", "error_one_intact",
            "ended")
PENALTY_RULES = {
    "blind_pass_peek": "blind_pass_peek_penalty",
    "misnamed_exposure": "misnamed_exposure_penalty",
}
MAX_ADJUSTMENT = 500
# TNT and Destination call it the "Finesse Move"; Hidden Tile only describes it.
JOKER_EXCHANGE_NAME = "joker exchange (Finesse)"

_OUTCOME_WORDS = {
    "mahjong": "A Mah Jongg",
    "wall": "A wall game",
    "time": "A game stopped by time",
    "misnamed_tile": "A game ended by a misnamed discard",
    "error_all_exposed": "A Mah Jongg in error",
    "error_one_intact": "A Mah Jongg in error",
    "ended": "A game not played because the director ended the round",
}
_THING_WORDS = {
    "winner": "winner",
    "value": "hand value",
    "self_picked": "self-picked tile",
    "jokerless": "jokerless hand",
    "singles_and_pairs": "Singles & Pairs hand",
    "discarder": "thrower",
    "exposures": "winner's exposures",
    "quint": "Quint hand",
    "heavenly": "heavenly or earthly hand",
    "misnamed_discard": "misnamed winning discard",
    "joker_exchange": "joker exchange that completed the hand",
    "intact": "intact player",
    "misnamer": "misnamer",
}
_COMMON_KEYS = ("dead", "in_error", "penalties", "adjustments")
_MAHJONG_KEYS = ("winner", "value", "self_picked", "jokerless", "singles_and_pairs",
                 "discarder", "exposures", "quint", "heavenly", "misnamed_discard",
                 "joker_exchange")
# The record keys that apply to each outcome, in the order to_dict writes them.
_APPLIES = {
    "mahjong": _MAHJONG_KEYS + _COMMON_KEYS,
    "wall": _COMMON_KEYS,
    "time": _COMMON_KEYS,
    "misnamed_tile": ("misnamer",) + _COMMON_KEYS,
    "error_all_exposed": _COMMON_KEYS,
    "error_one_intact": ("intact",) + _COMMON_KEYS,
    "ended": ("adjustments",),
}
_ALL_KEYS = ("outcome",) + _MAHJONG_KEYS + ("intact", "misnamer") + _COMMON_KEYS
_BOOL_KEYS = ("self_picked", "jokerless", "singles_and_pairs", "quint", "heavenly",
              "misnamed_discard", "joker_exchange")
_SEAT_KEYS = ("winner", "discarder", "intact", "misnamer")
_SEAT_LIST_KEYS = ("dead", "in_error")


class InvalidGame(FieldError):
    """A game record that cannot be scored; `field` is the record key it concerns."""


@dataclass(frozen=True)
class Penalty:
    """A penalty recorded during the game (blind_pass_peek or misnamed_exposure)."""

    seat: str
    kind: str


@dataclass(frozen=True)
class Adjustment:
    """A director's ruling: points for one seat, with the written reason."""

    seat: str
    points: int
    reason: str


@dataclass(frozen=True)
class ScoreLine:
    """One reason for points: `rule` is the RuleSet field it comes from (None: card or ruling)."""

    seat: str
    points: int
    label: str
    rule: str | None = None


@dataclass(frozen=True)
class Game:
    """One game's facts, checked; build it with `Game.from_dict`."""

    outcome: str
    winner: str | None = None
    value: int | None = None
    self_picked: bool = False
    jokerless: bool = False
    singles_and_pairs: bool = False
    discarder: str | None = None
    exposures: int = 0
    quint: bool = False
    heavenly: bool = False
    misnamed_discard: bool = False
    joker_exchange: bool = False  # the winning tile came by a joker exchange (self-picked)
    dead: tuple[str, ...] = ()
    in_error: tuple[str, ...] = ()
    intact: str | None = None
    misnamer: str | None = None
    penalties: tuple[Penalty, ...] = ()
    adjustments: tuple[Adjustment, ...] = ()

    @classmethod
    def from_dict(cls, record: dict[str, Any], rules: RuleSet | None = None) -> Game:
        """Check a game record and build the Game; with `rules`, also check it against them."""
        game = cls(**_read_record(record))
        game._check_consistent()
        if rules is not None:
            game.check_rules(rules)
        return game

    def to_dict(self) -> dict[str, Any]:
        """The JSON record, without the keys that do not apply to this game."""
        out: dict[str, Any] = {"outcome": self.outcome}
        for key in _APPLIES[self.outcome]:
            value = getattr(self, key)
            if value is None or value == ():
                continue
            if key == "penalties":
                value = [{"seat": p.seat, "kind": p.kind} for p in value]
            elif key == "adjustments":
                value = [{"seat": a.seat, "points": a.points, "reason": a.reason}
                         for a in value]
            elif isinstance(value, tuple):
                value = list(value)
            out[key] = value
        return out

    def check_rules(self, rules: RuleSet) -> None:
        """Refuse a game that uses a rule this rule set does not have."""
        name = rules.short_name
        if self.outcome == "misnamed_tile" and not rules.misnamed_tile_game:
            raise InvalidGame("outcome", f"Under {name} rules the director decides a misnamed "
                              "discard that does not complete the Mah Jongg. Enter the game "
                              "with a director adjustment.")
        if self.outcome == "ended" and not rules.director_ends_round:
            raise InvalidGame("outcome", f"Under {name} rules the director does not end one "
                              "table's round; record the games as played or time called.")
        if self.outcome.startswith("error_") and not rules.mah_jongg_in_error:
            raise InvalidGame("outcome", f"Under {name} rules the director decides a Mah Jongg "
                              "in error. Enter the game with a director adjustment.")
        if self.heavenly and rules.heavenly is None:
            raise InvalidGame("heavenly", f"{name} rules have no heavenly or earthly hand "
                              "bonus. Enter it as a self-picked Mah Jongg.")
        if self.joker_exchange and not rules.joker_exchange_self_picked:
            raise InvalidGame("joker_exchange", f"{name} rules do not say how a joker exchange "
                              "that completes the hand scores: enter it as self-picked or "
                              "call the director.")
        if self.misnamed_discard and rules.misnamed_discard_penalty is None:
            raise InvalidGame("misnamed_discard", f"{name} rules have no penalty for a "
                              "misnamed winning discard.")
        for penalty in self.penalties:
            if getattr(rules, PENALTY_RULES[penalty.kind]) is None:
                raise InvalidGame("penalties", f"{name} rules have no penalty for "
                                  f"{_PENALTY_WORDS[penalty.kind]}.")

    def _check_consistent(self) -> None:
        gone = set(self.dead) | set(self.in_error)
        if self.outcome == "mahjong":
            self._check_mahjong()
        elif self.outcome in ("error_all_exposed", "error_one_intact"):
            if not self.in_error:
                raise InvalidGame("in_error", "Who declared Mah Jongg in error?")
            if self.outcome == "error_one_intact":
                if self.intact is None:
                    raise InvalidGame("intact", "Whose hand is the one still intact?")
                if self.intact in gone:
                    raise InvalidGame("intact", "The intact hand cannot be dead or the one "
                                      "that declared Mah Jongg in error.")
        elif self.outcome == "misnamed_tile" and self.misnamer is None:
            raise InvalidGame("misnamer", "Who misnamed the discard?")

    def _check_mahjong(self) -> None:
        if self.winner is None:
            raise InvalidGame("winner", "Who made Mah Jongg? Choose the winner.")
        if self.value is None:
            raise InvalidGame("value", "What is the hand worth on the card? Enter its value.")
        if self.winner in self.dead or self.winner in self.in_error:
            raise InvalidGame("winner", "The winner's hand cannot be dead.")
        if self.joker_exchange and not self.self_picked:
            raise InvalidGame("self_picked", "A joker exchange that completes the hand counts "
                              "as self-picked: tick self-picked too.")
        if self.heavenly:
            if self.winner != "E":
                raise InvalidGame("heavenly", "Only East can have a heavenly or earthly hand.")
            if self.discarder is not None:
                raise InvalidGame("discarder", "A heavenly or earthly hand has no thrower.")
            if self.self_picked:
                raise InvalidGame("self_picked", "A heavenly or earthly hand gets its own "
                                  "bonus. Do not also tick self-picked.")
            if self.exposures:
                raise InvalidGame("exposures", "A heavenly or earthly hand has no exposures.")
        elif self.self_picked:
            if self.discarder is not None:
                raise InvalidGame("discarder", "A self-picked win has no thrower.")
        elif self.discarder is None:
            raise InvalidGame("discarder", "Who threw the winning tile? Or tick self-picked.")
        if self.discarder is not None:
            if self.discarder == self.winner:
                raise InvalidGame("discarder", "The thrower cannot be the winner.")
            if self.discarder in self.dead or self.discarder in self.in_error:
                raise InvalidGame("discarder", "A dead hand cannot be the thrower.")
        elif self.misnamed_discard:
            raise InvalidGame("misnamed_discard", "A misnamed discard needs a thrower: the "
                              "winning tile was not discarded.")


_PENALTY_WORDS = {
    "blind_pass_peek": "looking at a blind-pass tile",
    "misnamed_exposure": "misnaming a tile called for an exposure",
}


def _seat(key: str, value: Any) -> str:
    if value not in SEATS:
        raise InvalidGame(key, f"'{value}' is not a seat: use E, S, W or N.")
    return value


def _read_record(record: Any) -> dict[str, Any]:
    """Types, allowed values and keys that apply; returns Game keyword arguments."""
    if not isinstance(record, dict):
        raise InvalidGame("outcome", "The game sheet is empty or unreadable.")
    for key in record:
        if key not in _ALL_KEYS:
            raise InvalidGame(str(key), f"There is no '{key}' on a game sheet.")
    outcome = record.get("outcome")
    if outcome not in OUTCOMES:
        raise InvalidGame("outcome", "How did the game end? Choose Mah Jongg, wall game, "
                          "time called, misnamed tile or Mah Jongg in error.")
    values: dict[str, Any] = {"outcome": outcome}
    for key, value in record.items():
        if key == "outcome" or value is None:
            continue
        if key in _SEAT_KEYS:
            values[key] = _seat(key, value)
        elif key in _BOOL_KEYS:
            if not isinstance(value, bool):
                raise InvalidGame(key, f"'{_THING_WORDS[key].capitalize()}' must be yes or "
                                  "no.")
            values[key] = value
        elif key == "value":
            if (isinstance(value, bool) or not isinstance(value, int)
                    or not 20 <= value <= 150 or value % 5):
                raise InvalidGame("value", "The hand's value must be a card value: 20 to 150, "
                                  "in steps of 5.")
            values[key] = value
        elif key == "exposures":
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 4:
                raise InvalidGame("exposures", "The winner's exposures must be a number from "
                                  "0 to 4.")
            values[key] = value
        elif key in _SEAT_LIST_KEYS:
            values[key] = _read_seats(key, value)
        elif key == "penalties":
            values[key] = _read_penalties(value)
        else:
            values[key] = _read_adjustments(value)
    for key in _ALL_KEYS:
        if key not in _APPLIES[outcome] and key != "outcome" and values.get(key):
            raise InvalidGame(key, f"{_OUTCOME_WORDS[outcome]} has no "
                              f"{_THING_WORDS[key]}.")
    return values


def check_answers_so_far(record: Any) -> None:
    """InvalidGame when an answer a record already has is of the wrong kind, out of range,
    does not apply to its ending, or names the winner as the thrower; the answers still
    missing are not asked for (Game.from_dict asks for them). For a game taken only as far
    as it has been answered."""
    values = _read_record(record)
    if values.get("discarder") is not None and values.get("discarder") == values.get("winner"):
        raise InvalidGame("discarder", "The thrower cannot be the winner.")


def _read_seats(key: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list | tuple):
        raise InvalidGame(key, "Choose the seats from E, S, W and N.")
    seats = [_seat(key, seat) for seat in value]
    if len(set(seats)) != len(seats):
        raise InvalidGame(key, "A seat is listed twice.")
    return tuple(sorted(seats, key=SEATS.index))


def _read_penalties(value: Any) -> tuple[Penalty, ...]:
    if not isinstance(value, list | tuple):
        raise InvalidGame("penalties", "The penalties must be a list.")
    penalties = []
    for item in value:
        if not isinstance(item, dict) or set(item) != {"seat", "kind"}:
            raise InvalidGame("penalties", "Each penalty needs a seat and what it was for.")
        if not isinstance(item["kind"], str) or item["kind"] not in PENALTY_RULES:
            raise InvalidGame("penalties", f"There is no '{item['kind']}' penalty. Use a "
                              "director adjustment with a reason instead.")
        penalties.append(Penalty(_seat("penalties", item["seat"]), item["kind"]))
    return tuple(penalties)


def _read_adjustments(value: Any) -> tuple[Adjustment, ...]:
    if not isinstance(value, list | tuple):
        raise InvalidGame("adjustments", "The director's adjustments must be a list.")
    adjustments = []
    for item in value:
        if not isinstance(item, dict) or set(item) != {"seat", "points", "reason"}:
            raise InvalidGame("adjustments", "Each director adjustment needs a seat, points "
                              "and a reason.")
        seat = _seat("adjustments", item["seat"])
        points, reason = item["points"], item["reason"]
        if isinstance(points, bool) or not isinstance(points, int):
            raise InvalidGame("adjustments", "An adjustment must be a whole number of points.")
        if points == 0:
            raise InvalidGame("adjustments", "An adjustment of 0 points changes nothing; "
                              "leave it out.")
        if abs(points) > MAX_ADJUSTMENT:
            raise InvalidGame("adjustments", f"An adjustment cannot be more than "
                              f"{MAX_ADJUSTMENT} points either way.")
        if not isinstance(reason, str) or not reason.strip():
            raise InvalidGame("adjustments", "Every director adjustment needs a written "
                              "reason.")
        adjustments.append(Adjustment(seat, points, reason.strip()))
    return tuple(adjustments)


def _signed(points: int) -> str:
    return f"{points:+d}" if points else "0"


def _exposure_words(exposures: int) -> str:
    return f"{exposures} exposure" + ("" if exposures == 1 else "s")


def _mahjong_lines(rules: RuleSet, game: Game, tag: str) -> list[ScoreLine]:
    winner = game.winner
    assert winner is not None and game.value is not None
    lines = [ScoreLine(winner, game.value, f"Mah Jongg: card value {game.value}")]
    if game.heavenly and rules.heavenly == "bonus":
        lines.append(ScoreLine(winner, rules.heavenly_bonus,
                               f"heavenly/earthly hand {_signed(rules.heavenly_bonus)} {tag}",
                               "heavenly_bonus"))
    elif game.heavenly:
        lines.append(ScoreLine(winner, rules.self_pick_bonus,
                               "heavenly/earthly hand counts as self-picked "
                               f"{_signed(rules.self_pick_bonus)} {tag}", "self_pick_bonus"))
    elif game.self_picked and game.joker_exchange:
        lines.append(ScoreLine(winner, rules.self_pick_bonus,
                               f"{JOKER_EXCHANGE_NAME} counts as self-picked "
                               f"{_signed(rules.self_pick_bonus)} {tag}", "self_pick_bonus"))
    elif game.self_picked:
        lines.append(ScoreLine(winner, rules.self_pick_bonus,
                               f"self-picked {_signed(rules.self_pick_bonus)} {tag}",
                               "self_pick_bonus"))
    if game.jokerless and game.singles_and_pairs:
        lines.append(ScoreLine(winner, 0, f"Singles & Pairs: no jokerless bonus {tag}",
                               "jokerless_bonus"))
    elif game.jokerless:
        lines.append(ScoreLine(winner, rules.jokerless_bonus,
                               f"jokerless {_signed(rules.jokerless_bonus)} {tag}",
                               "jokerless_bonus"))
    thrower = game.discarder
    if thrower is not None and game.misnamed_discard:
        points = rules.misnamed_discard_penalty
        assert points is not None
        lines.append(ScoreLine(thrower, points,
                               f"misnamed the winning discard {_signed(points)} {tag}",
                               "misnamed_discard_penalty"))
    elif thrower is not None:
        quint_rule = rules.quint_two_exposure_penalty
        if game.quint and game.exposures == 2 and quint_rule is not None:
            points, what, rule = quint_rule, "a Quint hand with 2 exposures", \
                "quint_two_exposure_penalty"
        else:
            points, what, rule = rules.thrower_penalty[game.exposures], \
                _exposure_words(game.exposures), "thrower_penalty"
        label = (f"threw to {what} {_signed(points)} {tag}" if points
                 else f"threw to {what}: no penalty {tag}")
        lines.append(ScoreLine(thrower, points, label, rule))
    return lines


def _game_lines(rules: RuleSet, game: Game, voided: bool) -> list[ScoreLine]:
    tag = f"({rules.short_name})"
    lines: list[ScoreLine] = []
    outcome = game.outcome
    if voided:
        lines += [ScoreLine(seat, 0, f"time called: the round scores 0 {tag}",
                            "time_called_zeroes") for seat in SEATS]
    elif outcome == "time":
        lines += [ScoreLine(seat, 0, f"time called: the game scores 0 {tag}",
                            "time_called_zeroes") for seat in SEATS]
    elif outcome == "ended":
        lines += [ScoreLine(seat, 0, f"round ended by the director: not played {tag}",
                            "director_ends_round") for seat in SEATS]
    else:
        if outcome == "mahjong":
            lines += _mahjong_lines(rules, game, tag)
        for seat in SEATS:
            if seat in game.dead:
                lines.append(ScoreLine(seat, 0, "dead hand 0"))
            elif seat in game.in_error:
                lines.append(ScoreLine(seat, 0, "declared Mah Jongg in error 0"))
            elif outcome == "wall":
                lines.append(ScoreLine(seat, rules.wall_game_points,
                                       f"wall game {_signed(rules.wall_game_points)} {tag}",
                                       "wall_game_points"))
            elif outcome == "misnamed_tile" and seat == game.misnamer:
                pass  # the misnamer's penalty follows the loop
            elif outcome == "misnamed_tile":
                bonus = rules.misnamed_tile_others_bonus
                lines.append(ScoreLine(seat, bonus, "another player misnamed the discard "
                                       f"{_signed(bonus)} {tag}", "misnamed_tile_others_bonus"))
            elif outcome == "error_all_exposed":
                points = rules.error_all_exposed_points
                lines.append(ScoreLine(seat, points, "Mah Jongg in error, all hands exposed "
                                       f"{_signed(points)} {tag}", "error_all_exposed_points"))
            elif outcome == "error_one_intact" and seat == game.intact:
                bonus = rules.error_one_intact_bonus
                lines.append(ScoreLine(seat, bonus, "Mah Jongg in error, only hand left "
                                       f"intact {_signed(bonus)} {tag}",
                                       "error_one_intact_bonus"))
        if outcome == "misnamed_tile":
            assert game.misnamer is not None
            points = rules.misnamed_tile_penalty
            lines.append(ScoreLine(game.misnamer, points, "misnamed the discard called for "
                                   f"Mah Jongg {_signed(points)} {tag}", "misnamed_tile_penalty"))
        for penalty in game.penalties:
            rule = PENALTY_RULES[penalty.kind]
            points = getattr(rules, rule)
            lines.append(ScoreLine(penalty.seat, points, f"{_PENALTY_LABELS[penalty.kind]} "
                                   f"{_signed(points)} {tag}", rule))
    for adjustment in game.adjustments:
        lines.append(ScoreLine(adjustment.seat, adjustment.points,
                               f"director: {adjustment.reason} {_signed(adjustment.points)}"))
    return lines


_PENALTY_LABELS = {
    "blind_pass_peek": "looked at a blind-pass tile",
    "misnamed_exposure": "misnamed a tile called for an exposure",
}


def score_lines(rules: RuleSet, game: Game) -> list[ScoreLine]:
    """Every reason for points in this game, in plain words, seat by seat."""
    game.check_rules(rules)
    return _game_lines(rules, game, voided=False)


def _total(lines: list[ScoreLine]) -> dict[str, int]:
    totals = dict.fromkeys(SEATS, 0)
    for line in lines:
        totals[line.seat] += line.points
    return totals


def score_game(rules: RuleSet, game: Game) -> dict[str, int]:
    """Points for each of the four seats in this game: the sums of `score_lines`."""
    return _total(score_lines(rules, game))


def signer(rules: RuleSet, game: Game) -> str:
    """The seat who initials this game: the winner, or West when East wins or nobody won."""
    if game.outcome == "mahjong" and game.winner != "E":
        assert game.winner is not None
        return game.winner
    return "W"


def round_lines(rules: RuleSet, games: list[Game]) -> list[list[ScoreLine]]:
    """`score_lines` for each game of one table's round, with time called applied to it all.

    Where the rule set zeroes the whole round when time is called, every game of a round that
    has a "time" game scores 0 for everybody; director adjustments still count.
    """
    for game in games:
        game.check_rules(rules)
    voided = rules.time_called_zeroes == "round" and any(g.outcome == "time" for g in games)
    return [_game_lines(rules, game, voided) for game in games]


def round_totals(rules: RuleSet, games: list[Game]) -> dict[str, int]:
    """Each seat's total for one table's round."""
    return _total([line for lines in round_lines(rules, games) for line in lines])


def check_after_time_called(rules: RuleSet, games: list[Game], number: int) -> None:
    """Refuse game `number` (1-based, in `games`, one table's round in game order) where it
    contradicts time being called: time called ends the round at that table, so a game
    after a time-called game was never played and can only be time called too.

    Every sheet reads so. TNT: "0 points for every player at the table if time is called
    before the game is finished" and "all players at that table receive a score of zero
    for each game that was not completed"; Destination: "Time's up, each player gets a
    score of Zero for that game"; Hidden Tile: the round ends at the chime and "every
    player at that table receives 0 points for the round". What differs is only how much
    scores 0 (`time_called_zeroes`), which the message says."""
    if not 1 <= number <= len(games):
        return
    game = games[number - 1]
    earlier = [n for n, g in enumerate(games[:number - 1], 1) if g.outcome == "time"]
    later = [n for n, g in enumerate(games[number:], number + 1) if g.outcome != "time"]
    whole_round = rules.time_called_zeroes == "round"
    if game.outcome != "time" and earlier:
        called = earlier[0]
        scores = ("the round ended there and every game of it scores 0" if whole_round else
                  f"games {called + 1} on were never played and score 0")
        raise InvalidGame("outcome", f"Time was called in game {called}: {scores}. Game "
                          f"{number} can only be recorded as time called. If game {called} "
                          "was in fact finished, correct game "
                          f"{called} first.")
    if game.outcome == "time" and later:
        raise InvalidGame("outcome", f"Game {later[0]} was played after this game, so time "
                          f"was not called in game {number}. Correct game {later[0]} first "
                          "if it was never played.")
