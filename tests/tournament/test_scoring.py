"""Scoring against the README's side-by-side table and rulings, sheet by sheet."""

import pytest

from tournament.rules import PRESETS
from tournament.scoring import (
    Game,
    InvalidGame,
    check_after_time_called,
    round_totals,
    score_game,
    score_lines,
    signer,
)

ALL = list(PRESETS)


def score(preset, **record):
    return score_game(PRESETS[preset], Game.from_dict(record))


def win(**changes):
    """South wins a 25-point hand thrown by West to a hand with 3 exposures, unless changed."""
    record = {"outcome": "mahjong", "winner": "S", "value": 25, "discarder": "W",
              "exposures": 3}
    record.update(changes)
    return record


def zero_but(**points):
    return {"E": 0, "S": 0, "W": 0, "N": 0} | points


def test_the_design_example():
    # East's jokerless 25 thrown by West to 2 exposures, TNT: {"E": 35, "S": 0, "W": -10, "N": 0}
    record = win(winner="E", jokerless=True, exposures=2)
    assert score("tnt", **record) == {"E": 35, "S": 0, "W": -10, "N": 0}


@pytest.mark.parametrize("preset", ALL)
def test_winner_scores_the_card_value(preset):
    # every sheet: "the point value shown on the NMJL card"; losers who did not throw score 0
    assert score(preset, **win(value=40)) == zero_but(S=40, W=-25)


@pytest.mark.parametrize("preset, winner_points", [
    ("tnt", 35),                # tnt: "+ 10 points for a player who PICKS their own Mahjong tile."
    ("city-mahj", 35),          # city-mahj: "Self-pick: +10 points."
    ("hidden-tile", 35),        # hidden-tile: "Add +10 points when the winning tile is picked"
    ("rules-of-the-road", 35),  # README: "not stated: +10"
    ("destination", 35),        # destination: "PLUS 10 points – Player who PICKS their own"
])
def test_self_picked(preset, winner_points):
    # a self-picked win has no thrower: nobody else pays
    assert score(preset, **win(self_picked=True, discarder=None)) == zero_but(S=winner_points)


@pytest.mark.parametrize("preset, bonus", [
    ("tnt", 10),                # tnt: "+10 points for a player who has a winning hand without"
    ("city-mahj", 10),          # city-mahj: "Jokerless: +10 points, except Singles & Pairs."
    ("hidden-tile", 20),        # hidden-tile: "Add +20 points for a winning hand containing no"
    ("rules-of-the-road", 10),  # README: "not stated: +10"
    ("destination", 20),        # destination: "PLUS 20 points – A winning hand with NO JOKERS."
])
def test_jokerless(preset, bonus):
    assert score(preset, **win(jokerless=True))["S"] == 25 + bonus


@pytest.mark.parametrize("preset", ALL)
def test_singles_and_pairs_never_get_the_jokerless_bonus(preset):
    # tnt: "This bonus does not apply to Singles & Pairs hands." (and every other sheet)
    record = win(value=50, jokerless=True, singles_and_pairs=True, exposures=0,
                 discarder=None, self_picked=True)
    assert score(preset, **record)["S"] == 50 + PRESETS[preset].self_pick_bonus


@pytest.mark.parametrize("preset, exposures, thrower_points", [
    ("tnt", 0, 0),              # tnt: "No penalty to player throwing the winning tile to 0 or 1"
    ("tnt", 1, 0),
    ("tnt", 2, -10),            # tnt: "–10 for throwing the winning tile to a hand with two"
    ("tnt", 3, -25),            # tnt: "–25 for throwing ... three or more exposures."
    ("tnt", 4, -25),
    ("city-mahj", 1, 0),        # city-mahj: "To 0 or 1 exposure: No penalty."
    ("city-mahj", 2, -10),      # city-mahj: "To 2 exposures: −10 points."
    ("city-mahj", 3, -25),      # city-mahj: "To 3 exposures: −25 points."
    ("hidden-tile", 0, -10),    # hidden-tile: "−10 points for 0-1 exposures"
    ("hidden-tile", 1, -10),
    ("hidden-tile", 2, -20),    # hidden-tile: "−20 points for 2 exposures"
    ("hidden-tile", 4, -25),    # hidden-tile: "−25 points for 3 or more exposures"
    ("rules-of-the-road", 1, 0),    # README: "not stated: 0"
    ("rules-of-the-road", 2, -10),  # README: "not stated: -10"
    ("rules-of-the-road", 3, -25),  # README: "not stated: -25"
    ("destination", 0, -10),    # destination: "MINUS 10 ... NO exposures or ONE exposure."
    ("destination", 2, -20),    # destination: "MINUS 20 points – ... TWO exposures."
    ("destination", 3, -25),    # destination: "MINUS 25 points – ... THREE or more exposures."
])
def test_thrower_pays_by_exposures(preset, exposures, thrower_points):
    assert score(preset, **win(exposures=exposures)) == zero_but(S=25, W=thrower_points)


