"""The standings table's rows, made in Python (blueprints.results.standings_rows.standings_rows):
what the template's loop showed, every player's name escaped."""

from __future__ import annotations

from blueprints.results.standings import Line
from blueprints.results.standings_rows import standings_rows
from blueprints.results.totals import PlayerInfo


def _line(number, name, rank, total, *, tied=False, played=True, per_round=None):
    # the id differs from the number: rows are named by the number players know
    player = PlayerInfo(number + 100, number, name, False, None)
    return Line(rank=rank, player=player, total=total, games_won=1 if total > 0 else 0,
                per_round=per_round or {1: total}, tied=tied, played=played)


def test_rows_mark_prizes_ties_me_and_no_result_and_escape_names():
    lines = [_line(1, "Ann", 1, 40), _line(2, "<b>Bo</b> & Co", 2, 0, tied=True),
             _line(3, "Cy", 2, 0, tied=True), _line(4, "Di", 4, 0, played=False)]
    html = str(standings_rows(lines, [1, 2], prize_places=1, id_prefix="p-1", me=3))
    assert ('<tr id="p-1-player-1" class="prize"><td class="num">1</td>'
            '<td class="num">1</td><th scope="row">Ann</th><td class="num total">40</td>'
            '<td class="num col-detail">1</td><td class="num col-detail">40</td>'
            '<td class="num col-detail">X</td></tr>') in html
    assert '<th scope="row">&lt;b&gt;Bo&lt;/b&gt; &amp; Co</th>' in html
    assert '<td class="num">2<abbr title="tied">=</abbr></td>' in html
    assert '<tr id="p-1-player-3" class="me" aria-current="true">' in html
    assert "player-10" not in html  # never the id
    first = str(standings_rows(lines, [1], prize_places=1, me=1))
    assert '<tr id="s-player-1" class="prize me" aria-current="true">' in first
    # no result yet: "-" everywhere, never ranked, listed after the ranked players
    assert html.index("player-3") < html.index("player-4")
    assert ('<tr id="p-1-player-4" class=""><td class="num"><abbr title="no result yet">'
            '-</abbr></td>') in html
    assert html.count('<td class="num col-detail">-</td>') == 3  # won, and two rounds

