"""Check-in at the door: who is here, late or not coming; round 1 seated from the players
here (the others withdrawn from round 1 on, substitutes named to fill the last table); a
withdrawal undone; a late arrival seated at a table of their own from the next round.

The seats of rounds not made yet follow from core.rounds.plan_rounds; this module only
writes the players' state, and the new tables into a round that is made but not played."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select

from core.rounds import (
    joining,
    joining_group,
    new_tables,
    plan_rounds,
    seated,
    stored_seating,
    substitutions,
    table_rows,
)
from core.writes import write
from models import Player, Round, Seating, Substitution, Tournament, User, db, utcnow

from .common import PLAYED, SetupError, audit, lock_tournament, played_rounds, players_changed
from .players import add_player, player_snapshot, withdraw_player
from .seating import seat_round_one

ARRIVALS = {"here": "here", "late": "late", "absent": "not coming"}


@dataclass
class Door:
    """What the check-in page keeps in view: the counts, and who is waiting for a seat."""

    here: int
    expected: int
    tables: int
    substitutes_needed: int
    seated: bool
    started: bool
    # Players here without a seat once round 1 is seated, with the round they play from
    # (None: not until `substitutes_needed` more substitutes are here).
    waiting: list[Player] = field(default_factory=list)
    joins_from: int | None = None
    free_substitutes: int = 0
    # The substitutes seated since round 1 to fill a table, whose seat the first player
    # waiting can take from `next_round` (take_substitute_seat).
    substitute_seats: list[Player] = field(default_factory=list)
    next_round: int | None = None


def door(tournament: Tournament) -> Door:
    """The counts at the door. Before round 1 is seated: the players here, the field
    expected, the tables the players here fill and the substitutes that takes. After:
    the tables of the next round and what a late arrival's table still needs."""
    field_players = [p for p in tournament.players if p.withdrawn_from_round is None]
    here = sum(1 for p in field_players if p.arrival == "here")
    # Everyone still in the field but those marked not coming, substitutes too: once all
    # are here, here == expected.
    expected = sum(1 for p in field_players if p.arrival != "absent")
    if not seated(tournament):
        return Door(here, expected, -(-here // 4), (-here) % 4, False, False)
    played = played_rounds(tournament)
    started = 1 in played
    stored = stored_seating(tournament)
    seated_ids = {pid for plan in stored.values() for seats in plan.values()
                  for pid in seats.values()}
    subs = substitutions(tournament)
    ranked, free = joining(tournament, seated_ids, subs)
    next_round = next((n for n in range(1, tournament.rounds + 1) if n not in played), None)
    tables = 0
    joins_from = None
    if next_round is not None:
        try:
            plans = plan_rounds(tournament, tournament.rounds)
        except ValueError:
            plans = {}
        tables = len(plans.get(next_round, {}))
        ids = {p.id for p in ranked}
        joins_from = next((n for n in sorted(plans) if ids and ids <= {
            pid for seats in plans[n].values() for pid in seats.values()}), None)
    short = max((-len(ranked)) % 4 - len(free), 0) if ranked else 0
    substitute_seats: list[Player] = []
    if ranked and next_round is not None:
        first_seated = {pid for seats in stored.get(1, {}).values() for pid in seats.values()}
        standing_in = {sub for sub, _ in subs.values()}
        substitute_seats = sorted(
            (p for p in tournament.players
             if p.is_substitute and p.withdrawn_from_round is None
             and p.id in first_seated and p.id not in standing_in),
            key=lambda p: p.number)
    return Door(here, expected, tables, short, True, started, ranked, joins_from, len(free),
                substitute_seats, next_round)


@write
def mark(tournament: Tournament, user: User, player: Player, arrival: str | None) -> None:
    """Mark a player here, late or not coming (None: expected again, the undo). A player
    withdrawn from round 1 at the seating who is marked here comes back (bring_back)."""
    if arrival is not None and arrival not in ARRIVALS:
        raise SetupError(None, "Mark the player here, late or not coming.")
    if arrival == "here" and player.withdrawn_from_round is not None:
        bring_back(tournament, user, player)
        return
    before = {"arrival": player.arrival}
    if player.arrival == arrival:
        return
    player.arrival, player.arrival_at = arrival, utcnow()
    db.session.flush()
    players_changed(tournament)
    audit(tournament, user, "checkin.mark", f"player:{player.id}", before=before,
          after={"arrival": arrival, "number": player.number, "name": player.name})


@write
def bring_back(tournament: Tournament, user: User, player: Player) -> None:
    """Undo a withdrawal: the player keeps her entry, her number and every game she
    played. Before the round she left from is played, her seats are hers again (a
    substitute who took them is free again); after it, she is here without a seat and
    joins at a table of her own from the next round (seat_joining)."""
    if player.withdrawn_from_round is None:
        raise SetupError(None, f"{player.name} has not left.")
    lock_tournament(tournament)
    before = player_snapshot(player) | {"arrival": player.arrival}
    sub = db.session.scalar(select(Substitution).where(Substitution.player_id == player.id))
    played = played_rounds(tournament)
    if sub is not None:
        if sub.from_round in played:
            substitute = db.session.get(Player, sub.substitute_id)
            raise SetupError(None,
                             f"{substitute.name} has played {player.name}'s seat since round "
                             f"{sub.from_round}, so the seat stays {substitute.name}'s. Add "
                             f"{player.name} as a new player to seat her at a new table.")
        for rnd in tournament.round_list:
            if rnd.number < sub.from_round:
                continue
            for seat in rnd.seats:
                if seat.player_id == sub.substitute_id:
                    seat.player_id = player.id
        db.session.delete(sub)
    player.withdrawn_from_round = None
    player.arrival, player.arrival_at = "here", utcnow()
    db.session.flush()
    players_changed(tournament)
    audit(tournament, user, "player.return", f"player:{player.id}", before=before,
          after=player_snapshot(player) | {"arrival": "here"})
    seat_joining(tournament, user)


@write
def take_substitute_seat(tournament: Tournament, user: User, player: Player,
                         substitute: Player) -> int:
    """A late arrival takes the seat of a substitute who filled a table since round 1,
    from the next round not played: the substitute leaves from that round, with the
    player standing in (players.withdraw_player, audited there); the substitute keeps the
    games played. Returns the round she plays from. SetupError in plain words when she
    is not waiting or he is not such a substitute (the page changed since it was shown)."""
    lock_tournament(tournament)
    found = door(tournament)
    if player not in found.waiting:
        raise SetupError(None, f"{player.name} is not waiting for a seat.")
    if substitute not in found.substitute_seats or found.next_round is None:
        raise SetupError(None, f"{substitute.name}'s seat cannot be given: tap the page "
                               "again to see the seats that can.")
    withdraw_player(tournament, user, substitute, from_round=found.next_round,
                    substitute=player)
    return found.next_round


def seat_joining(tournament: Tournament, user: User | None) -> list[int]:
    """Seat the players without a seat (and the free substitutes their table needs) at
    new tables of the last round made, when it is not played yet and is not round 1 (a
    new draw seats everyone then); a round made later seats them itself
    (core.rounds.plan_rounds). Returns who was seated here."""
    stored = stored_seating(tournament)
    # Before round 1 is played, seating it again is what seats everyone here.
    if not stored or max(stored) == 1 and 1 not in played_rounds(tournament):
        return []
    last = max(stored)
    rnd = db.session.scalar(select(Round).where(Round.tournament_id == tournament.id,
                                                Round.number == last, ~PLAYED))
    if rnd is None:
        return []
    seated_ids = {pid for plan in stored.values() for seats in plan.values()
                  for pid in seats.values()}
    group = joining_group(*joining(tournament, seated_ids, substitutions(tournament)))
    if not group:
        return []
    tables = new_tables(stored[last], group)
    rows = table_rows(tournament, max(tables))
    for table_number, seats in tables.items():
        for seat, player_id in seats.items():
            rnd.seats.append(Seating(table=rows[table_number], seat=seat, player_id=player_id))
    db.session.flush()
    audit(tournament, user, "seating.join", f"round:{rnd.id}",
          after={"round": last, "tables": sorted(tables), "players": group})
    return group


@write
def add_arrival(tournament: Tournament, user: User, *, name: str, number: int | None,
                is_substitute: bool = False, seat: bool = True) -> Player:
    """A player (or substitute) who is here and was not on the list: added, marked here,
    and seated with the others without a seat when their table is full."""
    player = add_player(tournament, user, number=number, name=name,
                        is_substitute=is_substitute)
    player.arrival, player.arrival_at = "here", utcnow()
    db.session.flush()
    if seat and seated(tournament):
        seat_joining(tournament, user)
    return player


@write
def seat_from_here(tournament: Tournament, user: User, substitute_names: list[str],
                   method: str = "draw") -> list[Player]:
    """Round 1 from the players here: every player not here is withdrawn from round 1 on
    (audited, undone with bring_back), the named substitutes are added as here, and round 1
    is drawn (or seated by number). Returns the players withdrawn."""
    lock_tournament(tournament)
    if 1 in played_rounds(tournament):
        raise SetupError("method", "Round 1 has started; a player who arrives now is added "
                                   "for the next round.")
    names = [n.strip() for n in substitute_names if n and n.strip()]
    here = [p for p in tournament.players
            if p.withdrawn_from_round is None and p.arrival == "here"]
    if not here:
        raise SetupError("method", "Nobody is checked in yet: tap each player as they "
                                   "arrive.")
    needed = (-(len(here) + len(names))) % 4
    if needed:
        raise SetupError("names",
                         f"{len(here) + len(names)} players is not a multiple of four: "
                         f"name {needed} more substitute{'s' if needed != 1 else ''}.")
    gone = [p for p in tournament.players
            if p.withdrawn_from_round is None and p.arrival != "here"]
    for player in gone:
        before = player_snapshot(player) | {"arrival": player.arrival}
        player.withdrawn_from_round = 1
        if player.arrival is None:
            player.arrival = "absent"
        audit(tournament, user, "player.withdraw", f"player:{player.id}", before=before,
              after=player_snapshot(player) | {"arrival": player.arrival,
                                               "why": "not here when round 1 was seated"})
    db.session.flush()
    for name in names:
        add_arrival(tournament, user, name=name, number=None, is_substitute=True,
                    seat=False)
    try:
        seat_round_one(tournament, method=method, user=user)
    except ValueError as error:
        raise SetupError("method", str(error)) from None
    players_changed(tournament)
    return gone
