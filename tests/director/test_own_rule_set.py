"""The director's own rule set on the rules page: a blank start with the numbers every
sheet states asked for, her event's name shown everywhere the preset's was, her rule in
plain words where she changed a sheet's number, and the to-do that says the rules are
checked once she saves them."""

from __future__ import annotations

import re

from sqlalchemy import select

from models import AuditEvent, Tournament, db
from tests.director.conftest import enter_a_game, error_at
from tests.director.test_tournament import rules_data

BLANK_NUMBERS = {"self_pick_bonus": "10", "jokerless_bonus": "20", "wall_game_points": "10",
                 "thrower_penalty_0": "-10", "thrower_penalty_1": "-10",
                 "thrower_penalty_2": "-20", "thrower_penalty_3": "-30",
                 "thrower_penalty_4": "-30"}


def input_value(body, name):
    tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', body).group(0)
    value = re.search(r'value="([^"]*)"', tag)
    return value.group(1) if value else ""


def rules_url(tournament, tail=""):
    return f"/director/t/{tournament.id}/rules{tail}"


def blank_data(tournament, **changes):
    from blueprints.director.forms import rules_form

    form = rules_form(tournament.rules, start="blank")
    data = {}
    for f in form:
        if f.type == "CSRFTokenField":
            continue
        if f.type == "BooleanField":
            if f.data:
                data[f.name] = "y"
        else:
            data[f.name] = "" if f.data is None else str(f.data)
    data.update(changes)
    return data


def test_choosing_a_blank_rule_set_shows_it_and_changes_nothing(client, tournament):
    before = dict(tournament.rules)
    response = client.post(rules_url(tournament, "/preset"), data={"preset": "blank"})
    assert response.status_code == 302 and "start=blank" in response.location
    body = client.get(response.location).get_data(as_text=True)
    assert "A blank rule set" in body and 'name="start" type="hidden" value="blank"' in body
    assert body.count("Fill this in") == 4
    for name in ("self_pick_bonus", "jokerless_bonus", "wall_game_points",
                 "thrower_penalty_3"):
        assert input_value(body, name) == "", name
    assert input_value(body, "misnamed_tile_penalty") == "0"  # a sensible zero
    db.session.expire_all()
    assert tournament.rules == before and tournament.preset == "tnt"


def test_a_blank_rule_set_needs_the_numbers_every_sheet_states(client, tournament):
    before = dict(tournament.rules)
    response = client.post(rules_url(tournament), data=blank_data(
        tournament, rule_set_name="Crak Your Bags"))
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert "Please fill in: self-pick bonus." in error_at(body, "self_pick_bonus")
    assert "A blank rule set" in body  # still the blank form, her typing kept
    db.session.expire_all()
    assert tournament.rules == before and tournament.rules_checked_at is None


def test_a_blank_rule_set_needs_a_name(client, tournament):
    before = dict(tournament.rules)
    response = client.post(rules_url(tournament), data=blank_data(tournament, **BLANK_NUMBERS))
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert "Please give your rule set a name" in error_at(body, "rule_set_name")
    db.session.expire_all()
    assert tournament.rules == before


def test_a_blank_rule_set_saved_under_her_name(client, tournament):
    response = client.post(rules_url(tournament), data=blank_data(
        tournament, rule_set_name="Crak Your Bags rules", game_signoff="across",
        **BLANK_NUMBERS))
    assert response.status_code == 302
    db.session.expire_all()
    rules = tournament.rules
    assert tournament.preset == "blank" and rules["key"] == "blank"
    assert rules["name"] == rules["short_name"] == "Crak Your Bags"
    assert rules["thrower_penalty"] == [-10, -10, -20, -30, -30]
    assert rules["self_pick_bonus"] == 10 and rules["game_signoff"] == "across"
    # TNT's extra penalties are not carried into her blank set
    assert rules["blind_pass_peek_penalty"] is None
    assert rules["misnamed_exposure_penalty"] is None
    assert rules["games_per_round"] == 4  # the tournament's details are kept
    assert tournament.rules_checked_at is not None
    event = db.session.scalar(select(AuditEvent).where(AuditEvent.action == "rules.update"))
    assert event.after["name"] == "Crak Your Bags"
    page = client.get(rules_url(tournament)).get_data(as_text=True)
    assert "Crak Your Bags rules" in page and "started from a blank rule set" in page
    assert "The sheet says" not in page
    assert "loses 10 points to a hand with 0 or 1 exposures" in page
    home = client.get(f"/director/t/{tournament.id}").get_data(as_text=True)
    assert "Crak Your Bags rules ·" in home and "TNT rules" not in home


