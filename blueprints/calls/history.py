"""Every call of a tournament after the fact: its times, claimers and ruling, and per round
the median and longest waits."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from core.words import CallState
from models import AuditEvent, CallClaim, DirectorCall, Round, Table, Tournament, User, db


@dataclass
class HistoryRow:
    call: DirectorCall
    table_number: int
    round_no: int | None
    claimers: list[str]
    resolved_by: str
    to_claim: int | None
    to_resolve: int | None
    adjustment: dict | None = None  # {"seat", "points", "game", "round"} from the audit row


@dataclass
class RoundStats:
    round_no: int | None
    calls: int
    median_claim: float | None
    longest_claim: int | None
    median_resolve: float | None
    longest_resolve: int | None


def history(tournament: Tournament) -> list[HistoryRow]:
    """Every call of the tournament, newest first, with its waits in seconds."""
    rows = db.session.execute(
        select(DirectorCall, Table.number, Round.number)
        .join(Table, Table.id == DirectorCall.table_id)
        .outerjoin(Round, Round.id == DirectorCall.round_id)
        .options(selectinload(DirectorCall.claims).selectinload(CallClaim.user))
        .where(DirectorCall.tournament_id == tournament.id)
        .order_by(DirectorCall.called_at.desc(), DirectorCall.id.desc())
    ).all()
    users = {u.id: u.name for u in db.session.scalars(
        select(User).where(User.id.in_({c.resolved_by_id for c, _, _ in rows
                                        if c.resolved_by_id})))}
    adjustments = {}
    for subject, after in db.session.execute(
            select(AuditEvent.subject, AuditEvent.after)
            .where(AuditEvent.tournament_id == tournament.id,
                   AuditEvent.action == "call.resolve")):
        if isinstance(after, dict) and after.get("adjustment"):
            adjustments[subject] = after["adjustment"]
    out = []
    for call, table_number, round_no in rows:
        seen = []
        for claim in call.claims:
            if claim.user.name not in seen:
                seen.append(claim.user.name)
        out.append(HistoryRow(
            call=call, table_number=table_number, round_no=round_no, claimers=seen,
            resolved_by=users.get(call.resolved_by_id, ""),
            to_claim=_seconds(call.called_at, call.first_claimed_at),
            to_resolve=_seconds(call.called_at, call.resolved_at),
            adjustment=adjustments.get(f"call:{call.id}"),
        ))
    return out


def _seconds(start: datetime, end: datetime | None) -> int | None:
    return None if end is None else max(0, int((end - start).total_seconds()))


def round_stats(rows: list[HistoryRow]) -> list[RoundStats]:
    """Per round: the median and longest wait to claim and to resolve, over calls that
    were not cancelled (a call resolved without a claim counts only for resolving)."""
    by_round: dict[int | None, list[HistoryRow]] = {}
    for row in rows:
        if row.call.state != CallState.CANCELLED:
            by_round.setdefault(row.round_no, []).append(row)
    stats = []
    for round_no in sorted(by_round, key=lambda n: (n is None, n or 0)):
        group = by_round[round_no]
        claims = [r.to_claim for r in group if r.to_claim is not None]
        resolves = [r.to_resolve for r in group if r.to_resolve is not None]
        stats.append(RoundStats(
            round_no=round_no, calls=len(group),
            median_claim=statistics.median(claims) if claims else None,
            longest_claim=max(claims) if claims else None,
            median_resolve=statistics.median(resolves) if resolves else None,
            longest_resolve=max(resolves) if resolves else None,
        ))
    return stats
