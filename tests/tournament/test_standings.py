"""Standings: totals, competition ranks, ties, substitutes, sessions and the mini tournament."""

import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament import standings as standings_module
from tournament.standings import (
    Competition,
    Entrant,
    GameResult,
    RoundTotal,
    Standing,
    break_tie,
    prize_ties,
    standings,
    standings_from_totals,
)


def entrants(*players):
    return [Entrant(player) for player in players]


def one_game_each(round_no=1, **points):
    """One game per player in `round_no`; a player with positive points won it."""
    return [GameResult(player, round_no, 1, value, value > 0) for player, value in points.items()]


def ranks(lines):
    return [(line.rank, line.player, line.total, line.tied) for line in lines]


def test_docstring_examples():
    assert doctest.testmod(standings_module).failed == 0


@pytest.mark.parametrize("points, expected", [
    # competition ranking: tied players share a rank and the next rank skips
    ({"ann": 50, "bea": 30, "cy": 30, "di": 10},
     [(1, "ann", 50, False), (2, "bea", 30, True), (2, "cy", 30, True), (4, "di", 10, False)]),
    ({"ann": 20, "bea": 20, "cy": 20},
     [(1, "ann", 20, True), (1, "bea", 20, True), (1, "cy", 20, True)]),
    ({"ann": 0, "bea": 0},
     [(1, "ann", 0, True), (1, "bea", 0, True)]),
    # thrower penalties make negative totals: they rank below zero
    ({"ann": -10, "bea": 0, "cy": -25, "di": -10},
     [(1, "bea", 0, False), (2, "ann", -10, True), (2, "di", -10, True),
      (4, "cy", -25, False)]),
    ({"ann": 5, "bea": 10, "cy": 10, "di": 10, "ed": 1},
     [(1, "bea", 10, True), (1, "cy", 10, True), (1, "di", 10, True),
      (4, "ann", 5, False), (5, "ed", 1, False)]),
])
def test_competition_ranking(points, expected):
    lines = standings(one_game_each(**points), entrants(*points))
    assert ranks(lines) == expected


def test_ties_keep_entrant_order():
    results = one_game_each(ann=10, bea=10, cy=10)
    lines = standings(results, entrants("cy", "ann", "bea"))
    assert [line.player for line in lines] == ["cy", "ann", "bea"]


def test_totals_games_won_best_game_and_rounds():
    results = [
        GameResult("ann", 1, 1, 25, True),
        GameResult("ann", 1, 2, -10, False),
        GameResult("ann", 2, 1, 35, True),
        GameResult("ann", 2, 2, 0, False),
        GameResult("bea", 1, 1, 0, False),
        GameResult("bea", 1, 2, 30, True),
    ]
    ann, bea = standings(results, entrants("ann", "bea"))
    assert (ann.total, ann.games_won, ann.best_game) == (50, 2, 35)
    assert dict(ann.per_round) == {1: 15, 2: 35}
    assert (bea.total, bea.games_won, bea.best_game) == (30, 1, 30)
    assert dict(bea.per_round) == {1: 30, 2: 0}  # every round played, 0 where absent
    assert list(bea.per_round) == [1, 2]


def test_per_round_is_read_only():
    # bea and cy have no game: their zeros are one mapping between them, so a write to
    # one would be every such player's.
    ann, bea, cy = standings(one_game_each(ann=10), entrants("ann", "bea", "cy"))
    for line in (ann, bea, cy):
        with pytest.raises(TypeError):
            line.per_round[1] = 99  # type: ignore[index]
    assert dict(bea.per_round) == dict(cy.per_round) == {1: 0}


def test_players_without_games_are_ranked_at_zero_after_every_player_with_one():
    # A no-show at 0 is never ranked above a player who played and lost points.
    lines = standings(one_game_each(ann=-5, cy=0), entrants("ann", "bea", "cy", "di"))
    assert ranks(lines) == [(1, "cy", 0, False), (2, "ann", -5, False),
                            (3, "bea", 0, True), (3, "di", 0, True)]
    assert lines[2].best_game is None
    assert lines[2].games_won == 0
    assert dict(lines[2].per_round) == {1: 0}


