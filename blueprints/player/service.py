"""Public, read-only views of tournaments for players and onlookers."""

from __future__ import annotations

from datetime import date, timedelta

from sqlalchemy import or_, select

from models import Round, Tournament, db


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
