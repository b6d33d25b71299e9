"""Director setup: tournaments, staff, players, tables and seating, as rows.

The bridge between the director's pages and tournament/: rule presets come from
tournament.rules, every round's seats from tournament.movement. Every change that a
director would want to trace later writes an audit row in the same transaction."""

from __future__ import annotations

import csv
import io
import random
import re
import secrets
import string
import unicodedata
from dataclasses import dataclass
from datetime import date

from sqlalchemy import delete, exists, func, or_, select, update

from blueprints.auth.invitations import invitation_lifetime, may_reset_password
from core.lookup import movement_of, rules_of
from core.rounds import (
    imported_plan,
    initial_seating,
    planned_seating,
    round_row,
    substitutions,
)
from models import (
    Competition,
    CompetitionEntry,
    GameEntry,
    Player,
    Round,
    Scoresheet,
    Seating,
    StaffInvitation,
    Substitution,
    Table,
    Tournament,
    TournamentStaff,
    User,
    db,
    new_token,
    record,
    utcnow,
)
from models.invitation import new_secret
from tournament.movement import (
    SeatingProblem,
    read_imported_seating,
    repeat_meetings,
    shared_tables,
)
from tournament.rules import PRESETS, RuleSet

CODE_ALPHABET = "".join(c for c in string.ascii_uppercase + string.digits if c not in "O0I1L")


def new_code() -> str:
    """A short public code, easy to type from a poster (no O/0, I/1/L)."""
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
        if not db.session.scalar(select(Tournament.id).where(Tournament.code == code)):
            return code


def actor_label(user: User | None) -> str:
    return user.name if user is not None else "system"


def create_tournament(
    director: User, *, name: str, preset: str, rounds: int, starts_on: date | None = None,
    ends_on: date | None = None, venue: str = "", code: str | None = None,
) -> Tournament:
    """A tournament with its own copy of a preset's rules, staffed by its director."""
    rules = PRESETS[preset]
    tournament = Tournament(
        code=code or new_code(), name=name, preset=preset, rules=rules.to_dict(),
        rounds=rounds, games_per_round=rules.games_per_round,
        round_minutes=rules.round_minutes, starts_on=starts_on, ends_on=ends_on, venue=venue,
    )
    tournament.staff.append(TournamentStaff(user=director, role="director"))
    db.session.add(tournament)
    db.session.flush()
    record("tournament.create", tournament_id=tournament.id, subject=f"tournament:{tournament.id}",
           after={"name": name, "preset": preset, "rounds": rounds},
           actor=actor_label(director), actor_user_id=director.id)
    return tournament


def ranked_players(tournament: Tournament) -> list[Player]:
    """Players still in the field who are ranked: substitutes play but are never ranked."""
    return [p for p in tournament.players
            if p.withdrawn_from_round is None and not p.is_substitute]


# A round is played once its clock has started OR any of its sheets holds a game: tables
# may enter scores before the director starts the clock. A played round is never deleted
# or re-seated (its sheets hang off the round and would go with it, or their points would
# move to other players).
_HAS_GAMES = exists(
    select(GameEntry.id).join(Scoresheet, Scoresheet.id == GameEntry.sheet_id)
    .where(Scoresheet.round_id == Round.id)
)
PLAYED = or_(Round.started_at.is_not(None), _HAS_GAMES)


def round_played(rnd: Round | None) -> bool:
    """True when the round's clock has started or a game of it has been entered."""
    if rnd is None:
        return False
    if rnd.started_at is not None:
        return True
    return db.session.scalar(select(Round.id).where(Round.id == rnd.id, PLAYED)) is not None


def played_rounds(tournament: Tournament) -> dict[int, str]:
    """{round number: why it is played} for every played round (round_played's test, in
    one query): "has started" or "has scores entered"."""
    return {number: "has started" if started is not None else "has scores entered"
            for number, started in db.session.execute(
                select(Round.number, Round.started_at)
                .where(Round.tournament_id == tournament.id, PLAYED).order_by(Round.number))}


def played_refusal(tournament: Tournament, action: str, field: str) -> None:
    """SetupError naming the first played round when any round is played (a redraw or a
    swap changes round 1 and so every later round)."""
    played = played_rounds(tournament)
    if played:
        number = min(played)
        raise SetupError(f"Round {number} {played[number]}, so {action}.", field)


def seat_round_one(
    tournament: Tournament, method: str = "draw", seed: int | None = None,
    user: User | None = None,
) -> Round:
    """Make the tables and seat round 1: a random draw (seed kept, so it can be shown and
    redone) or by player number. Players 1-4 sit E,S,W,N at table 1, and so on."""
    players = [p for p in tournament.players if p.withdrawn_from_round is None]
    if len(players) < 4 or len(players) % 4:
        raise ValueError(
            f"Seating needs a multiple of four players; there are {len(players)}. "
            f"Add {(-len(players)) % 4 or 4} substitute(s) first."
        )
    # Every later round follows from round 1: once any round is played, no redraw.
    played_refusal(tournament, "the seating can no longer be redrawn", "method")
    players.sort(key=lambda p: p.number)
    if method == "draw":
        seed = seed if seed is not None else secrets.randbelow(1_000_000)
        random.Random(seed).shuffle(players)
    elif method != "number":
        raise ValueError("Choose a random draw or seating by player number.")
    else:
        seed = None
    table_count = len(players) // 4
    ensure_tables(tournament, table_count)
    # Later rounds derive from round 1: drop them all (none is played) and rebuild.
    db.session.execute(delete(Round).where(Round.tournament_id == tournament.id, ~PLAYED))
    db.session.flush()
    db.session.expire(tournament, ["round_list"])
    tournament.seating_method, tournament.seating_seed = method, seed
    tables = {t.number: t for t in tournament.tables}
    rnd = Round(tournament=tournament, number=1, duration_seconds=tournament.round_minutes * 60)
    db.session.add(rnd)
    for index, player in enumerate(players):
        table_number, seat = divmod(index, 4)
        rnd.seats.append(Seating(table=tables[table_number + 1], seat="ESWN"[seat],
                                 player=player))
    db.session.flush()
    record("seating.round1", tournament_id=tournament.id, subject=f"round:{rnd.id}",
           after={"method": method, "seed": seed, "tables": table_count},
           actor=actor_label(user), actor_user_id=user.id if user else None)
    return rnd


def ensure_tables(tournament: Tournament, count: int) -> None:
    have = {t.number for t in tournament.tables}
    for number in range(1, count + 1):
        if number not in have:
            tournament.tables.append(Table(number=number))
    db.session.flush()


def set_movement(tournament: Tournament, user: User, movement: str) -> None:
    """Choose how players move (a rule, so fixed once scores are in)."""
    update_rules(tournament, user, {"movement": movement})


