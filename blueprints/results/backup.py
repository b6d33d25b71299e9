"""A whole tournament as one JSON document, and back into a database.

The backup carries no database ids: rows refer to each other by what people call them
(player number, table number, round number, a sheet by round and table, an account by
email, a call or competition by its place in its list). So a backup imports into any
database, empty or already hosting other tournaments, and exporting it again gives the
same document. Audit subjects such as "round:12" are written as "round#3" (the round's
number) and turned back into the new row's id on import; the audit rows' before/after
values are copied exactly as they were written.

Accounts: staff and every account the rows mention travel as email, name and role, never
with a password hash (a backup file lives on USB sticks and laptops). On import an email is
matched to an account that ALREADY exists on this site; the import never creates accounts
(an account created for a stranger's email would later be attached, with its role, when a
real director adds that email as staff). Staff whose email has no account here are listed
on the result ("not imported as staff: add them from Staff"); rows that name such an
account keep their text but point at no account (a claim by one is left out). Roles are
checked against models.ROLES. The importing director becomes a director of the imported
tournament.

Table tokens: the import issues every table a fresh token (models.new_token()) unless
`keep_tokens` is asked for (the CLI's --keep-tokens, for a move with the cards already
printed); kept tokens must look like ours (22 to 64 URL-safe characters). With fresh
tokens the printed table cards must be reprinted.

Left out on purpose: idempotency keys of applied requests (only useful for resends to the
old server) and failed sign-ins."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime

from sqlalchemy import or_, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import selectinload

from models import (
    ROLES,
    Announcement,
    AuditEvent,
    CallClaim,
    Competition,
    CompetitionEntry,
    DirectorCall,
    GameEntry,
    Player,
    Round,
    RoundSignoff,
    Scoresheet,
    Seating,
    Substitution,
    Table,
    Tiebreak,
    Tournament,
    TournamentStaff,
    User,
    db,
    new_token,
    record,
)

FORMAT = "mahjtable-backup"
VERSION = 1
SEAT_ORDER = {"E": 0, "S": 1, "W": 2, "N": 3}
SUBJECT = re.compile(r"^([a-z_]+)([:#])(.+)$")
# A token we would have issued: secrets.token_urlsafe(16) or longer (Table.token is 64 wide).
OUR_TOKEN = re.compile(r"[A-Za-z0-9_-]{22,64}")
SUBJECT_KINDS = {
    "tournament": "tournament", "player": "player", "table": "table", "round": "round",
    "sheet": "sheet", "scoresheet": "sheet", "call": "call", "director_call": "call",
    "competition": "competition", "tiebreak": "tiebreak", "user": "user",
    "announcement": "announcement",
}


class BackupError(ValueError):
    """A backup that cannot be imported; the message says why in plain words."""


@dataclass
class Imported:
    """What an import did: the new tournament, the staff emails that have no account on
    this site (not made staff: the director adds them from Staff), and whether the tables
    got fresh tokens (then the printed table cards must be reprinted)."""

    tournament: Tournament
    not_staff: list[str] = field(default_factory=list)
    fresh_tokens: bool = True


def _when(value: datetime | date | None) -> str | None:
    return value.isoformat() if value is not None else None


def _instant(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _day(value: str | None) -> date | None:
    return date.fromisoformat(value) if value else None


# -- export ---------------------------------------------------------------------------------


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


# -- import ---------------------------------------------------------------------------------


def _seating_by_number(tournament: Tournament) -> dict | None:
    """The imported seating with player numbers (ids do not survive an import)."""
    if not tournament.imported_seating:
        return None
    numbers = {p.id: p.number for p in tournament.players}
    return {round_no: {table: {seat: numbers.get(pid) for seat, pid in seats.items()}
                       for table, seats in tables.items()}
            for round_no, tables in tournament.imported_seating.items()}


def _seating_by_id(value, players: dict) -> dict | None:
    """The imported seating back from player numbers; anything unreadable is dropped (the
    director imports the seating again)."""
    if not isinstance(value, dict):
        return None
    try:
        return {str(round_no): {str(table): {seat: players[number].id
                                             for seat, number in seats.items()}
                                for table, seats in tables.items()}
                for round_no, tables in value.items()}
    except (AttributeError, KeyError, TypeError):
        return None


def _seat_initials(value) -> dict[str, str]:
    """Every player's initials on a game, as stored (a backup from before they existed has
    none); anything but seat -> short text is dropped, never stored."""
    if not isinstance(value, dict):
        return {}
    return {seat: text[:8] for seat, text in value.items()
            if seat in SEAT_ORDER and isinstance(text, str) and text.strip()}


def _need(data: dict, key: str, kind: type):
    value = data.get(key)
    if not isinstance(value, kind):
        raise BackupError(f"This backup has no valid “{key}” section.")
    return value


def import_tournament(data: dict, director: User, *, keep_tokens: bool = False) -> Imported:
    """Create the tournament of a backup in this database, in one transaction; the
    importing `director` becomes its director. Staff map to existing accounts only; tables
    get fresh tokens unless `keep_tokens`. Raises BackupError (and changes nothing) for a
    file that is not a backup, an unknown role, a code or table token already in use, or
    (with `keep_tokens`) a token that does not look like ours."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError("This file is not a MahjTable backup.")
    if data.get("version") != VERSION:
        raise BackupError(f"This backup is version {data.get('version')}; this site reads "
                          f"version {VERSION}.")
    info = _need(data, "tournament", dict)
    try:
        return _import(data, info, director, keep_tokens)
    except BackupError:
        db.session.rollback()
        raise
    except SQLAlchemyError as error:
        db.session.rollback()
        raise BackupError("This backup is damaged or incomplete: a required value is "
                          "missing or repeated.") from error
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        db.session.rollback()
        raise BackupError(f"This backup is damaged or incomplete ({error!s}).") from error


