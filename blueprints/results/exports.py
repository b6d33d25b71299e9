"""The results as CSV files a spreadsheet opens safely: every game, one line per seat,
and one competition's standings."""

from __future__ import annotations

import csv
import io
import json
import re

from sqlalchemy import case, select

from core.words import SEATS
from models import (
    GameEntry,
    Player,
    Round,
    Scoresheet,
    Seating,
    Table,
    Tournament,
    db,
)

from .standings import MAIN, board

GAME_COLUMNS = ["round", "table", "game", "seat", "player_number", "player_name", "points",
                "sheet_state", "outcome", "winner", "value", "discarder", "exposures",
                "self_picked", "jokerless", "singles_and_pairs", "quint", "heavenly",
                "dead", "in_error", "penalties", "adjustments", "record"]


def _yes(value) -> str:
    return "yes" if value else ""


# A spreadsheet reads a cell starting with one of these as a formula (tab and carriage
# return it strips first). A cell starts at the text's start, and after every comma,
# semicolon or line break (with any spaces or quote marks) for a spreadsheet set for the
# other separator or one that stops honouring quotes after the first: "Ann;=1+1;" in a
# semicolon locale.
CELL_START = re.compile(r'(^|[,;\r\n])([\s"]*)(?=[=+\-@\t\r])')
JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
JSON_CELL_START = re.compile(r'(^"|(?:[,;]|\\[nr])(?:\s|\\[tnr"])*)([=+\-@])')


def _text(value: str) -> str:
    """Words typed by people (names, reasons), safe to open in a spreadsheet: wherever a
    cell could start with a formula sign, an apostrophe goes before it."""
    return CELL_START.sub(r"\1\2'", value)


def _json(data) -> str:
    """A record as JSON, defused the same way without changing what it decodes to: a
    formula sign where a cell could start inside a string is written as a \\u escape."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return JSON_STRING.sub(lambda token: JSON_CELL_START.sub(
        lambda m: m.group(1) + f"\\u{ord(m.group(2)):04x}", token.group(0)), text)


def _csv_writer(out: io.StringIO):
    # Every field quoted: a separator inside a name or a reason stays inside its cell,
    # whether the spreadsheet splits on commas or on semicolons.
    return csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL)


def games_csv(tournament: Tournament) -> str:
    """Every game of every sheet, one line per seat, with the record's outcome details."""
    rows = db.session.execute(
        select(Round.number, Table.number, GameEntry.number, Seating.seat, Player.number,
               Player.name, GameEntry.points_e, GameEntry.points_s, GameEntry.points_w,
               GameEntry.points_n, Scoresheet.state, GameEntry.record)
        .select_from(GameEntry)
        .join(Scoresheet, Scoresheet.id == GameEntry.sheet_id)
        .join(Round, Round.id == Scoresheet.round_id)
        .join(Table, Table.id == Scoresheet.table_id)
        .join(Seating, (Seating.round_id == Scoresheet.round_id)
              & (Seating.table_id == Scoresheet.table_id))
        .join(Player, Player.id == Seating.player_id)
        .where(Round.tournament_id == tournament.id)
        .order_by(Round.number, Table.number, GameEntry.number,
                  case(*((Seating.seat == seat, index)
                         for index, seat in enumerate(SEATS[:-1])), else_=len(SEATS) - 1))
    )
    out = io.StringIO()
    writer = _csv_writer(out)
    writer.writerow(GAME_COLUMNS)
    for (round_no, table_no, game_no, seat, number, name, pe, ps, pw, pn, state,
         game) in rows:
        game = game or {}
        points = dict(zip(SEATS, (pe, ps, pw, pn), strict=True))[seat]
        writer.writerow([
            round_no, table_no, game_no, seat, number, _text(name), points, state,
            game.get("outcome", ""), game.get("winner") or "", game.get("value") or "",
            game.get("discarder") or "", "" if game.get("exposures") is None
            else game["exposures"], _yes(game.get("self_picked")), _yes(game.get("jokerless")),
            _yes(game.get("singles_and_pairs")), _yes(game.get("quint")),
            _yes(game.get("heavenly")), " ".join(game.get("dead") or []),
            " ".join(game.get("in_error") or []),
            "; ".join(f"{p.get('seat')} {p.get('kind')}" for p in game.get("penalties") or []),
            _text("; ".join(f"{a.get('seat')} {a.get('points'):+d} {a.get('reason', '')}"
                            .strip() for a in game.get("adjustments") or [])),
            _json(game),
        ])
    return out.getvalue()


def standings_csv(tournament: Tournament, key: str | None = None) -> tuple[str, str]:
    """One competition's standings from submitted sheets, with recorded tie-breaks: the
    key of the competition shown (an unknown key gives the overall standings) and the CSV."""
    table = board(tournament, provisional=False).table(key or MAIN)
    rounds = list(range(table.first_round, table.last_round + 1))
    out = io.StringIO()
    writer = _csv_writer(out)
    writer.writerow(["competition", "rank", "tied", "player_number", "player_name", "total",
                     "games_won", *(f"round_{r}" for r in rounds)])
    for line in table.lines:
        writer.writerow([_text(table.name), line.rank, _yes(line.tied), line.player.number,
                         _text(line.player.name), line.total, line.games_won,
                         # A player without a game has no round to show, not a 0.
                         *(line.per_round.get(r, "") if line.played else ""
                           for r in rounds)])
    return table.key, out.getvalue()