def test_no_results_everyone_tied_first():
    lines = standings([], entrants("ann", "bea"))
    assert ranks(lines) == [(1, "ann", 0, True), (1, "bea", 0, True)]
    assert dict(lines[0].per_round) == {}


def test_substitutes_play_but_are_never_ranked():
    results = one_game_each(ann=10, sub=40, bea=5)
    lines = standings(results, [Entrant("ann"), Entrant("sub", substitute=True), Entrant("bea")])
    assert ranks(lines) == [(1, "ann", 10, False), (2, "bea", 5, False)]


def test_rounds_range_counts_only_those_rounds():
    # tnt: "Tournament play is organized into sessions, each consisting of several rounds"
    results = [*one_game_each(1, ann=30, bea=10), *one_game_each(2, ann=0, bea=25),
               *one_game_each(3, ann=5, bea=10)]
    afternoon = standings(results, entrants("ann", "bea"), rounds=range(2, 4))
    assert ranks(afternoon) == [(1, "bea", 35, False), (2, "ann", 5, False)]
    assert dict(afternoon[0].per_round) == {2: 25, 3: 10}
    assert afternoon[0].games_won == 2
    whole = standings(results, entrants("ann", "bea"))
    assert ranks(whole) == [(1, "bea", 45, False), (2, "ann", 35, False)]


def test_destination_mini_tournament_counts_twice():
    # destination: "If you have 200 points and rounds 10, 11, 12 you get a total of 100,
    # that means for the cumulative tournament you have a 300 and for the mini you have a 100"
    round_totals = {1: 25, 2: 20, 3: 20, 4: 30, 5: 15, 6: 20, 7: 25, 8: 20, 9: 25,  # 200
                    10: 40, 11: 30, 12: 30}                                          # 100
    results = [GameResult("ann", round_no, 1, points, True)
               for round_no, points in round_totals.items()]
    results += one_game_each(10, bea=50) + one_game_each(11, cy=5)
    field = entrants("ann", "bea", "cy")
    main = standings(results, field)
    assert main[0].player == "ann" and main[0].total == 300
    mini = standings(results, field, rounds=range(10, 13), only={"ann", "bea"})
    assert ranks(mini) == [(1, "ann", 100, False), (2, "bea", 50, False)]
    assert dict(mini[0].per_round) == {10: 40, 11: 30, 12: 30}


def test_competition_values():
    morning = Competition("am", "Morning session", 1, 3)
    mini = Competition("mini", "Mini tournament", 10, 12, entrants_only=True)
    assert morning.rounds == range(1, 4)
    assert mini.rounds == range(10, 13)
    results = one_game_each(2, ann=10, bea=20) + one_game_each(11, ann=30, bea=0)
    field = entrants("ann", "bea")
    assert ranks(morning.standings(results, field)) == [(1, "bea", 20, False),
                                                        (2, "ann", 10, False)]
    assert ranks(mini.standings(results, field, opted_in={"ann"})) == [(1, "ann", 30, False)]
    with pytest.raises(ValueError, match="opted in"):
        mini.standings(results, field)
    with pytest.raises(ValueError, match="rounds must run"):
        Competition("bad", "Backwards", 5, 2)
    with pytest.raises(ValueError, match="rounds must run"):
        Competition("bad", "Round zero", 0, 2)


def test_tiebreak_orders_only_its_group():
    # hidden-tile: "the tied players will draw from a tile bag. The first player to draw
    # three jokers receives the higher placement"
    points = {"ann": 50, "bea": 30, "cy": 30, "di": 30, "ed": 10, "flo": 10}
    lines = standings(one_game_each(**points), entrants(*points), tiebreak=["di", "bea", "cy"])
    assert ranks(lines) == [
        (1, "ann", 50, False),
        (2, "di", 30, False), (3, "bea", 30, False), (4, "cy", 30, False),
        (5, "ed", 10, True), (5, "flo", 10, True),
    ]


