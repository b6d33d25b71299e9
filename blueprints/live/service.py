"""What a live page's one poll compares: the versions of every part the page shows.

A table page shows three live parts (the clock, the sheet's panel, the call bar); its
entry and review pages show two (the clock, the call bar) and send no panel. The poll
sends the version of each part as the page shows it; `table_poll` reads the current ones
(the clock, the table by its link, its round with the sheet's version, its latest call)
in one statement (core.table_pages) and says which parts changed. Nothing here renders or touches
the request: the same function answers the 204 before Flask builds a request (see
blueprints.live.fast) and decides what the full answer carries."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from core import calls as table_calls
from core import clock as clock_service
from core import sheets
from core.codes import plain_code
from core.rows import PrecompiledRead
from core.table_pages import link_statement, shown_table_from_link
from core.words import OPEN_STATES
from models import Table, Tournament, utcnow
from tournament.clock import stored_reading

# The names of the parts, as the page sends them (data-live) and as the query carries them.
CLOCK, PANEL, CALL = "clock", "panel", "call"
# The review page's own part: the same version as the panel, a different part to render.
REVIEW = "review"


@dataclass
class TablePoll:
    table: object
    tournament: object                     # the table's (core.table_pages.ShownTournament)
    state: object | None                   # core.sheets.PollState; None: not seated
    call: object | None                    # the call this phone's bar shows
    versions: dict[str, str]
    changed: list[str] = field(default_factory=list)
    refresh: bool = False                  # another round: the whole page must reload

    @property
    def unchanged(self) -> bool:
        return not self.changed and not self.refresh


def table_poll(code: str, number: int, token: str | None, round_no: int | None,
               shown: dict[str, str | None], dismissed: list[int]) -> TablePoll:
    """The table page's parts, compared with what the phone shows. Raises
    BadLink for a wrong link; an unknown tournament is a wrong link too. The table's
    read brings its tournament's clock, its round and its call with it
    (core.table_pages)."""
    table = shown_table_from_link(code, number, token, round_no)
    tournament = table.tournament
    clock = clock_service.clock_view(tournament)
    state = sheets.poll_state(table, round_no)
    call = table_calls.table_call(table)
    if call is not None and call.state not in OPEN_STATES \
            and call.id in dismissed:
        call = None
    versions = {
        CLOCK: clock.version if clock is not None else "none",
        PANEL: state.token if state is not None else "none",
        CALL: table_calls.table_version(call),
    }
    poll = TablePoll(table=table, tournament=tournament, state=state, call=call,
                     versions=versions)
    asked_panel = shown.get(PANEL)
    for asked in (asked_panel, shown.get(REVIEW)):
        if asked and (state is None or asked.split("-")[0] != str(state.round.number)):
            poll.refresh = True
    if shown.get(REVIEW) and state is not None and shown[REVIEW] != state.token:
        poll.changed.append(REVIEW)
    if not clock_service.unchanged(clock, shown.get(CLOCK), shown.get("shown")):
        poll.changed.append(CLOCK)
    # A page without the panel (entry, review) is not sent one.
    for part in (PANEL, CALL) if asked_panel else (CALL,):
        if shown.get(part) != versions[part]:
            poll.changed.append(part)
    return poll


# ---- the same comparison in one statement, for the unchanged answer -----------------------
#
# table_poll above reads through the services (core.table_pages' one read, then its
# rows turned into the page's parts). The 204 path asks the same questions of the same
# read (core.table_pages.link_statement) selecting only the versions; tests/live
# compares both answers over every state a table goes through.
# It runs on the driver's own cursor (core.rows.PrecompiledRead), outside Flask and the
# session: SQLAlchemy's execution (the statement's cache key, the result's metadata, on
# PostgreSQL a description of every column) cost three times the query's own round trip.


def _versions_columns(rows):
    """What the unchanged poll compares, of core.table_pages.link_statement's rows: the
    table's token, the tournament's players_version, the clock of the tournament's round
    and of the table's, the sheet's version and when its draft was stored, and the latest
    call's."""

    def clock_columns(rnd, prefix):
        return [getattr(rnd, column.key).label(prefix + column.key)
                for column in clock_service.CLOCK_COLUMNS]

    call = rows.call
    return (Table.token, Tournament.id.label("tournament_id"), Tournament.players_version,
            *clock_columns(rows.clock_round, "c_"), *clock_columns(rows.table_round, "t_"),
            rows.sheet.version.label("sheet_version"),
            rows.sheet.draft_at.label("sheet_draft_at"), call.id.label("call_id"),
            call.version.label("call_version"), call.state.label("call_state"),
            call.resolved_at.label("call_resolved_at"),
            call.cancelled_at.label("call_cancelled_at"),
            table_calls.round_submitted_at(call).label("call_round_submitted_at"))


_VERSIONS = {numbered: PrecompiledRead(link_statement(numbered, _versions_columns))
             for numbered in (False, True)}


class _Prefixed:
    """A row's columns that start with `prefix`, as attributes without it (what
    clock_service reads of a round)."""

    def __init__(self, row, prefix):
        self._row, self._prefix = row, prefix

    def __getattr__(self, name):
        return getattr(self._row, self._prefix + name)


def fast_unchanged(dbapi_connection, dialect, code: str, number: int, token: str | None,
                   round_no: int | None, shown: dict[str, str | None],
                   dismissed: list[int]) -> bool:
    """True when every part the phone shows is current (-> 204). False means "ask the
    full view", never "changed": a wrong link, an unknown table, anything unusual.
    `dbapi_connection`: the driver's connection (engine.raw_connection()), of `dialect`."""
    code = plain_code(code)
    if not token or code is None:
        return False
    numbered = round_no is not None
    params = {"code": code, "number": number}
    if numbered:
        params["round_no"] = round_no
    found = _VERSIONS[numbered].run(dbapi_connection, dialect, params)
    row = found[0] if found else None
    # As core.lookup.table_from_link: compared as bytes (any character can be in ?k=).
    if row is None or not secrets.compare_digest(
            row.token.encode(), str(token).encode("utf-8", "surrogatepass")):
        return False
    now = utcnow()
    # The columns read by name, not through _Prefixed: its lookups cost this path more
    # than the clocks' arithmetic.
    if not clock_service.reading_unchanged(
            row.c_number, row.c_clock_version,
            stored_reading(row.c_duration_seconds, row.c_started_at, row.c_paused_at,
                           row.c_paused_seconds, row.c_ended_at, now)
            if row.c_number is not None else None,
            shown.get(CLOCK), shown.get("shown")):
        return False
    if row.t_number is None:
        return False
    table_state, _ = stored_reading(row.t_duration_seconds, row.t_started_at, row.t_paused_at,
                                    row.t_paused_seconds, row.t_ended_at, now)
    panel = (f"{row.t_number}-{row.sheet_version or 1}-{row.t_clock_version}"
             f"-{table_state}-{row.players_version}"
             f"{sheets.draft_mark(row.sheet_draft_at, now)}")
    if any(shown.get(part) and shown.get(part) != panel for part in (PANEL, REVIEW)):
        return False
    # As table_poll: the table's call, unless ended and dismissed on this phone.
    shows_call = row.call_id is not None and (
        row.call_state in OPEN_STATES
        or (table_calls.call_shown(_Prefixed(row, "call_"), now)
            and row.call_id not in dismissed))
    version = f"{row.call_id}.{row.call_version}" if shows_call else "none"
    return shown.get(CALL) == version
