"""The entry wizard's repeated bits of markup (table/_entry.html): each step's class and
error, its groups of choice buttons and its ticked answers. Built here, not as Jinja
macros or calls: the page shows every seat, value and ending as a button, some fifteen
groups of them, and building those in the template cost more than the rest of the page.
The markup is exactly what the macros gave.

Every text is escaped once: a seat's label once per page for the eight groups that list
the seats, and a group whose choices come from the rules alone (endings, values,
exposures, how the tile came) once per process: its markup depends on nothing but its
arguments, so it is kept (lru_cache), keyed by the answer it shows ticked."""

from __future__ import annotations

from functools import cache, lru_cache
from types import SimpleNamespace

from markupsafe import Markup, escape

from core.words import SEAT_NAMES, short_names
from tournament.scoring import InvalidGame

from .forms import DEAD_CHANGES_POINTS, EXPOSURE_CHOICES, VALUE_CHOICES

# Every step the page draws (a class, an error), as table/_entry.html names them.
STEPS = ("outcome", "winner", "value", "win_by", "exposures", "hand", "misnamer",
         "in_error", "intact", "dead", "extras", "sign", "reason")
IN_ERROR_OUTCOMES = ("error_all_exposed", "error_one_intact")
FLAG_HINTS = {"misnamed_discard": "(rare)"}
_VALUES = tuple(map(tuple, VALUE_CHOICES))
_EXPOSURES = tuple(map(tuple, EXPOSURE_CHOICES))

_CLASSES = {(shown, bool(error)): Markup("step" + (" step-later" if shown == "later" else
                                                   " step-skip" if shown == "skip" else
                                                   " step-done" if shown == "done" else "")
                                         + (" has-error" if error else ""))
            for shown in ("show", "done", "later", "skip") for error in (False, True)}
_NO_ERROR = Markup("")


def step_class(plan: dict[str, str], errors: dict[str, str], step: str) -> Markup:
    shown = plan.get(step)
    if shown == "done" and errors.get(step):
        shown = "show"  # an answer refused stays open, with its reason
    return _CLASSES[shown if shown in ("done", "later", "skip") else "show",
                    bool(errors.get(step))]


# The steps drawn as a fieldset, opened by `step_open` (table/_entry.html).
FIELDSET_STEPS = ("outcome", "winner", "value", "win_by", "exposures", "hand",
                  "misnamer", "in_error", "intact", "dead")


@cache  # at most 10 steps x 8 classes x next or not
def _fieldset_open(step: str, css: Markup, is_next: bool) -> Markup:
    # The step to answer next carries the anchor "Show the scores" opens the page at
    # (without JavaScript the whole form is one long page).
    return Markup('%s<fieldset%s class="%s" id="step-%s">') % (
        _NEXT_ANCHOR if is_next else Markup(""),
        Markup(" data-next") if is_next else Markup(""), css, step)


_NEXT_ANCHOR = Markup('<span id="next-step"></span>')


def step_open(plan: dict[str, str], step: str, css: Markup) -> Markup:
    """A fieldset step's opening tag: its class (`css`, step_class's), its id, and
    data-next on the step to answer next (one output for the template instead of four)."""
    return _fieldset_open(step, css, plan.get("next") == step)


def error_for(errors: dict[str, str], step: str) -> Markup:
    if not errors.get(step):
        return _NO_ERROR
    return Markup('<p class="error" id="err-%s">%s</p>') % (step, errors[step])


# Shared by every page without errors: the template only reads it.
_NO_ERRORS = SimpleNamespace(**dict.fromkeys(STEPS, _NO_ERROR))


def described_by(errors: dict[str, str], step: str) -> str:
    """The buttons' aria-describedby, naming their step's error when it has one."""
    return f' aria-describedby="err-{escape(step)}"' if errors.get(step) else ""


