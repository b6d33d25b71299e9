"""A tournament as one JSON document: rows refer to each other by what people call them
(see the package docstring), so the document imports into any database."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import or_, select
from sqlalchemy.orm import selectinload

from core.rounds import stored_round
from models import (
    Announcement,
    AuditEvent,
    CallClaim,
    Competition,
    DirectorCall,
    Player,
    Round,
    Scoresheet,
    Seating,
    Substitution,
    Table,
    Tiebreak,
    Tournament,
    TournamentStaff,
    User,
    db,
)

from .checks import FORMAT, SEAT_ORDER, SUBJECT, SUBJECT_KINDS, VERSION


def _when(value: datetime | date | None) -> str | None:
    return value.isoformat() if value is not None else None


def export_tournament(tournament: Tournament) -> dict:
    """The whole tournament as JSON-ready data (see the module docstring)."""
    tid = tournament.id
    users = {u.id: u for u in db.session.scalars(select(User).where(or_(
        User.id.in_(select(TournamentStaff.user_id).where(TournamentStaff.tournament_id == tid)),
        User.id.in_(select(CallClaim.user_id).join(DirectorCall).where(
            DirectorCall.tournament_id == tid)),
        User.id.in_(select(AuditEvent.actor_user_id).where(AuditEvent.tournament_id == tid)),
        User.id.in_(select(Scoresheet.verified_by_id).join(Round).where(
            Round.tournament_id == tid)),
        User.id.in_(select(Scoresheet.amended_by_id).join(Round).where(
            Round.tournament_id == tid)),
        User.id.in_(select(DirectorCall.resolved_by_id).where(DirectorCall.tournament_id == tid)),
        User.id.in_(select(Announcement.created_by_id).where(Announcement.tournament_id == tid)),
        User.id.in_(select(Tiebreak.recorded_by_id).where(Tiebreak.tournament_id == tid)),
    )))}

    def email(user_id: int | None) -> str | None:
        return users[user_id].email if user_id in users else None

    players = db.session.scalars(
        select(Player).where(Player.tournament_id == tid).order_by(Player.number)).all()
    player_no = {p.id: p.number for p in players}
    tables = db.session.scalars(
        select(Table).where(Table.tournament_id == tid).order_by(Table.number)).all()
    table_no = {t.id: t.number for t in tables}
    rounds = db.session.scalars(
        select(Round).where(Round.tournament_id == tid).order_by(Round.number)).all()
    round_no = {r.id: r.number for r in rounds}
    competitions = db.session.scalars(
        select(Competition).where(Competition.tournament_id == tid)
        .options(selectinload(Competition.entries))
        .order_by(Competition.first_round, Competition.id)).all()
    competition_index = {c.id: i for i, c in enumerate(competitions)}
    sheets = sorted(db.session.scalars(
        select(Scoresheet).join(Round).where(Round.tournament_id == tid)
        .options(selectinload(Scoresheet.games), selectinload(Scoresheet.signoffs))).all(),
        key=lambda s: (round_no[s.round_id], table_no[s.table_id]))
    sheet_key = {s.id: f"{round_no[s.round_id]}.{table_no[s.table_id]}" for s in sheets}
    calls = db.session.scalars(
        select(DirectorCall).where(DirectorCall.tournament_id == tid)
        .options(selectinload(DirectorCall.claims))
        .order_by(DirectorCall.called_at, DirectorCall.id)).all()
    call_index = {c.id: i for i, c in enumerate(calls)}
    announcements = db.session.scalars(
        select(Announcement).where(Announcement.tournament_id == tid)
        .order_by(Announcement.created_at, Announcement.id)).all()
    tiebreaks = db.session.scalars(
        select(Tiebreak).where(Tiebreak.tournament_id == tid)
        .order_by(Tiebreak.recorded_at, Tiebreak.id)).all()
    tiebreak_index = {t.id: i for i, t in enumerate(tiebreaks)}
    announcement_index = {a.id: i for i, a in enumerate(announcements)}
    natural = {
        "tournament": {tid: "0"}, "player": player_no, "table": table_no, "round": round_no,
        "sheet": sheet_key, "call": call_index, "competition": competition_index,
        "tiebreak": tiebreak_index, "user": {i: u.email for i, u in users.items()},
        "announcement": announcement_index,
    }

    def subject(text: str) -> str:
        match = SUBJECT.match(text or "")
        if not match or match.group(2) != ":" or match.group(1) not in SUBJECT_KINDS:
            return text
        kind, raw = match.group(1), match.group(3)
        known = natural[SUBJECT_KINDS[kind]]
        if not raw.isdigit() or int(raw) not in known:
            return text
        return f"{kind}#{known[int(raw)]}"

    def competition_ref(key: str) -> str:
        if key.startswith("competition:") and key[12:].isdigit() \
                and int(key[12:]) in competition_index:
            return f"competition#{competition_index[int(key[12:])]}"
        return key

    staff = db.session.scalars(
        select(TournamentStaff).where(TournamentStaff.tournament_id == tid)).all()
    audit = db.session.scalars(
        select(AuditEvent).where(AuditEvent.tournament_id == tid)
        .order_by(AuditEvent.at, AuditEvent.id)).all()
    substitutions = db.session.scalars(
        select(Substitution).where(Substitution.tournament_id == tid)).all()
    seats = db.session.scalars(
        select(Seating).join(Round).where(Round.tournament_id == tid)).all()
    seats_by_round: dict[int, list[Seating]] = {}
    for seat in seats:
        seats_by_round.setdefault(seat.round_id, []).append(seat)

    return {
        "format": FORMAT,
        "version": VERSION,
        "tournament": {
            "code": tournament.code, "name": tournament.name,
            "starts_on": _when(tournament.starts_on), "ends_on": _when(tournament.ends_on),
            "venue": tournament.venue, "preset": tournament.preset, "rules": tournament.rules,
            "rounds": tournament.rounds, "games_per_round": tournament.games_per_round,
            "round_minutes": tournament.round_minutes,
            "prize_places": tournament.prize_places,
            "seating_method": tournament.seating_method,
            "seating_seed": tournament.seating_seed,
            "imported_seating": _seating_by_number(tournament),
            "movement": tournament.movement,
            "public_url": tournament.public_url,
            "rules_checked_at": _when(tournament.rules_checked_at),
            "created_at": _when(tournament.created_at),
        },
        "users": sorted(({"email": u.email, "name": u.name} for u in users.values()),
                        key=lambda u: u["email"]),
        "staff": sorted(({"email": email(s.user_id), "role": s.role} for s in staff),
                        key=lambda s: s["email"]),
        "players": [{"number": p.number, "name": p.name, "is_substitute": p.is_substitute,
                     "withdrawn_from_round": p.withdrawn_from_round,
                     "created_at": _when(p.created_at)} for p in players],
        "substitutions": sorted(({"player": player_no[s.player_id],
                                  "substitute": player_no[s.substitute_id],
                                  "from_round": s.from_round,
                                  "created_at": _when(s.created_at)} for s in substitutions),
                                key=lambda s: (s["player"], s["from_round"])),
        "competitions": [{"kind": c.kind, "name": c.name, "first_round": c.first_round,
                          "last_round": c.last_round, "entrants_only": c.entrants_only,
                          "entrants": sorted(player_no[e.player_id] for e in c.entries)}
                         for c in competitions],
        "tables": [{"number": t.number, "token": t.token,
                    "token_rotated_at": _when(t.token_rotated_at)} for t in tables],
        "rounds": [{
            "number": r.number, "duration_seconds": r.duration_seconds,
            "started_at": _when(r.started_at), "paused_at": _when(r.paused_at),
            "paused_seconds": r.paused_seconds, "ended_at": _when(r.ended_at),
            "pause_reason": r.pause_reason, "clock_version": r.clock_version,
            "seats": sorted(({"table": table_no[s.table_id], "seat": s.seat,
                              "player": player_no[s.player_id]}
                             for s in seats_by_round.get(r.id, [])),
                            key=lambda s: (s["table"], SEAT_ORDER[s["seat"]])),
        } for r in rounds],
        "sheets": [{
            "round": round_no[s.round_id], "table": table_no[s.table_id],
            "version": s.version, "state": s.state,
            "submitted_at": _when(s.submitted_at), "submitted_by": s.submitted_by,
            "verified_at": _when(s.verified_at), "verified_by": email(s.verified_by_id),
            "amended_at": _when(s.amended_at), "amended_by": email(s.amended_by_id),
            "amend_reason": s.amend_reason, "pending_adjustments": s.pending_adjustments,
            "west_checked_at": _when(s.west_checked_at), "west_initials": s.west_initials,
            "updated_at": _when(s.updated_at),
            "games": [{"number": g.number, "record": g.record, "points": g.points,
                       "signer": g.signer, "initials": g.initials, "note": g.note,
                       "seat_initials": g.seat_initials or {},
                       "ruled_at": _when(g.ruled_at), "ruling": g.ruling,
                       "ruled_by": g.ruled_by,
                       "created_at": _when(g.created_at), "updated_at": _when(g.updated_at)}
                      for g in sorted(s.games, key=lambda g: g.number)],
            "signoffs": [{"seat": o.seat, "initials": o.initials,
                          "signed_at": _when(o.signed_at)}
                         for o in sorted(s.signoffs, key=lambda o: SEAT_ORDER[o.seat])],
        } for s in sheets],
        "calls": [{
            "table": table_no[c.table_id],
            "round": round_no.get(c.round_id) if c.round_id else None,
            "reason": c.reason, "note": c.note, "state": c.state,
            "needs_director": c.needs_director, "called_at": _when(c.called_at),
            "first_claimed_at": _when(c.first_claimed_at),
            "resolved_at": _when(c.resolved_at), "resolved_by": email(c.resolved_by_id),
            "ruling": c.ruling, "cancelled_at": _when(c.cancelled_at),
            "updated_at": _when(c.updated_at), "version": c.version,
            "claims": [{"user": email(k.user_id), "claimed_at": _when(k.claimed_at),
                        "released_at": _when(k.released_at)}
                       for k in sorted(c.claims, key=lambda k: (k.claimed_at, k.id))],
        } for c in calls],
        "announcements": [{"text": a.text, "active": a.active,
                           "created_at": _when(a.created_at),
                           "created_by": email(a.created_by_id)} for a in announcements],
        "tiebreaks": [{"competition": competition_ref(t.competition_key),
                       "players": [player_no.get(p, p) for p in t.player_ids or []],
                       "note": t.note, "recorded_at": _when(t.recorded_at),
                       "recorded_by": email(t.recorded_by_id)} for t in tiebreaks],
        "audit": [{"at": _when(a.at), "actor": a.actor, "actor_user": email(a.actor_user_id),
                   "action": a.action, "subject": subject(a.subject), "before": a.before,
                   "after": a.after, "reason": a.reason} for a in audit],
    }


def _seating_by_number(tournament: Tournament) -> dict | None:
    """The imported seating with player numbers (ids do not survive an import)."""
    if not tournament.imported_seating:
        return None
    numbers = {p.id: p.number for p in tournament.players}
    rounds = {number: stored_round(tournament.imported_seating, number)
              for number in range(1, tournament.rounds + 1)}
    return {str(number): {str(table): {seat: numbers[pid] for seat, pid in seats.items()
                                       if pid in numbers}
                          for table, seats in tables.items()}
            for number, tables in rounds.items() if tables}
