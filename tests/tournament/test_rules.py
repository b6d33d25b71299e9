"""Rule-set presets against the sheets (docs/rules/, copied from ../shared/rules) and their
README table."""

import json
import re
from dataclasses import fields, replace
from pathlib import Path

import pytest

from tournament.rules import (
    PRESETS,
    RULE_FIELDS,
    InvalidRules,
    MiniTournament,
    RuleSet,
    readings,
    wording,
)

SHEETS = Path(__file__).resolve().parents[2] / "docs" / "rules"
IDENTITY = {"key", "name", "short_name", "sheet"}


def test_one_preset_per_sheet():
    assert list(PRESETS) == ["tnt", "city-mahj", "hidden-tile", "rules-of-the-road",
                             "destination"]
    assert [rules.sheet for rules in PRESETS.values()] == [
        "000_5ca60a422e8b9084.txt", "001_58163e568a1b39df.txt", "002_b319f328912ee255.txt",
        "003_2a7852c2773d05d0.txt", "004_469325624ddf7854.txt"]
    assert all(key == rules.key for key, rules in PRESETS.items())
    assert PRESETS["tnt"].name == "Tile Nation Tournaments (TNT)"


# Every row of the README's side-by-side table, preset by preset.
@pytest.mark.parametrize("preset, field, expected", [
    # self-picked
    ("tnt", "self_pick_bonus", 10),            # tnt: "+ 10 points for a player who PICKS..."
    ("city-mahj", "self_pick_bonus", 10),      # city-mahj: "Self-pick: +10 points."
    ("hidden-tile", "self_pick_bonus", 10),    # hidden-tile: "Add +10 points when the winning..."
    ("rules-of-the-road", "self_pick_bonus", 10),  # README: "not stated: +10"
    ("destination", "self_pick_bonus", 10),    # destination: "PLUS 10 points – Player who PICKS"
    # no jokers
    ("tnt", "jokerless_bonus", 10),            # tnt: "+10 points ... without any jokers"
    ("city-mahj", "jokerless_bonus", 10),      # city-mahj: "Jokerless: +10 points"
    ("hidden-tile", "jokerless_bonus", 20),    # hidden-tile: "Add +20 points ... no jokers"
    ("rules-of-the-road", "jokerless_bonus", 10),  # README: "not stated: +10"
    ("destination", "jokerless_bonus", 20),    # destination: "PLUS 20 points – ... NO JOKERS"
    # thrower by the winner's exposures 0, 1, 2, 3, 4
    ("tnt", "thrower_penalty", (0, 0, -10, -25, -25)),    # tnt: "No penalty ... 0 or 1 exposure"
    ("city-mahj", "thrower_penalty", (0, 0, -10, -25, -25)),  # city-mahj: "To 2 exposures: −10"
    ("hidden-tile", "thrower_penalty", (-10, -10, -20, -25, -25)),  # "−10 points for 0-1 ..."
    ("rules-of-the-road", "thrower_penalty", (0, 0, -10, -25, -25)),  # README: "not stated"
    ("destination", "thrower_penalty", (-10, -10, -20, -25, -25)),  # "MINUS 10 ... NO exposures"
    # two exposures in a Quint hand
    ("tnt", "quint_two_exposure_penalty", -25),        # tnt: "–25 ... two exposures in a quint"
    ("city-mahj", "quint_two_exposure_penalty", -25),  # city-mahj: "in a Quint hand: −25"
    ("hidden-tile", "quint_two_exposure_penalty", None),  # README: "(no rule: -20)"
    ("rules-of-the-road", "quint_two_exposure_penalty", -25),  # README: "not stated: -25"
    ("destination", "quint_two_exposure_penalty", None),  # README: "(no rule: -20)"
    # wall game
    ("tnt", "wall_game_points", 10),           # tnt: "+10 for each player except ... dead"
    ("city-mahj", "wall_game_points", 10),     # city-mahj: "Wall game: 10 points per player."
    ("hidden-tile", "wall_game_points", 10),   # hidden-tile: "each active player receives 10"
    ("rules-of-the-road", "wall_game_points", 10),  # README: "not stated: +10"
    ("destination", "wall_game_points", 10),   # destination: "PLUS 10 points – Wall Game"
    # heavenly / earthly hand
    ("tnt", "heavenly", "bonus"),              # tnt: "+10 points if East has Mahjong ..."
    ("tnt", "heavenly_bonus", 10),
    ("city-mahj", "heavenly", None),           # README: "-"
    ("hidden-tile", "heavenly", None),         # README: "-"
    ("rules-of-the-road", "heavenly", None),   # README: "-"
    ("destination", "heavenly", "self_picked"),  # destination: "the hand is considered self-picked"
    # blind-pass peek
    ("tnt", "blind_pass_peek_penalty", -10),   # tnt: "–10 points for looking at a tile in a blind"
    ("city-mahj", "blind_pass_peek_penalty", -10),  # city-mahj: "Looking at a stolen tile ... −10"
    ("hidden-tile", "blind_pass_peek_penalty", -10),  # hidden-tile: "a -10 point penalty"
    ("rules-of-the-road", "blind_pass_peek_penalty", None),  # README: "-"
    ("destination", "blind_pass_peek_penalty", -10),  # destination: "MINUS 10 points – if you LOOK"
    # misnamed a tile called for an exposure
    ("tnt", "misnamed_exposure_penalty", -10),  # tnt: "–10 points for a player who misnames"
    ("city-mahj", "misnamed_exposure_penalty", None),
    ("hidden-tile", "misnamed_exposure_penalty", None),
    ("rules-of-the-road", "misnamed_exposure_penalty", None),
    ("destination", "misnamed_exposure_penalty", None),
    # misnamed discard that completes a Mah Jongg
    ("tnt", "misnamed_discard_penalty", -25),   # tnt: "-25 points for the mis-caller ..."
    ("city-mahj", "misnamed_discard_penalty", -25),  # city-mahj: "miscaller receives a −25"
    ("hidden-tile", "misnamed_discard_penalty", -25),  # hidden-tile: "receives a 25-point penalty"
    ("rules-of-the-road", "misnamed_discard_penalty", -25),  # "The discarder is penalized"
    ("destination", "misnamed_discard_penalty", -25),  # destination: "penalized 25 points"
    # misnamed discard that does not complete the Mah Jongg
    ("tnt", "misnamed_tile_game", True),       # tnt: "+10 for the other three players ..."
    ("tnt", "misnamed_tile_penalty", -25),     # tnt: "-25 for the mis-caller if ... not the actual"
    ("tnt", "misnamed_tile_others_bonus", 10),
    ("city-mahj", "misnamed_tile_game", True),  # city-mahj: "the other three players receive +10"
    ("hidden-tile", "misnamed_tile_game", False),  # README: "director decides"
    ("rules-of-the-road", "misnamed_tile_game", False),  # README: "-"
    ("destination", "misnamed_tile_game", False),  # README: "-"
    # Mah Jongg in error
    ("tnt", "mah_jongg_in_error", True),       # tnt: "0 points for every player ..."
    ("tnt", "error_all_exposed_points", 0),
    ("tnt", "error_one_intact_bonus", 10),     # tnt: "10 points to the only player who has not"
    ("city-mahj", "mah_jongg_in_error", True),  # city-mahj: "1 intact hand: ... 10 points."
    ("city-mahj", "error_one_intact_bonus", 10),
    ("hidden-tile", "mah_jongg_in_error", False),  # README: "director decides"
    ("rules-of-the-road", "mah_jongg_in_error", False),  # README: "-"
    ("destination", "mah_jongg_in_error", True),  # destination: "all get 0 points"
    ("destination", "error_all_exposed_points", 0),
    ("destination", "error_one_intact_bonus", 10),  # destination: "that player gets PLUS 10"
    # time called before the game ends
    ("tnt", "time_called_zeroes", "game"),     # tnt: "0 points for every player ... time is called"
    ("city-mahj", "time_called_zeroes", "game"),  # README: "-"; an unfinished game has no winner
    ("hidden-tile", "time_called_zeroes", "round"),  # hidden-tile: "0 points for the round"
    ("rules-of-the-road", "time_called_zeroes", "game"),
    ("destination", "time_called_zeroes", "game"),  # destination: "Zero for that game"
    # round
    ("tnt", "games_per_round", 4),             # tnt: "consists of four games"
    ("tnt", "round_minutes", 50),              # tnt: "Each round is 50 minutes in length"
    # sign-off and checking
    ("tnt", "game_signoff", "winner"),         # tnt: "The player who has Mahjong initials"
    ("tnt", "round_signoff_all", True),        # tnt: "have each player initial the box"
    ("city-mahj", "game_signoff", "winner"),   # city-mahj: "the player who made Mah Jongg signs"
    ("city-mahj", "round_signoff_all", False),
    ("hidden-tile", "game_signoff", None),
    ("hidden-tile", "table_guide_verifies", True),  # hidden-tile: "an HTM Table Guide verifies"
    ("tnt", "table_guide_verifies", False),
    ("destination", "game_signoff", "all"),    # destination: "confirm your score by signing"
    # ties and extras
    ("hidden-tile", "tiebreak", "tile_bag"),   # hidden-tile: "draw from a tile bag"
    ("tnt", "tiebreak", None),
    ("tnt", "sessions", True),                 # tnt: "organized into sessions"
    ("destination", "sessions", False),
    ("destination", "mini_tournament", MiniTournament(10, 12)),  # "Rounds 10, 11 and 12"
    ("tnt", "mini_tournament", None),
])
def test_preset_carries_the_sheet_number(preset, field, expected):
    assert getattr(PRESETS[preset], field) == expected


