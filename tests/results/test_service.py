"""Standings from stored sheets: official vs provisional, competitions, ties and prize
places, missing results, a player's history, and a query count that does not grow."""

from __future__ import annotations

import pytest
from sqlalchemy import event

from blueprints.results import history, missing, standings, tiebreaks, totals
from models import Competition, CompetitionEntry, Player, Substitution, Tiebreak, db
from tests.conftest import make_tournament
from tests.results.conftest import WALL, add_sheet, win


def by_number(lines):
    return {line.player.number: line for line in lines}


def test_official_counts_only_submitted_and_verified_sheets(tournament):
    add_sheet(tournament, 1, 1, [win("E"), WALL])                    # players 1-4
    add_sheet(tournament, 1, 2, [win("S")], state="verified")        # players 5-8
    add_sheet(tournament, 1, 3, [win("W")], state="open")            # players 9-12
    board = standings.board(tournament)
    official = by_number(board.main.lines)
    provisional = by_number(board.main.provisional)
    assert official[1].total == 45 and official[1].games_won == 1    # 25 + 10 self-pick + 10
    assert official[6].total == 35 and official[6].per_round == {1: 35}
    assert official[11].total == 0                                    # open sheet: not yet
    assert provisional[11].total == 35 and provisional[11].games_won == 1
    assert board.open_games == 1
    assert [(line.rank, line.total, line.tied) for line in board.main.lines[:5]] == [
        (1, 45, False), (2, 35, False), (3, 10, True), (3, 10, True), (3, 10, True)]


def test_a_game_is_won_only_by_its_mahjong_winner(tournament):
    add_sheet(tournament, 1, 1, [win("S", discarder="W"), WALL])
    lines = by_number(standings.board(tournament).main.lines)
    assert [lines[n].games_won for n in (1, 2, 3, 4)] == [0, 1, 0, 0]
    assert lines[3].total == -10 + 10                                 # threw to 2 exposures


def test_substitutes_play_but_are_never_ranked(director):
    tournament = make_tournament(director, players=8)
    sub = Player(number=99, name="House Sub", is_substitute=True)
    tournament.players.append(sub)
    db.session.flush()
    tournament.players[0].withdrawn_from_round = 2
    db.session.add(Substitution(tournament_id=tournament.id, player_id=tournament.players[0].id,
                                substitute_id=sub.id, from_round=2))
    db.session.commit()
    add_sheet(tournament, 2, 1, [win("E")])                           # East of table 1 = sub
    board = standings.board(tournament)
    assert 99 not in by_number(board.main.lines)
    assert 99 not in by_number(board.main.provisional)


def test_mini_tournament_ranks_only_entrants_over_its_rounds(director):
    tournament = make_tournament(director, players=8, rounds=3)
    mini = Competition(tournament_id=tournament.id, kind="mini", name="Mini", first_round=2,
                       last_round=3, entrants_only=True)
    session = Competition(tournament_id=tournament.id, kind="session", name="Morning",
                          first_round=1, last_round=1)
    db.session.add_all([mini, session])
    db.session.flush()
    entrants = [p for p in tournament.players if p.number in (1, 2, 5)]
    mini.entries = [CompetitionEntry(player_id=p.id) for p in entrants]
    db.session.commit()
    add_sheet(tournament, 1, 1, [win("E")])
    add_sheet(tournament, 2, 1, [win("E")])
    board = standings.board(tournament)
    assert [t.name for t in board.tables] == ["Overall", "Morning", "Mini"]
    mini_table = board.table(standings.competition_key(mini))
    assert {line.player.number for line in mini_table.lines} == {1, 2, 5}
    assert by_number(mini_table.lines)[1].total == 35                # round 2 only
    assert by_number(board.main.lines)[1].total == 70                # counts in main too
    assert by_number(board.table(standings.competition_key(session)).lines)[1].total == 35


def test_prize_ties_are_flagged_and_a_draw_orders_them(tournament, director):
    add_sheet(tournament, 1, 1, [win("E")])        # player 1: 35
    add_sheet(tournament, 1, 2, [win("E")])        # player 5: 35
    add_sheet(tournament, 1, 3, [win("S")])        # player 10: 35
    tournament.prize_places = 2
    db.session.commit()
    board = standings.board(tournament)
    [group] = board.main.prize_ties
    assert group.rank == 1 and len(group.lines) == 3
    ids = {line.player.number: line.player.id for line in group.lines}
    tiebreaks.decide_tie(tournament, "main", list(ids.values()), [ids[10], ids[1], ids[5]],
                       director, "tile-bag draw at the prize table")
    lines = standings.board(tournament).main.lines
    assert [(line.rank, line.player.number, line.tied) for line in lines[:3]] == [
        (1, 10, False), (2, 1, False), (3, 5, False)]
    assert not standings.board(tournament).main.prize_ties


