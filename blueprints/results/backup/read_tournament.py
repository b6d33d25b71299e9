"""The first reader of an import: the tournament's own row, with its rule set, and its
only staff member (the importing director). Every later reader adds its rows to the `Into`
this one starts, under the names the file uses."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select

from models import (
    ROLES,
    Announcement,
    Competition,
    DirectorCall,
    Player,
    Round,
    Scoresheet,
    Table,
    Tiebreak,
    Tournament,
    TournamentStaff,
    User,
    db,
)
from tournament.movement import Movement
from tournament.rules import BLANK_KEY, PRESETS, RuleSet

from .checks import (
    CODE,
    MAX_GAMES,
    MAX_MINUTES,
    MAX_PRIZES,
    MAX_ROUNDS,
    MAX_SEED,
    BackupError,
    _choice,
    _day,
    _entries,
    _instant,
    _int,
    _text,
    public_url,
    table_tokens,
)


def _movement(stored) -> dict | None:
    """The tournament's movement, checked; a backup made before a movement could be
    chosen has none, and keeps the usual East-stays movement it was played with."""
    if stored is None:
        return None
    try:
        return Movement.from_dict(stored).to_dict()
    except ValueError as error:
        raise BackupError(f"The movement cannot be used: {error}") from None


@dataclass
class Into:
    """The new tournament, and its rows made so far by the file's names for them: players
    and tables by number, rounds by number, sheets by "round.table", the rest by place."""

    tournament: Tournament
    rules: RuleSet
    not_staff: list[str]
    tokens: dict[int, str]  # each table number's link on this site
    players: dict[int, Player] = field(default_factory=dict)
    tables: dict[int, Table] = field(default_factory=dict)
    rounds: dict[int, Round] = field(default_factory=dict)
    sheets: dict[str, Scoresheet] = field(default_factory=dict)
    competitions: list[Competition] = field(default_factory=list)
    calls: list[DirectorCall] = field(default_factory=list)
    announcements: list[Announcement] = field(default_factory=list)
    tiebreaks: list[Tiebreak] = field(default_factory=list)

    @property
    def tid(self) -> int:
        return self.tournament.id

    @property
    def rounds_count(self) -> int:
        return self.tournament.rounds

    @property
    def games_per_round(self) -> int:
        return self.tournament.games_per_round


def read_tournament(data: dict, info: dict, director: User, keep_tokens: bool) -> Into:
    """The tournament row (flushed: it has its id) and the director as its staff; the
    tables' links are checked here, before any row is made."""
    code = _text(info.get("code"), "The tournament code", 16, required=True)
    if not CODE.fullmatch(code):
        raise BackupError("The tournament code in this backup must be 4 to 16 capital "
                          "letters and digits, like SPRING26.")
    if db.session.scalar(select(Tournament.id).where(Tournament.code == code)):
        raise BackupError(f"A tournament with code {code} is already on this site.")
    preset = _choice(info.get("preset"), "The rule set", (*PRESETS, BLANK_KEY))
    rules = RuleSet.from_dict(info.get("rules"))
    rounds_count = _int(info.get("rounds"), "The number of rounds", 1, MAX_ROUNDS)
    games_per_round = _int(info.get("games_per_round"), "Games per round", 1, MAX_GAMES)
    tokens = table_tokens(data, keep_tokens)
    address = public_url(info, keep_tokens)
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
        public_url=address, movement=_movement(info.get("movement")),
        # a backup from before the rules were marked checked: still to check
        rules_checked_at=_instant(info.get("rules_checked_at"), "When the rules were checked"),
    )
    db.session.add(tournament)
    db.session.flush()
    tid = tournament.id

    # Only the importing director is staff: an account named in a file never gets a role
    # (nor its name on a row) without its owner accepting an invitation from Staff.
    not_staff = sorted({entry["email"].strip().lower() for entry in staff_entries}
                       - {director.email})
    db.session.add(TournamentStaff(tournament_id=tid, user_id=director.id, role="director"))

    return Into(tournament, rules, not_staff, tokens)
