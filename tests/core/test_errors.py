"""core.errors.attach puts a refusal at the form field it names."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import IntegerField, StringField

from core.errors import Conflict, Refused, TooMany
from tournament.errors import FieldError


class PointsForm(FlaskForm):
    class Meta:
        csrf = False

    points = IntegerField()
    reason = StringField()


def test_a_refusal_lands_on_its_field(app):
    with app.test_request_context():
        form = PointsForm()
        assert attach_and_report(form, Refused("points", "Points must be a whole number."))
        assert form.points.errors == ["Points must be a whole number."]
        assert form.form_errors == []


def test_a_refusal_for_no_field_of_the_form_goes_to_the_form(app):
    with app.test_request_context():
        form = PointsForm()
        assert not attach_and_report(form, Refused(None, "This sheet was submitted."))
        assert form.form_errors == ["This sheet was submitted."]


def test_a_fallback_field_takes_an_unknown_field(app):
    with app.test_request_context():
        form = PointsForm()
        from core.errors import attach

        assert attach(form, FieldError("game_no", "No such game."), fallback="reason")
        assert form.reason.errors == ["No such game."]


def test_the_statuses():
    assert (Refused("x", "m").status, Conflict().status, TooMany("m").status) == (422, 409, 429)
    assert isinstance(Refused("x", "m"), FieldError)


def attach_and_report(form, error) -> bool:
    from core.errors import attach

    return attach(form, error)