@pytest.mark.parametrize("preset, exposures, thrower_points", [
    ("tnt", 2, -25),            # tnt: "–25 for throwing ... two exposures in a quint hand."
    ("city-mahj", 2, -25),      # city-mahj: "To 2 exposures in a Quint hand: −25 points."
    ("hidden-tile", 2, -20),    # README: "(no rule: -20)"
    ("rules-of-the-road", 2, -25),  # README: "not stated: -25"
    ("destination", 2, -20),    # README: "(no rule: -20)"
    ("tnt", 1, 0),              # the Quint rule is only for two exposures
    ("hidden-tile", 3, -25),
])
def test_thrower_to_a_quint(preset, exposures, thrower_points):
    assert score(preset, **win(exposures=exposures, quint=True))["W"] == thrower_points


@pytest.mark.parametrize("preset", ALL)
def test_wall_game_pays_every_live_player(preset):
    # tnt: "+10 for each player except players whose hands have been declared dead or who
    # declared Mahjong in error."; hidden-tile: "each active player receives 10 points."
    assert score(preset, outcome="wall") == {"E": 10, "S": 10, "W": 10, "N": 10}
    record = {"outcome": "wall", "dead": ["N"], "in_error": ["E"]}
    assert score(preset, **record) == {"E": 0, "S": 10, "W": 10, "N": 0}


@pytest.mark.parametrize("preset, east_points", [
    ("tnt", 45),            # tnt: "+10 points if East has Mahjong immediately following the ..."
    ("destination", 45),    # destination: "the hand is considered self-picked": +10, not +20
])
def test_heavenly_hand(preset, east_points):
    record = win(winner="E", value=35, discarder=None, exposures=0, heavenly=True)
    assert score(preset, **record) == zero_but(E=east_points)


@pytest.mark.parametrize("preset", ["city-mahj", "hidden-tile", "rules-of-the-road"])
def test_heavenly_hand_where_the_sheet_has_none(preset):
    record = win(winner="E", discarder=None, exposures=0, heavenly=True)
    with pytest.raises(InvalidGame) as refused:
        score(preset, **record)
    assert refused.value.field == "heavenly"


def test_heavenly_is_never_also_self_picked():
    # ruling 4: the heavenly bonus or the self-pick bonus, never both
    record = win(winner="E", discarder=None, exposures=0, heavenly=True, self_picked=True)
    with pytest.raises(InvalidGame) as refused:
        Game.from_dict(record)
    assert refused.value.field == "self_picked"


PEEK = [{"seat": "N", "kind": "blind_pass_peek"}]


@pytest.mark.parametrize("preset", ["tnt", "city-mahj", "hidden-tile", "destination"])
def test_blind_pass_peek(preset):
    # tnt: "–10 points for looking at a tile in a blind pass during either Charleston."
    # city-mahj: "Looking at a stolen tile during either Charleston: −10 points."
    # hidden-tile: "results in a -10 point penalty"; destination: "MINUS 10 points – if you LOOK"
    assert score(preset, **win(penalties=PEEK))["N"] == -10


def test_blind_pass_peek_where_the_sheet_has_none():
    # rules-of-the-road says nothing of it: the director rules with an adjustment
    with pytest.raises(InvalidGame) as refused:
        score("rules-of-the-road", **win(penalties=PEEK))
    assert refused.value.field == "penalties"


MISNAMED_EXPOSURE = [{"seat": "E", "kind": "misnamed_exposure"}]


def test_misnamed_exposure_tile_tnt():
    # tnt: "–10 points for a player who misnames a tile called for an exposure."
    assert score("tnt", **win(penalties=MISNAMED_EXPOSURE)) == zero_but(E=-10, S=25, W=-25)


@pytest.mark.parametrize("preset", ["city-mahj", "hidden-tile", "rules-of-the-road",
                                    "destination"])
