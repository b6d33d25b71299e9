"""A whole tournament as one JSON document, and back into a database.

The backup carries no database ids: rows refer to each other by what people call them
(player number, table number, round number, a sheet by round and table, an account by
email, a call or competition by its place in its list). So a backup imports into any
database, empty or already hosting other tournaments, and exporting it again gives the
same document. Audit subjects such as "round:12" are written as "round#3" (the round's
number) and turned back into the new row's id on import; the audit rows' before/after
values are copied exactly as they were written.

Accounts: staff and every account the rows mention travel as email, name and role, never
with a password hash (a backup file lives on USB sticks and laptops). On import no account
is created, attached or credited: the importing director becomes the tournament's only
staff, the file's staff are listed on the result ("invite them from Staff", where each
accepts an invitation themselves), and rows that named an account (audit rows, claims,
verifications, rulings, announcements, tie-breaks) keep their words but point at no account.
Every other value goes through the checks the forms and tournament/ apply: the rules through
RuleSet, every game through Game with its points scored again, every number within its
form's bounds and its column, every text within its column and free of control characters.

Table tokens: the import issues every table a fresh token (models.new_token()) unless
`keep_tokens` is asked for (the CLI's --keep-tokens, for a move with the cards already
printed); kept tokens must look like ours (22 to 64 URL-safe characters). With fresh
tokens the printed table cards must be reprinted.

Left out on purpose: idempotency keys of applied requests (only useful for resends to the
old server) and failed sign-ins."""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date, datetime

from sqlalchemy import or_, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import selectinload