@pytest.mark.parametrize("preset", list(PRESETS))
def test_preset_round_trips_through_json(preset):
    rules = PRESETS[preset]
    stored = json.loads(json.dumps(rules.to_dict()))
    assert RuleSet.from_dict(stored) == rules


def test_an_edited_copy_round_trips():
    edited = replace(PRESETS["tnt"], key="spring-2025", jokerless_bonus=15, round_minutes=45,
                     mini_tournament=None, quint_two_exposure_penalty=None)
    assert RuleSet.from_dict(edited.to_dict()) == edited


def broken(**changes):
    data = PRESETS["tnt"].to_dict()
    data.update(changes)
    return data


@pytest.mark.parametrize("data, field, message", [
    (broken(self_pick_bonus=-10), "self_pick_bonus", "Self-pick bonus cannot be negative."),
    (broken(jokerless_bonus=-1), "jokerless_bonus", "No-joker bonus cannot be negative."),
    (broken(wall_game_points=-10), "wall_game_points", "Wall game points cannot be negative."),
    (broken(blind_pass_peek_penalty=10), "blind_pass_peek_penalty", "cannot be more than 0"),
    (broken(misnamed_discard_penalty=25), "misnamed_discard_penalty", "cannot be more than 0"),
    (broken(quint_two_exposure_penalty=5), "quint_two_exposure_penalty", "more than 0"),
    (broken(thrower_penalty=[0, 0, -10, -25]), "thrower_penalty", "five numbers"),
    (broken(thrower_penalty=[0, 0, -10, -25, -25, -25]), "thrower_penalty", "five numbers"),
    (broken(thrower_penalty=[0, 10, -10, -25, -25]), "thrower_penalty", "more than 0"),
    (broken(thrower_penalty=[0, 0, -25, -10, -25]), "thrower_penalty", "cannot get smaller"),
    (broken(thrower_penalty="-10"), "thrower_penalty", "five numbers"),
    (broken(self_pick_bonus="10"), "self_pick_bonus", "whole number"),
    (broken(self_pick_bonus=10.0), "self_pick_bonus", "whole number"),
    (broken(self_pick_bonus=True), "self_pick_bonus", "whole number"),
    (broken(self_pick_bonus=None), "self_pick_bonus", "must be filled in"),
    (broken(games_per_round=0), "games_per_round", "between 1 and 20"),
    (broken(round_minutes=0), "round_minutes", "between 1 and 240"),
    (broken(round_minutes=241), "round_minutes", "between 1 and 240"),
    (broken(heavenly="sometimes"), "heavenly", "must be one of"),
    (broken(time_called_zeroes=None), "time_called_zeroes", "must be filled in"),
    (broken(time_called_zeroes="session"), "time_called_zeroes", "must be one of"),
    (broken(game_signoff="east"), "game_signoff", "must be one of"),
    (broken(misnamed_tile_game="yes"), "misnamed_tile_game", "on or off"),
    (broken(sessions=1), "sessions", "on or off"),
    (broken(mini_tournament={"first_round": 12, "last_round": 10}), "mini_tournament",
     "cannot end before it starts"),
    (broken(mini_tournament={"first_round": 0, "last_round": 2}), "mini_tournament",
     "round 1 or later"),
    (broken(mini_tournament=[10, 12]), "mini_tournament", "first round and a last round"),
    (broken(name=""), "name", "must be some text"),
    (broken(joker_bonus=10), "joker_bonus", "There is no rule called 'joker_bonus'."),
])
def test_from_dict_refuses_nonsense(data, field, message):
    with pytest.raises(InvalidRules) as refused:
        RuleSet.from_dict(data)
    assert refused.value.field == field
    assert message in str(refused.value)


