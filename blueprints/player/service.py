"""Public, read-only views of tournaments for players and onlookers: the tournaments in
progress, a player's seat and itinerary (tournament.movement for rounds not seated yet)
and their own scores as the tables entered them."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from sqlalchemy import and_, bindparam, func, or_, select

from blueprints.common import SEAT_NAMES
from core.clock import clock_view
from core.lookup import movement_plan, rules_of
from core.rounds import plan_rounds, planned_spots, someone_waiting
from core.rows import read_rows
from core.words import OUTCOME_LABELS, PAPER_INITIALS, SheetState, ruling_label
from models import (
    GameEntry,
    Player,
    Round,
    RoundSignoff,
    Scoresheet,
    Seating,
    Table,
    Tournament,
    db,
    utcnow,
)
from tournament.clock import ENDED, NOT_STARTED
from tournament.movement import table_for
from tournament.rules import RuleSet


def tournaments_in_progress(today: date | None = None,
                            now: datetime | None = None) -> list[Tournament]:
    """Tournaments on now: today falls within their dates (a day either side, for
    travel; one date = a one-day tournament), or a round clock ran in the last 24 hours
    (a round running now, or one ended or paused within the last day). Not every
    tournament that ever started a round."""
    now = now or utcnow()
    today = today or date.today()
    day_ago = now - timedelta(hours=24)
    last_day = func.coalesce(Tournament.ends_on, Tournament.starts_on)
    recent_clock = select(Round.tournament_id).where(
        Round.started_at.is_not(None),
        or_(Round.ended_at >= day_ago,
            Round.ended_at.is_(None) & (Round.paused_at.is_(None) | (Round.paused_at >= day_ago))),
    )
    return list(db.session.scalars(
        select(Tournament).where(or_(
            Tournament.id.in_(recent_clock),
            (Tournament.starts_on <= today + timedelta(days=1))
            & (last_day >= today - timedelta(days=1)),
        )).order_by(Tournament.starts_on, Tournament.name)
    ))


# ---- a player's seat, itinerary and own scores (table issue) ----------------------------

# Built once per process: building a statement and its cache key costs more than running
# it; parameters are bound at each execution.
# The pages only show the player, so they read plain rows (core.rows).
_PLAYER_BY_NUMBER = (select(Player.id, Player.number, Player.name, Player.withdrawn_from_round)
                     .where(Player.tournament_id == bindparam("tournament_id"),
                            Player.number == bindparam("number")))


def player_by_number(tournament: Tournament, number: int):
    """The player (a row of id, number, name, withdrawn_from_round), or None."""
    return read_rows(_PLAYER_BY_NUMBER, {"tournament_id": tournament.id,
                                         "number": number}).first()


def round_in_play(tournament: Tournament) -> tuple[int | None, str]:
    """(round number, "now" | "next") for the whole room, read from the tournament's
    current round clock (core.clock.clock_view: the round in play, else the
    next to start, else the last ended; the same round every clock and display shows):
    a round in play, or round 1 before any has started, is "now"; a later round not
    started yet, or the one after the last ended round, is "next"; after the last round,
    that round "now". (None, "now") before any round exists."""
    clock = clock_view(tournament)
    if clock is None:
        return None, "now"
    if clock.state == NOT_STARTED:
        return clock.round_no, "now" if clock.round_no == 1 else "next"
    if clock.state == ENDED and clock.round_no < tournament.rounds:
        return clock.round_no + 1, "next"
    return clock.round_no, "now"


@dataclass(frozen=True)
class GameLine:
    """One game as the player reads it: how it ended for them, their points, and the
    director's rulings on their seat ("-10 director's ruling: tile count")."""

    number: int
    label: str
    points: int
    rulings: tuple[str, ...] = ()
    # the director's written reason for changing this game ("" when she did not), and
    # whether that was after submission under a sheet that allows no changes
    changed: str = ""
    changed_after_submission: bool = False


@dataclass
class Stop:
    """One round of a player's itinerary, with their points there once entered."""

    round_no: int
    table_no: int
    seat: str
    planned: bool  # the round is not seated yet: from tournament.movement
    games: list[GameLine] = field(default_factory=list)
    total: int | None = None  # None: no game entered (shown "–")
    initials: str = ""
    state: str = ""  # "", open, submitted, verified
    # RuleSet.final_states
    final_states: tuple[str, ...] = (SheetState.SUBMITTED, SheetState.VERIFIED)
    ruling: str = ""  # a director's change after submission, where the sheet forbids changes
    # to no one game (a table's round ended by the director); a game's own is on its line
    # Where the rules ask no player to initial the round (RuleSet.round_signoff_all), the
    # sheet is initialled game by game by each game's signer (at the desk: "paper").
    signoff_all: bool = True
    asks_initials: bool = True  # False: the rules ask for no initials (the desk may add them)
    games_initialled: int = 0
    on_paper: bool = False

    @property
    def initialled(self) -> bool:
        """Whether the sheet carries the initials the rules ask of this round."""
        if self.signoff_all:
            return bool(self.initials)
        return bool(self.games) and self.games_initialled == len(self.games)

    @property
    def seat_name(self) -> str:
        return SEAT_NAMES[self.seat]

    @property
    def provisional(self) -> bool:
        """Points entered on a sheet that is not final yet (not submitted, or not verified
        where the rule set makes scores final at verification): they may change."""
        return self.total is not None and self.state not in self.final_states


def _rulings(record: dict, seat: str) -> tuple[str, ...]:
    return tuple(ruling_label(a["points"], a["reason"])
                 for a in record.get("adjustments") or [] if a.get("seat") == seat)