def _group(kind: str, name: str, choices, chosen, described: str) -> Markup:
    """One group of buttons; `choices`: (value, label) already escaped; `chosen`: those
    of their values that are ticked."""
    parts = [f'<div class="choices choices-{name}">\n    ']
    for value, label in choices:
        parts.append(
            f'\n      <label class="{_choice_class(value, value in chosen)}" '
            f'for="{name}-{value}"><input type="{kind}" '
            f'name="{name}" id="{name}-{value}" value="{value}"'
            f'{" checked" if value in chosen else ""}{described}><span>{label}</span>'
            '</label>\n    ')
    parts.append("\n  </div>")
    return Markup("".join(parts))


def _choice_class(value: str, checked: bool) -> str:
    """A button's classes: the chosen one and a thrower's are marked by the server, for the
    browsers without :has() (table.js keeps "is-checked" true as East taps)."""
    return ("choice" + (" choice-thrown" if value.startswith("thrown:") else "")
            + (" is-checked" if checked else ""))


def _escaped(choices) -> tuple[tuple[str, str], ...]:
    return tuple((str(escape(value)), str(escape(label))) for value, label in choices)


@lru_cache(maxsize=512)
def _constant_radios(name: str, choices: tuple, selected: str | None,
                     described: str) -> Markup:
    """Radios whose choices are constants (of the rules): `selected` is one of their
    values or None, so the cache holds at most a few entries per group."""
    escaped = _escaped(choices)
    chosen = () if selected is None else tuple(
        value for (value, _), (raw, _) in zip(escaped, choices, strict=True)
        if str(raw) == selected)
    return _group("radio", str(escape(name)), escaped, chosen, described)


def radios(name: str, choices, selected, described: str = "") -> Markup:
    """Radio buttons for constant `choices` (a tuple of (value, label)), the one whose value
    reads as `selected` checked."""
    shown = str(selected) if selected is not None else None
    if shown is not None and all(str(value) != shown for value, _ in choices):
        shown = None  # an answer that is none of the choices: nothing is ticked
    return _constant_radios(name, choices, shown, described)


def seat_radios(name: str, seats, selected, described: str = "") -> Markup:
    """Radios for the seats as `seat_labels` gives them (a seat's letter is its own
    escape), the one that is `selected` checked."""
    shown = str(selected) if selected is not None else None
    return _group("radio", name, seats, [value for value, _ in seats if value == shown],
                  described)


def seat_checks(name: str, seats, selected, described: str = "") -> Markup:
    """Checkboxes for seats already escaped (`seat_labels`), those in `selected` ticked."""
    chosen = selected or []
    return _group("checkbox", name, seats, [value for value, _ in seats if value in chosen],
                  described)


# A name under its seat on a button a third of a 360 px screen wide (about 75 px): longer
# ones are said as "Ruth A.", or the first name alone, never cut mid-word.
STACKED_NAME_LETTERS = 9


def stacked_seat_labels(seats) -> tuple[tuple[str, str], ...]:
    """(seat, markup) naming the seat, then the player under it: for buttons that sit three
    to a row."""
    shorts = short_names([player.name for player in seats.values()], STACKED_NAME_LETTERS)
    return tuple((seat, str(Markup('<strong>%s</strong> <span class="who">%s</span>')
                            % (SEAT_NAMES.get(seat, seat), short)))
                 for seat, short in zip(seats, shorts, strict=True))


def seat_labels(seats) -> tuple[tuple[str, str], ...]:
    """(seat, "East · Ruth Abrams") for each seated player, escaped."""
    return _escaped((seat, f"{SEAT_NAMES.get(seat)} · {player.name}")
                    for seat, player in seats.items())


@lru_cache(maxsize=64)
def _flag(id_: str, name: str, label: str, checked: bool, hint: str | None) -> Markup:
    small = Markup(" <small>%s</small>") % hint if hint else ""
    return Markup('<label class="%s" for="%s"><input type="checkbox" name="%s" id="%s" '
                  'value="y"%s><span>%s%s</span></label>') % (
        _choice_class("", checked), id_, name, id_, Markup(" checked") if checked else "",
        label, small)


