"""The entry wizard's choice buttons, step classes and errors (blueprints.table.entry_html):
the markup table/_entry.html shows, with every text escaped."""

from __future__ import annotations

from types import SimpleNamespace

from blueprints.table.entry_html import (
    described_by,
    error_for,
    radios,
    seat_checks,
    seat_labels,
    seat_radios,
    step_class,
    step_open,
    wizard,
)
from tournament.rules import PRESETS


def test_a_radio_is_checked_by_its_value_as_text_and_names_its_error():
    html = str(radios("value", ((20, "20"), (25, "25")), "25",
                      described_by({"value": "Pick a value"}, "value")))
    assert '<div class="choices choices-value">' in html
    # the chosen one marked by a class too: :has() is missing before Safari 15.4
    assert ('<label class="choice is-checked" for="value-25"><input type="radio" name="value" '
            'id="value-25" value="25" checked aria-describedby="err-value"><span>25</span>'
            '</label>') in html
    assert 'value="20" aria-describedby="err-value">' in html
    assert '<label class="choice" for="value-20">' in html
    assert "checked" in str(radios("value", ((20, "20"), (25, "25")), 20))


def test_an_answer_that_is_no_choice_ticks_nothing_and_is_not_kept():
    html = str(radios("value", ((20, "20"), (25, "25")), "<26>"))
    assert "checked" not in html and "26" not in html


def test_constant_labels_are_escaped():
    html = str(radios("win_by", (("a&b", "Self <picked>"),), "a&b"))
    assert ('for="win_by-a&amp;b"><input type="radio" name="win_by" id="win_by-a&amp;b" '
            'value="a&amp;b" checked><span>Self &lt;picked&gt;</span>') in html


def test_checkboxes_escape_the_players_names():
    seats = seat_labels({"E": SimpleNamespace(name="Ruth <A> & Co"),
                         "S": SimpleNamespace(name="Sam")})
    html = str(seat_checks("dead", seats, ["E"]))
    assert ('<input type="checkbox" name="dead" id="dead-E" value="E" checked>'
            '<span>East · Ruth &lt;A&gt; &amp; Co</span>') in html
    assert 'id="dead-S" value="S"><span>South · Sam</span>' in html
    radio = str(seat_radios("winner", seats, "S", described_by({"winner": "x"}, "winner")))
    assert ('id="winner-S" value="S" checked aria-describedby="err-winner"><span>South · Sam'
            in radio)


def test_step_class_and_error():
    plan, errors = {"winner": "later", "value": "skip"}, {"value": "Say <how>"}
    assert str(step_class(plan, errors, "winner")) == "step step-later"
    assert str(step_class(plan, errors, "value")) == "step step-skip has-error"
    assert str(step_class(plan, errors, "outcome")) == "step"
    assert str(error_for(errors, "value")) == '<p class="error" id="err-value">Say &lt;how&gt;</p>'
    assert str(error_for(errors, "outcome")) == ""


def test_a_fieldset_step_opens_with_its_class_and_only_the_next_step_marked():
    plan, errors = {"outcome": "show", "winner": "later", "next": "outcome"}, {"winner": "x"}
    assert str(step_open(plan, "outcome", step_class(plan, errors, "outcome"))) == (
        '<span id="next-step"></span><fieldset data-next class="step" id="step-outcome">')
    assert str(step_open(plan, "winner", step_class(plan, errors, "winner"))) == (
        '<fieldset class="step step-later has-error" id="step-winner">')


def _field(name, data=None, label=""):
    return SimpleNamespace(name=name, id=name, data=data, label=SimpleNamespace(text=label))


def test_the_wizard_ticks_the_answers_and_leaves_the_winner_out_of_the_throwers():
    form = SimpleNamespace(
        outcome=_field("outcome", "mahjong"), winner=_field("winner", "S"),
        value=_field("value", "30"), win_by=_field("win_by", "thrown:W"),
        thrower=_field("thrower"), exposures=_field("exposures", "2"),
        thrown_by=lambda: "W", no_dead=_field("no_dead", False),
        misnamer=_field("misnamer"), intact=_field("intact"),
        in_error=_field("in_error", ["N"]), dead=_field("dead", ["E"]),
        pen_blind_pass_peek=_field("pen_blind_pass_peek", ["W"]),
        misnamed_discard=_field("misnamed_discard", False, "Misnamed"),
        jokerless=_field("jokerless", True, "Jokerless & more"),
        singles_and_pairs=_field("singles_and_pairs", False, "S&P"),
        quint=_field("quint", False, "Quint"))
    seats = {seat: SimpleNamespace(name=f"P{seat}") for seat in "ESWN"}
    parts = wizard(form, seats, PRESETS["tnt"], {"next": "hand", "misnamer": "skip"},
                   {"win_by": "No"}, [("mahjong", "Mah Jongg"), ("wall", "Wall game")],
                   [("blind_pass_peek", "Looked at a Blind-pass tile")])
    buttons = parts["buttons"]
    # who won is asked with how the game ended
    assert 'id="outcome-mahjong:S" value="mahjong:S" checked>' in buttons.winners
    assert 'id="winner-S" value="S" checked>' in buttons.winner
    # the thrower is chosen with how the tile came: "Thrown by West", never the winner
    assert "thrown:S" not in buttons.win_by
    assert ('id="win_by-thrown:W" value="thrown:W" checked aria-describedby="err-win_by">'
            '<span><span class="by">Thrown by</span> West <span class="who">PW</span>'
            in buttons.win_by)
    assert 'id="value-30" value="30" checked>' in buttons.value
    assert 'id="exposures-2" value="2" checked>' in buttons.exposures
    assert buttons.rare is None
    assert 'class="choice choice-thrown is-checked" for="win_by-thrown:W"' in buttons.win_by
    assert buttons.jokerless == ('<label class="choice is-checked" for="jokerless">'
                                 '<input type="checkbox" '
                                 'name="jokerless" id="jokerless" value="y" checked><span>'
                                 'Jokerless &amp; more</span></label>')
    assert "<small>(rare)</small>" in buttons.misnamed_discard
    # a Mah Jongg: the in-error seats are ticked among the extras, not at the step
    assert "checked" not in buttons.in_error
    assert 'id="in_error_x-N" value="N" checked>' in buttons.in_error_extra
    assert parts["penalties"][0][0] == "looked at a blind-pass tile"
    assert 'id="pen_blind_pass_peek-W" value="W" checked>' in parts["penalties"][0][1]
    assert parts["step_class"].misnamer == "step step-skip"
    assert parts["step_class"].win_by == "step has-error"
