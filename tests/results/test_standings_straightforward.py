"""The standings the pages show (blueprints.results.standings.board, from the sums each
sheet stores) are those of the plain way: score every game of every table's round with
tournament.scoring, credit each seat's points and wins to the player seated there, and
rank with tournament.standings. Random tournaments: several rounds, few distinct hand
values (so ties), director adjustments, time called (voiding a whole round where the rule
set says so), tables with no sheet (players with no result), a substitute in the seat of
a player who withdrew, a seat nobody sits in, open, submitted and verified sheets, a
session, an entrants-only mini tournament and a recorded tie-break."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import select

from blueprints.results import standings
from core.rounds import ensure_round
from core.sheets import rescore
from models import (
    Competition,
    CompetitionEntry,
    GameEntry,
    Player,
    Round,
    Scoresheet,
    Seating,
    Substitution,
    Tiebreak,
    db,
    utcnow,
)
from tests.conftest import make_tournament
from tournament import standings as ranking
from tournament.rules import RuleSet
from tournament.scoring import Game, InvalidGame, round_lines

SEATS = "ESWN"
ROUNDS = 5


def random_record(rng: random.Random, rules: RuleSet) -> dict:
    """A valid game record: mostly wins on few hand values, some walls, some rulings."""
    if rng.random() < 0.2:
        record: dict = {"outcome": "wall"}
    else:
        winner = rng.choice(SEATS)
        record = {"outcome": "mahjong", "winner": winner, "value": rng.choice([25, 25, 30])}
        if rng.random() < 0.4:
            record["self_picked"] = True
        else:
            record["discarder"] = rng.choice([s for s in SEATS if s != winner])
            record["exposures"] = rng.randint(0, 3)
    if rng.random() < 0.15:
        record["adjustments"] = [{"seat": rng.choice(SEATS), "points": rng.choice([-10, 5]),
                                  "reason": "ruling"}]
    try:
        Game.from_dict(record, rules)
    except InvalidGame:
        record = {"outcome": "wall"}
    return record


def random_event(director, preset: str, seed: int):
    rng = random.Random(seed)
    tournament = make_tournament(director, players=20, rounds=ROUNDS, preset=preset,
                                 code=f"PLN{seed:03d}")
    rules = RuleSet.from_dict(tournament.rules)
    sub = Player(number=99, name="House Sub", is_substitute=True)
    tournament.players.append(sub)
    db.session.flush()
    leaving = tournament.players[rng.randrange(20)]
    leaving.withdrawn_from_round = 3
    db.session.add(Substitution(tournament_id=tournament.id, player_id=leaving.id,
                                substitute_id=sub.id, from_round=3))
    session = Competition(tournament_id=tournament.id, kind="session", name="Morning",
                          first_round=1, last_round=2)
    mini = Competition(tournament_id=tournament.id, kind="mini", name="Mini", first_round=3,
                       last_round=ROUNDS, entrants_only=True)
    db.session.add_all([session, mini])
    db.session.flush()
    mini.entries = [CompetitionEntry(player_id=p.id) for p in
                    rng.sample([p for p in tournament.players if p is not sub], 8)]
    states = ["open", "submitted", "verified", "verified"]
    for round_no in range(1, ROUNDS + 1):
        rnd = ensure_round(tournament, round_no)
        for table in tournament.tables:
            if rng.random() < 0.1 or (table.number == 1 and round_no <= 2):
                continue                    # nothing entered here: four players without a result
            sheet = Scoresheet(round_id=rnd.id, table_id=table.id, state=rng.choice(states),
                               submitted_at=utcnow())
            records = [random_record(rng, rules) for _ in range(rng.randint(1, 4))]
            if rng.random() < 0.25:
                # Time called: that game and any after it are time called.
                called = rng.randrange(len(records))
                records[called:] = [{"outcome": "time"}] * (len(records) - called)
            for number, record in enumerate(records, start=1):
                sheet.games.append(GameEntry(number=number, record=record))
            rescore(sheet, rules)           # the points the pages store
            db.session.add(sheet)
    # A seat nobody sits in (a player gone, no one in their place): its points go to nobody.
    rnd = ensure_round(tournament, 2)
    db.session.delete(db.session.scalars(
        select(Seating).where(Seating.round_id == rnd.id, Seating.seat == "S")
        .order_by(Seating.table_id.desc())).first())
    db.session.commit()
    return tournament, rules, session, mini


def plain_results(tournament, rules: RuleSet):
    """Every game scored from its record, per player: (official, entered) GameResults."""
    void_wins = rules.time_called_zeroes == "round" and not rules.voided_round_wins
    seated = {(s.round_id, s.table_id, s.seat): s.player_id for s in db.session.scalars(
        select(Seating).join(Round).where(Round.tournament_id == tournament.id))}
    official, entered = [], []
    sheets = db.session.scalars(select(Scoresheet).join(Round)
                                .where(Round.tournament_id == tournament.id)).all()
    for sheet in sheets:
        games = [Game.from_dict(entry.record, rules) for entry in sheet.games]
        timed = any(game.outcome == "time" for game in games)
        for number, (game, lines) in enumerate(zip(games, round_lines(rules, games),
                                                   strict=True), start=1):
            for seat in SEATS:
                if (sheet.round_id, sheet.table_id, seat) not in seated:
                    continue
                result = ranking.GameResult(
                    seated[(sheet.round_id, sheet.table_id, seat)], sheet.round.number,
                    number, sum(line.points for line in lines if line.seat == seat),
                    game.outcome == "mahjong" and game.winner == seat
                    and not (void_wins and timed))
                entered.append(result)
                if sheet.state in rules.final_states:
                    official.append(result)
    return official, entered


def shown(lines):
    return [(line.rank, line.player.id, line.total, line.games_won, dict(line.per_round),
             line.tied, line.played) for line in lines]


def plain(lines):
    return [(s.rank, s.player, s.total, s.games_won, dict(s.per_round), s.tied,
             s.best_game is not None) for s in lines]


@pytest.mark.parametrize("preset, seed", [("hidden-tile", 1), ("hidden-tile", 2),
                                          ("tnt", 3), ("destination", 4)])
def test_the_board_is_the_standings_of_every_game_scored(director, preset, seed):
    tournament, rules, session, mini = random_event(director, preset, seed)
    official, entered = plain_results(tournament, rules)
    players = db.session.scalars(select(Player).where(Player.tournament_id == tournament.id)
                                 .order_by(Player.number)).all()
    entrants = [ranking.Entrant(p.id, p.is_substitute) for p in players]
    opted_in = {entry.player_id for entry in mini.entries}
    specs = {
        standings.MAIN: (ranking.Competition("main", "Overall", 1, ROUNDS), None),
        standings.competition_key(session): (ranking.Competition("s", "Morning", 1, 2), None),
        standings.competition_key(mini):
            (ranking.Competition("m", "Mini", 3, ROUNDS, entrants_only=True), opted_in),
    }
    # A tile-bag draw for the first tie group of the main standings, recorded the other
    # way round from the entrant order.
    before = specs[standings.MAIN][0].standings(official, entrants)
    group = next(g for g in ranking.prize_ties(before, len(before)))
    order = [line.player for line in reversed(group)]
    db.session.add(Tiebreak(tournament_id=tournament.id, competition_key=standings.MAIN,
                            player_ids=order, note="tile bag"))
    db.session.commit()
    db.session.expire_all()

    board = standings.board(tournament)
    assert board.open_games == sum(len(sheet.games) for sheet in db.session.scalars(
        select(Scoresheet).join(Round).where(Round.tournament_id == tournament.id))
        if sheet.state not in rules.final_states) > 0
    for key, (spec, only) in specs.items():
        table = board.table(key)
        assert table.key == key
        expected = spec.standings(official, entrants, opted_in=only)
        if key == standings.MAIN:
            expected = ranking.break_tie(expected, order)
            assert [t.id for t, _, _ in table.decisions] and not table.stale
        assert shown(table.lines) == plain(expected)
        assert table.rounds == list(expected[0].per_round)
        live = spec.standings(entered, entrants, opted_in=only)
        assert shown(table.provisional) == plain(live)
        assert table.provisional_rounds == list(live[0].per_round)
    # Some players have no result (East of table 1 stays there, and its first two rounds
    # have no sheet), some share a rank, some games were won.
    assert any(not line.played for line in board.table(standings.competition_key(session)).lines)
    main = board.main.lines
    assert any(line.tied for line in board.main.provisional)   # no draw applies there
    assert any(line.games_won for line in main)
    # The big screen's leaders are the top of the same official standings.
    leaders = standings.leaders(tournament, count=5)
    assert shown(leaders) == shown(standings.counted_only(main)[:len(leaders)])
