"""The entry wizard's choice buttons, step classes and errors (blueprints.table.entry_html):
the markup table/_entry.html shows, with every text escaped."""

from __future__ import annotations

from blueprints.table.entry_html import helpers


def test_a_radio_is_checked_by_its_value_as_text_and_names_its_error():
    html = str(helpers({}, {"value": "Pick a value"})["radios"](
        "value", [(20, "20"), (25, "25")], "25", "value"))
    assert '<div class="choices choices-value">' in html
    assert ('<label class="choice" for="value-25"><input type="radio" name="value" '
            'id="value-25" value="25" checked aria-describedby="err-value"><span>25</span>'
            '</label>') in html
    assert 'value="20" aria-describedby="err-value">' in html


def test_checkboxes_escape_the_players_names():
    html = str(helpers({}, {})["checks"]("dead", [("E", "East · Ruth <A> & Co")], ["E"],
                                         "extras"))
    assert ('<input type="checkbox" name="dead" id="dead-E" value="E" checked>'
            '<span>East · Ruth &lt;A&gt; &amp; Co</span>') in html


def test_step_class_and_error():
    found = helpers({"winner": "later", "value": "skip"}, {"value": "Say <how>"})
    assert str(found["step_class"]("winner")) == "step step-later"
    assert str(found["step_class"]("value")) == "step step-skip has-error"
    assert str(found["step_class"]("outcome")) == "step"
    assert str(found["error_for"]("value")) == '<p class="error" id="err-value">Say &lt;how&gt;</p>'
    assert str(found["error_for"]("outcome")) == ""