def test_misnamed_exposure_tile_only_on_the_tnt_sheet(preset):
    with pytest.raises(InvalidGame) as refused:
        Game.from_dict(win(penalties=MISNAMED_EXPOSURE), PRESETS[preset])
    assert refused.value.field == "penalties"


@pytest.mark.parametrize("preset, exposures", [(preset, n) for preset in ALL for n in (0, 2, 3)])
def test_misnamed_discard_replaces_the_thrower_penalty(preset, exposures):
    # tnt: "-25 points for the mis-caller if the misnamed tile is actually the winning Mahjong
    # tile. The Mahjong hand scores normally."; ruling 1: -25 replaces the thrower penalty
    record = win(exposures=exposures, quint=True, misnamed_discard=True)
    assert score(preset, **record) == zero_but(S=25, W=-25)


@pytest.mark.parametrize("preset", ["tnt", "city-mahj"])
def test_misnamed_discard_that_does_not_complete_the_hand(preset):
    # tnt: "-25 for the mis-caller if the misnamed tile is not the actual Mahjong tile."
    # "+10 for the other three players at the table and the game ends."
    assert score(preset, outcome="misnamed_tile", misnamer="S") == {
        "E": 10, "S": -25, "W": 10, "N": 10}
    # a dead hand still scores 0
    record = {"outcome": "misnamed_tile", "misnamer": "S", "dead": ["N"]}
    assert score(preset, **record) == {"E": 10, "S": -25, "W": 10, "N": 0}


@pytest.mark.parametrize("preset", ["hidden-tile", "rules-of-the-road", "destination"])
def test_misnamed_discard_game_only_where_the_sheet_has_it(preset):
    # hidden-tile: "play may continue at the Tournament Director’s discretion": director decides
    with pytest.raises(InvalidGame) as refused:
        score(preset, outcome="misnamed_tile", misnamer="S")
    assert refused.value.field == "outcome"


@pytest.mark.parametrize("preset", ["tnt", "city-mahj", "destination"])
def test_mah_jongg_in_error(preset):
    # tnt: "0 points for every player at the table if Mahjong is declared in error and all
    # players have exposed their hands." / "10 points to the only player who has not exposed"
    assert score(preset, outcome="error_all_exposed", in_error=["S"]) == zero_but()
    record = {"outcome": "error_one_intact", "in_error": ["S"], "intact": "N"}
    assert score(preset, **record) == zero_but(N=10)


@pytest.mark.parametrize("preset, outcome", [
    ("hidden-tile", "error_all_exposed"),       # README: "director decides"
    ("hidden-tile", "error_one_intact"),
    ("rules-of-the-road", "error_one_intact"),  # README: "-"
])
def test_mah_jongg_in_error_where_the_director_decides(preset, outcome):
    record = {"outcome": outcome, "in_error": ["S"], "intact": "N"}
    if outcome == "error_all_exposed":
        del record["intact"]
    with pytest.raises(InvalidGame) as refused:
        score(preset, **record)
    assert refused.value.field == "outcome"


@pytest.mark.parametrize("preset", ALL)
def test_time_called_scores_zero_for_everyone_penalties_included(preset):
    # tnt: "0 points for every player at the table if time is called before the game is
    # finished."; ruling 3: penalties included
    penalties = PEEK if PRESETS[preset].blind_pass_peek_penalty is not None else []
    assert score(preset, outcome="time", penalties=penalties, dead=["E"]) == zero_but()


def test_time_called_keeps_director_adjustments():
    # our ruling: an adjustment is the director's own deliberate ruling, so it still counts
    adjustments = [{"seat": "N", "points": -10, "reason": "slow play warning ignored"}]
    assert score("tnt", outcome="time", adjustments=adjustments) == zero_but(N=-10)


def round_of(*records):
    return [Game.from_dict(record) for record in records]


def test_time_called_zeroes_the_whole_round_for_hidden_tile():
    # hidden-tile: "If the game is unfinished, every player at that table receives 0 points
    # for the round."
    games = round_of(win(), {"outcome": "wall"}, {"outcome": "time", "penalties": PEEK})
    assert round_totals(PRESETS["hidden-tile"], games) == zero_but()


@pytest.mark.parametrize("preset", ["tnt", "destination"])
def test_time_called_zeroes_only_that_game(preset):
    # tnt: "receive a score of zero for each game that was not completed."
    # destination: "Time’s up, each player gets a score of Zero for that game."
    games = round_of(win(), {"outcome": "wall"}, {"outcome": "time"})
    assert round_totals(PRESETS[preset], games) == {"E": 10, "S": 35, "W": -15, "N": 10}


