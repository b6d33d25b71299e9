"""Properties of scoring over every valid game record, for each preset and edited rule sets."""

import json
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.rules import PRESETS, RuleSet
from tournament.scoring import (
    PENALTY_RULES,
    SEATS,
    Game,
    round_totals,
    score_game,
    score_lines,
)

FAST = settings(max_examples=200, deadline=None)

presets = st.sampled_from(list(PRESETS.values()))
bonuses = st.integers(0, 50)
penalties_points = st.integers(-50, 0)


@st.composite
def edited_rule_sets(draw):
    """A preset with numbers a director might type into the edit form."""
    rules = draw(presets)
    thrower = tuple(sorted(draw(st.lists(penalties_points, min_size=5, max_size=5)),
                           reverse=True))
    return replace(
        rules, self_pick_bonus=draw(bonuses), jokerless_bonus=draw(bonuses),
        wall_game_points=draw(bonuses), heavenly_bonus=draw(bonuses), thrower_penalty=thrower,
        quint_two_exposure_penalty=draw(st.none() | penalties_points),
        blind_pass_peek_penalty=draw(st.none() | penalties_points),
        misnamed_tile_others_bonus=draw(bonuses), error_one_intact_bonus=draw(bonuses),
        time_called_zeroes=draw(st.sampled_from(["game", "round"])),
    )


rule_sets = presets | edited_rule_sets()


def seat_subset(draw, seats):
    return draw(st.lists(st.sampled_from(seats), unique=True)) if seats else []


@st.composite
def records(draw, rules):
    """A valid game record for `rules`, the way East's form could send it."""
    outcomes = ["mahjong", "wall", "time"]
    if rules.misnamed_tile_game:
        outcomes.append("misnamed_tile")
    if rules.mah_jongg_in_error:
        outcomes += ["error_all_exposed", "error_one_intact"]
    outcome = draw(st.sampled_from(outcomes))
    record = {"outcome": outcome}
    if outcome == "mahjong":
        winner = draw(st.sampled_from(SEATS))
        heavenly = rules.heavenly is not None and winner == "E" and draw(st.booleans())
        self_picked = not heavenly and draw(st.booleans())
        others = [seat for seat in SEATS if seat != winner]
        thrower = None if heavenly or self_picked else draw(st.sampled_from(others))
        bystanders = [seat for seat in others if seat != thrower]
        record |= {
            "winner": winner, "value": draw(st.integers(4, 30)) * 5,
            "self_picked": self_picked, "heavenly": heavenly,
            "jokerless": draw(st.booleans()), "singles_and_pairs": draw(st.booleans()),
            "exposures": 0 if heavenly else draw(st.integers(0, 4)),
            "quint": draw(st.booleans()),
            "misnamed_discard": (thrower is not None and draw(st.booleans())
                                 and rules.misnamed_discard_penalty is not None),
            "dead": seat_subset(draw, bystanders), "in_error": seat_subset(draw, bystanders),
        }
        if thrower is not None or draw(st.booleans()):
            record["discarder"] = thrower
    elif outcome in ("wall", "time"):
        record |= {"dead": seat_subset(draw, SEATS), "in_error": seat_subset(draw, SEATS)}
    elif outcome == "misnamed_tile":
        record |= {"misnamer": draw(st.sampled_from(SEATS)), "dead": seat_subset(draw, SEATS)}
    else:
        intact = draw(st.sampled_from(SEATS))
        others = [seat for seat in SEATS if seat != intact]
        record["in_error"] = draw(st.lists(st.sampled_from(others), min_size=1, unique=True))
        record["dead"] = seat_subset(draw, others)
        if outcome == "error_one_intact":
            record["intact"] = intact
    kinds = [kind for kind, rule in PENALTY_RULES.items() if getattr(rules, rule) is not None]
    if kinds:
        record["penalties"] = draw(st.lists(st.fixed_dictionaries(
            {"seat": st.sampled_from(SEATS), "kind": st.sampled_from(kinds)}), max_size=3))
    record["adjustments"] = draw(st.lists(st.fixed_dictionaries({
        "seat": st.sampled_from(SEATS),
        "points": st.integers(-500, 500).filter(bool),
        "reason": st.text(min_size=1, max_size=20).filter(str.strip).map(str.strip),
    }), max_size=2))
    return record