@dataclass
class SeatingImport:
    """An imported seating's outcome: its problems (nothing saved), or what was saved."""

    problems: list[SeatingProblem]
    rounds: int = 0
    tables: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


def import_seating(tournament: Tournament, user: User, text: str) -> SeatingImport:
    """The organiser's seating for every round from CSV lines (round, table, seat, player
    number). Every problem is listed and nothing is saved unless the whole file is fine;
    then round 1 is seated from it (later rounds when the director seats them) and the
    rounds not played are rebuilt."""
    if movement_of(tournament) != "imported":
        raise SetupError("Choose the organiser's own seating as the movement first.", "text")
    played_refusal(tournament, "the seating can no longer be imported", "text")
    rows = list(csv.reader(io.StringIO(text), delimiter=csv_separator(text)))
    players = {p.number: p for p in tournament.players if p.withdrawn_from_round is None}
    plan, problems = read_imported_seating(rows, tournament.rounds, set(players))
    if problems:
        return SeatingImport(problems)
    table_count = len(players) // 4
    ensure_tables(tournament, table_count)
    db.session.execute(delete(Round).where(Round.tournament_id == tournament.id, ~PLAYED))
    db.session.flush()
    db.session.expire(tournament, ["round_list"])
    tournament.imported_seating = {
        str(number): {str(table): {seat: players[player].id for seat, player in seats.items()}
                      for table, seats in tables.items()}
        for number, tables in plan.items()}
    tournament.seating_method, tournament.seating_seed = "imported", None
    tables = {t.number: t for t in tournament.tables}
    rnd = Round(tournament=tournament, number=1, duration_seconds=tournament.round_minutes * 60)
    db.session.add(rnd)
    for table_number, seats in plan[1].items():
        for seat, player in seats.items():
            rnd.seats.append(Seating(table=tables[table_number], seat=seat,
                                     player=players[player]))
    db.session.flush()
    record("seating.import", tournament_id=tournament.id, subject=f"round:{rnd.id}",
           after={"rounds": len(plan), "tables": table_count},
           actor=actor_label(user), actor_user_id=user.id if user else None)
    return SeatingImport([], len(plan), table_count)


def player_count(tournament: Tournament) -> int:
    return db.session.scalar(
        select(func.count()).select_from(Player).where(Player.tournament_id == tournament.id,
                                                       Player.withdrawn_from_round.is_(None))
    )


# ---------------------------------------------------------------------------------------
# Everything below serves the director's setup pages. Each write function
# changes rows and adds its audit row(s) to the session; the view commits once, so the
# change and its audit row land in one transaction (or neither does).

class SetupError(ValueError):
    """A director's request that cannot be done; `field` names the form field it concerns
    (or "" for the whole form), the message says why in plain words."""

    def __init__(self, message: str, field: str = ""):
        super().__init__(message)
        self.message = message
        self.field = field


RULES_FIXED = ("Scores have been entered, so the rules are fixed: changing a number now "
               "would change games already played.")
GAMES_FIXED = ("Scores have been entered, so the number of games per round can no longer "
               "change.")


class RulesFixed(SetupError):
    """The rules (or games per round) cannot change: a game has been entered."""


def plain_text(value: str, field: str, what: str = "This") -> str:
    """The text trimmed; SetupError when it holds control characters (a NUL byte from a
    pasted spreadsheet, say), which nobody means to type and PostgreSQL refuses."""
    value = (value or "").strip()
    if any(unicodedata.category(ch) == "Cc" for ch in value):
        raise SetupError(f"{what} has characters in it that cannot be shown; please retype "
                         "it.", field)
    return value


def _audit(tournament: Tournament, user: User | None, action: str, subject: str = "",
           before=None, after=None, reason: str = "") -> None:
    record(action, tournament_id=tournament.id, subject=subject, before=before, after=after,
           reason=reason, actor=actor_label(user), actor_user_id=user.id if user else None)


# --- tournament details, sessions, mini tournament, rules ------------------------------

def scores_entered(tournament: Tournament) -> bool:
    """True once any game of this tournament has been entered: the rules are then fixed."""
    return db.session.scalar(
        select(GameEntry.id).join(Scoresheet, Scoresheet.id == GameEntry.sheet_id)
        .join(Round, Round.id == Scoresheet.round_id)
        .where(Round.tournament_id == tournament.id).limit(1)
    ) is not None


def parse_sessions(text: str, rounds: int) -> list[tuple[int, int]]:
    """"1-4, 5-8" -> [(1, 4), (5, 8)]; SetupError(field="sessions") in plain words."""
    ranges: list[tuple[int, int]] = []
    text = (text or "").strip()
    if not text:
        return ranges
    for part in text.replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        bits = [b.strip() for b in part.replace("–", "-").split("-")]
        if len(bits) == 1:
            bits = bits * 2
        if len(bits) != 2 or not all(WHOLE.fullmatch(b) for b in bits):
            raise SetupError(f"“{part}” is not a round range. Write ranges like 1-4, 5-8.",
                             "sessions")
        first, last = int(bits[0]), int(bits[1])
        if first < 1 or last < first:
            raise SetupError(f"“{part}”: a session runs from a round to the same or a later "
                             "round.", "sessions")
        if last > rounds:
            raise SetupError(f"“{part}”: this tournament has only {rounds} rounds.", "sessions")
        for a, b in ranges:
            if first <= b and a <= last:
                raise SetupError(f"“{part}” overlaps the session {a}-{b}.", "sessions")
        ranges.append((first, last))
    return sorted(ranges)


def sessions_text(tournament: Tournament) -> str:
    return ", ".join(f"{c.first_round}-{c.last_round}" for c in tournament.competitions
                     if c.kind == "session")


def mini_competition(tournament: Tournament) -> Competition | None:
    return next((c for c in tournament.competitions if c.kind == "mini"), None)


def _set_competitions(tournament: Tournament, sessions: list[tuple[int, int]],
                      mini: tuple[int, int] | None) -> None:
    wanted_sessions = set(sessions)
    for comp in list(tournament.competitions):
        if comp.kind == "session" and (comp.first_round, comp.last_round) not in wanted_sessions:
            tournament.competitions.remove(comp)
    have = {(c.first_round, c.last_round) for c in tournament.competitions if c.kind == "session"}
    for first, last in sessions:
        if (first, last) not in have:
            tournament.competitions.append(Competition(
                kind="session", name=f"Session {first}-{last}" if first != last
                else f"Session {first}", first_round=first, last_round=last))
    # Session names follow their order: Session 1, Session 2, ...
    ordered = sorted((c for c in tournament.competitions if c.kind == "session"),
                     key=lambda c: c.first_round)
    for index, comp in enumerate(ordered, start=1):
        comp.name = f"Session {index} (rounds {comp.first_round}-{comp.last_round})"
    existing = mini_competition(tournament)
    if mini is None:
        if existing is not None:
            tournament.competitions.remove(existing)
    elif existing is None:
        tournament.competitions.append(Competition(
            kind="mini", name="Mini tournament", first_round=mini[0], last_round=mini[1],
            entrants_only=True))
    else:
        existing.first_round, existing.last_round = mini
        existing.entrants_only = True


