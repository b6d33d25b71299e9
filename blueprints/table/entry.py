"""The game entry wizard: what East (or a director amending a game) has tapped so far,
read under the tournament's rules.

One `EntryState` per request, built from the GameForm and the RuleSet, gives everything
the wizard shows: which steps apply and which to reveal next (with JavaScript the later
steps stay hidden until the earlier ones are answered; without it every step that applies
is shown, as one long form), the question to answer next, the errors at the steps they
concern and the live scores (nothing is saved here)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.words import SEATS
from tournament.errors import FieldError
from tournament.rules import RuleSet
from tournament.scoring import (
    PENALTY_RULES,
    Game,
    InvalidGame,
    ScoreLine,
    check_after_time_called,
    score_lines,
    signer,
)

from .forms import DEAD_CHANGES_POINTS, GameForm, Unanswered
from .sheet_view import with_ruling_labels

PENALTY_LABELS = {
    "blind_pass_peek": "Looked at a blind-pass tile",
    "misnamed_exposure": "Misnamed a tile called for an exposure",
}

# What the scores box says while a question is still unanswered (in the form's words).
NEXT_QUESTION = {
    "outcome": "Next: who made Mah Jongg, or how did the game end?",
    "winner": "Next: who made Mah Jongg?",
    "value": "Next: what is the hand worth on the card?",
    "win_by": "Next: was the winning tile self-picked or thrown?",
    "exposures": "Next: how many exposures did the winner have?",
    "misnamer": "Next: who misnamed the discard?",
    "in_error": "Next: who declared Mah Jongg in error?",
    "intact": "Next: whose hand is still intact?",
    "dead": "Next: were any hands dead?",
}

# Which step shows the error of each record key (or form field of a refused save).
FIELD_STEP = {
    "outcome": "outcome", "winner": "winner", "value": "value", "self_picked": "win_by",
    "heavenly": "win_by", "joker_exchange": "win_by", "discarder": "win_by",
    "exposures": "exposures",
    "misnamed_discard": "hand", "quint": "hand", "jokerless": "hand",
    "singles_and_pairs": "hand", "misnamer": "misnamer", "intact": "intact",
    "dead": "extras", "in_error": "extras", "penalties": "extras", "adjustments": "outcome",
    "initials": "sign", "sign": "sign", "reason": "reason", "sheet": "sheet", "game": "sheet",
    "note": "extras",
}


@dataclass
class Preview:
    """A game record as East has it so far: its scores, lines and signer, or the problem."""

    points: dict[str, int] | None = None
    lines: list[ScoreLine] = field(default_factory=list)
    signer: str | None = None
    error: InvalidGame | None = None

    def __post_init__(self) -> None:
        # Kept without its traceback: the traceback holds the frames that hold this
        # Preview, a cycle that only the garbage collector frees, and with it every local
        # of the request's frames (a hundred objects an entry page, each page).
        if self.error is not None:
            self.error = self.error.with_traceback(None)


def preview(rules: RuleSet, record_: dict[str, Any],
            adjustments: list[dict[str, Any]] | None = None) -> Preview:
    """Score a record without storing it (the live scores while East enters), with the
    director's rulings that save_game will put on this game (SheetView.adjustments_for),
    so the scores the signer initials are the scores saved."""
    if adjustments:
        record_ = dict(record_, adjustments=list(record_.get("adjustments") or [])
                       + list(adjustments))
    try:
        game = Game.from_dict(record_, rules)
    except InvalidGame as error:
        return Preview(error=error)
    lines = with_ruling_labels(score_lines(rules, game), list(game.adjustments))
    points = dict.fromkeys(SEATS, 0)
    for line in lines:
        points[line.seat] += line.points
    return Preview(points=points, lines=lines, signer=signer(rules, game))


def penalty_kinds(rules: RuleSet) -> list[tuple[str, str]]:
    """The penalties this rule set has, as (kind, label)."""
    return [(kind, PENALTY_LABELS[kind]) for kind, rule in PENALTY_RULES.items()
            if getattr(rules, rule) is not None]


def outcome_choices(rules: RuleSet) -> list[tuple[str, str]]:
    """How a game may end under these rules, as (outcome, label) for the first step."""
    choices = [("mahjong", "Mah Jongg"), ("wall", "Wall game"), ("time", "Time called")]
    if rules.misnamed_tile_game:
        choices.append(("misnamed_tile", "Misnamed discard: game ends"))
    if rules.mah_jongg_in_error:
        choices += [("error_all_exposed", "Mah Jongg in error, all hands exposed"),
                    ("error_one_intact", "Mah Jongg in error, one hand intact")]
    return choices


def plan(form: GameForm, rules: RuleSet) -> dict[str, str]:
    """{step: "done" | "show" | "later" | "skip"}: "done" steps are answered (with
    JavaScript they fold to one line of the answers above the question, tapped to change
    them); "later" steps apply but wait (with JavaScript) for an earlier answer; "skip"
    steps do not apply to this game. plan["next"] names the step to answer next (once all
    are answered: the hand's specials for a Mah Jongg, else the scores).

    The thrower is asked with how the tile came ("Thrown by West": one tap), so its own
    step is never drawn. The dead hands are a question of their own where they change
    the points (forms.DEAD_CHANGES_POINTS); it stays open beside the save once answered,
    so a second dead hand is one more tap."""
    outcome = form.outcome.data
    mahjong = outcome == "mahjong"
    thrown = mahjong and (form.win_by.data or "").startswith("thrown")
    try:
        has_value = form.card_value() is not None
    except InvalidGame:
        has_value = True
    required = [
        ("outcome", True, bool(outcome)),
        # asked with the ending ("South · Gloria Park"), on its own only when a post named
        # a Mah Jongg without its winner
        ("winner", mahjong, bool(form.winner.data)),
        ("value", mahjong, has_value),
        ("win_by", mahjong, bool(form.win_by.data) and (not thrown or bool(form.thrown_by()))),
        ("exposures", thrown, bool(form.exposures.data)),
        ("misnamer", outcome == "misnamed_tile", bool(form.misnamer.data)),
        ("in_error", outcome in ("error_all_exposed", "error_one_intact"),
         bool(form.in_error.data)),
        ("intact", outcome == "error_one_intact", bool(form.intact.data)),
        ("dead", outcome in DEAD_CHANGES_POINTS, form.dead_answered()),
    ]
    steps: dict[str, str] = {}
    waiting = False
    for step, applies, answered in required:
        if not applies:
            steps[step] = "skip"
            continue
        if waiting:
            steps[step] = "later"
            continue
        steps[step] = "done" if answered and step != "dead" else "show"
        if not answered:
            waiting = True
            steps["next"] = step
    final = "later" if waiting else "show"
    steps["hand"] = final if mahjong else "skip"
    steps["quint"] = ("show" if thrown and form.exposures.data == "2"
                      and rules.quint_two_exposure_penalty is not None else "skip")
    steps["extras"] = final if outcome and outcome != "time" else "skip"
    steps["sign"] = final
    steps.setdefault("next", "hand" if mahjong else "scores")
    return steps


def errors_at_steps(error: FieldError, form: GameForm) -> dict[str, str]:
    """{step: message}: a refusal (of the rules or of the save) shown at the step whose
    answer it concerns."""
    step, message = FIELD_STEP.get(error.field, "outcome"), error.message
    if error.field == "discarder":
        step = "win_by"
        if not form.win_by.data:
            message = "Was the winning tile self-picked or thrown? Choose one."
    if error.field == "in_error" and form.outcome.data in ("error_all_exposed",
                                                           "error_one_intact"):
        step = "in_error"
    if error.field == "winner" and form.winner.data:
        step = "outcome"  # the winner was chosen with the ending
    if error.field == "dead" and form.outcome.data in DEAD_CHANGES_POINTS:
        step = "dead"
    return {step: message}


def _missing(error: InvalidGame, record: dict) -> bool:
    """An error that only says a step is not answered yet (not a contradiction)."""
    if error.field in ("outcome",) and not record.get("outcome"):
        return True
    if error.field in ("winner", "value", "misnamer", "intact"):
        return not record.get(error.field)
    if error.field == "discarder":
        return not record.get("discarder")
    return error.field == "in_error" and not record.get("in_error")


@dataclass
class EntryState:
    """What the wizard shows for one form under one rule set."""

    rules: RuleSet
    plan: dict[str, str]
    preview: Preview
    hint: str | None
    errors: dict[str, str]

    @classmethod
    def of(cls, form: GameForm, rules: RuleSet, adjustments: list[dict[str, Any]] | None,
           refused: FieldError | None = None,
           sheet: dict[int, dict[str, Any]] | None = None) -> EntryState:
        """The state of `form`; `adjustments`: the director's rulings the game will carry
        (in the preview); `refused`: why a save was refused, shown at its step; `sheet`:
        the other games' records by number, so a game the round refuses (one after time
        called) shows that refusal, and no signer's button."""
        errors = errors_at_steps(refused, form) if refused is not None else {}
        record = None
        unanswered = False
        try:
            record = form.record(rules)
            scored = preview(rules, record, adjustments)
            if sheet is not None and scored.points is not None:
                in_the_round(rules, sheet, form.game_no.data or 0, record)
        except Unanswered as error:
            scored, unanswered = Preview(error=error), True
        except InvalidGame as error:
            scored = Preview(error=error)
        steps = plan(form, rules)
        hint = None
        if errors:
            hint = "Please check the answer marked above: " + next(iter(errors.values()))
        elif unanswered:
            hint = NEXT_QUESTION.get(scored.error.field, scored.error.message)
        elif scored.error is not None:
            if record is not None and _missing(scored.error, record):
                hint = NEXT_QUESTION.get(steps.get("next"), scored.error.message)
            elif form.outcome.data:
                errors = errors_at_steps(scored.error, form)
        return cls(rules=rules, plan=steps, preview=scored, hint=hint, errors=errors)

    def context(self) -> dict[str, Any]:
        """The wizard's part of the entry page's template context (its buttons:
        entry_html.wizard)."""
        return dict(rules=self.rules, plan=self.plan, preview=self.preview, hint=self.hint,
                    errors=self.errors, shown_scores=scores_shown(self.preview.points))


def scores_shown(points: dict[str, int] | None) -> str:
    """The scores a signer's button shows, as the form carries them back ("E10 S10 W10
    N10"): a tap confirms these scores, never answers changed since they were drawn."""
    if not points:
        return ""
    return " ".join(f"{seat}{points[seat]}" for seat in SEATS)


def in_the_round(rules: RuleSet, sheet: dict[int, dict[str, Any]], number: int,
                 record: dict[str, Any]) -> None:
    """InvalidGame where game `number` contradicts the round's other games (a game after
    time called), as the save would refuse it."""
    games = {n: Game.from_dict(r) for n, r in sheet.items() if n != number}
    games[number] = Game.from_dict(record, rules)
    check_after_time_called(rules, [games[n] for n in sorted(games)],
                            sorted(games).index(number) + 1)