def test_break_tie_chains_for_several_groups():
    points = {"ann": 30, "bea": 30, "cy": 10, "di": 10}
    lines = standings(one_game_each(**points), entrants(*points))
    lines = break_tie(break_tie(lines, ["bea", "ann"]), ["di", "cy"])
    assert ranks(lines) == [(1, "bea", 30, False), (2, "ann", 30, False),
                            (3, "di", 10, False), (4, "cy", 10, False)]


@pytest.mark.parametrize("order, message", [
    (["bea"], "exactly the players of one tie group"),               # part of a group
    (["bea", "ann"], "exactly the players of one tie group"),        # not tied with each other
    (["ann", "ed"], "exactly the players of one tie group"),         # ann is not tied at all
    (["bea", "cy", "ed"], "exactly the players of one tie group"),   # two groups mixed
    (["bea", "cy", "cy"], "lists a player twice"),
    (["bea", "zed"], "not in these standings"),
    ([], "exactly the players of one tie group"),
])
def test_tiebreak_refused_for_anything_but_one_group(order, message):
    points = {"ann": 50, "bea": 30, "cy": 30, "di": 30, "ed": 10, "flo": 10}
    with pytest.raises(ValueError, match=message):
        standings(one_game_each(**points), entrants(*points), tiebreak=order)


def test_prize_ties():
    points = {"ann": 50, "bea": 40, "cy": 40, "di": 30, "ed": 20, "flo": 20, "gus": 20,
              "hal": 5, "ida": 5}
    lines = standings(one_game_each(**points), entrants(*points))
    assert [[line.player for line in group] for group in prize_ties(lines, 3)] == [["bea", "cy"]]
    # a group starting at the last prize place counts even if it runs past it
    assert [[line.player for line in group] for group in prize_ties(lines, 5)] == [
        ["bea", "cy"], ["ed", "flo", "gus"]]
    assert prize_ties(lines, 1) == []
    assert len(prize_ties(lines, 9)) == 3


def test_prize_ties_none_once_broken():
    points = {"ann": 40, "bea": 40}
    lines = standings(one_game_each(**points), entrants(*points), tiebreak=["bea", "ann"])
    assert prize_ties(lines, 3) == []


@pytest.mark.parametrize("results, field, message", [
    (one_game_each(zed=10), entrants("ann"), "'zed', who is not an entrant"),
    (one_game_each(ann=10) * 2, entrants("ann"), "two results for round 1, game 1"),
    ([], entrants("ann", "ann"), "listed twice"),
    ([], [Entrant("ann"), Entrant("ann", substitute=True)], "listed twice"),
])
def test_refuses_inconsistent_input(results, field, message):
    with pytest.raises(ValueError, match=message):
        standings(results, field)


def test_only_must_name_entrants():
    with pytest.raises(ValueError, match="not entrants: 'zed'"):
        standings([], entrants("ann"), only={"zed"})


def test_one_pass_over_results():
    lines = standings(iter(one_game_each(ann=10, bea=5)), entrants("ann", "bea"))
    assert [line.total for line in lines] == [10, 5]


def test_standing_is_a_frozen_value():
    (line,) = standings(one_game_each(ann=10), entrants("ann"))
    assert isinstance(line, Standing)
    with pytest.raises(AttributeError):
        line.total = 0  # type: ignore[misc]


PLAYERS = [f"p{number}" for number in range(8)]