def flag(field) -> Markup:
    """A yes/no answer of the form (a BooleanField) as one checkbox button."""
    return _flag(field.id, field.name, field.label.text, bool(field.data),
                 FLAG_HINTS.get(field.name))


def win_by_choices(rules, winner: str | None, seats) -> tuple[tuple[str, str], ...]:
    """How the winner got the winning tile, under these rules, and who threw it, as one
    question: "Thrown by West" is one tap, not "Thrown" and then "West" (heavenly only for
    East, or while the winner is not chosen). `seats`: (seat, name) of each seated player.
    Labels are markup, escaped here: a thrower's button names the seat, then the player."""
    choices = [("self", "Self-picked")]
    if rules.joker_exchange_self_picked:
        choices.append(("joker_exchange", "Finesse (joker exchange): self-picked"))
    if rules.heavenly and (winner == "E" or winner not in dict(seats)):
        choices.append(("heavenly", "Heavenly or earthly hand (East)"))
    out = [(value, str(escape(label))) for value, label in choices]
    shorts = short_names([name for _seat, name in seats], STACKED_NAME_LETTERS)
    out += [(f"thrown:{seat}", str(Markup('<span class="by">Thrown by</span> %s '
                                           '<span class="who">%s</span>')
                                    % (SEAT_NAMES.get(seat, seat), short)))
            for (seat, _name), short in zip(seats, shorts, strict=True) if seat != winner]
    return tuple(out)


def _win_by_shown(form) -> str | None:
    thrower = form.thrown_by()
    return f"thrown:{thrower}" if thrower else form.win_by.data


WIN_BY_WORDS = {"self": "self-picked", "joker_exchange": "Finesse (self-picked)",
                "heavenly": "heavenly hand"}


def answer_chips(form, plan: dict[str, str], seats, outcome_choices) -> Markup:
    """The answered questions as one line of buttons ("South won · 25 · thrown by West ·
    2 exposures"), each tapped to open its question again (static/js/table.js); drawn
    only with JavaScript (table.css), where the answered questions fold away."""
    words: list[tuple[str, str]] = []
    outcome = form.outcome.data
    names = dict(outcome_choices)

    def seat(letter):
        return SEAT_NAMES.get(letter, letter or "")

    for step in ("outcome", "winner", "value", "win_by", "exposures", "misnamer",
                 "in_error", "intact"):
        if plan.get(step) != "done":
            continue
        if step == "outcome":
            words.append((step, f"{seat(form.winner.data)} won"
                          if outcome == "mahjong" and form.winner.data
                          else names.get(outcome, outcome)))
        elif step == "winner":
            continue  # said with the ending
        elif step == "value":
            try:
                words.append((step, str(form.card_value())))
            except InvalidGame:  # an unreadable value is not folded: its error shows
                continue
        elif step == "win_by":
            thrower = form.thrown_by()
            words.append((step, f"{seat(thrower)} threw" if thrower
                          else WIN_BY_WORDS.get(form.win_by.data, form.win_by.data)))
        elif step == "exposures":
            n = form.exposures.data
            words.append((step, f"{n} exposure{'' if n == '1' else 's'}"))
        elif step == "misnamer":
            words.append((step, f"misnamed by {seat(form.misnamer.data)}"))
        elif step == "in_error":
            words.append((step, "in error: " + ", ".join(seat(s) for s in form.in_error.data)))
        elif step == "intact":
            words.append((step, f"{seat(form.intact.data)} intact"))
    if not words:
        return Markup("")
    items = "".join(
        Markup('<li><button type="button" class="chip" data-step="%s" aria-controls="step-%s" '
               'aria-expanded="false">%s <span class="pencil" aria-hidden="true">\u270e</span>'
               '<span class="visually-hidden"> (change)</span></button></li>')
        % (step, step, text) for step, text in words)
    return Markup('<ul class="answers" aria-label="Your answers so far: tap one to change '
                  'it">%s</ul>') % Markup(items)


