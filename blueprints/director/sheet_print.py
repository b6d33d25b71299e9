"""The printed score sheets: one page per table of a round (or one table's), pre-filled
with the tournament, the round, the table and who sits where, with the columns and the
initials boxes the tournament's rule sheet asks for (tournament.paper)."""

from __future__ import annotations

from flask import abort, g, render_template

from core.access import PRINT, staff_required
from core.lookup import rules_of
from tournament.paper import paper_sheet

from . import seating as seat_rows
from .blueprint import bp, seating_required


@bp.get("/t/<int:tournament_id>/rounds/<int:round_no>/sheets")
@bp.get("/t/<int:tournament_id>/rounds/<int:round_no>/sheets/<int:table_no>")
@staff_required(PRINT)
@seating_required
def score_sheets(tournament_id, round_no, table_no=None):
    """Every table's score sheet for a round, one a printed page (or one table's)."""
    tournament = g.tournament
    planned = dict((rnd.number, tables) for rnd, tables in seat_rows.schedule(tournament))
    if round_no not in planned:
        abort(404)
    tables = [(table, seats) for table, seats in planned[round_no]
              if table_no is None or table.number == table_no]
    if not tables:
        abort(404)
    return render_template("director/score_sheets.html", tournament=tournament,
                           round_no=round_no, tables=tables, one=table_no is not None,
                           paper=paper_sheet(rules_of(tournament)))
