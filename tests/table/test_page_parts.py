"""Parts of the table's pages built without url_for or WTForms' rendering read exactly
as those give them."""

from __future__ import annotations

from types import SimpleNamespace

from flask import url_for
from werkzeug.datastructures import MultiDict

from blueprints.common import link
from blueprints.table.pages import hidden_inputs
from tournament.rules import PRESETS


def test_table_links_match_url_for(app):
    endpoints = ("table.page", "table.entry", "table.review", "table.time_called",
                 "table.save_game", "table.preview_game", "table.submit", "live.table",
                 "calls.table_state", "calls.place", "calls.cancel", "calls.dismiss")
    for root in ("", "/mahj"):
        for code, token in (("ABC123", "uqQ9O0YvBlvrhU4Q_KgyjQ"), ("A B/é?&", "x y&z=1"),
                            ("XYZ", None)):
            table = SimpleNamespace(tournament=SimpleNamespace(code=code), number=12,
                                    token=token)
            with app.test_request_context("/", base_url=f"http://mahj.test{root}/"):
                for endpoint in endpoints:
                    for round_no, values in ((None, {}), (2, {}), (3, {"g": 4}),
                                             (None, {"g": "a b"})):
                        expected = url_for(endpoint, code=code, number=12, k=token,
                                           r=round_no, **values)
                        assert expected.startswith(
                            (f"{root}/t/", f"{root}/live/t/", f"{root}/calls/t/"))
                        assert link(endpoint, table, round_no, **values) == expected


def test_hidden_inputs_match_wtforms(app):
    from blueprints.table import forms

    was = app.config.get("WTF_CSRF_ENABLED", True)
    app.config["WTF_CSRF_ENABLED"] = True
    try:
        with app.test_request_context("/"):
            for form_class in (forms.TimeCalledForm, forms.InitialForm, forms.SubmitForm,
                               forms.GameInitialForm, forms.WestCheckForm, forms.GameForm):
                form = form_class(formdata=None, version=3, round_no=2, seat="E",
                                  game_no=4, request_key='a"b<c')
                expected = "".join(str(f(id=f"p-{f.name}")) for f in form
                                   if getattr(f.widget, "input_type", None) == "hidden")
                assert 'name="csrf_token"' in expected
                assert str(hidden_inputs(form, "p")) == expected
    finally:
        app.config["WTF_CSRF_ENABLED"] = was


def test_the_csrf_macro_and_global_write_one_input_the_check_accepts(app):
    import re

    from flask import render_template_string
    from flask_wtf.csrf import validate_csrf

    with app.test_request_context("/"):
        written = render_template_string(
            '{% from "_macros/forms.html" import csrf %}{{ csrf() }}|{{ csrf_input() }}')
        macro, direct = written.split("|")
        assert macro == direct
        token = re.fullmatch(r'<input type="hidden" name="csrf_token" value="([^"]+)">',
                             macro).group(1)
        validate_csrf(token)  # raises if not


def test_next_tables_read_with_the_seats_match_next_tables_own_reading(director):
    from blueprints.table.sheet_reads import next_tables
    from blueprints.table.sheet_view import sheet_view
    from core.rounds import ensure_round, round_row
    from models import db
    from tests.conftest import make_tournament

    tournament = make_tournament(director, players=12, rounds=2)
    round_one = round_row(tournament, 1)

    def both_ways(round_):
        for table in tournament.tables:
            view = sheet_view(table, round_, panel=True)
            read = next_tables(round_, table, view.seats, view.rules, view.next_seating)
            assert read == next_tables(round_, table)
            yield view, read

    # by the movement (round 2 not seated yet), then by round 2's stored seating
    for _, read in both_ways(round_one):
        assert None not in read.values()
    ensure_round(tournament, 2)
    db.session.flush()
    list(both_ways(round_one))
    # the last round reads nothing of a next one
    for view, read in both_ways(round_row(tournament, 2)):
        assert view.next_seating is None and read == dict.fromkeys("ESWN")


def test_the_entry_pages_defaults_read_as_a_blank_game_form(app):
    """GameDefaults (a GET of the entry page) has each GameForm field's name, id, label and
    default, and the CSRF token's input exactly as the form renders it."""
    from blueprints.table import forms

    was = app.config.get("WTF_CSRF_ENABLED", True)
    try:
        for enabled in (True, False):
            app.config["WTF_CSRF_ENABLED"] = enabled
            with app.test_request_context("/"):
                form, defaults = forms.GameForm(formdata=None), forms.GameDefaults()
                for field in form:
                    if field.name == "csrf_token":
                        continue  # the template's csrf_input(): see the test below
                    shown = getattr(defaults, field.name)
                    assert (shown.name, shown.id, shown.label.text, shown.data) == (
                        field.name, field.id, field.label.text, field.data)
                # each page fills its own copy
                defaults.load({"outcome": "wall", "dead": ["E"]}, "n")
                assert forms.GameDefaults().dead.data is None
                assert defaults.record(PRESETS["tnt"]) == forms.GameForm(
                    formdata=MultiDict({"outcome": "wall", "dead": ["E"]})).record(
                    PRESETS["tnt"])
    finally:
        app.config["WTF_CSRF_ENABLED"] = was


def test_the_entry_form_carries_its_csrf_token_without_javascript(app, east):
    """The entry form's token is a hidden input of the form itself (csrf_input), on the
    page and in each preview: a phone without JavaScript posts it with the game and is
    not refused; a post without it is."""
    import re

    was = app.config.get("WTF_CSRF_ENABLED", True)
    app.config["WTF_CSRF_ENABLED"] = True
    try:
        token = re.compile(r'<form id="entry".*?<input type="hidden" name="csrf_token" '
                           r'value="([^"]+)">', re.S)
        page = east.get("/game").get_data(as_text=True)
        preview = east.post("/game/preview", {"csrf_token": token.search(page).group(1),
                                              "game_no": 1, "round_no": 1, "version": 1,
                                              "outcome": "wall"}).get_data(as_text=True)
        game = {"game_no": 1, "round_no": 1, "entered_as": "new", "version": 1,
                "request_key": "wall-1", "initials": "ab", "outcome": "wall",
                "no_dead": "y"}
        assert east.post("/game", game).status_code == 400  # no token: refused
        saved = east.post("/game", {**game, "csrf_token": token.search(preview).group(1)})
        assert saved.status_code == 303
    finally:
        app.config["WTF_CSRF_ENABLED"] = was
