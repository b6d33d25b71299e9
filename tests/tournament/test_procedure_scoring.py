"""Games recorded by the sheets' procedure: a joker exchange that completes the hand counts
as self-picked where the sheet says so (recorded by its name), and the games a director's
end of a table's round leaves unplayed."""

import pytest

from tournament.rules import PRESETS
from tournament.scoring import Game, InvalidGame, score_game, score_lines

FINESSE = {"outcome": "mahjong", "winner": "S", "value": 25, "self_picked": True,
           "joker_exchange": True}


@pytest.mark.parametrize("preset", [
    "tnt",          # tnt: "If a joker exchange gives a player their winning tile, the hand is
                    # considered self-picked ... This is known as the Finesse Move"
    "hidden-tile",  # hidden-tile: "including a valid joker exchange that completes the hand"
    "destination",  # destination: "It is called the “Finesse Move” ... it is self-picked"
])
def test_a_joker_exchange_scores_as_self_picked_by_its_name(preset):
    rules = PRESETS[preset]
    game = Game.from_dict(FINESSE, rules)
    assert score_game(rules, game)["S"] == 25 + rules.self_pick_bonus
    labels = [line.label for line in score_lines(rules, game)]
    assert f"joker exchange (Finesse) counts as self-picked +10 ({rules.short_name})" in labels
    assert Game.from_dict(game.to_dict()).joker_exchange


@pytest.mark.parametrize("preset", ["city-mahj", "rules-of-the-road"])  # README: "-"
def test_where_the_sheet_is_silent_a_joker_exchange_is_refused(preset):
    with pytest.raises(InvalidGame, match="joker exchange") as refused:
        Game.from_dict(FINESSE, PRESETS[preset])
    assert refused.value.field == "joker_exchange"


@pytest.mark.parametrize("record", [
    {**FINESSE, "self_picked": False},
    {**FINESSE, "self_picked": False, "winner": "E", "heavenly": True},
    {**FINESSE, "self_picked": False, "discarder": "W"},
])
def test_a_joker_exchange_is_never_thrown_or_heavenly(record):
    with pytest.raises(InvalidGame) as refused:
        Game.from_dict(record, PRESETS["tnt"])
    assert refused.value.field in ("self_picked", "discarder")


def test_a_game_the_director_ended_scores_only_the_directors_points():
    # hidden-tile: "the round ends and the remaining score is determined by the Tournament
    # Director"
    rules = PRESETS["hidden-tile"]
    ended = Game.from_dict({"outcome": "ended", "adjustments": [
        {"seat": "N", "points": 10, "reason": "incorrect exposed hand"}]}, rules)
    assert score_game(rules, ended) == {"E": 0, "S": 0, "W": 0, "N": 10}
    with pytest.raises(InvalidGame, match="does not end one table's round"):
        Game.from_dict({"outcome": "ended"}, PRESETS["tnt"])
