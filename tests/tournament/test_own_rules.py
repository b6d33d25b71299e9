"""A director's own rule set: started from a preset or from a blank one, under her own
name, shown in her words, and the sign-off where the player across checks each score.

The sheets quoted are docs/rules/ (Destination is 004_469325624ddf7854.txt). Her own
event's sheet, as the organiser tried it, states East's score checked by West and so on
round the table ("the player across verifies each score")."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from tournament.paper import paper_sheet
from tournament.rules import (
    BLANK,
    BLANK_KEY,
    BLANK_TO_FILL,
    PRESETS,
    RULE_FIELDS,
    InvalidRules,
    RuleSet,
    in_words,
    kept_from_preset,
    named,
    own_name,
    rule_set_name,
    rule_words,
    score_checker,
    starting_rules,
)
from tournament.scoring import Game, score_game, score_lines

CRAK = "Crak Your Bags"


def destination_copy(**changes) -> RuleSet:
    return replace(named(PRESETS["destination"], CRAK), **changes)


def test_a_blank_rule_set_has_no_bonus_no_penalty_and_no_extra_rule():
    assert starting_rules(BLANK_KEY) is BLANK
    assert (BLANK.self_pick_bonus, BLANK.jokerless_bonus, BLANK.wall_game_points) == (0, 0, 0)
    assert BLANK.thrower_penalty == (0, 0, 0, 0, 0)
    # none of a preset's extra penalties is carried into a blank set
    assert BLANK.blind_pass_peek_penalty is None and BLANK.misnamed_exposure_penalty is None
    assert BLANK.misnamed_discard_penalty is None and BLANK.quint_two_exposure_penalty is None
    assert not (BLANK.misnamed_tile_game or BLANK.mah_jongg_in_error or BLANK.heavenly)
    assert BLANK.game_signoff is None and BLANK.mini_tournament is None
    assert set(BLANK_TO_FILL) == {"self_pick_bonus", "jokerless_bonus", "thrower_penalty",
                                  "wall_game_points"}


def test_a_blank_rule_set_round_trips_and_an_old_one_keeps_its_blank_values():
    stored = json.loads(json.dumps(named(BLANK, CRAK).to_dict()))
    assert RuleSet.from_dict(stored) == named(BLANK, CRAK)
    del stored["misnamed_discard_penalty"]  # a rule every stored set has: still refused
    with pytest.raises(InvalidRules):
        RuleSet.from_dict(stored)
    stored = named(BLANK, CRAK).to_dict()
    del stored["joker_exchange_self_picked"]  # a later rule: taken from the blank set
    assert RuleSet.from_dict(stored) == named(BLANK, CRAK)


def test_a_blank_rule_set_refuses_the_penalties_it_does_not_have():
    rules = replace(named(BLANK, CRAK), self_pick_bonus=10)
    record = {"outcome": "mahjong", "winner": "S", "value": 25, "self_picked": True,
              "penalties": [{"seat": "E", "kind": "blind_pass_peek"}]}
    from tournament.scoring import InvalidGame
    with pytest.raises(InvalidGame, match="Crak Your Bags rules have no penalty"):
        score_game(rules, Game.from_dict(record))


@pytest.mark.parametrize("typed, stored", [
    ("Crak Your Bags", "Crak Your Bags"),
    ("Crak Your Bags rules", "Crak Your Bags"),
    ("  Crak   Your Bags  Rules ", "Crak Your Bags"),
    ("Spring Fling rule set", "Spring Fling"),
])
def test_her_name_is_stored_without_a_doubled_rules(typed, stored):
    assert rule_set_name(typed) == stored
    rules = named(PRESETS["destination"], typed)
    assert rules.name == rules.short_name == stored
    assert own_name(rules) and not own_name(PRESETS["destination"])
    assert rules.key == "destination"  # still knows the sheet it started from


@pytest.mark.parametrize("typed, message", [
    ("", "Please give your rule set a name"),
    ("rules", "Please give your rule set a name"),
    ("x" * 61, "under 60 characters"),
    ("Crak\tBags\x07", "letters, numbers and punctuation"),
])
def test_a_name_that_cannot_be_shown_is_refused(typed, message):
    with pytest.raises(InvalidRules, match=message) as refused:
        rule_set_name(typed)
    assert refused.value.field == "name"


def test_every_score_line_carries_her_name_not_the_presets():
    # destination: "MINUS 10 points – Player who THROWS Mah Jongg to a hand with NO
    # exposures or ONE exposure"; under her name the line says whose rules they are
    game = Game.from_dict({"outcome": "mahjong", "winner": "S", "value": 25,
                           "discarder": "W", "exposures": 1})
    labels = [line.label for line in score_lines(destination_copy(), game)]
    assert any("(Crak Your Bags)" in label for label in labels)
    assert not any("Destination" in label for label in labels)


def test_her_number_scores_where_she_changed_the_presets():
    # destination: "MINUS 25 points – Player who THROWS Mah Jongg to a hand with THREE or
    # more exposures"; her sheet says 30
    game = Game.from_dict({"outcome": "mahjong", "winner": "S", "value": 30,
                           "discarder": "W", "exposures": 3})
    assert score_game(PRESETS["destination"], game)["W"] == -25
    assert score_game(destination_copy(thrower_penalty=(-10, -10, -20, -30, -30)),
                      game)["W"] == -30


def test_the_sheets_words_show_only_where_she_kept_its_number():
    ours = destination_copy(thrower_penalty=(-10, -10, -20, -30, -30))
    quote, plain = rule_words(ours, "thrower_penalty")
    assert quote is None  # "MINUS 25" beside her -30 would contradict her rules
    assert plain == ("The player who throws the winning tile loses 10 points to a hand with "
                     "0 or 1 exposures, 20 points to a hand with 2 exposures, 30 points to a "
                     "hand with 3 or more exposures.")
    # destination: "PLUS 10 points – Player who PICKS their own Mah Jongg." (kept)
    quote, _ = rule_words(ours, "self_pick_bonus")
    assert quote == "PLUS 10 points – Player who PICKS their own Mah Jongg."
    assert kept_from_preset(ours, "self_pick_bonus")
    assert not kept_from_preset(ours, "thrower_penalty")


def test_a_blank_set_has_no_sheet_to_quote():
    ours = replace(named(BLANK, CRAK), self_pick_bonus=10)
    for rule in RULE_FIELDS:
        quote, plain = rule_words(ours, rule.name)
        assert quote is None and plain
    assert in_words(ours, "self_pick_bonus") == ("A winner who picked the winning tile from "
                                                 "the wall gets 10 points more.")
    assert in_words(ours, "thrower_penalty") == ("The player who throws the winning tile "
                                                 "loses nothing.")
    assert in_words(ours, "blind_pass_peek_penalty") == ("No penalty for looking at a stolen "
                                                         "tile in a blind pass.")


@pytest.mark.parametrize("field, value, words", [
    ("jokerless_bonus", 15, "A winning hand with no jokers gets 15 points more"),
    ("wall_game_points", 5, "each player not dead and not in error gets 5 points"),
    ("blind_pass_peek_penalty", -5, "Looking at a stolen tile in a blind pass loses 5 points"),
    ("quint_two_exposure_penalty", -30, "loses 30 points to a Quint hand with 2 exposures"),
    ("time_called_zeroes", "round", "every game of that table's round scores 0"),
    ("game_signoff", "across", "the player across verifies each score"),
    ("west_checks_sheet", False, "West checks East's sheet before it is submitted: no"),
])
def test_her_numbers_in_plain_words(field, value, words):
    assert words in in_words(destination_copy(**{field: value}), field)


@pytest.mark.parametrize("signoff, checks", [
    ("across", {"E": "W", "S": "N", "W": "E", "N": "S"}),   # her sheet: the player across
    ("all", {"E": "E", "S": "S", "W": "W", "N": "N"}),      # destination: "confirm your score"
    ("winner", dict.fromkeys("ESWN")),                      # tnt: the winner initials
    (None, dict.fromkeys("ESWN")),
])
def test_who_checks_each_score(signoff, checks):
    rules = destination_copy(game_signoff=signoff)
    assert {seat: score_checker(rules, seat) for seat in "ESWN"} == checks


def test_the_across_sign_off_is_a_rule_a_stored_set_may_hold():
    stored = destination_copy(game_signoff="across").to_dict()
    assert RuleSet.from_dict(stored).game_signoff == "across"


def test_the_printed_sheet_wears_her_name_and_her_sign_off():
    sheet = paper_sheet(destination_copy(game_signoff="across"))
    assert sheet.rules_name == "Crak Your Bags rules"
    assert sheet.game_initials_per_seat
    assert "the player across" in sheet.game_initials_note
    assert paper_sheet(PRESETS["destination"]).rules_name == "Destination rules"


def test_a_blank_sets_printed_sheet_carries_no_preset_penalty():
    sheet = paper_sheet(replace(named(BLANK, CRAK), self_pick_bonus=10))
    assert "Penalties (seat, what)" not in sheet.columns
    assert not any("blind-pass" in line or "Misnamed" in line for line in sheet.key)
    assert sheet.game_initials == "" and sheet.game_initials_note == ""
