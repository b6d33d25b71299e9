"""Players from a spreadsheet: a CSV file (commas, semicolons or tabs) read and checked
line by line, nothing saved unless every line is fine."""

from __future__ import annotations

import csv
import io
import re

from sqlalchemy import select

from core.words import unshowable
from core.writes import write
from models import (
    CompetitionEntry,
    Player,
    Tournament,
    User,
    db,
)

from .common import (
    WHOLE,
    SetupError,
    audit,
    mini_competition,
    players_changed,
)
from .players import mini_entry_closed

YES = {"yes", "y", "1", "true", "x", "ja", "oui", "si"}
NO = {"no", "n", "0", "false", ""}
MAX_IMPORT_ROWS = 2000


class ImportRow:
    """One line of an import file, with what it would create and what is wrong with it."""

    def __init__(self, line: int, number: str, name: str, mini: str | None,
                 substitute: str | None, fee: str | None = None, paid: str | None = None):
        self.line, self.raw_number, self.name = line, number.strip(), name.strip()
        self.raw_mini, self.raw_substitute = mini, substitute
        # The entry fee as written ("$40"), and whether it is paid: the printed check-in
        # list's paid/due column.
        self.fee = (fee or "").strip()
        self.raw_paid = paid
        self.paid = False
        self.number: int | None = None
        self.mini = False
        self.is_substitute = False
        self.problems: list[str] = []
        # Worth a look, not wrong: two entries of one name may be two people, or one
        # person entered twice.
        self.notes: list[str] = []


class ImportPreview:
    def __init__(self):
        self.rows: list[ImportRow] = []
        self.problems: list[str] = []   # about the whole file
        self.ignored_columns: list[str] = []
        self.has_mini = False
        self.has_fee = False

    @property
    def ok(self) -> bool:
        return bool(self.rows) and not self.problems and not any(r.problems for r in self.rows)

    @property
    def problem_rows(self) -> int:
        return sum(1 for r in self.rows if r.problems)