def check_mini(mini: tuple[int, int] | None, rounds: int) -> None:
    if mini is None:
        return
    first, last = mini
    if first < 1 or last < first:
        raise SetupError("The mini tournament runs from a round to the same or a later round.",
                         "mini_first")
    if last > rounds:
        raise SetupError(f"The mini tournament cannot end after the last round ({rounds}).",
                         "mini_last")


def tournament_summary(tournament: Tournament) -> dict:
    return {
        "name": tournament.name, "venue": tournament.venue,
        "starts_on": tournament.starts_on.isoformat() if tournament.starts_on else None,
        "ends_on": tournament.ends_on.isoformat() if tournament.ends_on else None,
        "rounds": tournament.rounds, "games_per_round": tournament.games_per_round,
        "round_minutes": tournament.round_minutes, "prize_places": tournament.prize_places,
        "sessions": sessions_text(tournament),
        "mini": ([mini_competition(tournament).first_round,
                  mini_competition(tournament).last_round]
                 if mini_competition(tournament) else None),
    }


def create_tournament_from_form(
    director: User, *, name: str, preset: str, rounds: int, starts_on: date | None,
    ends_on: date | None, venue: str, games_per_round: int | None, round_minutes: int | None,
    prize_places: int, sessions: str, mini: tuple[int, int] | None,
) -> Tournament:
    """create_tournament plus everything the director's form sets, checked first."""
    if preset not in PRESETS:
        raise SetupError("Choose one of the rule sets.", "preset")
    name = plain_text(name, "name", "The name")
    venue = plain_text(venue, "venue", "The venue")
    if starts_on and ends_on and ends_on < starts_on:
        raise SetupError("The last day cannot be before the first day.", "ends_on")
    session_ranges = parse_sessions(sessions, rounds)
    check_mini(mini, rounds)
    tournament = create_tournament(director, name=name, preset=preset, rounds=rounds,
                                   starts_on=starts_on, ends_on=ends_on, venue=venue)
    rules = dict(tournament.rules)
    if games_per_round:
        tournament.games_per_round = rules["games_per_round"] = games_per_round
    if round_minutes:
        tournament.round_minutes = rules["round_minutes"] = round_minutes
    rules["sessions"] = bool(session_ranges) or rules["sessions"]
    rules["mini_tournament"] = ({"first_round": mini[0], "last_round": mini[1]} if mini
                                else None)
    tournament.rules = RuleSet.from_dict(rules).to_dict()
    tournament.prize_places = prize_places
    _set_competitions(tournament, session_ranges, mini)
    db.session.flush()
    return tournament


def update_tournament(
    tournament: Tournament, user: User, *, name: str, rounds: int, starts_on: date | None,
    ends_on: date | None, venue: str, games_per_round: int, round_minutes: int,
    prize_places: int, sessions: str, mini: tuple[int, int] | None,
) -> None:
    """Change the tournament's details. Games per round is a rule: fixed once a score is in.
    Rounds cannot drop below a played round (round_played); unplayed rounds beyond go."""
    if starts_on and ends_on and ends_on < starts_on:
        raise SetupError("The last day cannot be before the first day.", "ends_on")
    played = played_rounds(tournament)
    last_played = max(played, default=0)
    if rounds < last_played:
        raise SetupError(f"Round {last_played} {played[last_played]}, so the tournament "
                         f"needs at least {last_played} rounds.", "rounds")
    games_changed = games_per_round != tournament.games_per_round
    if games_changed and scores_entered(tournament):
        raise RulesFixed(GAMES_FIXED, "games_per_round")
    session_ranges = parse_sessions(sessions, rounds)
    check_mini(mini, rounds)
    before = tournament_summary(tournament)
    tournament.name = plain_text(name, "name", "The name")
    tournament.venue = plain_text(venue, "venue", "The venue")
    tournament.starts_on, tournament.ends_on = starts_on, ends_on
    tournament.rounds, tournament.prize_places = rounds, prize_places
    tournament.games_per_round, tournament.round_minutes = games_per_round, round_minutes
    rules = dict(tournament.rules)
    rules["games_per_round"], rules["round_minutes"] = games_per_round, round_minutes
    rules["mini_tournament"] = ({"first_round": mini[0], "last_round": mini[1]} if mini
                                else None)
    if session_ranges:
        rules["sessions"] = True
    tournament.rules = RuleSet.from_dict(rules).to_dict()
    _set_competitions(tournament, session_ranges, mini)
    db.session.flush()
    if games_changed:
        # The check above is a quick answer; this one is atomic with the write.
        write_unless_scored(tournament, "games_per_round", GAMES_FIXED,
                            games_per_round=games_per_round, rules=tournament.rules)
    db.session.execute(delete(Round).where(Round.tournament_id == tournament.id,
                                           Round.number > rounds, ~PLAYED))
    db.session.expire(tournament, ["round_list"])
    for rnd in tournament.round_list:
        if rnd.started_at is None:
            rnd.duration_seconds = round_minutes * 60
    db.session.flush()
    after = tournament_summary(tournament)
    if after != before:
        _audit(tournament, user, "tournament.update", f"tournament:{tournament.id}",
               before=before, after=after)


# Rule fields edited with the tournament's details rather than on the rules page.
DETAIL_RULES = ("games_per_round", "round_minutes", "mini_tournament", "sessions")


def write_unless_scored(tournament: Tournament, field: str, message: str, **values) -> None:
    """Write `values` to the tournament's row only while none of its games is entered, as
    one conditional UPDATE (check and write in the same statement, so a score saved at the
    same moment cannot slip in between); SetupError(message, field) when a game is in."""
    db.session.flush()
    scored = exists(
        select(GameEntry.id).join(Scoresheet, Scoresheet.id == GameEntry.sheet_id)
        .join(Round, Round.id == Scoresheet.round_id)
        .where(Round.tournament_id == tournament.id))
    result = db.session.execute(
        update(Tournament).where(Tournament.id == tournament.id, ~scored).values(**values)
        .execution_options(synchronize_session=False))
    if result.rowcount != 1:
        raise RulesFixed(message, field)
    db.session.expire(tournament, list(values))