def test_round_totals_without_time_called_add_up():
    games = round_of(win(), win(winner="N", discarder="E", exposures=2), {"outcome": "wall"})
    assert round_totals(PRESETS["hidden-tile"], games) == {"E": -10, "S": 35, "W": -15, "N": 35}


def test_round_voided_by_time_keeps_director_adjustments():
    adjustment = {"seat": "S", "points": 5, "reason": "ruling: tile count"}
    games = round_of(win(adjustments=[adjustment]), {"outcome": "time"})
    assert round_totals(PRESETS["hidden-tile"], games) == zero_but(S=5)


def test_dead_hands_score_zero_and_never_pay_as_thrower():
    # tnt: "0 points for a dead hand. Dead hands do not receive the –10-point discard penalty
    # and do not receive the 10-point wall game bonus."
    assert score("tnt", **win(dead=["E", "N"])) == zero_but(S=25, W=-25)
    with pytest.raises(InvalidGame) as refused:
        Game.from_dict(win(dead=["W"]))       # ruling 5: the thrower cannot be dead
    assert refused.value.field == "discarder"


@pytest.mark.parametrize("preset", ["tnt", "city-mahj", "hidden-tile", "destination"])
def test_a_penalty_stands_when_the_hand_later_goes_dead(preset):
    # ruling 2: a dead player scores the penalty alone
    assert score(preset, outcome="wall", dead=["N"], penalties=PEEK)["N"] == -10


@pytest.mark.parametrize("record, seat", [
    (win(winner="N"), "N"),                 # the winner initials
    (win(winner="E", discarder="S"), "W"),  # tnt: "West must initial East’s score when East wins"
    ({"outcome": "wall"}, "W"),             # tnt: "... and must initial the scoresheet for all"
    ({"outcome": "time"}, "W"),             # nobody won
    ({"outcome": "misnamed_tile", "misnamer": "S"}, "W"),
    ({"outcome": "error_one_intact", "in_error": ["E"], "intact": "S"}, "W"),
])
def test_signer(record, seat):
    assert signer(PRESETS["tnt"], Game.from_dict(record)) == seat


@pytest.mark.parametrize("preset, record, seat, label", [
    ("destination", win(jokerless=True), "S", "jokerless +20 (Destination)"),
    ("hidden-tile", win(exposures=2), "W", "threw to 2 exposures -20 (Hidden Tile)"),
    ("tnt", win(exposures=2, quint=True), "W", "threw to a Quint hand with 2 exposures -25 (TNT)"),
    ("tnt", win(exposures=1), "W", "threw to 1 exposure: no penalty (TNT)"),
    ("city-mahj", win(self_picked=True, discarder=None), "S", "self-picked +10 (City Mahj)"),
    ("destination", win(winner="E", discarder=None, exposures=0, heavenly=True), "E",
     "heavenly/earthly hand counts as self-picked +10 (Destination)"),
    ("rules-of-the-road", win(misnamed_discard=True), "W",
     "misnamed the winning discard -25 (Rules of the Road)"),
    ("tnt", {"outcome": "wall", "dead": ["N"]}, "N", "dead hand 0"),
    ("tnt", win(adjustments=[{"seat": "E", "points": -5, "reason": "slow play"}]), "E",
     "director: slow play -5"),
])
def test_score_lines_say_why_in_plain_words(preset, record, seat, label):
    lines = score_lines(PRESETS[preset], Game.from_dict(record))
    assert label in [line.label for line in lines if line.seat == seat]


def test_score_game_is_the_sum_of_the_score_lines():
    record = win(jokerless=True, exposures=2, penalties=PEEK,
                 adjustments=[{"seat": "N", "points": 15, "reason": "ruling"}])
    lines = score_lines(PRESETS["hidden-tile"], Game.from_dict(record))
    assert sorted((line.seat, line.points) for line in lines if line.points) == [
        ("N", -10), ("N", 15), ("S", 20), ("S", 25), ("W", -20)]
    assert score("hidden-tile", **record) == {"E": 0, "S": 45, "W": -20, "N": 5}


def test_score_game_checks_the_rule_set_even_when_from_dict_did_not():
    game = Game.from_dict({"outcome": "misnamed_tile", "misnamer": "E"})
    with pytest.raises(InvalidGame):
        score_game(PRESETS["destination"], game)