def decode_csv(data: bytes) -> str:
    """The file's text; SetupError in one plain sentence when it is not UTF-8."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SetupError(
            "file",
            "This file is not saved as UTF-8 text, so names with accents would come out "
            "wrong. In your spreadsheet choose “Save as… CSV UTF-8” and try again.") from None


SEPARATORS = {",": "commas", ";": "semicolons", "\t": "tabs"}


# A number, then a semicolon or a tab: a row whose columns were not split.
JOINED = re.compile(r"\s*[0-9]{1,9}\s*([;\t])")


# The separator is read from this much of the file: the csv module's Sniffer takes time
# that grows with the square of its sample (16 KB of ',"' took 3 s), and the first lines
# of a list of players say all there is to say.
SNIFF_LINES, SNIFF_CHARS = 20, 2048


def csv_text(text: str) -> str:
    """An import's text as the csv module reads it: without the byte-order mark a pasted
    list may start with, every line ending (CR LF, or CR alone from older spreadsheets
    and Macs) made LF."""
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def csv_separator(text: str) -> str:
    """The column separator of an import file: commas, or semicolons (what a spreadsheet
    saves "CSV" as where the decimal point is a comma), or tabs (lines pasted from a
    spreadsheet). Read from the first lines; commas when the file does not say."""

    text = csv_text(text)
    sample = "\n".join(text[:SNIFF_CHARS * 8].split("\n")[:SNIFF_LINES])[:SNIFF_CHARS]
    if len(text) > len(sample) and "\n" in sample:
        sample = sample[:sample.rindex("\n")]      # whole lines only
    try:
        return csv.Sniffer().sniff(sample, delimiters="".join(SEPARATORS)).delimiter
    except csv.Error:
        return ","


def preview_import(tournament: Tournament, text: str) -> ImportPreview:
    """Read `number,name[,mini][,substitute][,fee][,paid]` lines (fee and paid only under a
    header row) (a header row is optional; the columns
    may be separated by commas, semicolons or tabs) and list every problem; nothing is
    saved."""

    preview = ImportPreview()
    text = csv_text(text)
    separator = csv_separator(text)
    try:
        lines = [row for row in csv.reader(io.StringIO(text), delimiter=separator)]
    except csv.Error:
        # The csv module refuses a field over 131,072 characters (and NUL bytes in some
        # Python versions): no list of players has one.
        preview.problems.append("This file cannot be read as a list of players: one of "
                                "its fields is far too long. Save it again as “CSV UTF-8”.")
        return preview
    numbered = [(i, row) for i, row in enumerate(lines, start=1)
                if any(cell.strip() for cell in row)]
    if not numbered:
        preview.problems.append("The file has no players in it.")
        return preview
    columns = {"number": 0, "name": 1}
    first_line, first = numbered[0]
    header = [cell.strip().lower() for cell in first]
    if "name" in header or "number" in header:
        if "name" not in header or "number" not in header:
            preview.problems.append("The header row needs both a “number” and a “name” "
                                    "column.")
            return preview
        columns = {}
        for index, title in enumerate(header):
            key = {"no": "number", "#": "number", "sub": "substitute"}.get(title, title)
            key = {"entry fee": "fee", "fees": "fee", "due": "fee", "amount": "fee",
                   "payed": "paid"}.get(key, key)
            if key in ("number", "name", "mini", "substitute", "fee", "paid") \
                    and key not in columns:
                columns[key] = index
            elif title:
                preview.ignored_columns.append(first[index].strip())
        numbered = numbered[1:]
    if len(numbered) > MAX_IMPORT_ROWS:
        preview.problems.append(f"The file has {len(numbered)} players; the most one import "
                                f"takes is {MAX_IMPORT_ROWS}.")
        return preview
    preview.has_mini = "mini" in columns
    preview.has_fee = "fee" in columns or "paid" in columns
    comp = mini_competition(tournament)
    closed = mini_entry_closed(tournament) if comp is not None else ""
    existing = {number: name for number, name in db.session.execute(
        select(Player.number, Player.name).where(Player.tournament_id == tournament.id))}
    existing_names = {}
    for number, name in sorted(existing.items()):
        existing_names.setdefault(_same_name(name), number)
    names_seen: dict[str, int] = {}

    def cell(row, key):
        index = columns.get(key)
        return row[index] if index is not None and index < len(row) else None

    seen: dict[int, int] = {}
    for line, row in numbered:
        item = ImportRow(line, cell(row, "number") or "", cell(row, "name") or "",
                         cell(row, "mini"), cell(row, "substitute"), cell(row, "fee"),
                         cell(row, "paid"))
        joined = JOINED.match(item.raw_number)
        if not item.raw_number:
            item.problems.append("The number is missing.")
        elif joined and joined.group(1) != separator:
            item.problems.append(
                f"This line has {SEPARATORS[joined.group(1)]} between its columns, but the "
                f"file uses {SEPARATORS[separator]}. Use one separator on every line (in a "
                "spreadsheet: “Save as… CSV UTF-8”) and try again.")
            preview.rows.append(item)    # its other cells were never split: no more to say
            continue
        elif not WHOLE.fullmatch(item.raw_number) or not 1 <= int(item.raw_number) <= 100000:
            item.problems.append(f"“{item.raw_number}” is not a player number (a whole "
                                 "number from 1 to 100000).")
        else:
            item.number = int(item.raw_number)
            if item.number in seen:
                item.problems.append(f"Number {item.number} is also on line "
                                     f"{seen[item.number]} of the file.")
            else:
                seen[item.number] = line
            if item.number in existing:
                item.problems.append(f"Number {item.number} already belongs to "
                                     f"{existing[item.number]}.")
        if item.name:
            same = _same_name(item.name)
            if same in existing_names:
                item.notes.append(f"Player {existing_names[same]} has this name already: "
                                  "the same person twice?")
            elif same in names_seen:
                item.notes.append(f"Line {names_seen[same]} has this name too: the same "
                                  "person twice?")
            names_seen.setdefault(same, line)
        if not item.name:
            item.problems.append("The name is empty.")
        elif unshowable(item.name):
            item.problems.append("The name has characters in it that cannot be shown.")
        elif len(item.name) > 120:
            item.problems.append("The name is longer than 120 characters.")
        if len(item.fee) > 20:
            item.problems.append("The fee is longer than 20 characters.")
        elif unshowable(item.fee):
            item.problems.append("The fee has characters in it that cannot be shown.")
        for key in ("mini", "substitute", "paid"):
            raw = getattr(item, f"raw_{key}")
            if raw is None:
                continue
            value = raw.strip().lower()
            if value in YES:
                setattr(item, {"mini": "mini", "substitute": "is_substitute",
                               "paid": "paid"}[key], True)
            elif value not in NO:
                item.problems.append(f"{key.title()}: write yes or no, not “{raw.strip()}”.")
        if item.mini and comp is None:
            item.problems.append("This tournament has no mini tournament; add it on the "
                                 "tournament's details page first.")
        elif item.mini and closed:
            # The player's own page asks for the override and audits it; a file has no
            # place to write one for each player.
            item.problems.append(f"{closed.split('. ')[0]}. Import this player without "
                                 "mini entry, then opt them in on their own page with the "
                                 "reason for your override.")
        preview.rows.append(item)
    return preview


def _same_name(name: str) -> str:
    """A name as two entries of one person would share it: case and spacing aside."""
    return " ".join(name.split()).casefold()


@write
def import_players(tournament: Tournament, user: User, text: str) -> ImportPreview:
    """Check the file again and, when every row is fine, add every player in this
    one unit. Returns the preview; nothing added if not ok."""
    preview = preview_import(tournament, text)
    if not preview.ok:
        return preview
    comp = mini_competition(tournament)
    players = [Player(tournament_id=tournament.id, number=row.number, name=row.name,
                      is_substitute=row.is_substitute, fee=row.fee, paid=row.paid)
               for row in preview.rows]
    db.session.add_all(players)
    db.session.flush()
    if comp is not None:
        for row, player in zip(preview.rows, players, strict=True):
            if row.mini:
                db.session.add(CompetitionEntry(competition_id=comp.id, player_id=player.id))
    db.session.expire(tournament, ["players"])
    players_changed(tournament)
    audit(tournament, user, "player.import", f"tournament:{tournament.id}",
          after={"players": len(players), "mini": sum(1 for r in preview.rows if r.mini),
                 "numbers": [players[0].number, players[-1].number] if players else []})
    return preview