def test_her_name_on_a_preset_copy_and_her_words_where_she_changed_a_number(
        client, director):
    from tests.conftest import make_tournament

    tournament = make_tournament(director, players=8, rounds=2, preset="destination",
                                 code="CRAK11")
    response = client.post(rules_url(tournament), data=rules_data(
        tournament, rule_set_name="Crak Your Bags", thrower_penalty_3="-30",
        thrower_penalty_4="-30"))
    assert response.status_code == 302
    db.session.expire_all()
    assert tournament.preset == "destination" and tournament.rules["name"] == "Crak Your Bags"
    page = client.get(rules_url(tournament)).get_data(as_text=True)
    assert "Crak Your Bags rules</strong>, started from Destination Mah Jongg" in page
    assert "MINUS 25 points" not in page  # Destination's quote beside her -30: gone
    assert "30 points to a hand with 3 or more exposures" in page
    assert "PLUS 10 points – Player who PICKS their own Mah Jongg." in page  # kept: quoted
    sheets = client.get(f"/director/t/{tournament.id}/rounds/1/sheets").get_data(
        as_text=True)
    assert "Crak Your Bags rules" in sheets and "Destination" not in sheets


def test_an_empty_name_gives_the_sheet_its_own_name_back(client, tournament):
    client.post(rules_url(tournament), data=rules_data(tournament, rule_set_name="Spring"))
    db.session.expire_all()
    assert tournament.rules["short_name"] == "Spring"
    page = client.get(rules_url(tournament)).get_data(as_text=True)
    assert 'name="rule_set_name" type="text" value="Spring"' in page
    client.post(rules_url(tournament), data=rules_data(tournament, rule_set_name=""))
    db.session.expire_all()
    assert tournament.rules["name"] == "Tile Nation Tournaments (TNT)"
    assert tournament.rules["short_name"] == "TNT"


def test_a_name_that_cannot_be_shown_is_refused_at_its_field(client, tournament):
    before = dict(tournament.rules)
    response = client.post(rules_url(tournament), data=rules_data(
        tournament, rule_set_name="x" * 70))
    assert response.status_code == 422
    assert "under 60 characters" in error_at(response.get_data(as_text=True),
                                             "rule_set_name")
    db.session.expire_all()
    assert tournament.rules == before


def test_the_rules_to_do_is_done_once_the_rules_are_saved(client, tournament):
    home = f"/director/t/{tournament.id}"
    page = client.get(home).get_data(as_text=True)
    assert "To do:</span> Rules: check them and save" in page
    assert client.post(rules_url(tournament), data=rules_data(tournament)).status_code == 302
    page = client.get(home).get_data(as_text=True)
    assert "To do:</span> Rules" not in page
    assert "Done:</span> Rules: TNT rules saved" in page
    # a preset applied afterwards replaces every number: they are to check again
    client.post(rules_url(tournament, "/preset"), data={"preset": "city-mahj"})
    assert "To do:</span> Rules: check them" in client.get(home).get_data(as_text=True)


def test_the_rules_to_do_is_done_once_scores_are_in(client, tournament):
    enter_a_game(tournament)
    page = client.get(f"/director/t/{tournament.id}").get_data(as_text=True)
    assert "Done:</span> Rules: fixed (scores are in)" in page


def test_a_blank_rule_set_cannot_replace_rules_that_are_fixed(client, tournament):
    enter_a_game(tournament)
    before = dict(tournament.rules)
    response = client.post(rules_url(tournament), data=blank_data(
        tournament, rule_set_name="Crak Your Bags", **BLANK_NUMBERS))
    assert response.status_code == 409
    db.session.expire_all()
    assert tournament.rules == before and tournament.preset == "tnt"
    assert db.session.get(Tournament, tournament.id).rules_checked_at is None


def test_a_new_tournament_can_start_from_a_blank_rule_set(client, director):
    """Creating her event, she picks "a blank rule set" and lands on it to fill in, not on a
    preset she must first find and blank out."""
    page = client.get("/director/new").get_data(as_text=True)
    assert "A blank rule set: my own numbers" in page
    response = client.post("/director/new", data={
        "name": "Crak Your Bags Fall Classic", "preset": "blank", "rounds": "3",
        "prize_places": "3"})
    assert response.status_code == 302 and "start=blank" in response.location
    tournament = db.session.scalar(db.select(Tournament))
    assert tournament.rules_checked_at is None  # the to-do says so until she saves
    body = client.get(response.location).get_data(as_text=True)
    assert 'name="start" type="hidden" value="blank"' in body
    assert "Next: your own rules" in body
    response = client.post(rules_url(tournament), data=blank_data(
        tournament, rule_set_name="Crak Your Bags", **BLANK_NUMBERS))
    assert response.status_code == 302
    db.session.expire_all()
    assert tournament.preset == "blank" and tournament.rules["name"] == "Crak Your Bags"