def test_players_with_no_result_yet_are_no_prize_tie(tournament):
    """Mid-event, everyone whose table has not submitted stands at 0; ranked among the
    others they made one tie of 30 "for place 3" on the director's page. They are ranked
    after every player with a result, so the six who played and scored 0 tie for real."""
    add_sheet(tournament, 1, 1, [win("E")])        # player 1: 35, the others at the table 0
    add_sheet(tournament, 1, 2, [win("E")])        # player 5: 35
    tournament.prize_places = 10
    db.session.commit()
    leaders, losers = standings.board(tournament).main.prize_ties
    assert leaders.rank == 1 and {line.player.number for line in leaders.lines} == {1, 5}
    assert losers.rank == 3 and {line.player.number for line in losers.lines} == {
        2, 3, 4, 6, 7, 8}
    # A wall game's four (10 each under these rules) tie for real, at the place the
    # standings show them; the 24 who have not played are in no group.
    add_sheet(tournament, 1, 3, [WALL])
    board = standings.board(tournament)
    groups = board.main.prize_ties
    assert all(line.played for group in groups for line in group.lines)
    assert [sorted(line.player.number for line in g.lines) for g in groups] == [
        [1, 5], [9, 10, 11, 12], [2, 3, 4, 6, 7, 8]]
    shown = {line.player.id: line.rank for line in standings.counted_only(board.main.lines)}
    assert all(shown[line.player.id] == group.rank for group in groups for line in group.lines)
    assert [group.rank for group in groups] == [1, 3, 7]


def test_leaving_a_tie_shared_is_recorded_and_replaced_by_a_later_draw(tournament, director):
    add_sheet(tournament, 1, 1, [win("E")])
    add_sheet(tournament, 1, 2, [win("E")])
    tournament.prize_places = 2
    db.session.commit()
    ids = [line.player.id for line in standings.board(tournament).main.lines[:2]]
    tiebreaks.decide_tie(tournament, "main", ids, None, director)
    [group] = standings.board(tournament).main.prize_ties
    assert group.shared_decided
    tiebreaks.decide_tie(tournament, "main", ids, list(reversed(ids)), director)
    assert db.session.query(Tiebreak).count() == 1                     # replaced, not added
    assert not standings.board(tournament).main.prize_ties


def test_a_draw_that_no_longer_fits_is_reported_stale(tournament, director):
    add_sheet(tournament, 1, 1, [win("E")])
    add_sheet(tournament, 1, 2, [win("E")])
    ids = [line.player.id for line in standings.board(tournament).main.lines[:2]]
    tiebreaks.decide_tie(tournament, "main", ids, ids, director)
    add_sheet(tournament, 1, 3, [win("E")])                            # a third joins the tie
    board = standings.board(tournament)
    assert len(board.main.stale) == 1
    assert len(board.main.prize_ties[0].lines) == 3


@pytest.mark.parametrize("order, message", [
    ([1], "different place"),
    (None, None),
])
def test_decisions_on_players_not_tied_are_refused(tournament, director, order, message):
    add_sheet(tournament, 1, 1, [win("E")])
    lines = standings.board(tournament).main.lines
    with pytest.raises(tiebreaks.ResultsError):
        tiebreaks.decide_tie(tournament, "main", [lines[0].player.id, lines[1].player.id],
                           order, director)
    assert db.session.query(Tiebreak).count() == 0


def test_prize_places_change_is_audited(tournament, director):
    from models import AuditEvent

    tiebreaks.set_prize_places(tournament, 5, director)
    event_row = db.session.query(AuditEvent).filter_by(action="results.prize_places").one()
    assert event_row.before == {"prize_places": 3} and event_row.after == {"prize_places": 5}
    with pytest.raises(tiebreaks.ResultsError):
        tiebreaks.set_prize_places(tournament, -1, director)


def test_missing_results_lists_tables_not_submitted_with_east(tournament):
    add_sheet(tournament, 1, 1, [win("E")])
    add_sheet(tournament, 1, 2, [win("E"), WALL], state="open")
    [round_one] = missing.missing_results(tournament)
    assert round_one.tables == 8
    assert [m.table_no for m in round_one.missing] == [2, 3, 4, 5, 6, 7, 8]
    assert round_one.missing[0].games_entered == 2 and round_one.missing[0].state == "open"
    assert round_one.missing[0].east_name == "Player 5"
    assert round_one.missing[1].state == "none"


