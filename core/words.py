"""Words several audiences show the same way: seats, how a game ended, a director's
ruling, the seating movement, the states of a sheet and of a call, the clock's M:SS and
who did something (the actor of an audit row)."""

from __future__ import annotations

import unicodedata
from enum import StrEnum

# The seats in play order, and their names. tournament/ and models/ keep their own copy of
# SEATS on purpose: they stand below this package and import nothing from it.
SEATS = ("E", "S", "W", "N")
SEAT_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}

# The largest INTEGER column value on PostgreSQL: a number typed or put in a URL beyond
# it is no row of ours (and would make the query fail).
MAX_ROW_NUMBER = 2**31 - 1


class SheetState(StrEnum):
    """models.Scoresheet.state: open at the table; submitted (locked, initialled); verified
    by staff."""

    OPEN = "open"
    SUBMITTED = "submitted"
    VERIFIED = "verified"


class CallState(StrEnum):
    """models.DirectorCall.state."""

    OPEN = "open"
    CLAIMED = "claimed"
    RESOLVED = "resolved"
    CANCELLED = "cancelled"

OUTCOME_LABELS = {
    "mahjong": "Mah Jongg",
    "wall": "Wall game",
    "time": "Time called",
    "misnamed_tile": "Misnamed discard",
    "error_all_exposed": "Mah Jongg in error, all hands exposed",
    "error_one_intact": "Mah Jongg in error, one hand intact",
    "ended": "Round ended by the director",
}

MOVEMENT_WORDS = {"east_stays": "East stays, North up 1, West up 2, South down 1",
                  "imported": "the organiser's own seating"}

# A call the staff still has to answer (the others are resolved, dismissed or cancelled).
OPEN_STATES = (CallState.OPEN, CallState.CLAIMED)


def ruling_label(points: int, reason: str) -> str:
    """A director's adjustment in the table's words: "-10 director's ruling: tile count"."""
    return f"{points:+d} director's ruling: {reason}"


def clock_text(seconds: int | None) -> str:
    """Seconds as M:SS (minutes are not capped at 59: a 75-minute round shows 75:00); ""
    for None. The one M:SS of the app (static/js/app.js has its one twin, mahj.clockText):
    the clock, and the waits of the calls."""
    if seconds is None:
        return ""
    minutes, secs = divmod(max(0, int(seconds)), 60)
    return f"{minutes}:{secs:02d}"


def table_actor(number: int, seat: str | None = "E") -> str:
    """Who did something at a table, in an audit row: "Table 7 (East)"; seat None for the
    table as a whole ("Table 7")."""
    return f"Table {number} ({SEAT_NAMES[seat]})" if seat else f"Table {number}"


def staff_actor(user, role: str | None = None) -> str:
    """A staff member in an audit row: "Ann Lee (director)"; "system" without one."""
    if user is None:
        return "system"
    return f"{user.name} ({role})" if role else user.name


# Words after a family name that say which of a family, not who: kept off a short name.
_SUFFIXES = {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"}
SCREEN_NAME_LETTERS = 18


def screen_name(name: str, letters: int = SCREEN_NAME_LETTERS) -> str:
    """A name as the big screen shows it, read from across a ballroom: whole when it has
    at most `letters` characters, else the first name and the family name's initial
    ("Margaret Featherstonehaugh-Worthington" -> "Margaret F."), never cut mid-word."""
    name = " ".join((name or "").split())
    if len(name) <= letters:
        return name
    words = name.split(" ")
    while len(words) > 2 and words[-1].lower() in _SUFFIXES:
        words.pop()
    if len(words) < 2:
        return name
    return f"{words[0]} {words[-1][0]}."


def short_name(name: str, letters: int) -> str:
    """A name where a phone has room for about `letters` characters beside its seat: whole
    when it fits, else the first name and the family name's initial ("Dorothy D."), else
    the first name alone ("Dorothy"): never half a family name, which says nobody."""
    shown = screen_name(name, letters)
    if len(shown) <= letters or " " not in shown:
        return shown
    return shown.split(" ")[0]


def same_name(name: str) -> str:
    """A name as compared for a clash ("Ann  B" and "ann b" are one name to a reader)."""
    return " ".join((name or "").split()).casefold()


def repeated_name(names, taken=()) -> str | None:
    """The first of `names` that another of them, or one of `taken`, already has."""
    seen = {same_name(name) for name in taken}
    for name in names:
        if same_name(name) in seen:
            return " ".join(name.split())
        seen.add(same_name(name))
    return None


def short_names(names: list[str], letters: int) -> list[str]:
    """short_name for the four players of one table, in one form, as a person would write
    them on one sheet: whole when all fit; else "Ruth A." for all when all fit so; else the
    first names ("Ruth", "Dolores"), not "Ruth A." beside "Dolores", unless two share a
    first name, when each keeps its own short form. A one-word name stays whole."""
    names = [" ".join((name or "").split()) for name in names]
    if all(len(name) <= letters for name in names):
        return names
    initialled = [screen_name(name, 0) for name in names]
    if all(len(name) <= letters for name in initialled):
        return initialled
    firsts = [name.split(" ")[0] for name in names]
    if len({first.casefold() for first in firsts}) == len(firsts):
        return firsts
    return [short_name(name, letters) for name in names]


# Format characters a real name may hold: the zero-width non-joiner and joiner, which
# Persian and Indic scripts (and emoji sequences) need between letters.
_JOINERS = frozenset("\u200c\u200d")


def unshowable(text: str | None, lines: bool = False) -> bool:
    """Whether typed text holds a character nobody means to type: a control character (a
    NUL byte from a pasted spreadsheet, which PostgreSQL cannot store), an invisible format
    mark (U+202E turns what follows around on every page and in every CSV, U+200B makes two
    names that look the same differ), a lone surrogate or a line separator. Line breaks
    and tabs count as typed where the field has several lines."""
    allowed = "\r\n\t" if lines else ""
    for ch in text or "":
        category = unicodedata.category(ch)
        if (category == "Cc" and ch not in allowed) or category in ("Cs", "Zl", "Zp") \
                or (category == "Cf" and ch not in _JOINERS):
            return True
    return False


# The initials the front desk writes for a paper sheet it keys in, once the scorer ticks
# that the paper is initialled as the rules ask (blueprints.table.desk_writes); the
# player's page reads them as initialled.
PAPER_INITIALS = "paper"