def test_from_dict_refuses_a_missing_rule():
    data = PRESETS["destination"].to_dict()
    del data["wall_game_points"]
    with pytest.raises(InvalidRules, match="Wall game points is missing.") as refused:
        RuleSet.from_dict(data)
    assert refused.value.field == "wall_game_points"


def test_from_dict_refuses_something_that_is_not_a_dict():
    with pytest.raises(InvalidRules):
        RuleSet.from_dict([("key", "tnt")])


def test_rule_fields_describe_every_rule_in_order():
    rule_names = [f.name for f in fields(RuleSet) if f.name not in IDENTITY]
    assert [f.name for f in RULE_FIELDS] == rule_names
    for rule_field in RULE_FIELDS:
        assert rule_field.label and rule_field.label[0].isupper()
        assert rule_field.kind in {"points", "penalty", "choice", "flag", "count", "rounds"}
        assert bool(rule_field.choices) == (rule_field.kind == "choice")


@pytest.mark.parametrize("preset, field", [
    ("rules-of-the-road", "self_pick_bonus"),   # the sheet never mentions bonuses
    ("city-mahj", "heavenly"),
    ("hidden-tile", "quint_two_exposure_penalty"),
    ("destination", "misnamed_exposure_penalty"),
    ("nowhere", "self_pick_bonus"),
    ("tnt", "no_such_rule"),
])
def test_wording_is_none_where_the_sheet_is_silent(preset, field):
    assert wording(preset, field) is None


