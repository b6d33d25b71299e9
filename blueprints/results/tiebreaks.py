"""The director's decisions on the results: how many places win a prize, and each tie
for a prize place settled by a draw or left shared. Every decision is one unit of work
with its audit row."""

from __future__ import annotations

from sqlalchemy import select

from blueprints.common import unstorable
from core.errors import Refused
from core.lookup import rules_of
from core.words import staff_actor
from core.writes import write
from models import (
    Tiebreak,
    Tournament,
    User,
    db,
    record,
)
from tournament.rules import RuleSet

from .standings import SHARED_MARK, Line, TieGroup, board


class ResultsError(Refused):
    """A director's request that cannot be applied; the message says why in plain words."""


@write
def set_prize_places(tournament: Tournament, places: int, user: User,
                     role: str | None = None) -> None:
    """Set how many places win prizes (audited)."""
    if places < 0 or places > 1000:
        raise ResultsError("prize_places", "Enter a number of prize places from 0 to 1000.")
    before = tournament.prize_places
    if before == places:
        return
    tournament.prize_places = places
    record("results.prize_places", tournament_id=tournament.id,
           subject=f"tournament:{tournament.id}", before={"prize_places": before},
           after={"prize_places": places}, actor=staff_actor(user, role),
           actor_user_id=user.id)


def _group_for(tournament: Tournament, key: str, player_ids: list[int]) -> TieGroup:
    table = next((t for t in board(tournament, with_tiebreaks=False, provisional=False).tables
                  if t.key == key),
                 None)
    if table is None:
        raise ResultsError("competition", "That competition is not in this tournament.")
    groups: dict[int, list[Line]] = {}
    for line in table.lines:
        groups.setdefault(line.rank, []).append(line)
    for rank, lines in groups.items():
        if len(lines) > 1 and {line.player.id for line in lines} == set(player_ids):
            return TieGroup(rank, lines)
    raise ResultsError("order", "These players are no longer tied; reload the page to see "
                                "the current standings.")


TIE_METHODS = {
    "tile_bag": "a tile-bag draw (the first to draw three jokers places higher)",
    "draw": "a draw the director records",
    "shared": "the tied players share the place",
    None: "the director's choice for each tie: a draw, or shared places",
}


def tie_decisions(rules: RuleSet) -> tuple[str, ...]:
    """The decisions the results page offers on a prize tie under these rules: "draw"
    (record an order) and/or "shared"."""
    if rules.tiebreak in ("tile_bag", "draw"):
        return ("draw",)
    if rules.tiebreak == "shared":
        return ("shared",)
    return ("draw", "shared")


def tie_method_refusal(rules: RuleSet) -> str:
    return (f"Under these rules ties for a prize place are settled by "
            f"{TIE_METHODS[rules.tiebreak]}. Change the tie rule on the Rules page before "
            "play to settle them otherwise.")


@write
def decide_tie(tournament: Tournament, key: str, group: list[int], order: list[int] | None,
               user: User, note: str = "", role: str | None = None) -> Tiebreak:
    """Record the director's decision on one tie group: `order` (player ids, best first:
    the tile-bag draw) or None to leave the group shared; only a decision the rule set's
    tie-break allows (`tie_decisions`). Replaces an earlier decision on the same group; one
    transaction with its audit row."""
    allowed = tie_decisions(rules_of(tournament))
    if ("shared" if order is None else "draw") not in allowed:
        raise ResultsError("decision", tie_method_refusal(rules_of(tournament)))
    tie = _group_for(tournament, key, group)
    ids = set(tie.player_ids)
    if order is not None and (len(order) != len(ids) or set(order) != ids):
        raise ResultsError("order", "Give every tied player a different place, 1 to "
                                    f"{len(ids)}.")
    note = note.strip()[:500]
    if unstorable(note):
        raise ResultsError("note", "The note has a character that cannot be stored; please "
                                   "type it again.")
    while note.startswith(SHARED_MARK):  # the marker is ours, never part of a typed note
        note = note[len(SHARED_MARK):].strip()
    earlier = [t for t in db.session.scalars(
        select(Tiebreak).where(Tiebreak.tournament_id == tournament.id,
                               Tiebreak.competition_key == key))
        if set(t.player_ids or []) == ids]
    before = [{"player_ids": t.player_ids, "note": t.note} for t in earlier]
    for old in earlier:
        db.session.delete(old)
    if order is None:
        tiebreak = Tiebreak(tournament_id=tournament.id, competition_key=key,
                            player_ids=sorted(ids),
                            note=f"{SHARED_MARK} {note}".strip(), recorded_by_id=user.id)
    else:
        tiebreak = Tiebreak(tournament_id=tournament.id, competition_key=key,
                            player_ids=list(order), note=note, recorded_by_id=user.id)
    db.session.add(tiebreak)
    db.session.flush()
    record("results.tiebreak", tournament_id=tournament.id, subject=f"tiebreak:{tiebreak.id}",
           before=before or None,
           after={"competition": key, "player_ids": tiebreak.player_ids,
                  "shared": order is None, "note": tiebreak.note},
           reason=note, actor=staff_actor(user, role), actor_user_id=user.id)
    return tiebreak


@write
def clear_tie(tournament: Tournament, tiebreak_id: int, user: User,
              role: str | None = None) -> None:
    """Remove a recorded decision (the group is tied again). Audited."""
    tiebreak = db.session.get(Tiebreak, tiebreak_id)
    if tiebreak is None or tiebreak.tournament_id != tournament.id:
        raise ResultsError("tiebreak", "That tie-break is not in this tournament.")
    record("results.tiebreak_cleared", tournament_id=tournament.id,
           subject=f"tiebreak:{tiebreak.id}",
           before={"competition": tiebreak.competition_key, "player_ids": tiebreak.player_ids,
                   "note": tiebreak.note}, actor=staff_actor(user, role),
           actor_user_id=user.id)
    db.session.delete(tiebreak)