@st.composite
def rules_and_records(draw):
    rules = draw(rule_sets)
    return rules, draw(records(rules))


@FAST
@given(rules_and_records())
def test_any_valid_game_scores_every_seat(case):
    rules, record = case
    points = score_game(rules, Game.from_dict(record, rules))
    assert sorted(points) == sorted(SEATS)
    assert all(type(value) is int for value in points.values())
    assert score_game(rules, Game.from_dict(record)) == points  # deterministic


@FAST
@given(rules_and_records())
def test_only_a_thrower_misnamer_penalised_or_adjusted_seat_goes_below_zero(case):
    rules, record = case
    can_lose = {record.get("discarder"), record.get("misnamer")}
    can_lose |= {item["seat"] for item in record.get("penalties", [])}
    can_lose |= {item["seat"] for item in record["adjustments"]}
    points = score_game(rules, Game.from_dict(record))
    assert {seat for seat, value in points.items() if value < 0} <= can_lose


wall_games = st.fixed_dictionaries({
    "outcome": st.just("wall"),
    "dead": st.lists(st.sampled_from(SEATS), unique=True),
    "in_error": st.lists(st.sampled_from(SEATS), unique=True),
})


@FAST
@given(presets, wall_games)
def test_a_wall_game_gives_at_most_10_each(rules, record):
    # no penalties or adjustments: 10 to each live player, 0 to dead hands and errors
    points = score_game(rules, Game.from_dict(record))
    gone = set(record["dead"]) | set(record["in_error"])
    assert points == {seat: 0 if seat in gone else 10 for seat in SEATS}
    assert all(0 <= value <= 10 for value in points.values())


@FAST
@given(rules_and_records())
def test_score_lines_add_up_to_score_game(case):
    rules, record = case
    game = Game.from_dict(record)
    sums = dict.fromkeys(SEATS, 0)
    for line in score_lines(rules, game):
        assert line.label
        sums[line.seat] += line.points
    assert sums == score_game(rules, game)


@FAST
@given(rules_and_records())
def test_to_dict_from_dict_round_trip(case):
    rules, record = case
    game = Game.from_dict(record, rules)
    stored = json.loads(json.dumps(game.to_dict()))
    assert Game.from_dict(stored, rules) == game
    assert score_game(rules, Game.from_dict(stored)) == score_game(rules, game)


@FAST
@given(rules_and_records())
def test_a_game_stopped_by_time_scores_only_the_directors_adjustments(case):
    rules, record = case
    record = record | {"outcome": "time"}
    for key in list(record):
        if key not in ("outcome", "dead", "in_error", "penalties", "adjustments"):
            del record[key]
    expected = dict.fromkeys(SEATS, 0)
    for item in record["adjustments"]:
        expected[item["seat"]] += item["points"]
    assert score_game(rules, Game.from_dict(record)) == expected


@FAST
@given(rule_sets.flatmap(lambda rules: st.tuples(
    st.just(rules), st.lists(records(rules), min_size=1, max_size=4))))
def test_round_totals_add_the_games_unless_time_voids_the_round(case):
    rules, round_records = case
    games = [Game.from_dict(record) for record in round_records]
    totals = round_totals(rules, games)
    voided = rules.time_called_zeroes == "round" and any(g.outcome == "time" for g in games)
    expected = dict.fromkeys(SEATS, 0)
    for record, game in zip(round_records, games, strict=True):
        if voided:
            for item in record["adjustments"]:
                expected[item["seat"]] += item["points"]
        else:
            for seat, value in score_game(rules, game).items():
                expected[seat] += value
    assert totals == expected


@FAST
@given(rule_sets)
def test_edited_rule_sets_round_trip(rules):
    assert RuleSet.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
