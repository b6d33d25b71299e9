"""What a live page's one poll compares: the versions of every part the page shows.

A table page shows three live parts (the clock, the sheet's panel, the call bar). Its
poll sends the version of each as the page shows it; `table_poll` reads the current ones
in four indexed lookups (the clock, the table by its link, its round with the sheet's
version, its latest call) and says which parts changed. Nothing here renders or touches
the request: the same function answers the 204 before Flask builds a request (see
blueprints.live.fast) and decides what the full answer carries."""

from __future__ import annotations

from dataclasses import dataclass, field

from blueprints.calls import service as calls_service
from blueprints.clock import service as clock_service
from blueprints.table import service as table_service

# The names of the parts, as the page sends them (data-live) and as the query carries them.
CLOCK, PANEL, CALL = "clock", "panel", "call"


@dataclass
class TablePoll:
    table: object
    tournament: object                     # clock_service.PublicTournament
    state: object | None                   # table_service.PollState; None: not seated
    call: object | None                    # the call this phone's bar shows
    versions: dict[str, str]
    changed: list[str] = field(default_factory=list)
    refresh: bool = False                  # another round: the whole page must reload

    @property
    def unchanged(self) -> bool:
        return not self.changed and not self.refresh


def dismissed_ids(raw: str | None) -> list[int]:
    """The ended calls this phone said "OK" to (the calls blueprint's cookie)."""
    return [int(part) for part in (raw or "").split(".") if part.isdigit() and len(part) < 12]


def table_poll(code: str, number: int, token: str | None, round_no: int | None,
               shown: dict[str, str | None], dismissed: list[int]) -> TablePoll:
    """The table page's parts, compared with what the phone shows. Raises
    table_service.BadLink for a wrong link; an unknown tournament is a wrong link too."""
    table = table_service.table_from_link(code, number, token)
    found = clock_service.clock_by_code(code)
    if found is None:
        raise table_service.BadLink()
    tournament, clock = found
    state = table_service.poll_state(table, round_no)
    call = calls_service.table_call(table)
    if call is not None and call.state not in calls_service.OPEN_STATES \
            and call.id in dismissed:
        call = None
    versions = {
        CLOCK: clock.version if clock is not None else "none",
        PANEL: state.token if state is not None else "none",
        CALL: calls_service.table_version(call),
    }
    poll = TablePoll(table=table, tournament=tournament, state=state, call=call,
                     versions=versions)
    asked_panel = shown.get(PANEL)
    if state is None or (asked_panel and
                         asked_panel.split("-")[0] != str(state.round.number)):
        poll.refresh = True
    if not clock_service.unchanged(clock, shown.get(CLOCK), shown.get("shown")):
        poll.changed.append(CLOCK)
    for part in (PANEL, CALL):
        if shown.get(part) != versions[part]:
            poll.changed.append(part)
    return poll
