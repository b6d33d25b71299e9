"""The standings' lines as the pages show them: a table's rows, made in Python, and the
public standings a page of lines at a time."""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup, escape

from blueprints.common import points_text

from .standings import Line, counted_first

_NO_RESULT_CELL = '<td class="num col-detail">-</td>'


def round_cells(line: Line, rounds: list[int]) -> Markup:
    """A standings row's cells for its rounds, as the standings table shows them: the
    round's points (zero is "X"), or "-" for a player with no result yet. Made here, not
    in the template: a 600-player, 12-round table has 7,200 of them, and a template call
    per cell is most of the page's time."""
    if not line.played:
        return Markup(_NO_RESULT_CELL * len(rounds))
    # The cells hold only integers and "X": nothing to escape.
    get = line.per_round.get
    return Markup("".join([f'<td class="num col-detail">{points_text(get(r, 0))}</td>'
                           for r in rounds]))


_NO_RESULT = '<abbr title="no result yet">-</abbr>'


def standings_rows(lines: list[Line], rounds: list[int], prize_places: int = 0,
                   id_prefix: str = "s", me: int | None = None,
                   page: StandingsPage | None = None) -> Markup:
    """The standings table's rows, counted_first (only `page`'s, when given): each
    player's rank (with "=" when tied), number, name, total, games won and round_cells;
    prize places and "me" marked. Made here, not in a template loop: the director's and
    the printed standings list every player, and the loop was half of the page's cost."""
    prefix = escape(id_prefix)
    rows = []
    ordered = counted_first(lines)
    for line in ordered[page.first:page.stop] if page else ordered:
        number = line.player.number
        mine = me == number
        prize = bool(line.played and prize_places and line.rank <= prize_places)
        css = "prize me" if prize and mine else "prize" if prize else "me" if mine else ""
        if line.played:
            rank = f'{line.rank}<abbr title="tied">=</abbr>' if line.tied else line.rank
            total, won = points_text(line.total), line.games_won
        else:
            rank, total, won = _NO_RESULT, _NO_RESULT, "-"
        current = ' aria-current="true"' if mine else ""
        rows.append(
            f'\n    <tr id="{prefix}-player-{number}" class="{css}"{current}>'
            f'<td class="num">{rank}</td><td class="num">{number}</td>'
            f'<th scope="row">{escape(line.player.name)}</th>'
            f'<td class="num total">{total}</td><td class="num col-detail">{won}</td>'
            f'{round_cells(line, rounds)}</tr>')
    return Markup("".join(rows))


# The public standings show this many lines at a time. An event of up to 200 players sees
# them all on one page; at a 1,000-table event the whole list was 1 MB of HTML, sent again
# to every onlooker's phone at each change of a result.
PAGE_LINES = 200


@dataclass(frozen=True)
class StandingsPage:
    """Which lines of the standings (counted_first order) one public page shows, and the
    line of the player "Find me" asked for."""

    number: int   # from 1
    count: int    # pages in all
    first: int    # the first line shown, from 0
    stop: int     # one past the last line shown
    total: int    # lines in all
    mine: Line | None = None  # player `me`'s line, as counted_first ranks it

    def lines_of(self, number: int) -> tuple[int, int]:
        """Page `number`'s first and last line, counted from 1 (for its link)."""
        first, stop = _span(number, self.total)
        return first + 1, stop


def _span(number: int, total: int) -> tuple[int, int]:
    """Page `number`'s lines of `total`: its first (from 0) and one past its last."""
    first = (number - 1) * PAGE_LINES
    return first, min(first + PAGE_LINES, total)


def standings_page(lines: list[Line], asked: int | None, me: int | None) -> StandingsPage:
    """The page asked for (a number past the last asks for the last); with none asked,
    the page holding player `me` ("Find me"), else the first."""
    total = len(lines)
    count = max(1, -(-total // PAGE_LINES))
    mine = None
    if me is not None:
        at, mine = next(((index, line) for index, line in enumerate(counted_first(lines))
                         if line.player.number == me), (0, None))
        if asked is None:
            asked = at // PAGE_LINES + 1
    number = min(max(asked or 1, 1), count)
    return StandingsPage(number, count, *_span(number, total), total, mine)