from models import (
    CALL_REASONS,
    ROLES,
    SEATS,
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
from tournament.rules import PRESETS, InvalidRules, RuleSet
from tournament.scoring import MAX_ADJUSTMENT, Game, InvalidGame, round_lines, signer

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
            "updated_at": _when(s.updated_at),
            "games": [{"number": g.number, "record": g.record, "points": g.points,
                       "signer": g.signer, "initials": g.initials, "note": g.note,
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

# What a backup may hold, value by value: the same limits as the forms that make these rows
# (and never more than the column holds), so a file can bring nothing the pages could not.
INT_MAX = 2**31 - 1                       # an SQL INTEGER
CODE = re.compile(r"[A-Z0-9]{4,16}")      # what the home page's code box finds (upper case)
MAX_ROUNDS, MAX_GAMES, MAX_MINUTES = 40, 20, 240
MAX_PRIZES = 1000                         # the results page allows up to 1000
MAX_PLAYER = 100_000
MAX_SEED = 999_999_999
LONG_TEXT = 2000                          # rulings, reasons and notes kept as Text
MAX_DEPTH = 32                            # nesting of an audit row's before/after values
MAX_INSTANT = 40                          # "2026-05-14T10:52:00.123456+00:00" is 32
SHEET_STATES = ("open", "submitted", "verified")
CALL_STATES = ("open", "claimed", "resolved", "cancelled")


def load(text: str | bytes) -> dict:
    """A backup file's JSON, or BackupError: not JSON, NaN or Infinity (which no database
    column takes), or nested deeper than Python reads."""
    def no_constant(name):
        raise ValueError(name)

    try:
        return json.loads(text, parse_constant=no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise BackupError("This file is not a MahjTable backup (not JSON).") from error


def _need(data: dict, key: str, kind: type):
    value = data.get(key)
    if not isinstance(value, kind):
        raise BackupError(f"This backup has no valid “{key}” section.")
    return value


def _int(value, what: str, low: int = 0, high: int = INT_MAX, *, optional: bool = False):
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BackupError(f"{what} in this backup must be a whole number from {low} to "
                          f"{high}.")
    return value


def _bool(value, what: str) -> bool:
    if not isinstance(value, bool):
        raise BackupError(f"{what} in this backup must be true or false.")
    return value


def _text(value, what: str, limit: int, *, required: bool = False,
          lines: bool = False) -> str:
    """Text as the forms take it: a string within the column, no control characters (a NUL
    byte PostgreSQL refuses), line breaks only where the form is a text area."""
    if value is None and not required:
        return ""
    if not isinstance(value, str) or len(value) > limit or (required and not value.strip()):
        raise BackupError(f"{what} in this backup must be some text of at most {limit} "
                          "characters.")
    allowed = "\r\n\t" if lines else ""
    if any(unicodedata.category(ch) == "Cc" and ch not in allowed for ch in value):
        raise BackupError(f"{what} in this backup has characters that cannot be shown.")
    return value


def _choice(value, what: str, choices) -> str | None:
    if isinstance(value, bool) or value not in choices:
        raise BackupError(f"{what} in this backup must be one of "
                          f"{', '.join(str(c) for c in choices if c)}.")
    return value


def _instant(value, what: str = "A time", *, required: bool = False) -> datetime | None:
    if value is None and not required:
        return None
    if not isinstance(value, str) or len(value) > MAX_INSTANT:
        raise BackupError(f"{what} in this backup is not a date and time.")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError as error:
        raise BackupError(f"{what} in this backup is not a date and time.") from error
    if moment.tzinfo is None:
        raise BackupError(f"{what} in this backup has no time zone.")
    return moment


def _day(value, what: str) -> date | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 10:
        raise BackupError(f"{what} in this backup is not a date.")
    try:
        return date.fromisoformat(value)
    except ValueError as error:
        raise BackupError(f"{what} in this backup is not a date.") from error


def _shallow(value, what: str):
    """A JSON value nested at most MAX_DEPTH deep, its numbers within 64 bits (what the
    database's JSON columns and the pages that read them handle)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise BackupError(f"{what} in this backup is nested too deeply.")
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
        elif isinstance(item, int) and not isinstance(item, bool) \
                and not -2**63 <= item < 2**63:
            raise BackupError(f"{what} in this backup has a number too large.")
        elif isinstance(item, str) and "\x00" in item:
            raise BackupError(f"{what} in this backup has characters that cannot be shown.")
    return value


def _entries(data: dict, key: str) -> list[dict]:
    entries = _need(data, key, list)
    if not all(isinstance(entry, dict) for entry in entries):
        raise BackupError(f"This backup's “{key}” section is damaged.")
    return entries


def import_tournament(data: dict, director: User, *, keep_tokens: bool = False) -> Imported:
    """Create the tournament of a backup in this database, in one transaction; the
    importing `director` becomes its director and its only staff. Every value is checked
    as the forms and the rules would check it; game points are scored again under the
    backup's rules. Raises BackupError (and changes nothing) for a file that is not a
    backup or holds a value the pages would refuse, a code or table token already in use,
    or (with `keep_tokens`) a token that does not look like ours."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError("This file is not a MahjTable backup.")
    if data.get("version") != VERSION:
        version = data.get("version")
        shown = version if isinstance(version, int | str) and len(str(version)) < 12 else "?"
        raise BackupError(f"This backup is version {shown}; this site reads "
                          f"version {VERSION}.")
    info = _need(data, "tournament", dict)
    try:
        return _import(data, info, director, keep_tokens)
    except BackupError:
        db.session.rollback()
        raise
    except (InvalidRules, InvalidGame) as error:
        db.session.rollback()
        raise BackupError(f"This backup's rules or games are not valid: {error.message}") \
            from error
    except SQLAlchemyError as error:
        db.session.rollback()
        raise BackupError("This backup is damaged or incomplete: a required value is "
                          "missing or repeated.") from error
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        db.session.rollback()
        raise BackupError(f"This backup is damaged or incomplete ({error!s:.200}).") \
            from error


def _tokens(data: dict, keep_tokens: bool) -> dict[int, str]:
    """Each table number's token on this site: fresh ones, or the file's when asked to
    keep them and every one looks like ours and is free here."""
    tables = _entries(data, "tables")
    numbers = [_int(entry.get("number"), "A table number", 1, MAX_PLAYER) for entry in tables]
    if len(set(numbers)) != len(numbers):
        raise BackupError("This backup has two tables with the same number.")
    if not keep_tokens:
        return {number: new_token() for number in numbers}
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


def _pending(value, games_per_round: int) -> list[dict]:
    """A sheet's rulings kept for games not yet entered, as the calls page makes them."""
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > 100:
        raise BackupError("A sheet's pending adjustments in this backup are damaged.")
    out = []
    for item in value:
        if not isinstance(item, dict) or set(item) != {"game", "seat", "points", "reason"}:
            raise BackupError("A sheet's pending adjustments in this backup are damaged.")
        points = _int(item["points"], "An adjustment", -MAX_ADJUSTMENT, MAX_ADJUSTMENT)
        if points == 0:
            raise BackupError("An adjustment in this backup is of 0 points.")
        out.append({"game": _int(item["game"], "An adjustment's game", 1, games_per_round),
                    "seat": _choice(item["seat"], "An adjustment's seat", SEATS),
                    "points": points,
                    "reason": _text(item["reason"], "An adjustment's reason", 280,
                                    required=True)})
    return out


SECTIONS = ("tables", "staff", "users", "players", "substitutions", "competitions", "rounds",
            "sheets", "calls", "announcements", "tiebreaks", "audit")


def _import(data, info, director, keep_tokens):
    for key in SECTIONS:
        _entries(data, key)
    code = _text(info.get("code"), "The tournament code", 16, required=True)
    if not CODE.fullmatch(code):
        raise BackupError("The tournament code in this backup must be 4 to 16 capital "
                          "letters and digits, like SPRING26.")
    if db.session.scalar(select(Tournament.id).where(Tournament.code == code)):
        raise BackupError(f"A tournament with code {code} is already on this site.")
    preset = _choice(info.get("preset"), "The rule set", tuple(PRESETS))
    rules = RuleSet.from_dict(info.get("rules"))
    rounds_count = _int(info.get("rounds"), "The number of rounds", 1, MAX_ROUNDS)
    games_per_round = _int(info.get("games_per_round"), "Games per round", 1, MAX_GAMES)
    tokens = _tokens(data, keep_tokens)
    staff_entries = _entries(data, "staff")
    for entry in staff_entries:
        if entry.get("role") not in ROLES:
            raise BackupError(f"This backup gives {_text(entry.get('email'), 'An email', 254)}"
                              f" the role “{_text(entry.get('role'), 'A role', 32)}”; a role "
                              f"is one of {', '.join(ROLES)}.")
        _text(entry.get("email"), "A staff email", 254, required=True)
    _entries(data, "users")

    tournament = Tournament(
        code=code, name=_text(info.get("name"), "The tournament name", 120, required=True),
        starts_on=_day(info.get("starts_on"), "The first day"),
        ends_on=_day(info.get("ends_on"), "The last day"),
        venue=_text(info.get("venue"), "The venue", 200),
        preset=preset, rules=rules.to_dict(), rounds=rounds_count,
        games_per_round=games_per_round,
        round_minutes=_int(info.get("round_minutes"), "Minutes per round", 1, MAX_MINUTES),
        prize_places=_int(info.get("prize_places"), "Prize places", 0, MAX_PRIZES),
        seating_method=_choice(info.get("seating_method"), "The seating method",
                               (None, "draw", "number")),
        seating_seed=_int(info.get("seating_seed"), "The draw number", 0, MAX_SEED,
                          optional=True),
        created_at=_instant(info.get("created_at"), "The tournament's creation time"),
    )
    db.session.add(tournament)
    db.session.flush()
    tid = tournament.id

    # Only the importing director is staff: an account named in a file never gets a role
    # (nor its name on a row) without its owner accepting an invitation from Staff.
    not_staff = sorted({entry["email"].strip().lower() for entry in staff_entries}
                       - {director.email})
    db.session.add(TournamentStaff(tournament_id=tid, user_id=director.id, role="director"))

    players = {}
    for entry in _entries(data, "players"):
        number = _int(entry.get("number"), "A player number", 1, MAX_PLAYER)
        player = Player(
            tournament_id=tid, number=number,
            name=_text(entry.get("name"), "A player's name", 120, required=True).strip(),
            is_substitute=_bool(entry.get("is_substitute"), "Substitute"),
            withdrawn_from_round=_int(entry.get("withdrawn_from_round"), "A withdrawal round",
                                      1, rounds_count, optional=True),
            created_at=_instant(entry.get("created_at")))
        db.session.add(player)
        players[number] = player
    tables = {}
    for entry in data["tables"]:
        table = Table(tournament_id=tid, number=entry["number"], token=tokens[entry["number"]],
                      token_rotated_at=_instant(entry.get("token_rotated_at")))
        db.session.add(table)
        tables[entry["number"]] = table
    db.session.flush()

    for entry in _entries(data, "substitutions"):
        db.session.add(Substitution(
            tournament_id=tid, player_id=players[entry["player"]].id,
            substitute_id=players[entry["substitute"]].id,
            from_round=_int(entry.get("from_round"), "A substitution's round", 1,
                            rounds_count),
            created_at=_instant(entry.get("created_at"))))
    competitions = []
    for entry in _entries(data, "competitions"):
        first = _int(entry.get("first_round"), "A competition's first round", 1, rounds_count)
        competition = Competition(
            tournament_id=tid, kind=_choice(entry.get("kind"), "A competition's kind",
                                            ("session", "mini")),
            name=_text(entry.get("name"), "A competition's name", 80, required=True),
            first_round=first,
            last_round=_int(entry.get("last_round"), "A competition's last round", first,
                            rounds_count),
            entrants_only=_bool(entry.get("entrants_only"), "Entrants only"))
        entrants = entry.get("entrants", [])
        if not isinstance(entrants, list):
            raise BackupError("A competition's entrants in this backup are damaged.")
        competition.entries = [CompetitionEntry(player_id=players[n].id) for n in entrants]
        db.session.add(competition)
        competitions.append(competition)

    rounds = {}
    for entry in _entries(data, "rounds"):
        number = _int(entry.get("number"), "A round number", 1, rounds_count)
        rnd = Round(
            tournament_id=tid, number=number,
            duration_seconds=_int(entry.get("duration_seconds"), "A round's length", 0,
                                  24 * 3600),
            started_at=_instant(entry.get("started_at")),
            paused_at=_instant(entry.get("paused_at")),
            paused_seconds=_int(entry.get("paused_seconds", 0), "A round's paused time"),
            ended_at=_instant(entry.get("ended_at")),
            pause_reason=_text(entry.get("pause_reason"), "A pause reason", 200),
            clock_version=_int(entry.get("clock_version", 0), "A clock version"))
        seats = entry.get("seats")
        if not isinstance(seats, list):
            raise BackupError("A round's seats in this backup are damaged.")
        rnd.seats = [Seating(table_id=tables[s["table"]].id,
                             seat=_choice(s["seat"], "A seat", SEATS),
                             player_id=players[s["player"]].id) for s in seats]
        db.session.add(rnd)
        rounds[number] = rnd
    db.session.flush()

    sheets = {}
    for entry in _entries(data, "sheets"):
        sheet = Scoresheet(
            round_id=rounds[entry["round"]].id, table_id=tables[entry["table"]].id,
            version=_int(entry.get("version"), "A sheet's version", 1),
            state=_choice(entry.get("state"), "A sheet's state", SHEET_STATES),
            submitted_at=_instant(entry.get("submitted_at")),
            submitted_by=_text(entry.get("submitted_by"), "Who submitted a sheet", 80),
            verified_at=_instant(entry.get("verified_at")),
            amended_at=_instant(entry.get("amended_at")),
            amend_reason=_text(entry.get("amend_reason"), "An amendment's reason", LONG_TEXT,
                               lines=True),
            pending_adjustments=_pending(entry.get("pending_adjustments"), games_per_round),
            updated_at=_instant(entry.get("updated_at")))
        games = entry.get("games")
        if not isinstance(games, list) or len(games) > games_per_round:
            raise BackupError(f"A sheet in this backup has more than {games_per_round} "
                              "games.")
        parsed = []
        for game in games:
            # The record is read as the table's entry form reads it, and its points are
            # scored again: a file's own "points" are never trusted.
            checked = Game.from_dict(game["record"], rules)
            parsed.append(checked)
            sheet.games.append(GameEntry(
                number=_int(game.get("number"), "A game number", 1, games_per_round),
                record=checked.to_dict(), signer=signer(rules, checked),
                initials=_text(game.get("initials"), "A game's initials", 8),
                note=_text(game.get("note"), "A game's note", 280),
                created_at=_instant(game.get("created_at")),
                updated_at=_instant(game.get("updated_at"))))
        for stored, lines in zip(sheet.games, round_lines(rules, parsed), strict=True):
            points = dict.fromkeys(SEATS, 0)
            for line in lines:
                points[line.seat] += line.points
            stored.points = points
        signoffs = entry.get("signoffs", [])
        if not isinstance(signoffs, list):
            raise BackupError("A sheet's initials in this backup are damaged.")
        for signoff in signoffs:
            sheet.signoffs.append(RoundSignoff(
                seat=_choice(signoff["seat"], "A seat", SEATS),
                initials=_text(signoff["initials"], "A player's initials", 8, required=True),
                signed_at=_instant(signoff.get("signed_at"))))
        db.session.add(sheet)
        sheets[f"{entry['round']}.{entry['table']}"] = sheet

    calls = []
    for entry in _entries(data, "calls"):
        call = DirectorCall(
            tournament_id=tid, table_id=tables[entry["table"]].id,
            round_id=rounds[entry["round"]].id if entry.get("round") is not None else None,
            reason=_choice(entry.get("reason", ""), "A call's reason",
                           ("", *CALL_REASONS)),
            note=_text(entry.get("note"), "A call's note", 280),
            state=_choice(entry.get("state"), "A call's state", CALL_STATES),
            needs_director=_bool(entry.get("needs_director", False), "Needs the director"),
            called_at=_instant(entry.get("called_at")),
            first_claimed_at=_instant(entry.get("first_claimed_at")),
            resolved_at=_instant(entry.get("resolved_at")),
            ruling=_text(entry.get("ruling"), "A ruling", LONG_TEXT, lines=True),
            cancelled_at=_instant(entry.get("cancelled_at")),
            updated_at=_instant(entry.get("updated_at")),
            version=_int(entry.get("version", 1), "A call's version", 1))
        db.session.add(call)
        calls.append(call)
    announcements = []
    for entry in _entries(data, "announcements"):
        announcement = Announcement(
            tournament_id=tid, text=_text(entry.get("text"), "An announcement", 280,
                                          required=True),
            active=_bool(entry.get("active"), "An announcement's state"),
            created_at=_instant(entry.get("created_at")))
        db.session.add(announcement)
        announcements.append(announcement)
    db.session.flush()

    def competition_key(ref) -> str:
        if ref == "main":
            return ref
        if isinstance(ref, str) and ref.startswith("competition#") and ref[12:].isdecimal() \
                and len(ref) < 20 and int(ref[12:]) < len(competitions):
            return f"competition:{competitions[int(ref[12:])].id}"
        raise BackupError("A tie-break in this backup names no competition of it.")

    tiebreaks = []
    for entry in _entries(data, "tiebreaks"):
        order = entry.get("players")
        if not isinstance(order, list):
            raise BackupError("A tie-break's players in this backup are damaged.")
        tiebreak = Tiebreak(
            tournament_id=tid, competition_key=competition_key(entry.get("competition")),
            player_ids=[players[n].id for n in order],
            note=_text(entry.get("note"), "A tie-break's note", LONG_TEXT, lines=True),
            recorded_at=_instant(entry.get("recorded_at")))
        db.session.add(tiebreak)
        tiebreaks.append(tiebreak)
    db.session.flush()

    ids = {
        "tournament": lambda n: tid, "player": lambda n: players[int(n)].id,
        "table": lambda n: tables[int(n)].id, "round": lambda n: rounds[int(n)].id,
        "sheet": lambda n: sheets[n].id, "call": lambda n: calls[int(n)].id,
        "competition": lambda n: competitions[int(n)].id,
        "tiebreak": lambda n: tiebreaks[int(n)].id,
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

    # The audit trail keeps its words (who did what, as written then) but no row claims an
    # account of this site: actor_user_id is left empty, as for rows of deleted accounts.
    for entry in _entries(data, "audit"):
        db.session.add(AuditEvent(
            tournament_id=tid, at=_instant(entry.get("at"), "An audit time", required=True),
            actor=_text(entry.get("actor"), "An audit row's actor", 120),
            action=_text(entry.get("action"), "An audit action", 64, required=True),
            subject=subject(_text(entry.get("subject"), "An audit subject", 64)),
            before=_shallow(entry.get("before"), "An audit row"),
            after=_shallow(entry.get("after"), "An audit row"),
            reason=_text(entry.get("reason"), "An audit reason", LONG_TEXT, lines=True)))
    # The import itself is a site event (not one of the tournament's own rows), so that
    # exporting the imported tournament gives back the same document.
    record("backup.import", tournament_id=None, subject=f"tournament:{tid}",
           after={"code": code, "name": tournament.name, "not_staff": not_staff,
                  "fresh_tokens": not keep_tokens},
           actor=director.name, actor_user_id=director.id)
    db.session.commit()
    return Imported(tournament, not_staff, fresh_tokens=not keep_tokens)