def update_rules(tournament: Tournament, user: User, changes: dict) -> RuleSet:
    """Apply edited rule values; InvalidRules (naming the field) when they make no sense,
    SetupError once scores are in. Nothing changes unless the whole set is valid."""
    if scores_entered(tournament):
        raise RulesFixed(RULES_FIXED)
    before = dict(tournament.rules)
    rules = RuleSet.from_dict({**before, **changes})
    after = rules.to_dict()
    if after != before:
        write_unless_scored(tournament, "", RULES_FIXED, rules=after)
        _audit(tournament, user, "rules.update", f"tournament:{tournament.id}",
               before={k: before[k] for k in after if before.get(k) != after[k]},
               after={k: after[k] for k in after if before.get(k) != after[k]})
    return rules


def apply_preset(tournament: Tournament, user: User, preset: str) -> None:
    """Start the rules again from a preset (details like rounds and sessions are kept)."""
    if scores_entered(tournament):
        raise RulesFixed(RULES_FIXED, "preset")
    if preset not in PRESETS:
        raise SetupError("Choose one of the rule sets.", "preset")
    before = {"preset": tournament.preset, "rules": tournament.rules}
    rules = PRESETS[preset].to_dict()
    rules["games_per_round"] = tournament.games_per_round
    rules["round_minutes"] = tournament.round_minutes
    mini = mini_competition(tournament)
    rules["mini_tournament"] = ({"first_round": mini.first_round, "last_round": mini.last_round}
                                if mini else None)
    rules["sessions"] = rules["sessions"] or any(c.kind == "session"
                                                 for c in tournament.competitions)
    write_unless_scored(tournament, "preset", RULES_FIXED, preset=preset,
                        rules=RuleSet.from_dict(rules).to_dict())
    _audit(tournament, user, "rules.preset", f"tournament:{tournament.id}", before=before,
           after={"preset": preset, "rules": tournament.rules})


# --- players ---------------------------------------------------------------------------

def player_snapshot(player: Player) -> dict:
    return {"number": player.number, "name": player.name,
            "is_substitute": player.is_substitute,
            "withdrawn_from_round": player.withdrawn_from_round}


def _number_taken(tournament: Tournament, number: int, except_id: int | None = None) -> bool:
    query = select(Player.id).where(Player.tournament_id == tournament.id,
                                    Player.number == number)
    if except_id is not None:
        query = query.where(Player.id != except_id)
    return db.session.scalar(query) is not None


def next_player_number(tournament: Tournament) -> int:
    return (db.session.scalar(select(func.max(Player.number))
                              .where(Player.tournament_id == tournament.id)) or 0) + 1


def seated(tournament: Tournament) -> bool:
    return round_row(tournament, 1) is not None


def mini_entry_closed(tournament: Tournament) -> str:
    """Why opting a player into or out of the mini tournament needs the director's override
    now ("" while entry is open): the rule set closes entry when the mini's first round
    starts (Destination: "must be paid before round 10 starts")."""
    comp = mini_competition(tournament)
    if comp is None or not rules_of(tournament).mini_entry_closes:
        return ""
    started = db.session.scalar(
        select(Round.id).where(Round.tournament_id == tournament.id,
                               Round.number >= comp.first_round,
                               Round.started_at.is_not(None)).limit(1))
    if started is None:
        return ""
    return (f"Entry to the mini tournament closed when round {comp.first_round} started. To "
            "opt a player in or out now, write the reason for your override; it is kept in "
            "the audit trail.")


def _mini_override(tournament: Tournament, user: User, player: Player, entered: bool,
                   reason: str) -> None:
    """Refuse a change of mini entry after entry closed unless the director wrote why; audit
    the override."""
    closed = mini_entry_closed(tournament)
    if not closed:
        return
    reason = plain_text(reason or "", "mini_override", "The reason").strip()
    if not reason:
        raise SetupError(closed, "mini_override")
    _audit(tournament, user, "mini.override", f"player:{player.id}",
           before={"mini": not entered}, after={"mini": entered}, reason=reason)


def add_player(tournament: Tournament, user: User, *, number: int | None, name: str,
               is_substitute: bool = False, mini: bool = False,
               mini_override: str = "") -> Player:
    name = plain_text(name, "name", "The name")
    if not name:
        raise SetupError("Please enter the player's name.", "name")
    number = number or next_player_number(tournament)
    if number < 1:
        raise SetupError("The number must be 1 or more.", "number")
    if _number_taken(tournament, number):
        raise SetupError(f"Number {number} already belongs to another player.", "number")
    player = Player(number=number, name=name, is_substitute=is_substitute)
    tournament.players.append(player)
    db.session.flush()
    if mini:
        _mini_override(tournament, user, player, True, mini_override)
        _enter_mini(tournament, player)
    _audit(tournament, user, "player.add", f"player:{player.id}",
           after=player_snapshot(player) | {"mini": mini})
    return player


def _enter_mini(tournament: Tournament, player: Player) -> None:
    comp = mini_competition(tournament)
    if comp is None:
        raise SetupError("This tournament has no mini tournament; add it on the tournament's "
                         "details page first.", "mini")
    if not any(e.player_id == player.id for e in comp.entries):
        comp.entries.append(CompetitionEntry(player_id=player.id))


def in_mini(tournament: Tournament) -> set[int]:
    comp = mini_competition(tournament)
    return {e.player_id for e in comp.entries} if comp else set()


def edit_player(tournament: Tournament, user: User, player: Player, *, number: int, name: str,
                mini: bool | None = None, mini_override: str = "") -> None:
    name = plain_text(name, "name", "The name")
    if not name:
        raise SetupError("Please enter the player's name.", "name")
    if number < 1:
        raise SetupError("The number must be 1 or more.", "number")
    if _number_taken(tournament, number, except_id=player.id):
        raise SetupError(f"Number {number} already belongs to another player.", "number")
    before = player_snapshot(player) | {"mini": player.id in in_mini(tournament)}
    player.number, player.name = number, name
    comp = mini_competition(tournament)
    if comp is not None and mini is not None:
        entry = next((e for e in comp.entries if e.player_id == player.id), None)
        if bool(mini) != (entry is not None):
            _mini_override(tournament, user, player, bool(mini), mini_override)
        if mini and entry is None:
            comp.entries.append(CompetitionEntry(player_id=player.id))
        elif not mini and entry is not None:
            comp.entries.remove(entry)
    db.session.flush()
    after = player_snapshot(player) | {"mini": player.id in in_mini(tournament)}
    if after != before:
        _audit(tournament, user, "player.edit", f"player:{player.id}", before=before,
               after=after)


def tournament_player(tournament: Tournament, player_id: int) -> Player | None:
    player = db.session.get(Player, player_id)
    if player is None or player.tournament_id != tournament.id:
        return None
    return player


