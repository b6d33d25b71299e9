"""A tournament as its director sets it up: created from a rule set, its details
(dates, rounds, sessions, the mini tournament) and its rules, which are fixed once a score
is in."""

from __future__ import annotations

import secrets
import string
from dataclasses import replace
from datetime import date

from sqlalchemy import delete, exists, func, select, update

from core.lookup import movement_plan
from core.writes import write
from models import (
    Competition,
    GameEntry,
    Round,
    Scoresheet,
    Seating,
    Tournament,
    TournamentStaff,
    User,
    db,
    utcnow,
)
from tournament.rules import (
    BLANK,
    BLANK_KEY,
    PRESETS,
    RuleSet,
    rule_set_name,
)

from .common import (
    GAMES_FIXED,
    PLAYED,
    RULES_FIXED,
    WHOLE,
    RulesFixed,
    SetupError,
    audit,
    lock_tournament,
    mini_competition,
    plain_text,
    played_rounds,
)

CODE_ALPHABET = "".join(c for c in string.ascii_uppercase + string.digits if c not in "O0I1L")


def new_code() -> str:
    """A short public code, easy to type from a poster (no O/0, I/1/L)."""
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
        if not db.session.scalar(select(Tournament.id).where(Tournament.code == code)):
            return code


@write
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
    audit(tournament, director, "tournament.create", f"tournament:{tournament.id}",
          after={"name": name, "preset": preset, "rounds": rounds})
    return tournament


@write
def set_movement(tournament: Tournament, user: User, movement: str) -> None:
    """Choose the usual movement or the organiser's imported seating (a rule, so fixed
    once scores are in); the usual one is East stays again."""
    update_rules(tournament, user, {"movement": movement})
    if movement == "east_stays":
        tournament.movement = None


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
            raise SetupError("sessions",
                             f"“{part}” is not a round range. Write ranges like 1-4, 5-8.")
        first, last = int(bits[0]), int(bits[1])
        if first < 1 or last < first:
            raise SetupError("sessions",
                             f"“{part}”: a session runs from a round to the same or a later "
                             "round.")
        if last > rounds:
            raise SetupError("sessions",
                             f"“{part}”: this tournament has only {rounds} rounds.")
        for a, b in ranges:
            if first <= b and a <= last:
                raise SetupError("sessions", f"“{part}” overlaps the session {a}-{b}.")
        ranges.append((first, last))
    return sorted(ranges)


def sessions_text(tournament: Tournament) -> str:
    return ", ".join(f"{c.first_round}-{c.last_round}" for c in tournament.competitions
                     if c.kind == "session")


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
        raise SetupError("mini_first",
                         "The mini tournament runs from a round to the same or a later round.")
    if last > rounds:
        raise SetupError("mini_last",
                         f"The mini tournament cannot end after the last round ({rounds}).")


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


@write
def create_tournament_from_form(
    director: User, *, name: str, preset: str, rounds: int, starts_on: date | None,
    ends_on: date | None, venue: str, games_per_round: int | None, round_minutes: int | None,
    prize_places: int, sessions: str, mini: tuple[int, int] | None,
) -> Tournament:
    """create_tournament plus everything the director's form sets, checked first."""
    if preset not in PRESETS:
        raise SetupError("preset", "Choose one of the rule sets.")
    name = plain_text(name, "name", "The name")
    venue = plain_text(venue, "venue", "The venue")
    if starts_on and ends_on and ends_on < starts_on:
        raise SetupError("ends_on", "The last day cannot be before the first day.")
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


def _draw_from_the_seated_rounds(tournament: Tournament, rounds_before: int) -> None:
    """A fresh draw searches all its rounds together (tournament.movement.draw_rounds), so
    with another number of rounds its unseated rounds would come from another schedule
    than the seated ones. Once round 1 is seated (the players may have read where they
    go next): fewer rounds keep the schedule drawn for the longer day, its last rounds
    left out; more rounds than it was drawn for are drawn on from every seated round, as
    a movement changed after them is, so that they count the meetings of the rounds
    seated since it was chosen."""
    movement = movement_plan(tournament)
    if movement.kind != "draw" or tournament.rounds == rounds_before:
        return
    last_seated = db.session.scalar(
        select(func.max(Round.number)).join(Seating, Seating.round_id == Round.id)
        .where(Round.tournament_id == tournament.id))
    if not last_seated:
        return
    drawn_for = max(rounds_before, movement.drawn_for)
    if tournament.rounds <= drawn_for:
        tournament.movement = replace(movement, drawn_for=drawn_for).to_dict()
    elif last_seated > movement.from_round:
        tournament.movement = replace(movement, from_round=last_seated,
                                      drawn_for=0).to_dict()
    else:
        tournament.movement = replace(movement, drawn_for=0).to_dict()