def test_missing_results_under_hidden_tile_list_sheets_awaiting_verification(director):
    tournament = make_tournament(director, players=12, preset="hidden-tile")
    add_sheet(tournament, 1, 1, [win("E")], state="verified")
    add_sheet(tournament, 1, 2, [win("E")])                       # submitted, not verified
    [round_one] = missing.missing_results(tournament)
    assert [(m.table_no, m.state) for m in round_one.missing] == [(2, "submitted"),
                                                                   (3, "none")]
    assert round_one.not_submitted == 1 and round_one.awaiting_verification == 1
    # hidden-tile: "after verification, scores are final": the submitted sheet counts only in
    # the provisional standings (table 2's East is player 5)
    board = standings.board(tournament)
    totals = {line.player.number: line.total for line in board.main.lines}
    assert totals[1] > 0 and totals[5] == 0
    provisional = {line.player.number: line.total for line in board.main.provisional}
    assert provisional[5] == provisional[1] > 0


def test_leaders_are_empty_before_any_submission_then_the_top(tournament):
    assert standings.leaders(tournament) == []
    add_sheet(tournament, 1, 1, [win("E")])
    leaders = standings.leaders(tournament, 3)
    assert leaders[0].player.number == 1
    assert len(leaders) == 3                          # 3 of the 4 who played
    assert leaders.more_tied == 1                     # the other two who paid East


def test_leaders_rank_only_players_with_a_counted_game(tournament):
    """One table in: East self-picked (the others score a real X). They are second, tied
    among themselves only, not with 28 players who have no result yet; a thrower's -10
    at another table comes right after them, not 30th."""
    add_sheet(tournament, 1, 1, [win("E")])
    leaders = standings.leaders(tournament)
    assert [line.player.number for line in leaders] == [1, 2, 3, 4]
    assert [line.total for line in leaders] == [35, 0, 0, 0]
    assert [line.rank for line in leaders] == [1, 2, 2, 2] and leaders.more_tied == 0
    add_sheet(tournament, 1, 2, [win("S", discarder="E")])   # East of table 2 threw
    leaders = standings.leaders(tournament)
    thrower = next(line for line in leaders if line.player.number == 5)
    assert thrower.total < 0 and thrower.rank == len(leaders)
    assert len(leaders) == 8


def test_counted_only_ranks_among_players_with_results(tournament):
    lines = standings.board(tournament).main.lines
    assert standings.counted_only(lines) == []
    add_sheet(tournament, 1, 1, [WALL])
    add_sheet(tournament, 1, 2, [win("E")])
    counted = standings.counted_only(standings.board(tournament).main.lines)
    assert len(counted) == 8 and counted[0].player.number == 5
    assert [line.rank for line in counted[1:5]] == [2, 2, 2, 2]   # the wall game's +10


def test_player_history_running_total_and_rank(tournament):
    add_sheet(tournament, 1, 1, [win("E")])
    add_sheet(tournament, 2, 1, [win("S", discarder="E")])        # who sits where in round 2
    player = tournament.players[0]
    seen = history.player_history(tournament, player)
    assert [p.round_no for p in seen.points] == [1, 2]
    assert seen.points[0].running_total == 35 and seen.points[0].rank == 1
    chart = seen.chart()
    assert len(chart["dots"]) == 3 and chart["polyline"].count(",") == 3


def count_queries(fn):
    engine = db.engine
    statements = []

    def before(conn, cursor, statement, parameters, context, executemany):
        statements.append(statement)

    event.listen(engine, "before_cursor_execute", before)
    try:
        fn()
    finally:
        event.remove(engine, "before_cursor_execute", before)
    return len(statements)


def fill(tournament, rounds):
    for round_no in range(1, rounds + 1):
        for table in range(1, len(tournament.players) // 4 + 1):
            add_sheet(tournament, round_no, table, [win("E"), win("S", discarder="W"), WALL])


def test_standings_query_count_does_not_grow_with_players(director, make_user=None):
    from tests.conftest import make_user as new_user

    small = make_tournament(director, players=8, rounds=2, code="SMALL1")
    other = new_user("bob@example.com", "Bob")
    large = make_tournament(other, players=64, rounds=2, code="LARGE1")
    fill(small, 2)
    fill(large, 2)
    db.session.expire_all()
    small_count = count_queries(lambda: standings.board(small))
    large_count = count_queries(lambda: standings.board(large))
    assert small_count == large_count <= 5
    assert count_queries(lambda: totals.load_results(large.id)) == 1
