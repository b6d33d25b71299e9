"""The standings from per-round totals summed by the database are the standings from
every game, on a random tournament: open, submitted and verified sheets, wall games and
wins, a substitute, a session and an entrants-only mini tournament."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import select

from blueprints.results import standings, totals
from core.rounds import ensure_round
from models import (
    Competition,
    CompetitionEntry,
    GameEntry,
    Player,
    Round,
    Scoresheet,
    Substitution,
    db,
    utcnow,
)
from tests.conftest import make_tournament
from tournament import standings as ranking
from tournament.rules import PRESETS


def random_event(director, seed: int):
    rng = random.Random(seed)
    tournament = make_tournament(director, players=16, rounds=4, code=f"RND{seed:03d}")
    sub = Player(number=99, name="House Sub", is_substitute=True)
    tournament.players.append(sub)
    db.session.flush()
    leaving = tournament.players[rng.randrange(16)]
    leaving.withdrawn_from_round = 3
    db.session.add(Substitution(tournament_id=tournament.id, player_id=leaving.id,
                                substitute_id=sub.id, from_round=3))
    mini = Competition(tournament_id=tournament.id, kind="mini", name="Mini", first_round=3,
                       last_round=4, entrants_only=True)
    session = Competition(tournament_id=tournament.id, kind="session", name="Morning",
                          first_round=1, last_round=2)
    db.session.add_all([mini, session])
    db.session.flush()
    mini.entries = [CompetitionEntry(player_id=p.id)
                    for p in rng.sample([p for p in tournament.players if p is not sub], 6)]
    for round_no in range(1, 5):
        rnd = ensure_round(tournament, round_no)
        for table in tournament.tables:
            if rng.random() < 0.1:
                continue                                  # nothing entered at this table
            sheet = Scoresheet(round_id=rnd.id, table_id=table.id,
                               state=rng.choice(["open", "submitted", "submitted", "verified"]),
                               submitted_at=utcnow())
            for number in range(1, rng.randint(1, 4) + 1):
                if rng.random() < 0.3:
                    record, points = {"outcome": "wall"}, dict.fromkeys("ESWN", 0)
                else:
                    winner = rng.choice("ESWN")
                    # Ties on purpose: few distinct values, so ranks are shared.
                    points = {seat: rng.choice([-25, -10, 0, 10, 25]) for seat in "ESWN"}
                    points[winner] = rng.choice([25, 50])
                    record = {"outcome": rng.choice(["mahjong", "mahjong", "other"]),
                              "winner": winner}
                game = GameEntry(number=number, record=record)
                game.points = points
                sheet.games.append(game)
            db.session.add(sheet)
    db.session.commit()
    return tournament, mini, session


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_totals_and_games_give_the_same_standings(director, seed):
    tournament, mini, session = random_event(director, seed)
    assert_same_both_ways(tournament, mini)


def edit_games(tournament, seed: int) -> None:
    """Change games after their sheets were written, the ways the pages and imports do:
    new points, a game removed, a sheet emptied, a game added, time called."""
    rng = random.Random(seed)
    sheets = db.session.scalars(
        select(Scoresheet).join(Round).where(Round.tournament_id == tournament.id)
        .order_by(Scoresheet.id)).all()
    with_games = [sheet for sheet in sheets if sheet.games]
    changed, shrunk, emptied, grown, timed = rng.sample(with_games, 5)
    changed.games[0].points = {seat: rng.choice([-25, 0, 50]) for seat in "ESWN"}
    changed.games[0].record = {"outcome": "mahjong", "winner": "N"}
    db.session.commit()
    shrunk.games.pop()
    emptied.games.clear()
    added = GameEntry(sheet_id=grown.id, number=len(grown.games) + 1,
                      record={"outcome": "mahjong", "winner": "S"})
    added.points = {"E": -10, "S": 40, "W": -20, "N": -10}
    db.session.add(added)
    timed.games[-1].record = {"outcome": "time"}
    db.session.commit()


@pytest.mark.parametrize("seed", [4, 5])
def test_the_stored_sums_follow_every_change_of_a_game(director, seed):
    tournament, mini, session = random_event(director, seed)
    edit_games(tournament, seed)
    db.session.expire_all()
    assert_same_both_ways(tournament, mini)
    # Where time called voids a round's wins, it does so the same way both ways.
    rules = PRESETS["hidden-tile"]
    assert rules.time_called_zeroes == "round" and not rules.voided_round_wins
    games = totals.load_results(tournament.id, rules)
    summed = totals.load_round_totals(tournament.id, rules)
    main = ranking.Competition("main", "Overall", 1, 4)
    assert main.standings_from_totals(summed.entered, summed.entrants) == \
        main.standings(games.entered, games.entrants)


def assert_same_both_ways(tournament, mini):
    """The standings from the stored sums are those from every game's own points."""
    games = totals.load_results(tournament.id)
    summed = totals.load_round_totals(tournament.id)
    assert summed.players == games.players and summed.open_games == games.open_games > 0
    opted_in = {entry.player_id for entry in mini.entries}
    competitions = [
        (ranking.Competition("main", "Overall", 1, 4), None),
        (ranking.Competition("s", "Morning", 1, 2), None),
        (ranking.Competition("m", "Mini", 3, 4, entrants_only=True), opted_in),
    ]
    for spec, only in competitions:
        for from_games, from_totals in ((games.official, summed.official),
                                        (games.entered, summed.entered)):
            expected = spec.standings(from_games, games.entrants, opted_in=only)
            assert spec.standings_from_totals(from_totals, summed.entrants,
                                              opted_in=only) == expected
    # And the board the pages show is the one from every game.
    board = standings.board(tournament)
    main = ranking.Competition("main", "Overall", 1, 4)
    expected = main.standings(games.official, games.entrants)
    assert [(line.rank, line.player.id, line.total, line.games_won, line.per_round, line.tied)
            for line in board.main.lines] == [
        (s.rank, s.player, s.total, s.games_won, dict(s.per_round), s.tied) for s in expected]
    live = main.standings(games.entered, games.entrants)
    assert [(line.player.id, line.total) for line in board.main.provisional] == [
        (s.player, s.total) for s in live]
    assert len({line.total for line in board.main.lines}) > 3   # not all zero
    # The stored sums themselves, sheet by sheet, are those of the sheet's games.
    for sheet in db.session.scalars(select(Scoresheet).join(Round)
                                    .where(Round.tournament_id == tournament.id)):
        assert [sheet.total_e, sheet.total_s, sheet.total_w, sheet.total_n] == [
            sum(game.points[seat] for game in sheet.games) for seat in "ESWN"]
        assert sheet.games_count == len(sheet.games)


def test_a_round_given_twice_is_refused_as_a_game_given_twice_is():
    totals = [ranking.RoundTotal("ann", 1, 10, 0, 10, 1)] * 2
    with pytest.raises(ValueError, match="two totals for round 1"):
        ranking.standings_from_totals(totals, [ranking.Entrant("ann")])
