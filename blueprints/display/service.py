"""The big screen: which tournament, and what its board shows between clock ticks
(announcements, the movement between rounds, the leaders), with one version for all of it.

The clock itself comes from core.clock; the leaders from the results
include (they count submitted and verified sheets only, so the version follows those, not
every game saved at a table). The tournament by its code: core.lookup.
Read-only: the director posts announcements from the clock console."""

from __future__ import annotations

from dataclasses import dataclass

from core import clock as clock_service
from core.lookup import movement_plan, movement_words
from models import Tournament
from tournament.clock import ENDED, NOT_STARTED

SHOWN_ANNOUNCEMENTS = 2  # the newest; more would push the leaders off the screen


def short_address(url: str) -> str:
    """The address to type, as short as it reads: no "http://", no "www.", no trailing /."""
    for prefix in ("https://", "http://"):
        if url.startswith(prefix):
            url = url[len(prefix):]
    return url.removeprefix("www.").rstrip("/")


@dataclass(frozen=True)
class Board:
    headline: str          # between rounds: what happens now, in a few words
    move: bool             # show "Move to your next table: ..."
    announcements: list
    version: str
    movement: str          # the movement in words (core.lookup.movement_words)
    imported: bool = False  # the organiser's own seating: no rule to put on the screen


def board(tournament: Tournament) -> Board:
    view = clock_service.clock_view(tournament)
    items = clock_service.announcements(tournament.id)
    move = False
    if view is None:
        headline = "Seating for round 1 is not ready yet."
    elif view.state == NOT_STARTED and view.round_no == 1:
        headline = "Find your seat for round 1."
    elif view.state == NOT_STARTED:
        headline, move = f"Round {view.round_no} is next.", True
    elif view.state == ENDED and view.round_no < tournament.rounds:
        headline, move = f"Round {view.round_no} has ended.", True
    elif view.state == ENDED:
        headline = "That was the last round. Thank you for playing!"
    else:
        headline = ""
    movement = movement_plan(tournament)
    version = clock_service.fingerprint(
        view.version if view else "none", [(a.id, a.text) for a in items],
        clock_service.leaders_fingerprint(tournament.id), tournament.players_version)
    return Board(headline=headline, move=move, announcements=items[:SHOWN_ANNOUNCEMENTS],
                 version=version, movement=movement_words(tournament, short=True),
                 imported=movement.kind != "moves")