def substitutes_needed(tournament: Tournament) -> int:
    """How many players must be added to make the field a multiple of four."""
    count = player_count(tournament)
    return (-count) % 4 if count else 0


def add_substitutes(tournament: Tournament, user: User, names: list[str]) -> list[Player]:
    """Add house players (they play, they are never ranked), numbered after the last."""
    added = []
    for name in names:
        added.append(add_player(tournament, user, number=None,
                                name=name.strip() or f"Substitute {len(added) + 1}",
                                is_substitute=True))
    return added


def withdraw_player(tournament: Tournament, user: User, player: Player, *,
                    from_round: int, substitute: Player | None = None,
                    new_substitute_name: str = "") -> Substitution | None:
    """A player leaves from `from_round` on. Before round 1 is seated they simply leave
    the field. Once seated, a substitute takes their seat in every round from `from_round`,
    which must come after every played round (round_played): rounds already made are
    updated, later rounds follow via ensure_round.
    The player keeps the games they played; their later games score for the substitute."""
    if player.withdrawn_from_round is not None:
        raise SetupError(f"{player.name} has already left (from round "
                         f"{player.withdrawn_from_round}).")
    before = player_snapshot(player)
    if not seated(tournament):
        player.withdrawn_from_round = 1
        _audit(tournament, user, "player.withdraw", f"player:{player.id}", before=before,
               after=player_snapshot(player))
        return None
    if not 1 <= from_round <= tournament.rounds:
        raise SetupError(f"Choose a round from 1 to {tournament.rounds}.", "from_round")
    played = played_rounds(tournament)
    late = [number for number in played if number >= from_round]
    if late:
        # The leaver keeps every played round (and its points): the substitute can only
        # take over after the last of them.
        number = max(late)
        after = (f"the substitute can take over from round {number + 1}"
                 if number < tournament.rounds else "there is no later round to take over")
        raise SetupError(f"Round {number} {played[number]}, so it keeps its players; "
                         f"{after}.", "from_round")
    if substitute is None:
        name = plain_text(new_substitute_name, "new_substitute", "The name")
        if not name:
            raise SetupError("Choose a substitute, or type a new substitute's name.",
                             "substitute")
        substitute = add_player(tournament, user, number=None, name=name, is_substitute=True)
    else:
        if substitute.id == player.id or substitute.tournament_id != tournament.id:
            raise SetupError("Choose another player as the substitute.", "substitute")
        if substitute.id in set(initial_seating_ids(tournament)) or \
                substitute.withdrawn_from_round is not None or \
                db.session.scalar(select(Substitution.id).where(
                    Substitution.substitute_id == substitute.id)) is not None:
            raise SetupError(f"{substitute.name} already has a seat; choose a free "
                             "substitute.", "substitute")
    # The substitute may be standing in for nobody else and must not be seated already.
    sub = Substitution(tournament_id=tournament.id, player_id=player.id,
                       substitute_id=substitute.id, from_round=from_round)
    db.session.add(sub)
    player.withdrawn_from_round = from_round
    db.session.flush()
    changed = []
    for rnd in tournament.round_list:
        if rnd.number < from_round:
            continue
        # None of these is played (checked above).
        for seat in rnd.seats:
            if seat.player_id == player.id:
                seat.player_id = substitute.id
                changed.append(rnd.number)
    db.session.flush()
    _audit(tournament, user, "player.substitute", f"player:{player.id}", before=before,
           after=player_snapshot(player) | {"substitute": substitute.number,
                                            "substitute_name": substitute.name,
                                            "from_round": from_round,
                                            "rounds_updated": changed})
    return sub


def initial_seating_ids(tournament: Tournament) -> list[int]:
    return [pid for seats in initial_seating(tournament).values() for pid in seats.values()]


def unseated_players(tournament: Tournament) -> list[Player]:
    """Ranked players in the field with no round-1 seat (added after the draw): the
    director should redo the seating. Spare substitutes are not counted."""
    if not seated(tournament):
        return []
    taken = set(initial_seating_ids(tournament))
    return [p for p in tournament.players
            if p.withdrawn_from_round is None and not p.is_substitute and p.id not in taken]


def free_substitutes(tournament: Tournament) -> list[Player]:
    """Substitutes with no seat yet: not seated in round 1, standing in for nobody."""
    taken = set(initial_seating_ids(tournament)) | set(db.session.scalars(
        select(Substitution.substitute_id).where(Substitution.tournament_id == tournament.id)))
    return [p for p in tournament.players
            if p.is_substitute and p.withdrawn_from_round is None and p.id not in taken]


# --- CSV import ------------------------------------------------------------------------

WHOLE = re.compile(r"[0-9]{1,9}")
YES = {"yes", "y", "1", "true", "x", "ja", "oui", "si"}
NO = {"no", "n", "0", "false", ""}
MAX_IMPORT_ROWS = 2000


class ImportRow:
    """One line of an import file, with what it would create and what is wrong with it."""

    def __init__(self, line: int, number: str, name: str, mini: str | None,
                 substitute: str | None):
        self.line, self.raw_number, self.name = line, number.strip(), name.strip()
        self.raw_mini, self.raw_substitute = mini, substitute
        self.number: int | None = None
        self.mini = False
        self.is_substitute = False
        self.problems: list[str] = []


class ImportPreview:
    def __init__(self):
        self.rows: list[ImportRow] = []
        self.problems: list[str] = []   # about the whole file
        self.ignored_columns: list[str] = []
        self.has_mini = False

    @property
    def ok(self) -> bool:
        return bool(self.rows) and not self.problems and not any(r.problems for r in self.rows)

    @property
    def problem_rows(self) -> int:
        return sum(1 for r in self.rows if r.problems)