GAMES = st.lists(
    st.tuples(st.sampled_from(PLAYERS), st.integers(1, 4), st.integers(1, 4),
              st.integers(-25, 70), st.booleans()),
    unique_by=lambda game: game[:3],
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(games=GAMES, substitutes=st.sets(st.sampled_from(PLAYERS), max_size=3))
def test_ranks_follow_totals(games, substitutes):
    results = [GameResult(*game) for game in games]
    field = [Entrant(player, player in substitutes) for player in PLAYERS]
    lines = standings(results, field)
    played = {who for who, *_ in games}

    def order(player):
        # Players with a game first (never one without above one with), then by total.
        return (player in played, sum(points for who, _, _, points, _ in games
                                      if who == player))

    assert [line.player for line in lines] == [
        player for player in sorted(PLAYERS, key=lambda p: tuple(-x for x in order(p)))
        if player not in substitutes]
    for line in lines:
        assert line.total == sum(points for who, _, _, points, _ in games if who == line.player)
        assert line.total == sum(line.per_round.values())
        assert line.rank == 1 + sum(order(other.player) > order(line.player) for other in lines)
        assert line.tied == any(order(other.player) == order(line.player) and other is not line
                                for other in lines)
    for higher, lower in zip(lines, lines[1:], strict=False):
        assert order(higher.player) >= order(lower.player)
        assert (higher.rank == lower.rank) == (order(higher.player) == order(lower.player))


def summed(results):
    """Each player's games of each round as one RoundTotal."""
    rounds: dict = {}
    for game in results:
        rounds.setdefault((game.player, game.round_no), []).append(game)
    return [RoundTotal(player, round_no, sum(g.points for g in games),
                       sum(g.won for g in games), max(g.points for g in games), len(games))
            for (player, round_no), games in rounds.items()]


@settings(max_examples=300, deadline=None)
@given(games=GAMES, substitutes=st.sets(st.sampled_from(PLAYERS), max_size=3),
       first=st.integers(1, 4), length=st.integers(0, 3),
       only=st.none() | st.sets(st.sampled_from(PLAYERS), min_size=1), data=st.data())
def test_totals_rank_as_their_games_do(games, substitutes, first, length, only, data):
    results = [GameResult(*game) for game in games]
    totals = data.draw(st.permutations(summed(results)))
    field = [Entrant(player, player in substitutes) for player in PLAYERS]
    rounds = range(first, first + length + 1)
    assert standings_from_totals(totals, field, rounds, only) == \
        standings(results, field, rounds, only)
    assert standings_from_totals(iter(totals), field) == standings(results, field)


def test_a_faulty_total_is_refused_by_the_first_fault_in_order():
    ann, bea = RoundTotal("ann", 1, 10, 0, 10, 1), RoundTotal("bea", 1, 5, 0, 5, 1)
    stranger = RoundTotal("zed", 2, 5, 0, 5, 1)
    field = entrants("ann", "bea")
    with pytest.raises(ValueError, match="'ann' has two totals for round 1"):
        standings_from_totals([ann, bea, ann, stranger], field)
    with pytest.raises(ValueError, match="result for 'zed', who is not an entrant"):
        standings_from_totals([ann, stranger, bea, ann], field)
    # A stranger's total outside the rounds ranked, or with no game, is not a fault.
    idle = RoundTotal("zed", 3, 0, 0, 0, 0)
    assert ranks(standings_from_totals([ann, bea, stranger, idle], field, range(1, 2))) == \
        [(1, "ann", 10, False), (2, "bea", 5, False)]


def first_fault(totals, field, rounds):
    """The error of the first faulty total, checked one by one in order (None: no fault)."""
    entrants_ = {e.player for e in field}
    seen = set()
    for total in totals:
        key = (total.player, total.round_no)
        if key in seen:
            return f"{total.player!r} has two totals for round {total.round_no}"
        seen.add(key)
        if total.games and total.round_no in rounds and total.player not in entrants_:
            return f"result for {total.player!r}, who is not an entrant"
    return None


TOTALS = st.lists(
    st.builds(RoundTotal, st.sampled_from([*PLAYERS[:4], "zed"]), st.integers(1, 4),
              st.integers(-25, 70), st.integers(0, 2), st.integers(-25, 70),
              st.integers(0, 2)),
    max_size=12,
)


@settings(max_examples=500, deadline=None)
@given(totals=TOTALS, substitutes=st.sets(st.sampled_from(PLAYERS[:4]), max_size=2),
       first=st.integers(1, 4), length=st.integers(0, 3))
def test_faulty_totals_get_the_error_of_their_first_fault(totals, substitutes, first, length):
    field = [Entrant(player, player in substitutes) for player in PLAYERS[:4]]
    rounds = range(first, first + length + 1)
    fault = first_fault(totals, field, rounds)
    if fault is None:
        standings_from_totals(totals, field, rounds)
    else:
        with pytest.raises(ValueError) as raised:
            standings_from_totals(totals, field, rounds)
        assert str(raised.value) == fault