def wizard(form, seats, rules, plan: dict[str, str], errors: dict[str, str],
           outcome_choices, penalty_kinds) -> dict:
    """The template's step_class, step_open, error_for (each by step), buttons (each group by its
    step or field) and penalties ((legend, buttons) per penalty of the rules)."""
    seat_choices = seat_labels(seats)
    outcome = form.outcome.data
    winner = form.winner.data
    errored = outcome in IN_ERROR_OUTCOMES
    extras = described_by(errors, "extras")
    outcomes = tuple(outcome_choices)
    buttons = SimpleNamespace(
        # who won is how the game ended: "South · Gloria Park" is one tap for both
        winners=seat_radios("outcome", tuple((f"mahjong:{seat}", label)
                                             for seat, label in seat_choices),
                            f"mahjong:{winner}" if outcome == "mahjong" and winner else None,
                            described_by(errors, "outcome")),
        outcome=radios("outcome", outcomes[1:3], outcome, described_by(errors, "outcome")),
        rare=(radios("outcome", outcomes[3:], outcome, described_by(errors, "outcome"))
              if len(outcomes) > 3 else None),
        rare_chosen=outcome in [value for value, _ in outcomes[3:]],
        winner=seat_radios("winner", seat_choices, winner, described_by(errors, "winner")),
        value=radios("value", _VALUES, form.value.data, described_by(errors, "value")),
        win_by=seat_radios("win_by", win_by_choices(
            rules, winner, [(seat, player.name) for seat, player in seats.items()]),
                           _win_by_shown(form), described_by(errors, "win_by")),
        misnamed_discard=flag(form.misnamed_discard),
        exposures=radios("exposures", _EXPOSURES, form.exposures.data,
                         described_by(errors, "exposures")),
        jokerless=flag(form.jokerless),
        singles_and_pairs=flag(form.singles_and_pairs),
        quint=flag(form.quint),
        misnamer=seat_radios("misnamer", seat_choices, form.misnamer.data,
                             described_by(errors, "misnamer")),
        in_error=seat_checks("in_error", seat_choices, form.in_error.data if errored else [],
                             described_by(errors, "in_error")),
        intact=seat_radios("intact", seat_choices, form.intact.data,
                           described_by(errors, "intact")),
        dead=(seat_checks("dead", stacked_seat_labels(seats), form.dead.data,
                          described_by(errors, "dead"))
              if outcome in DEAD_CHANGES_POINTS else
              seat_checks("dead", seat_choices, form.dead.data, extras)),
        no_dead=_flag("no_dead", "no_dead", "No dead hands",
                      bool(form.no_dead.data) and not form.dead.data, None),
        in_error_extra=(_in_error_extra(seat_choices, form.in_error.data)
                        if rules.mah_jongg_in_error and not errored else None),
    )
    penalties = [(label.lower(), seat_checks("pen_" + kind, seat_choices,
                                             getattr(form, "pen_" + kind).data, extras))
                 for kind, label in penalty_kinds]
    classes = {step: step_class(plan, errors, step) for step in STEPS}
    return dict(
        chips=answer_chips(form, plan, seats, outcome_choices),
        step_class=SimpleNamespace(**classes),
        step_open=SimpleNamespace(**{step: step_open(plan, step, classes[step])
                                     for step in FIELDSET_STEPS}),
        error_for=(SimpleNamespace(**{step: error_for(errors, step) for step in STEPS})
                   if errors else _NO_ERRORS),
        buttons=buttons, penalties=penalties)


def _in_error_extra(seats, selected) -> Markup:
    """The extras' "declared Mah Jongg in error" checkboxes (when the game did not end in
    one): their ids differ from the in_error step's."""
    chosen = selected or []
    return Markup("".join(
        f'\n            <label class="{_choice_class(value, value in chosen)}" '
        f'for="in_error_x-{value}"><input type="checkbox" '
        f'name="in_error" id="in_error_x-{value}" value="{value}"'
        f'{" checked" if value in chosen else ""}><span>{label}</span></label>\n          '
        for value, label in seats))