def decode_csv(data: bytes) -> str:
    """The file's text; SetupError in one plain sentence when it is not UTF-8."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SetupError(
            "This file is not saved as UTF-8 text, so names with accents would come out "
            "wrong. In your spreadsheet choose “Save as… CSV UTF-8” and try again.",
            "file") from None


SEPARATORS = {",": "commas", ";": "semicolons", "\t": "tabs"}
# A number, then a semicolon or a tab: a row whose columns were not split.
JOINED = re.compile(r"\s*[0-9]{1,9}\s*([;\t])")


def csv_separator(text: str) -> str:
    """The column separator of an import file: commas, or semicolons (what a spreadsheet
    saves "CSV" as where the decimal point is a comma), or tabs (lines pasted from a
    spreadsheet). Read from the first lines; commas when the file does not say."""
    import csv

    sample = text[:16384]
    if len(text) > len(sample) and "\n" in sample:
        sample = sample[:sample.rindex("\n")]      # whole lines only
    try:
        return csv.Sniffer().sniff(sample, delimiters="".join(SEPARATORS)).delimiter
    except csv.Error:
        return ","


def preview_import(tournament: Tournament, text: str) -> ImportPreview:
    """Read `number,name[,mini][,substitute]` lines (a header row is optional; the columns
    may be separated by commas, semicolons or tabs) and list every problem; nothing is
    saved."""
    import csv
    import io

    preview = ImportPreview()
    separator = csv_separator(text)
    try:
        lines = [row for row in csv.reader(io.StringIO(text.replace("\r\n", "\n")),
                                           delimiter=separator)]
    except csv.Error:
        # The csv module refuses a field over 131,072 characters (and NUL bytes in some
        # Python versions): no list of players has one.
        preview.problems.append("This file cannot be read as a list of players: one of "
                                "its fields is far too long. Save it again as “CSV UTF-8”.")
        return preview
    numbered = [(i, row) for i, row in enumerate(lines, start=1)
                if any(cell.strip() for cell in row)]
    if not numbered:
        preview.problems.append("The file has no players in it.")
        return preview
    columns = {"number": 0, "name": 1}
    first_line, first = numbered[0]
    header = [cell.strip().lower() for cell in first]
    if "name" in header or "number" in header:
        if "name" not in header or "number" not in header:
            preview.problems.append("The header row needs both a “number” and a “name” "
                                    "column.")
            return preview
        columns = {}
        for index, title in enumerate(header):
            key = {"no": "number", "#": "number", "sub": "substitute"}.get(title, title)
            if key in ("number", "name", "mini", "substitute") and key not in columns:
                columns[key] = index
            elif title:
                preview.ignored_columns.append(first[index].strip())
        numbered = numbered[1:]
    if len(numbered) > MAX_IMPORT_ROWS:
        preview.problems.append(f"The file has {len(numbered)} players; the most one import "
                                f"takes is {MAX_IMPORT_ROWS}.")
        return preview
    preview.has_mini = "mini" in columns
    comp = mini_competition(tournament)
    existing = {number: name for number, name in db.session.execute(
        select(Player.number, Player.name).where(Player.tournament_id == tournament.id))}

    def cell(row, key):
        index = columns.get(key)
        return row[index] if index is not None and index < len(row) else None

    seen: dict[int, int] = {}
    for line, row in numbered:
        item = ImportRow(line, cell(row, "number") or "", cell(row, "name") or "",
                         cell(row, "mini"), cell(row, "substitute"))
        joined = JOINED.match(item.raw_number)
        if not item.raw_number:
            item.problems.append("The number is missing.")
        elif joined and joined.group(1) != separator:
            item.problems.append(
                f"This line has {SEPARATORS[joined.group(1)]} between its columns, but the "
                f"file uses {SEPARATORS[separator]}. Use one separator on every line (in a "
                "spreadsheet: “Save as… CSV UTF-8”) and try again.")
            preview.rows.append(item)    # its other cells were never split: no more to say
            continue
        elif not WHOLE.fullmatch(item.raw_number) or not 1 <= int(item.raw_number) <= 100000:
            item.problems.append(f"“{item.raw_number}” is not a player number (a whole "
                                 "number from 1 to 100000).")
        else:
            item.number = int(item.raw_number)
            if item.number in seen:
                item.problems.append(f"Number {item.number} is also on line "
                                     f"{seen[item.number]} of the file.")
            else:
                seen[item.number] = line
            if item.number in existing:
                item.problems.append(f"Number {item.number} already belongs to "
                                     f"{existing[item.number]}.")
        if not item.name:
            item.problems.append("The name is empty.")
        elif any(unicodedata.category(ch) == "Cc" for ch in item.name):
            item.problems.append("The name has characters in it that cannot be shown.")
        elif len(item.name) > 120:
            item.problems.append("The name is longer than 120 characters.")
        for key in ("mini", "substitute"):
            raw = getattr(item, f"raw_{key}")
            if raw is None:
                continue
            value = raw.strip().lower()
            if value in YES:
                setattr(item, "mini" if key == "mini" else "is_substitute", True)
            elif value not in NO:
                item.problems.append(f"{key.title()}: write yes or no, not “{raw.strip()}”.")
        if item.mini and comp is None:
            item.problems.append("This tournament has no mini tournament; add it on the "
                                 "tournament's details page first.")
        preview.rows.append(item)
    return preview


def import_players(tournament: Tournament, user: User, text: str) -> ImportPreview:
    """Check the file again and, when every row is fine, add every player in this
    transaction (the caller commits once). Returns the preview; nothing added if not ok."""
    preview = preview_import(tournament, text)
    if not preview.ok:
        return preview
    comp = mini_competition(tournament)
    players = [Player(tournament_id=tournament.id, number=row.number, name=row.name,
                      is_substitute=row.is_substitute) for row in preview.rows]
    db.session.add_all(players)
    db.session.flush()
    if comp is not None:
        for row, player in zip(preview.rows, players, strict=True):
            if row.mini:
                db.session.add(CompetitionEntry(competition_id=comp.id, player_id=player.id))
    db.session.expire(tournament, ["players"])
    _audit(tournament, user, "player.import", f"tournament:{tournament.id}",
           after={"players": len(players), "mini": sum(1 for r in preview.rows if r.mini),
                  "numbers": [players[0].number, players[-1].number] if players else []})
    return preview


# --- seating ---------------------------------------------------------------------------

def seat(tournament: Tournament, user: User, method: str, seed: int | None = None) -> Round:
    """Seat round 1 (draw or by number) with the reason in plain words on failure."""
    if movement_of(tournament) == "imported":
        raise SetupError("This tournament follows the organiser's own seating: import it "
                         "below, or choose the usual movement first.", "method")
    later = db.session.scalar(select(func.min(Substitution.from_round)).where(
        Substitution.tournament_id == tournament.id, Substitution.from_round > 1))
    if later is not None:
        raise SetupError(f"A player has been replaced from round {later}; a new draw would "
                         "take away the rounds they play before that. Swap players instead.",
                         "method")
    try:
        return seat_round_one(tournament, method=method, seed=seed, user=user)
    except ValueError as error:
        raise SetupError(str(error), "method") from None


def swap_players(tournament: Tournament, user: User, first_number: int,
                 second_number: int) -> None:
    """Swap two players' round-1 seats while no round is played; later rounds made so far
    are dropped (ensure_round makes them again from the new round 1)."""
    rnd = round_row(tournament, 1)
    if rnd is None:
        raise SetupError("Seat round 1 first.", "first")
    if movement_of(tournament) == "imported":
        raise SetupError("The organiser's seating decides every round: change the file and "
                         "import it again.", "first")
    # Round 1's seats decide every later round: once any round is played, no swap.
    played_refusal(tournament, "seats can no longer be swapped", "first")
    if first_number == second_number:
        raise SetupError("Choose two different players.", "second")
    by_number = {s.player.number: s for s in rnd.seats}
    for field, number in (("first", first_number), ("second", second_number)):
        if number not in by_number:
            raise SetupError(f"No player number {number} is seated in round 1.", field)
    a, b = by_number[first_number], by_number[second_number]
    before = {first_number: [a.table.number, a.seat], second_number: [b.table.number, b.seat]}
    # Seats are unique per (round, player): free b's seat, move b's player to a's seat,
    # then seat a's player where b sat, flushing in between.
    a_player, b_player, b_table, b_seat = a.player_id, b.player_id, b.table_id, b.seat
    rnd.seats.remove(b)
    db.session.flush()
    a.player_id = b_player
    db.session.flush()
    rnd.seats.append(Seating(table_id=b_table, seat=b_seat, player_id=a_player))
    db.session.flush()
    db.session.execute(delete(Round).where(Round.tournament_id == tournament.id,
                                           Round.number > 1, ~PLAYED))
    db.session.flush()
    db.session.expire(tournament, ["round_list"])
    db.session.expire(rnd, ["seats"])
    _audit(tournament, user, "seating.swap", f"round:{rnd.id}", before=before,
           after={first_number: before[second_number], second_number: before[first_number]})


@dataclass(frozen=True)
class PlannedRound:
    """One round of the printed schedule: its number, and its row when it has been made
    (None for a later round not seated yet: its seats are computed, not stored)."""

    number: int
    row: Round | None = None


def schedule(
    tournament: Tournament,
) -> list[tuple[PlannedRound, list[tuple[Table, dict[str, Player]]]]]:
    """Every round 1..rounds with its tables' seats: [(round, [(table, {seat: player})])].
    Rounds already made are read as stored; later ones are computed in memory from round 1
    (tournament.movement plus substitutions), so looking at the schedule writes nothing.
    Empty before round 1 is seated."""
    initial = initial_seating(tournament)
    if not initial:
        return []
    rows = {r.number: r for r in db.session.scalars(
        select(Round).where(Round.tournament_id == tournament.id,
                            Round.number <= tournament.rounds))}
    players = {p.id: p for p in tournament.players}
    tables_by_id = {t.id: t for t in tournament.tables}
    tables_by_number = {t.number: t for t in tournament.tables}
    stored: dict[int, dict[int, dict[str, int]]] = {}
    for number, table_id, seat_letter, player_id in db.session.execute(
            select(Round.number, Seating.table_id, Seating.seat, Seating.player_id)
            .join(Round, Round.id == Seating.round_id)
            .where(Round.tournament_id == tournament.id)):
        table_number = tables_by_id[table_id].number
        stored.setdefault(number, {}).setdefault(table_number, {})[seat_letter] = player_id
    subs = substitutions(tournament)
    out = []
    for number in range(1, tournament.rounds + 1):
        if number in rows:
            by_table = stored.get(number, {})
        elif movement_of(tournament) == "imported":
            by_table = imported_plan(tournament, number, subs) or {}
        else:
            by_table = planned_seating(initial, number, subs)
        out.append((PlannedRound(number, rows.get(number)), [
            (tables_by_number[table_number],
             {s: players[seats[s]] for s in "ESWN" if s in seats})
            for table_number, seats in sorted(by_table.items())]))
    return out


def itineraries(tournament: Tournament) -> list[tuple[Player, list[tuple[int, int, str]]]]:
    """Each player's rounds as [(player, [(round, table, seat)])], by player number."""
    plan: dict[int, list[tuple[int, int, str]]] = {}
    for rnd, tables in schedule(tournament):
        for table, seats in tables:
            for seat_letter, player in seats.items():
                plan.setdefault(player.id, []).append((rnd.number, table.number, seat_letter))
    return [(p, plan[p.id]) for p in tournament.players if p.id in plan]


