"""What a backup may hold, value by value, and the refusal when it holds anything else:
the same limits as the forms that make these rows (and never more than the column holds),
so a file can bring nothing the pages could not."""

from __future__ import annotations

import json
import re
from datetime import date, datetime

from sqlalchemy import select

from core.addresses import PUBLIC_URL_MAX, clean_public_url
from core.errors import Refused
from core.words import SEATS, CallState, SheetState, unshowable
from models import (
    Table,
    db,
    new_token,
)
from tournament.clock import ClockError, RoundClock
from tournament.scoring import MAX_ADJUSTMENT

FORMAT = "mahjtable-backup"
VERSION = 1
SEAT_ORDER = {seat: index for index, seat in enumerate(SEATS)}
SUBJECT = re.compile(r"^([a-z_]+)([:#])(.+)$")
# A token we would have issued: secrets.token_urlsafe(16) or longer (Table.token is 64 wide).
OUR_TOKEN = re.compile(r"[A-Za-z0-9_-]{22,64}")
SUBJECT_KINDS = {
    "tournament": "tournament", "player": "player", "table": "table", "round": "round",
    "sheet": "sheet", "scoresheet": "sheet", "call": "call", "director_call": "call",
    "competition": "competition", "tiebreak": "tiebreak", "user": "user",
    "announcement": "announcement",
}


class BackupError(Refused):
    """A backup that cannot be imported; the message says why in plain words. Its field is
    the import form's file field: the whole file is what is refused."""

    def __init__(self, message: str, field: str = "backup"):
        super().__init__(field, message)


INT_MAX = 2**31 - 1                       # an SQL INTEGER
CODE = re.compile(r"[A-Z0-9]{4,16}")      # what the home page's code box finds (upper case)
MAX_ROUNDS, MAX_GAMES, MAX_MINUTES = 40, 20, 240
MAX_PRIZES = 1000                         # the results page allows up to 1000
MAX_PLAYER = 100_000
MAX_SEED = 999_999_999
LONG_TEXT = 2000                          # rulings, reasons and notes kept as Text
MAX_DEPTH = 32                            # nesting of an audit row's before/after values
MAX_INSTANT = 40                          # "2026-05-14T10:52:00.123456+00:00" is 32
SHEET_STATES = tuple(SheetState)
CALL_STATES = tuple(CallState)