def _mine(record: dict, seat: str) -> str:
    """A game in a player's own words: "Mah Jongg: you won", "Mah Jongg: East"."""
    label = OUTCOME_LABELS.get(record.get("outcome"), "")
    winner = record.get("winner")
    if record.get("outcome") == "mahjong" and winner:
        label = "Mah Jongg: you won" if winner == seat else f"Mah Jongg: {SEAT_NAMES[winner]}"
        if record.get("discarder") == seat:
            label += ", you threw"
    if seat in record.get("dead", []):
        label += " (your hand was dead)"
    return label


_ITINERARY = (
    select(Round.number, Seating.seat, Table.number, Scoresheet.state,
           Scoresheet.submitted_at, Scoresheet.amended_at, Scoresheet.amend_reason,
           GameEntry.number, GameEntry.record, GameEntry.points_e, GameEntry.points_s,
           GameEntry.points_w, GameEntry.points_n, RoundSignoff.initials,
           GameEntry.initials, GameEntry.ruling, GameEntry.ruled_at)
    .select_from(Seating)
    .join(Round, Round.id == Seating.round_id)
    .join(Table, Table.id == Seating.table_id)
    .outerjoin(Scoresheet, and_(Scoresheet.round_id == Seating.round_id,
                                Scoresheet.table_id == Seating.table_id))
    .outerjoin(GameEntry, GameEntry.sheet_id == Scoresheet.id)
    .outerjoin(RoundSignoff, and_(RoundSignoff.sheet_id == Scoresheet.id,
                                  RoundSignoff.seat == Seating.seat))
    .where(Round.tournament_id == bindparam("tournament_id"),
           Seating.player_id == bindparam("player_id"))
    .order_by(Round.number, GameEntry.number)
)
_TABLES = select(func.count(Table.id)).where(Table.tournament_id == bindparam("tournament_id"))


def itinerary(tournament: Tournament, player) -> list[Stop]:
    """Every round's table and seat for this player, with the scores entered so far.

    One query whatever the number of rounds: the player's seatings joined to their
    round, table, sheet, the sheet's games and the player's own initials (one row per
    game; a round with no game yet is one row); plus one count of tables."""
    rows = read_rows(_ITINERARY, {"tournament_id": tournament.id,
                                  "player_id": player.id}).all()
    rules = RuleSet.from_dict(tournament.rules)
    known: dict[int, Stop] = {}
    after_submission = rules.changes_after_submit == "ruling"
    for (round_no, seat, table_no, state, submitted_at, amended_at, amend_reason, game_no,
         record, points_e, points_s, points_w, points_n, initials, game_initials,
         game_ruling, ruled_at) in rows:
        stop = known.get(round_no)
        if stop is None:
            ruled = (rules.changes_after_submit == "ruling" and submitted_at is not None
                     and amended_at is not None and amended_at >= submitted_at)
            stop = known[round_no] = Stop(round_no, table_no, seat, planned=False,
                                          state=state or "", initials=initials or "",
                                          final_states=rules.final_states,
                                          ruling=(amend_reason or "") if ruled else "",
                                          signoff_all=rules.round_signoff_all,
                                          asks_initials=bool(rules.round_signoff_all
                                                             or rules.game_signoff))
        if game_no is not None:
            points = {"E": points_e, "S": points_s, "W": points_w, "N": points_n}[seat]
            changed = game_ruling if ruled_at is not None else ""
            stop.games.append(GameLine(
                game_no, _mine(record, seat), points, _rulings(record, seat), changed or "",
                bool(changed) and after_submission and submitted_at is not None
                and ruled_at >= submitted_at))
            if game_initials:
                stop.games_initialled += 1
                stop.on_paper = stop.on_paper or game_initials == PAPER_INITIALS
    for stop in known.values():
        stop.total = sum(game.points for game in stop.games) if stop.games else None
        if stop.ruling and any(stop.ruling == game.changed for game in stop.games):
            stop.ruling = ""  # said on its game's line
    tables = read_rows(_TABLES, {"tournament_id": tournament.id}).scalar() or 0
    stops: list[Stop] = []
    last: tuple[int, int, str] | None = None  # (round, table, seat)
    movement = movement_plan(tournament, rules)
    imported = movement.kind == "imported"
    # A player who joined late has no seat to move from, and a table that joins moves the
    # others too: then every round not made yet is read from the whole plan.
    plans = None
    if not imported and (not known or someone_waiting(tournament)) \
            and len(known) < tournament.rounds:
        try:
            plans = plan_rounds(tournament, tournament.rounds)
        except ValueError:
            plans = {}
    for number in range(1, tournament.rounds + 1):
        if number in known:
            stop = known[number]
            last = (number, stop.table_no, stop.seat)
            stops.append(stop)
        elif plans is not None:
            spot = next(((table_no, seat) for table_no, seats in plans.get(number, {}).items()
                         for seat, pid in seats.items() if pid == player.id), None)
            if spot is not None:
                stops.append(Stop(number, spot[0], spot[1], planned=True))
        elif movement.kind != "moves":
            # The organiser's seating or the draw, not the player's seat, says where.
            spot = planned_spots(tournament, number, movement).get(player.id)
            if spot is not None:
                stops.append(Stop(number, spot[0], spot[1], planned=True))
        elif last is not None and tables and not (
                player.withdrawn_from_round and number >= player.withdrawn_from_round):
            from_round, table_no, seat = last
            stops.append(Stop(number, table_for(seat, table_no, number - from_round + 1,
                                                 tables, movement.moves), seat, planned=True))
    return stops


def guide_verifies(tournament) -> bool:
    """Whether a table guide verifies each sheet under this tournament's rules (Hidden
    Tile); elsewhere a player's page says nothing about verification."""

    return bool(rules_of(tournament).table_guide_verifies)