def meetings_report(tournament: Tournament) -> list[dict]:
    """tournament.movement.repeat_meetings with the round-1 players' names (under an
    imported seating: every pair it seats together more than once)."""
    initial = initial_seating(tournament)
    if not initial:
        return []
    players = {p.id: p for p in tournament.players}
    if movement_of(tournament) == "imported":
        plan = {number: imported_plan(tournament, number, {}) or {}
                for number in range(1, tournament.rounds + 1)}
        start = {pid: (table, seat) for table, seats in plan[1].items()
                 for seat, pid in seats.items()}
        return [{"first": players.get(first), "second": players.get(second),
                 "first_start": start.get(first), "second_start": start.get(second),
                 "rounds": rounds}
                for (first, second), rounds in shared_tables(plan).items()]
    report = []
    for meeting in repeat_meetings(len(initial), tournament.rounds):
        first = players.get(initial[meeting.first[0]].get(meeting.first[1]))
        second = players.get(initial[meeting.second[0]].get(meeting.second[1]))
        report.append({"first": first, "second": second, "first_start": meeting.first,
                       "second_start": meeting.second, "rounds": meeting.rounds})
    return report


# --- tables and tokens -----------------------------------------------------------------

def tournament_table(tournament: Tournament, number: int) -> Table | None:
    return db.session.scalar(select(Table).where(Table.tournament_id == tournament.id,
                                                 Table.number == number))


def rotate_token(tournament: Tournament, user: User, table: Table) -> None:
    """A new secret for the table's link: the old QR code stops working at once."""
    table.token = new_token()
    table.token_rotated_at = utcnow()
    # The token itself is a secret: the audit row says that it changed, not what it is.
    _audit(tournament, user, "table.rotate_token", f"table:{table.id}",
           after={"table": table.number, "rotated_at": table.token_rotated_at.isoformat()})


# --- the public address ----------------------------------------------------------------

PUBLIC_URL_MAX = 200


def clean_public_url(value: str | None) -> str | None:
    """The address as stored ("http://192.168.1.10:8000", no trailing /), None for empty;
    SetupError for anything a phone could not open."""
    from urllib.parse import urlsplit

    from blueprints.common import is_loopback

    value = plain_text(value or "", "public_url", "The address").rstrip("/")
    if not value:
        return None
    if "://" not in value:
        value = "http://" + value
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 (raises ValueError for a port that is not a number)
    except ValueError:
        parts = None
    if (parts is None or parts.scheme not in ("http", "https") or not parts.hostname
            or parts.username or parts.password or parts.query or parts.fragment
            or " " in value or len(value) > PUBLIC_URL_MAX):
        raise SetupError("Give an address like http://192.168.1.10:8000 (the laptop's "
                         "address on the venue Wi-Fi) or https://mahj.example.org.",
                         "public_url")
    if is_loopback(value):
        raise SetupError(f"{parts.hostname} is this computer itself: phones cannot open it. "
                         "Give the laptop's address on the venue Wi-Fi, like "
                         "http://192.168.1.10:8000.", "public_url")
    return value