def test_to_dict_leaves_out_what_does_not_apply_and_round_trips():
    full = {"outcome": "wall", "winner": None, "value": None, "self_picked": False,
            "discarder": None, "exposures": 0, "intact": None, "misnamer": None,
            "dead": ["N", "E"], "in_error": [], "penalties": [], "adjustments": []}
    game = Game.from_dict(full)
    assert game.to_dict() == {"outcome": "wall", "dead": ["E", "N"]}
    assert Game.from_dict(game.to_dict()) == game
    mahjong = Game.from_dict(win(self_picked=True, discarder=None, penalties=PEEK))
    assert "discarder" not in mahjong.to_dict()
    assert Game.from_dict(mahjong.to_dict()) == mahjong


def bad(field, message, record):
    return pytest.param(record, field, message, id=f"{field}: {message}")


@pytest.mark.parametrize("record, field, message", [
    bad("outcome", "The game sheet is empty", ["mahjong"]),
    bad("outcome", "How did the game end?", {"winner": "S"}),
    bad("outcome", "How did the game end?", {"outcome": "draw"}),
    bad("colour", "There is no 'colour' on a game sheet.", win(colour="red")),
    bad("winner", "'X' is not a seat", win(winner="X")),
    bad("discarder", "'south' is not a seat", win(discarder="south")),
    bad("dead", "'Q' is not a seat", win(dead=["Q"])),
    bad("dead", "listed twice", win(dead=["N", "N"])),
    bad("dead", "Choose the seats", win(dead="N")),
    bad("discarder", "The thrower cannot be the winner.", win(discarder="S")),
    bad("discarder", "A dead hand cannot be the thrower.", win(dead=["W"])),
    bad("discarder", "A dead hand cannot be the thrower.", win(in_error=["W"])),
    bad("winner", "The winner's hand cannot be dead.", win(dead=["S"])),
    bad("value", "20 to 150, in steps of 5", win(value=27)),
    bad("value", "20 to 150, in steps of 5", win(value=15)),
    bad("value", "20 to 150, in steps of 5", win(value=155)),
    bad("value", "20 to 150, in steps of 5", win(value="25")),
    bad("value", "20 to 150, in steps of 5", win(value=25.0)),
    bad("exposures", "from 0 to 4", win(exposures=5)),
    bad("exposures", "from 0 to 4", win(exposures=-1)),
    bad("exposures", "from 0 to 4", win(exposures=True)),
    bad("jokerless", "must be yes or no", win(jokerless="no")),
    bad("discarder", "A self-picked win has no thrower.", win(self_picked=True)),
    bad("discarder", "Who threw the winning tile?", win(discarder=None)),
    bad("winner", "Who made Mah Jongg?", win(winner=None)),
    bad("value", "What is the hand worth", win(value=None)),
    bad("misnamed_discard", "needs a thrower",
        win(self_picked=True, discarder=None, misnamed_discard=True)),
    bad("heavenly", "Only East", win(discarder=None, heavenly=True, exposures=0)),
    bad("discarder", "A heavenly or earthly hand has no thrower.",
        win(winner="E", heavenly=True, exposures=0)),
    bad("exposures", "A heavenly or earthly hand has no exposures.",
        win(winner="E", discarder=None, heavenly=True, exposures=1)),
    bad("winner", "A wall game has no winner.", {"outcome": "wall", "winner": "S"}),
    bad("value", "A wall game has no hand value.", {"outcome": "wall", "value": 25}),
    bad("self_picked", "A wall game has no self-picked tile.",
        {"outcome": "wall", "self_picked": True}),
    bad("misnamer", "A Mah Jongg has no misnamer.", win(misnamer="E")),
    bad("intact", "A Mah Jongg in error has no intact player.",
        {"outcome": "error_all_exposed", "in_error": ["S"], "intact": "N"}),
    bad("in_error", "Who declared Mah Jongg in error?", {"outcome": "error_all_exposed"}),
    bad("intact", "Whose hand is the one still intact?",
        {"outcome": "error_one_intact", "in_error": ["S"]}),
    bad("intact", "cannot be dead or the one that declared",
        {"outcome": "error_one_intact", "in_error": ["S"], "intact": "S"}),
    bad("intact", "cannot be dead or the one that declared",
        {"outcome": "error_one_intact", "in_error": ["S"], "intact": "N", "dead": ["N"]}),
    bad("misnamer", "Who misnamed the discard?", {"outcome": "misnamed_tile"}),
    bad("penalties", "There is no 'rude' penalty",
        win(penalties=[{"seat": "E", "kind": "rude"}])),
    bad("penalties", "There is no", win(penalties=[{"seat": "E", "kind": ["x"]}])),
    bad("penalties", "needs a seat and what it was for", win(penalties=[{"seat": "E"}])),
    bad("penalties", "'Z' is not a seat",
        win(penalties=[{"seat": "Z", "kind": "blind_pass_peek"}])),
    bad("penalties", "must be a list", win(penalties={"seat": "E"})),
    bad("adjustments", "needs a written reason",
        win(adjustments=[{"seat": "E", "points": -10, "reason": "  "}])),
    bad("adjustments", "needs a seat, points and a reason",
        win(adjustments=[{"seat": "E", "points": -10}])),
    bad("adjustments", "0 points changes nothing",
        win(adjustments=[{"seat": "E", "points": 0, "reason": "x"}])),
    bad("adjustments", "whole number of points",
        win(adjustments=[{"seat": "E", "points": 2.5, "reason": "x"}])),
    bad("adjustments", "whole number of points",
        win(adjustments=[{"seat": "E", "points": "5", "reason": "x"}])),
    bad("adjustments", "more than 500 points",
        win(adjustments=[{"seat": "E", "points": -1000, "reason": "typo"}])),
])
def test_from_dict_refuses_inconsistent_records(record, field, message):
    with pytest.raises(InvalidGame) as refused:
        Game.from_dict(record)
    assert refused.value.field == field
    assert message in str(refused.value)