def test_wording_quotes_the_sheet():
    assert wording("destination", "jokerless_bonus") == (
        "PLUS 20 points – A winning hand with NO JOKERS. SINGLES & PAIRS hands do NOT get "
        "this bonus.")
    assert "−10 points for 0-1 exposures" in wording("hidden-tile", "thrower_penalty")


def every_quote():
    for key in PRESETS:
        for rule_field in RULE_FIELDS:
            quote = wording(key, rule_field.name)
            if quote is not None:
                yield key, rule_field.name, quote


def squeeze(text):
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("preset, field, quote", list(every_quote()))
def test_every_quote_is_word_for_word_on_its_sheet(preset, field, quote):
    sheet = squeeze((SHEETS / PRESETS[preset].sheet).read_text(encoding="utf-8"))
    for part in quote.split(" ... "):
        assert squeeze(part) in sheet


# What each sheet says about procedure, preset by preset.
@pytest.mark.parametrize("preset, field, expected", [
    ("hidden-tile", "clock_extensions", False),  # hidden-tile: "No extensions are provided."
    ("tnt", "clock_extensions", True),     # tnt: "at the sole discretion of the ... Director"
    ("destination", "clock_extensions", True),   # README: "-"
    ("hidden-tile", "pause_for_rulings", False),  # "Each round ends immediately when the chime"
    ("tnt", "pause_for_rulings", True),    # tnt: "will not be stopped or paused except at the sole
                                           # discretion of the Tournament Director"
    ("hidden-tile", "scores_final", "verified"),  # "after verification, scores are final"
    ("tnt", "scores_final", "submitted"),
    ("tnt", "changes_after_submit", "ruling"),  # tnt: "Once submitted, no changes may be made."
    ("city-mahj", "changes_after_submit", "ruling"),  # city-mahj: "locked in for good"
    ("destination", "changes_after_submit", "ruling"),  # "After that there are no changes."
    ("hidden-tile", "changes_after_submit", "amendment"),
    ("rules-of-the-road", "changes_after_submit", "amendment"),
    ("tnt", "joker_exchange_self_picked", True),  # tnt: "This is known as the Finesse Move"
    ("hidden-tile", "joker_exchange_self_picked", True),  # "including a valid joker exchange"
    ("destination", "joker_exchange_self_picked", True),  # "It is called the “Finesse Move”"
    ("city-mahj", "joker_exchange_self_picked", False),
    ("rules-of-the-road", "joker_exchange_self_picked", False),
    ("hidden-tile", "voided_round_wins", False),  # "receives 0 points for the round"
    ("tnt", "voided_round_wins", True),
    ("destination", "mini_entry_closes", True),  # "must be paid before round 10 starts"
    ("tnt", "mini_entry_closes", False),
    ("destination", "west_checks_sheet", True),  # "West will also receive Easts sheet to verify"
    ("destination", "game_signoff", "all"),  # "to confirm your score by signing"
    ("tnt", "west_checks_sheet", False),
    ("hidden-tile", "director_ends_round", True),  # "the remaining score is determined by the"
    ("tnt", "director_ends_round", False),
    ("hidden-tile", "tiebreak", "tile_bag"),  # "the tied players will draw from a tile bag"
    ("tnt", "tiebreak", None),             # README: "-": the director chooses
])
def test_preset_follows_the_sheets_procedure(preset, field, expected):
    assert getattr(PRESETS[preset], field) == expected


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_rule_set_stored_before_the_procedure_rules_loads_with_its_presets(preset):
    stored = PRESETS[preset].to_dict()
    for name in ("clock_extensions", "pause_for_rulings", "scores_final",
                 "changes_after_submit", "joker_exchange_self_picked", "voided_round_wins",
                 "mini_entry_closes", "west_checks_sheet", "director_ends_round"):
        del stored[name]
    assert RuleSet.from_dict(stored) == PRESETS[preset]