def set_public_url(tournament: Tournament, user: User, value: str | None) -> None:
    """Set the address QR codes and printed cards use (None: BASE_URL); audited. The
    caller commits."""
    url = clean_public_url(value)
    if url == tournament.public_url:
        return
    before = {"public_url": tournament.public_url}
    tournament.public_url = url
    _audit(tournament, user, "tournament.public_url", f"tournament:{tournament.id}",
           before=before, after={"public_url": url})


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, the default route's first: what
    to offer when the cards would print 127.0.0.1. Sends nothing (a UDP "connect" only
    picks the interface)."""
    import ipaddress
    import socket

    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never reached
            found.append(probe.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(info[4][0])
    except OSError:
        pass
    usable = []
    for address in found:
        ip = ipaddress.ip_address(address)
        if not (ip.is_loopback or ip.is_unspecified or ip.is_link_local) \
                and address not in usable:
            usable.append(address)
    return usable


# --- staff -----------------------------------------------------------------------------

# The one place a role gets its words: the staff form, the staff list, home and overview.
STAFF_ROLES = {"director": "Director", "co-director": "Co-director",
               "table-guide": "Table guide"}


def _issue(tournament: Tournament, user: User, *, purpose: str, email: str, role: str,
           account: User | None = None) -> tuple[StaffInvitation, str]:
    secret, hashed = new_secret()
    invitation = StaffInvitation(
        tournament_id=tournament.id, purpose=purpose, email=email, role=role,
        user_id=account.id if account is not None else None, secret_hash=hashed,
        expires_at=utcnow() + invitation_lifetime(), created_by_id=user.id)
    db.session.add(invitation)
    db.session.flush()
    return invitation, secret


def invite_staff(tournament: Tournament, user: User, *, email: str,
                 role: str) -> tuple[StaffInvitation, str]:
    """An invitation for `email` to work on this tournament in `role`, and its one-time
    secret (for the link; only its hash is kept). Nobody is attached yet: whoever opens
    the link sets their own password, or proves they own the existing account. The answer
    is the same whether or not `email` has an account, so a director learns nothing about
    other people's accounts from it."""
    if role not in STAFF_ROLES:
        raise SetupError("Choose a role.", "role")
    email = plain_text(email, "email", "The email address").lower()
    if db.session.scalar(select(TournamentStaff.id).join(User).where(
            TournamentStaff.tournament_id == tournament.id, User.email == email)) is not None:
        raise SetupError("That person already works on this tournament.", "email")
    # One open invitation per address: a new one replaces the link given out before.
    db.session.execute(delete(StaffInvitation).where(
        StaffInvitation.tournament_id == tournament.id, StaffInvitation.purpose == "join",
        StaffInvitation.email == email, StaffInvitation.used_at.is_(None)))
    invitation, secret = _issue(tournament, user, purpose="join", email=email, role=role)
    _audit(tournament, user, "staff.invite", f"invitation:{invitation.id}",
           after={"email": email, "role": role,
                  "expires_at": invitation.expires_at.isoformat()})
    return invitation, secret


def password_link(tournament: Tournament, user: User,
                  staff_id: int) -> tuple[StaffInvitation, str]:
    """A one-time link with which a co-director or table guide of this tournament sets a
    new password. Refused for a director, and for anyone who also works on a tournament
    this director does not direct: a new password there would hand this director the keys
    to someone else's event."""
    staff = db.session.get(TournamentStaff, staff_id)
    if staff is None or staff.tournament_id != tournament.id:
        raise SetupError("That person does not work on this tournament.")
    if staff.user_id == user.id:
        raise SetupError("Change your own password from “Change my password”.")
    if staff.role == "director":
        raise SetupError("Only a director can change their own password.")
    if not may_reset_password(user, staff.user):
        raise SetupError(f"{staff.user.name} also works on other tournaments, so only they "
                         "can change their password.")
    db.session.execute(delete(StaffInvitation).where(
        StaffInvitation.purpose == "reset", StaffInvitation.user_id == staff.user_id,
        StaffInvitation.used_at.is_(None)))
    invitation, secret = _issue(tournament, user, purpose="reset", email=staff.user.email,
                                role=staff.role, account=staff.user)
    _audit(tournament, user, "staff.password_link", f"user:{staff.user_id}",
           after={"expires_at": invitation.expires_at.isoformat()})
    return invitation, secret


def pending_invitations(tournament: Tournament) -> list[StaffInvitation]:
    """Open invitations to join this tournament, newest first (expired ones included, so
    the director sees that a link lapsed)."""
    return list(db.session.scalars(
        select(StaffInvitation).where(StaffInvitation.tournament_id == tournament.id,
                                      StaffInvitation.purpose == "join",
                                      StaffInvitation.used_at.is_(None))
        .order_by(StaffInvitation.id.desc())))


def cancel_invitation(tournament: Tournament, user: User, invitation_id: int | None) -> None:
    invitation = db.session.get(StaffInvitation, invitation_id) if invitation_id else None
    if invitation is None or invitation.tournament_id != tournament.id \
            or invitation.used_at is not None:
        raise SetupError("That invitation is no longer open.")
    _audit(tournament, user, "staff.cancel_invitation", f"invitation:{invitation.id}",
           before={"email": invitation.email, "role": invitation.role})
    db.session.delete(invitation)


def staff_list(tournament: Tournament) -> list[TournamentStaff]:
    return list(db.session.scalars(
        select(TournamentStaff).where(TournamentStaff.tournament_id == tournament.id)
        .order_by(TournamentStaff.id)))


def remove_staff(tournament: Tournament, user: User, staff_id: int) -> None:
    staff = db.session.get(TournamentStaff, staff_id)
    if staff is None or staff.tournament_id != tournament.id:
        raise SetupError("That person does not work on this tournament.")
    if staff.user_id == user.id:
        raise SetupError("You cannot remove yourself.")
    if staff.role == "director" and sum(1 for s in staff_list(tournament)
                                        if s.role == "director") <= 1:
        raise SetupError("A tournament needs at least one director.")
    _audit(tournament, user, "staff.remove", f"user:{staff.user_id}",
           before={"email": staff.user.email, "role": staff.role})
    # Their open sessions end too: a phone they handed back (or lost) opens nothing more.
    staff.user.end_sessions()
    # A password link given out for this tournament dies with the role it was given for.
    db.session.execute(delete(StaffInvitation).where(
        StaffInvitation.tournament_id == tournament.id, StaffInvitation.purpose == "reset",
        StaffInvitation.user_id == staff.user_id, StaffInvitation.used_at.is_(None)))
    db.session.delete(staff)