@pytest.mark.parametrize("preset, record, field", [
    ("hidden-tile", {"outcome": "misnamed_tile", "misnamer": "S"}, "outcome"),
    ("rules-of-the-road", {"outcome": "error_all_exposed", "in_error": ["S"]}, "outcome"),
    ("city-mahj", win(winner="E", discarder=None, exposures=0, heavenly=True), "heavenly"),
    ("destination", win(penalties=MISNAMED_EXPOSURE), "penalties"),
    ("rules-of-the-road", win(penalties=PEEK), "penalties"),
])
def test_from_dict_with_rules_refuses_rules_the_set_does_not_have(preset, record, field):
    Game.from_dict(record)  # fine without rules
    with pytest.raises(InvalidGame) as refused:
        Game.from_dict(record, PRESETS[preset])
    assert refused.value.field == field
    assert PRESETS[preset].short_name in str(refused.value)


# ---- nothing scores after time is called ------------------------------------------------


@pytest.mark.parametrize("preset", ALL)
def test_a_game_after_a_time_called_game_is_refused_unless_time_called(preset):
    # tnt: "all players at that table receive a score of zero for each game that was not
    # completed"; destination: "Time’s up, each player gets a score of Zero for that game.";
    # hidden-tile: "Each round ends immediately when the chime sounds." A game after time
    # was called was never played.
    rules = PRESETS[preset]
    games = round_of(win(), {"outcome": "time"}, win())
    with pytest.raises(InvalidGame) as refused:
        check_after_time_called(rules, games, 3)
    assert refused.value.field == "outcome"
    assert "Time was called in game 2" in refused.value.message
    check_after_time_called(rules, round_of(win(), {"outcome": "time"}, {"outcome": "time"}),
                            3)
    check_after_time_called(rules, games, 1)  # game 1 was played before time was called


def test_the_refusal_says_what_time_called_means_under_the_rule_set():
    # hidden-tile: "If the game is unfinished, every player at that table receives 0 points
    # for the round." tnt: "0 points for every player at the table if time is called before
    # the game is finished."
    games = round_of(win(), {"outcome": "time"}, {"outcome": "wall"})
    with pytest.raises(InvalidGame) as hidden:
        check_after_time_called(PRESETS["hidden-tile"], games, 3)
    assert "every game of it scores 0" in hidden.value.message
    with pytest.raises(InvalidGame) as tnt:
        check_after_time_called(PRESETS["tnt"], games, 3)
    assert "games 3 on were never played and score 0" in tnt.value.message


def test_time_cannot_be_called_in_a_game_before_one_that_was_played():
    # tnt: "0 points for every player at the table if time is called before the game is
    # finished": a later game that was played means time was not called before it.
    games = round_of(win(), {"outcome": "time"}, {"outcome": "wall"})
    with pytest.raises(InvalidGame) as refused:
        check_after_time_called(PRESETS["tnt"], games, 2)
    assert "Game 3 was played after this game" in refused.value.message