def test_an_old_rule_set_of_an_unknown_key_takes_the_usual_defaults():
    stored = replace(PRESETS["hidden-tile"], key="my-own").to_dict()
    del stored["clock_extensions"]
    assert RuleSet.from_dict(stored).clock_extensions is True


def test_scores_cannot_wait_for_a_verification_nobody_does():
    with pytest.raises(InvalidRules, match="only when a table guide verifies") as refused:
        RuleSet.from_dict(broken(scores_final="verified", table_guide_verifies=False))
    assert refused.value.field == "scores_final"


def test_final_states_follow_the_rule():
    assert PRESETS["hidden-tile"].final_states == ("verified",)
    assert PRESETS["tnt"].final_states == ("submitted", "verified")


README = SHEETS / "README.md"


def every_reading():
    for rule_field in RULE_FIELDS:
        for note in readings(rule_field.name):
            yield rule_field.name, note


@pytest.mark.parametrize("field, note", list(every_reading()))
def test_every_reading_beside_a_rule_is_on_the_rulings_page(field, note):
    # a reading may be one clause of a longer ruling there, so case and the full stop aside
    page = squeeze(README.read_text(encoding="utf-8")).lower()
    assert squeeze(note).rstrip(".").lower() in page


@pytest.mark.parametrize("field, part", [
    ("misnamed_discard_penalty", "the misnamer's -25 replaces the normal thrower penalty"),
    ("blind_pass_peek_penalty", "a dead player scores the penalty alone"),
    ("time_called_zeroes", "penalties included"),
])
def test_the_rulings_named_by_the_sheets_readers_sit_beside_their_rule(field, part):
    assert any(part in note for note in readings(field))


def test_the_rulings_page_follows_the_corrected_summary():
    text = squeeze(README.read_text(encoding="utf-8"))
    # Rules of the Road: "The discarder is penalized" gives no number
    assert '"the discarder is penalized" (no number; -25 by default)' in text
    # tnt: "This is known as the Finesse Move"
    assert 'a joker exchange, "Finesse", that completes the hand counts' in text
    # hidden-tile: "follow the table assignment provided by HTM"
    assert 'Hidden Tile: "follow the table assignment provided by HTM"' in text