def load(text: str | bytes) -> dict:
    """A backup file's JSON, or BackupError: not JSON, NaN or Infinity (which no database
    column takes), or nested deeper than Python reads."""
    def no_constant(name):
        raise ValueError(name)

    try:
        return json.loads(text, parse_constant=no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise BackupError("This file is not a MahjTable backup (not JSON).") from error


def _seat_initials(value) -> dict[str, str]:
    """Every player's initials on a game, as stored (a backup from before they existed has
    none); anything but seat -> short text is dropped, never stored."""
    if not isinstance(value, dict):
        return {}
    return {seat: text[:8] for seat, text in value.items()
            if seat in SEAT_ORDER and isinstance(text, str) and text.strip()}


def _need(data: dict, key: str, kind: type):
    value = data.get(key)
    if not isinstance(value, kind):
        raise BackupError(f"This backup has no valid “{key}” section.")
    return value


def _int(value, what: str, low: int = 0, high: int = INT_MAX, *, optional: bool = False):
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BackupError(f"{what} in this backup must be a whole number from {low} to "
                          f"{high}.")
    return value


def _bool(value, what: str) -> bool:
    if not isinstance(value, bool):
        raise BackupError(f"{what} in this backup must be true or false.")
    return value


def _text(value, what: str, limit: int, *, required: bool = False,
          lines: bool = False) -> str:
    """Text as the forms take it: a string within the column, no control characters (a NUL
    byte PostgreSQL refuses), line breaks only where the form is a text area."""
    if value is None and not required:
        return ""
    if not isinstance(value, str) or len(value) > limit or (required and not value.strip()):
        raise BackupError(f"{what} in this backup must be some text of at most {limit} "
                          "characters.")
    if unshowable(value, lines):
        raise BackupError(f"{what} in this backup has characters that cannot be shown.")
    return value


def _choice(value, what: str, choices) -> str | None:
    if isinstance(value, bool) or value not in choices:
        raise BackupError(f"{what} in this backup must be one of "
                          f"{', '.join(str(c) for c in choices if c)}.")
    return value


def _instant(value, what: str = "A time", *, required: bool = False) -> datetime | None:
    if value is None and not required:
        return None
    if not isinstance(value, str) or len(value) > MAX_INSTANT:
        raise BackupError(f"{what} in this backup is not a date and time.")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError as error:
        raise BackupError(f"{what} in this backup is not a date and time.") from error
    if moment.tzinfo is None:
        raise BackupError(f"{what} in this backup has no time zone.")
    return moment


def _day(value, what: str) -> date | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 10:
        raise BackupError(f"{what} in this backup is not a date.")
    try:
        return date.fromisoformat(value)
    except ValueError as error:
        raise BackupError(f"{what} in this backup is not a date.") from error


def _shallow(value, what: str):
    """A JSON value nested at most MAX_DEPTH deep, its numbers within 64 bits (what the
    database's JSON columns and the pages that read them handle)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise BackupError(f"{what} in this backup is nested too deeply.")
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
        elif isinstance(item, int) and not isinstance(item, bool) \
                and not -2**63 <= item < 2**63:
            raise BackupError(f"{what} in this backup has a number too large.")
        elif isinstance(item, str) and "\x00" in item:
            raise BackupError(f"{what} in this backup has characters that cannot be shown.")
    return value


def round_clock(entry: dict, number: int) -> dict:
    """A round's clock columns, in a state the round clock can be in: every page that shows
    the clock reads them, so a clock ended but never started would break the whole event."""
    clock = dict(
        duration_seconds=_int(entry.get("duration_seconds"), "A round's length", 0,
                              24 * 3600),
        started_at=_instant(entry.get("started_at")),
        paused_at=_instant(entry.get("paused_at")),
        paused_seconds=_int(entry.get("paused_seconds", 0), "A round's paused time"),
        ended_at=_instant(entry.get("ended_at")))
    start, paused, ended = clock["started_at"], clock["paused_at"], clock["ended_at"]
    if start is None and (paused or ended or clock["paused_seconds"]):
        raise BackupError(f"Round {number} in this backup is ended or paused but never "
                          "started.")
    if paused and ended:
        raise BackupError(f"Round {number} in this backup is both ended and paused.")
    if start and ended and ended < start:
        raise BackupError(f"Round {number} in this backup ends before it starts.")
    if start and paused and paused < start:
        raise BackupError(f"Round {number} in this backup is paused before it starts.")
    try:
        RoundClock(**clock)
    except ClockError as error:  # whatever else the clock itself refuses
        raise BackupError(f"Round {number}'s clock in this backup is damaged.") from error
    return clock


def _entries(data: dict, key: str) -> list[dict]:
    entries = _need(data, key, list)
    if not all(isinstance(entry, dict) for entry in entries):
        raise BackupError(f"This backup's “{key}” section is damaged.")
    return entries


def _pending(value, games_per_round: int) -> list[dict]:
    """A sheet's rulings kept for games not yet entered, as the calls page makes them."""
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > 100:
        raise BackupError("A sheet's pending adjustments in this backup are damaged.")
    out = []
    for item in value:
        if not isinstance(item, dict) or set(item) != {"game", "seat", "points", "reason"}:
            raise BackupError("A sheet's pending adjustments in this backup are damaged.")
        points = _int(item["points"], "An adjustment", -MAX_ADJUSTMENT, MAX_ADJUSTMENT)
        if points == 0:
            raise BackupError("An adjustment in this backup is of 0 points.")
        out.append({"game": _int(item["game"], "An adjustment's game", 1, games_per_round),
                    "seat": _choice(item["seat"], "An adjustment's seat", SEATS),
                    "points": points,
                    "reason": _text(item["reason"], "An adjustment's reason", 280,
                                    required=True)})
    return out


def public_url(info: dict, keep_tokens: bool) -> str | None:
    """The address the QR codes and cards use, kept with the printed links (they carry it),
    checked as the director's setup checks it; without them, this site's own default, as
    the cards are printed again from here."""
    if not keep_tokens:
        return None
    try:
        return clean_public_url(_text(info.get("public_url"), "The public address",
                                      PUBLIC_URL_MAX))
    except Refused as error:
        raise BackupError(f"The public address in this backup is refused: {error.message} "
                          "Or import without keeping the links.") from None


def table_tokens(data: dict, keep_tokens: bool) -> dict[int, str]:
    """Each table number's token on this site: fresh ones, or the file's when asked to
    keep them and every one looks like ours and is free here."""
    tables = _entries(data, "tables")
    numbers = [_int(entry.get("number"), "A table number", 1, MAX_PLAYER) for entry in tables]
    if len(set(numbers)) != len(numbers):
        raise BackupError("This backup has two tables with the same number.")
    if not keep_tokens:
        return {number: new_token() for number in numbers}
    tokens = {entry["number"]: entry.get("token") for entry in tables}
    for number, token in tokens.items():
        if not isinstance(token, str) or not OUR_TOKEN.fullmatch(token):
            raise BackupError(f"Table {number}'s link in this backup does not look like a "
                              "MahjTable table link; import without keeping the links.")
    if len(set(tokens.values())) != len(tokens):
        raise BackupError("This backup gives two tables the same link.")
    if tokens and db.session.scalar(
            select(Table.id).where(Table.token.in_(list(tokens.values())))):
        raise BackupError("This backup's table links are already in use on this site "
                          "(was it imported before?).")
    return tokens