@write
def update_tournament(
    tournament: Tournament, user: User, *, name: str, rounds: int, starts_on: date | None,
    ends_on: date | None, venue: str, games_per_round: int, round_minutes: int,
    prize_places: int, sessions: str, mini: tuple[int, int] | None,
) -> None:
    """Change the tournament's details. Games per round is a rule: fixed once a score is in.
    Rounds cannot drop below a played round (round_played); unplayed rounds beyond go."""
    if starts_on and ends_on and ends_on < starts_on:
        raise SetupError("ends_on", "The last day cannot be before the first day.")
    lock_tournament(tournament)  # the played rounds below include a game being saved
    played = played_rounds(tournament)
    last_played = max(played, default=0)
    if rounds < last_played:
        raise SetupError("rounds",
                         f"Round {last_played} {played[last_played]}, so the tournament "
                         f"needs at least {last_played} rounds.")
    games_changed = games_per_round != tournament.games_per_round
    if games_changed and scores_entered(tournament):
        raise RulesFixed("games_per_round", GAMES_FIXED)
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
    _draw_from_the_seated_rounds(tournament, before["rounds"])
    db.session.flush()
    after = tournament_summary(tournament)
    if after != before:
        audit(tournament, user, "tournament.update", f"tournament:{tournament.id}",
              before=before, after=after)


# Rule fields edited with the tournament's details rather than on the rules page.
DETAIL_RULES = ("games_per_round", "round_minutes", "mini_tournament", "sessions")


def write_unless_scored(tournament: Tournament, field: str | None, message: str,
                        **values) -> None:
    """Write `values` to the tournament's row only while none of its games is entered, as
    one conditional UPDATE (check and write in the same statement, so a score saved at the
    same moment cannot slip in between); RulesFixed(field, message) when a game is in.

    The row is locked first, in a statement of its own (lock_tournament): the UPDATE then
    begins after any save in progress has committed, and sees its game."""
    db.session.flush()
    lock_tournament(tournament)
    scored = exists(
        select(GameEntry.id).join(Scoresheet, Scoresheet.id == GameEntry.sheet_id)
        .join(Round, Round.id == Scoresheet.round_id)
        .where(Round.tournament_id == tournament.id))
    result = db.session.execute(
        update(Tournament).where(Tournament.id == tournament.id, ~scored).values(**values)
        .execution_options(synchronize_session=False))
    if result.rowcount != 1:
        raise RulesFixed(field, message)
    db.session.expire(tournament, list(values))


@write
def update_rules(tournament: Tournament, user: User, changes: dict) -> RuleSet:
    """Apply edited rule values; InvalidRules (naming the field) when they make no sense,
    SetupError once scores are in. Nothing changes unless the whole set is valid."""
    if scores_entered(tournament):
        raise RulesFixed(None, RULES_FIXED)
    before = dict(tournament.rules)
    rules = RuleSet.from_dict({**before, **changes})
    after = rules.to_dict()
    if after != before:
        write_unless_scored(tournament, None, RULES_FIXED, rules=after)
        audit(tournament, user, "rules.update", f"tournament:{tournament.id}",
              before={k: before[k] for k in after if before.get(k) != after[k]},
              after={k: after[k] for k in after if before.get(k) != after[k]})
    return rules


@write
def save_rules(tournament: Tournament, user: User, changes: dict, *, name: str,
               start: str | None = None) -> RuleSet:
    """The rules page saved: her edited values under her own name (empty: the name of the
    rule set she started from), on the tournament's rules or, with `start` "blank", on a
    blank rule set (the tournament's details kept). The rules then count as checked.
    Nothing changes unless the whole set is valid."""
    if start not in (None, BLANK_KEY):
        raise SetupError("start", "Choose one of the rule sets.")
    if start == BLANK_KEY:
        if scores_entered(tournament):
            raise RulesFixed(None, RULES_FIXED)
        base = BLANK.to_dict()
        for detail in DETAIL_RULES:
            base[detail] = tournament.rules[detail]
        changes = {**base, **changes}
        tournament.preset = BLANK_KEY
    key = changes.get("key", tournament.rules["key"])
    if name.strip():
        changes["name"] = changes["short_name"] = rule_set_name(name)
    elif key == BLANK_KEY:
        rule_set_name(name)  # refused: a blank set has no name to fall back on
    elif (start_from := PRESETS.get(key) or PRESETS.get(tournament.preset)) is not None:
        changes["name"], changes["short_name"] = start_from.name, start_from.short_name
    rules = update_rules(tournament, user, changes)
    tournament.rules_checked_at = utcnow()
    db.session.flush()
    return rules


@write
def apply_preset(tournament: Tournament, user: User, preset: str) -> None:
    """Start the rules again from a preset (details like rounds and sessions are kept)."""
    if scores_entered(tournament):
        raise RulesFixed("preset", RULES_FIXED)
    if preset not in PRESETS:
        raise SetupError("preset", "Choose one of the rule sets.")
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
                        rules=RuleSet.from_dict(rules).to_dict(), rules_checked_at=None)
    audit(tournament, user, "rules.preset", f"tournament:{tournament.id}", before=before,
          after={"preset": preset, "rules": tournament.rules})