def _tokens(data: dict, keep_tokens: bool) -> dict[int, str]:
    """Each table number's token on this site: fresh ones, or the file's when asked to
    keep them and every one looks like ours and is free here."""
    tables = _need(data, "tables", list)
    if not keep_tokens:
        return {entry["number"]: new_token() for entry in tables}
    tokens = {entry["number"]: entry.get("token") for entry in tables}
    for number, token in tokens.items():
        if not isinstance(token, str) or not OUR_TOKEN.fullmatch(token):
            raise BackupError(f"Table {number}'s link in this backup does not look like a "
                              "MahjTable table link; import without keeping the links.")
    if len(set(tokens.values())) != len(tokens):
        raise BackupError("This backup gives two tables the same link.")
    if tokens and db.session.scalar(
            select(Table.id).where(Table.token.in_(list(tokens.values())))):
        raise BackupError("This backup's table links are already in use on this site "
                          "(was it imported before?).")
    return tokens


def _import(data, info, director, keep_tokens):
    code = info["code"]
    if db.session.scalar(select(Tournament.id).where(Tournament.code == code)):
        raise BackupError(f"A tournament with code {code} is already on this site.")
    tokens = _tokens(data, keep_tokens)
    staff_entries = _need(data, "staff", list)
    for entry in staff_entries:
        if entry.get("role") not in ROLES:
            raise BackupError(f"This backup gives {entry.get('email')} the role "
                              f"“{entry.get('role')}”; a role is one of {', '.join(ROLES)}.")

    # Existing accounts only: never create one for somebody else's email.
    addresses = {entry["email"].strip().lower() for entry in _need(data, "users", list)}
    addresses |= {entry["email"].strip().lower() for entry in staff_entries
                  if entry.get("email")}
    user_ids: dict[str, int] = dict(db.session.execute(
        select(User.email, User.id).where(User.email.in_(sorted(addresses)))).all())

    def uid(address: str | None) -> int | None:
        return user_ids.get(address.strip().lower()) if address else None

    tournament = Tournament(
        code=code, name=info["name"], starts_on=_day(info.get("starts_on")),
        ends_on=_day(info.get("ends_on")), venue=info.get("venue", ""),
        preset=info["preset"], rules=info["rules"], rounds=info["rounds"],
        games_per_round=info["games_per_round"], round_minutes=info["round_minutes"],
        prize_places=info["prize_places"], seating_method=info.get("seating_method"),
        seating_seed=info.get("seating_seed"), created_at=_instant(info.get("created_at")),
    )
    db.session.add(tournament)
    db.session.flush()
    tid = tournament.id

    roles = {}
    not_staff = []
    for entry in staff_entries:
        if not entry.get("email"):
            continue
        if uid(entry["email"]) is None:
            not_staff.append(entry["email"].strip().lower())
        else:
            roles[uid(entry["email"])] = entry["role"]
    roles[director.id] = "director"
    for user_id, role in sorted(roles.items()):
        db.session.add(TournamentStaff(tournament_id=tid, user_id=user_id, role=role))

    players = {}
    for entry in _need(data, "players", list):
        player = Player(tournament_id=tid, number=entry["number"], name=entry["name"],
                        is_substitute=entry["is_substitute"],
                        withdrawn_from_round=entry.get("withdrawn_from_round"),
                        created_at=_instant(entry.get("created_at")))
        db.session.add(player)
        players[entry["number"]] = player
    if info.get("imported_seating"):
        db.session.flush()
        tournament.imported_seating = _seating_by_id(info["imported_seating"], players)
    tables = {}
    for entry in data["tables"]:
        table = Table(tournament_id=tid, number=entry["number"], token=tokens[entry["number"]],
                      token_rotated_at=_instant(entry.get("token_rotated_at")))
        db.session.add(table)
        tables[entry["number"]] = table
    db.session.flush()

    for entry in _need(data, "substitutions", list):
        db.session.add(Substitution(
            tournament_id=tid, player_id=players[entry["player"]].id,
            substitute_id=players[entry["substitute"]].id, from_round=entry["from_round"],
            created_at=_instant(entry.get("created_at"))))
    competitions = []
    for entry in _need(data, "competitions", list):
        competition = Competition(
            tournament_id=tid, kind=entry["kind"], name=entry["name"],
            first_round=entry["first_round"], last_round=entry["last_round"],
            entrants_only=entry["entrants_only"])
        competition.entries = [CompetitionEntry(player_id=players[n].id)
                               for n in entry.get("entrants", [])]
        db.session.add(competition)
        competitions.append(competition)

    rounds = {}
    for entry in _need(data, "rounds", list):
        rnd = Round(
            tournament_id=tid, number=entry["number"],
            duration_seconds=entry["duration_seconds"],
            started_at=_instant(entry.get("started_at")),
            paused_at=_instant(entry.get("paused_at")),
            paused_seconds=entry.get("paused_seconds", 0),
            ended_at=_instant(entry.get("ended_at")), pause_reason=entry.get("pause_reason", ""),
            clock_version=entry.get("clock_version", 0))
        rnd.seats = [Seating(table_id=tables[s["table"]].id, seat=s["seat"],
                             player_id=players[s["player"]].id) for s in entry["seats"]]
        db.session.add(rnd)
        rounds[entry["number"]] = rnd
    db.session.flush()

    sheets = {}
    for entry in _need(data, "sheets", list):
        sheet = Scoresheet(
            round_id=rounds[entry["round"]].id, table_id=tables[entry["table"]].id,
            version=entry["version"], state=entry["state"],
            submitted_at=_instant(entry.get("submitted_at")),
            submitted_by=entry.get("submitted_by", ""),
            verified_at=_instant(entry.get("verified_at")),
            verified_by_id=uid(entry.get("verified_by")),
            amended_at=_instant(entry.get("amended_at")),
            amended_by_id=uid(entry.get("amended_by")),
            amend_reason=entry.get("amend_reason", ""),
            pending_adjustments=entry.get("pending_adjustments") or [],
            west_checked_at=_instant(entry.get("west_checked_at")),
            west_initials=str(entry.get("west_initials") or "")[:8],
            updated_at=_instant(entry.get("updated_at")))
        for game in entry["games"]:
            points = game["points"]
            sheet.games.append(GameEntry(
                number=game["number"], record=game["record"], points_e=points["E"],
                points_s=points["S"], points_w=points["W"], points_n=points["N"],
                signer=game.get("signer"), initials=game.get("initials", ""),
                seat_initials=_seat_initials(game.get("seat_initials")),
                note=game.get("note", ""), created_at=_instant(game.get("created_at")),
                updated_at=_instant(game.get("updated_at"))))
        for signoff in entry.get("signoffs", []):
            sheet.signoffs.append(RoundSignoff(seat=signoff["seat"],
                                               initials=signoff["initials"],
                                               signed_at=_instant(signoff.get("signed_at"))))
        db.session.add(sheet)
        sheets[f"{entry['round']}.{entry['table']}"] = sheet

    calls = []
    for entry in _need(data, "calls", list):
        call = DirectorCall(
            tournament_id=tid, table_id=tables[entry["table"]].id,
            round_id=rounds[entry["round"]].id if entry.get("round") else None,
            reason=entry.get("reason", ""), note=entry.get("note", ""), state=entry["state"],
            needs_director=entry.get("needs_director", False),
            called_at=_instant(entry.get("called_at")),
            first_claimed_at=_instant(entry.get("first_claimed_at")),
            resolved_at=_instant(entry.get("resolved_at")),
            resolved_by_id=uid(entry.get("resolved_by")), ruling=entry.get("ruling", ""),
            cancelled_at=_instant(entry.get("cancelled_at")),
            updated_at=_instant(entry.get("updated_at")), version=entry.get("version", 1))
        for claim in entry.get("claims", []):
            if uid(claim["user"]) is None:      # an account not on this site
                continue
            call.claims.append(CallClaim(user_id=uid(claim["user"]),
                                         claimed_at=_instant(claim.get("claimed_at")),
                                         released_at=_instant(claim.get("released_at"))))
        db.session.add(call)
        calls.append(call)
    announcements = []
    for entry in _need(data, "announcements", list):
        announcement = Announcement(tournament_id=tid, text=entry["text"],
                                    active=entry["active"],
                                    created_at=_instant(entry.get("created_at")),
                                    created_by_id=uid(entry.get("created_by")))
        db.session.add(announcement)
        announcements.append(announcement)
    db.session.flush()

    def competition_key(ref: str) -> str:
        if ref.startswith("competition#"):
            return f"competition:{competitions[int(ref[12:])].id}"
        return ref

    tiebreaks = []
    for entry in _need(data, "tiebreaks", list):
        tiebreak = Tiebreak(
            tournament_id=tid, competition_key=competition_key(entry["competition"]),
            player_ids=[players[n].id for n in entry["players"]], note=entry.get("note", ""),
            recorded_at=_instant(entry.get("recorded_at")),
            recorded_by_id=uid(entry.get("recorded_by")))
        db.session.add(tiebreak)
        tiebreaks.append(tiebreak)
    db.session.flush()

    ids = {
        "tournament": lambda n: tid, "player": lambda n: players[int(n)].id,
        "table": lambda n: tables[int(n)].id, "round": lambda n: rounds[int(n)].id,
        "sheet": lambda n: sheets[n].id, "call": lambda n: calls[int(n)].id,
        "competition": lambda n: competitions[int(n)].id,
        "tiebreak": lambda n: tiebreaks[int(n)].id, "user": lambda n: user_ids[n],
        "announcement": lambda n: announcements[int(n)].id,
    }

    def subject(text: str) -> str:
        match = SUBJECT.match(text or "")
        if not match or match.group(2) != "#" or match.group(1) not in SUBJECT_KINDS:
            return text
        kind = match.group(1)
        try:
            return f"{kind}:{ids[SUBJECT_KINDS[kind]](match.group(3))}"
        except (KeyError, ValueError, IndexError):
            return text

    for entry in _need(data, "audit", list):
        db.session.add(AuditEvent(
            tournament_id=tid, at=_instant(entry.get("at")), actor=entry.get("actor", ""),
            actor_user_id=uid(entry.get("actor_user")), action=entry["action"],
            subject=subject(entry.get("subject", "")), before=entry.get("before"),
            after=entry.get("after"), reason=entry.get("reason", "")))
    # The import itself is a site event (not one of the tournament's own rows), so that
    # exporting the imported tournament gives back the same document.
    record("backup.import", tournament_id=None, subject=f"tournament:{tid}",
           after={"code": code, "name": tournament.name, "not_staff": sorted(not_staff),
                  "fresh_tokens": not keep_tokens},
           actor=director.name, actor_user_id=director.id)
    db.session.commit()
    return Imported(tournament, sorted(not_staff), fresh_tokens=not keep_tokens)
