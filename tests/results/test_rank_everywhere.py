"""A player's rank is the same everywhere: the standings page, the CSV export and her own
history; and players without a game (no-shows, a late arrival before her first round) are
ranked after every player with one, even one below zero."""

from __future__ import annotations

import csv
import io

from blueprints.results import standings
from blueprints.results.history import player_history
from models import db
from tests.results.conftest import WALL, add_sheet, win


def test_no_shows_rank_last_and_every_rank_agrees(client, tournament):
    # Tables 1 and 2 play; the 24 others have no game yet. West throws to 2 exposures
    # (tnt: -10 each time), so real players stand below the players without a game.
    add_sheet(tournament, 1, 1, [win("E", discarder="W"), win("N", discarder="W")])
    add_sheet(tournament, 1, 2, [win("S", discarder="W"), WALL])
    for player in tournament.players[10:13]:
        player.withdrawn_from_round = 1
    db.session.commit()
    body = client.get(f"/results/director/{tournament.id}/standings.csv").get_data(
        as_text=True).removeprefix("\ufeff")
    lines = list(csv.DictReader(io.StringIO(body)))
    played = [line for line in lines if line["round_1"] != ""]
    unplayed = [line for line in lines if line["round_1"] == ""]
    assert len(played) == 8 and len(unplayed) == 24
    assert any(int(line["total"]) < 0 for line in played)
    assert max(int(line["rank"]) for line in played) < min(int(line["rank"])
                                                           for line in unplayed)
    page_ranks = {line.player.number: line.rank
                  for line in standings.counted_first(
                      standings.board(tournament, provisional=False).main.lines)
                  if line.played}
    csv_ranks = {int(line["player_number"]): int(line["rank"]) for line in played}
    assert page_ranks == csv_ranks
    for player in tournament.players[:8]:
        history = player_history(tournament, player)
        assert history.points[-1].rank == csv_ranks[player.number]
