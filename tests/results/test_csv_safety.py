"""CSV exports open safely in any spreadsheet: every field is quoted, and no cell a
spreadsheet could make of it starts a formula, whether it splits lines on commas or on
semicolons (as it does where the decimal point is a comma), and even when it stops
honouring quotes after the first one."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from models import Competition, db
from tests.results.conftest import WALL, add_sheet, win

HOSTILE = ["Ann;=1+1;", "=HYPERLINK(\"http://x\")", "Bo,+1", "Cy;@SUM(A1)", "Di;-2+3",
           "\tEd", "Fay; =1", 'Gus;"=1+1', "Hal,\"@x", "Ida\r=1"]
FORMULA_SIGNS = "=+-@\t\r"


def naive_cells(body: str, separator: str) -> list[str]:
    """Cells as a reader that splits on the separator and ignores quotes would see them."""
    return [cell for line in re.split(r"[\r\n]", body) for cell in line.split(separator)]


def starts_a_formula(cell: str) -> bool:
    stripped = cell.lstrip(' "')
    if re.fullmatch(r"-?\d+", stripped.rstrip('"')):          # a number, e.g. points -10
        return False
    return any(text and text[0] in FORMULA_SIGNS for text in (stripped, cell))


def quoted_cells(body: str, separator: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(body, newline=""), delimiter=separator)
            for cell in row]


@pytest.fixture
def hostile(client, tournament):
    for player, name in zip(tournament.players, HOSTILE, strict=False):
        player.name = name
    db.session.add(Competition(tournament_id=tournament.id, kind="session",
                               name="=cmd|' /C calc'!A0", first_round=1, last_round=1))
    db.session.commit()
    adjusted = dict(WALL, adjustments=[{"seat": "N", "points": -10,
                                        "reason": "ruling;=1+1,@x, -5 ;+2"}])
    add_sheet(tournament, 1, 1, [win("S", discarder="W"), adjusted])
    add_sheet(tournament, 1, 2, [WALL])
    return tournament


def exports(client, tournament):
    """Each export's text after the byte-order mark every CSV export starts with."""
    base = f"/results/director/{tournament.id}"
    competition = db.session.query(Competition).one()
    bodies = [client.get(f"{base}/games.csv").get_data(as_text=True),
              client.get(f"{base}/standings.csv").get_data(as_text=True),
              client.get(f"{base}/standings.csv", query_string={
                  "c": f"competition:{competition.id}"}).get_data(as_text=True)]
    assert all(body.startswith(BOM) for body in bodies)
    return [body.removeprefix(BOM) for body in bodies]


# Excel reads a CSV as UTF-8 only after this mark ("Renée" is garbled without it).
BOM = "\ufeff"


def test_every_export_names_renee_for_excel(client, hostile):
    hostile.players[0].name = "Renée"
    db.session.commit()
    body = client.get(f"/results/director/{hostile.id}/standings.csv").data
    assert body.startswith("\ufeff".encode())
    assert "Renée".encode() in body


@pytest.mark.parametrize("separator", [",", ";"])
def test_no_cell_starts_a_formula_under_either_separator(client, hostile, separator):
    for body in exports(client, hostile):
        for cells in (naive_cells(body, separator), quoted_cells(body, separator)):
            bad = [cell for cell in cells if starts_a_formula(cell)]
            assert bad == [], bad


def test_every_field_is_quoted(client, hostile):
    for body in exports(client, hostile):
        for line in body.strip("\n").split("\n"):
            assert line.startswith('"') and line.endswith('"'), line


def test_names_and_records_still_read_back(client, hostile):
    games, standings, _ = exports(client, hostile)
    rows = list(csv.DictReader(io.StringIO(games)))
    names = {row["player_name"] for row in rows}
    assert "Ann;'=1+1;" in names and "'=HYPERLINK(\"http://x\")" in names
    records = [json.loads(row["record"]) for row in rows]
    # the JSON decodes to exactly what was stored: escapes, not apostrophes
    assert {"seat": "N", "points": -10, "reason": "ruling;=1+1,@x, -5 ;+2"} in [
        a for r in records for a in r.get("adjustments", [])]
    points = [row["points"] for row in rows]
    assert "-10" in points and "25" in points                # numbers stay numbers
    lines = list(csv.DictReader(io.StringIO(standings)))
    assert lines[0]["total"].lstrip("-").isdigit()
