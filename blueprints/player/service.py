"""Public, read-only views of tournaments for players and onlookers: the tournaments in
progress, a player's seat and itinerary (tournament.movement for rounds not seated yet)
and their own scores as the tables entered them."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta

from sqlalchemy import or_, select

from models import Player, Round, Scoresheet, Seating, Table, Tournament, db


def tournaments_in_progress(today: date | None = None) -> list[Tournament]:
    """Tournaments running now: a round has started and the last has not ended, or
    today falls within their dates (a day either side, for travel)."""
    today = today or date.today()
    started = select(Round.tournament_id).where(Round.started_at.is_not(None))
    return list(db.session.scalars(
        select(Tournament).where(or_(
            Tournament.id.in_(started),
            Tournament.starts_on.between(today - timedelta(days=1), today + timedelta(days=1)),
            (Tournament.starts_on <= today) & (Tournament.ends_on >= today),
        )).order_by(Tournament.starts_on, Tournament.name)
    ))


def tournament_by_code(code: str) -> Tournament | None:
    return db.session.scalar(select(Tournament).where(Tournament.code == code.strip().upper()))


# ---- a player's seat, itinerary and own scores (table issue) ----------------------------

SEAT_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}


def player_by_number(tournament: Tournament, number: int) -> Player | None:
    return db.session.scalar(
        select(Player).where(Player.tournament_id == tournament.id, Player.number == number)
    )


def round_in_play(tournament: Tournament) -> tuple[int | None, str]:
    """(round number, "now" | "next") for the whole room: the latest round whose clock is
    running; else, after a round has ended, the one after it ("next"); else round 1."""
    rounds = list(db.session.scalars(
        select(Round).where(Round.tournament_id == tournament.id).order_by(Round.number)))
    running = [r for r in rounds if r.started_at is not None and r.ended_at is None]
    if running:
        return running[-1].number, "now"
    ended = [r for r in rounds if r.ended_at is not None]
    if ended:
        last = ended[-1].number
        return (last + 1, "next") if last < tournament.rounds else (last, "now")
    return (1, "now") if rounds else (None, "now")


@dataclass
class Stop:
    """One round of a player's itinerary, with their points there once entered."""

    round_no: int
    table_no: int
    seat: str
    planned: bool  # the round is not seated yet: from tournament.movement
    games: list[tuple[int, str, int]] = field(default_factory=list)  # (game, label, points)
    total: int | None = None
    initials: str = ""
    state: str = ""  # "", open, submitted, verified

    @property
    def seat_name(self) -> str:
        return SEAT_NAMES[self.seat]


def _mine(record: dict, seat: str) -> str:
    """A game in a player's own words: "Mah Jongg: you won", "Mah Jongg: East"."""
    from blueprints.table.service import OUTCOME_LABELS

    label = OUTCOME_LABELS.get(record.get("outcome"), "")
    winner = record.get("winner")
    if record.get("outcome") == "mahjong" and winner:
        label = "Mah Jongg: you won" if winner == seat else f"Mah Jongg: {SEAT_NAMES[winner]}"
        if record.get("discarder") == seat:
            label += ", you threw"
    if seat in record.get("dead", []):
        label += " (your hand was dead)"
    return label


def itinerary(tournament: Tournament, player: Player) -> list[Stop]:
    """Every round's table and seat for this player, with the scores entered so far."""
    from tournament.movement import table_for

    rows = db.session.execute(
        select(Round, Seating, Table.number)
        .join(Seating, Seating.round_id == Round.id).join(Table, Table.id == Seating.table_id)
        .where(Round.tournament_id == tournament.id, Seating.player_id == player.id)
        .order_by(Round.number)
    ).all()
    stops: list[Stop] = []
    known: dict[int, tuple[Round, Seating, int]] = {rnd.number: (rnd, s, t) for rnd, s, t in rows}
    tables = len(tournament.tables)
    last: tuple[int, int, str] | None = None  # (round, table, seat)
    for number in range(1, tournament.rounds + 1):
        if number in known:
            rnd, seating, table_no = known[number]
            stop = Stop(number, table_no, seating.seat, planned=False)
            sheet = db.session.scalar(select(Scoresheet).where(
                Scoresheet.round_id == rnd.id, Scoresheet.table_id == seating.table_id))
            if sheet is not None:
                stop.state = sheet.state
                attr = f"points_{seating.seat.lower()}"
                stop.games = [(g.number, _mine(g.record, seating.seat), getattr(g, attr))
                              for g in sheet.games]
                stop.total = sum(points for _, _, points in stop.games) if stop.games else None
                stop.initials = next((s.initials for s in sheet.signoffs
                                      if s.seat == seating.seat), "")
            last = (number, table_no, seating.seat)
            stops.append(stop)
        elif last is not None and tables and not (
                player.withdrawn_from_round and number >= player.withdrawn_from_round):
            from_round, table_no, seat = last
            stops.append(Stop(number, table_for(seat, table_no, number - from_round + 1,
                                                 tables), seat, planned=True))
    return stops
