"""What every part of the director's setup shares: its refusal, its audit row, and what
it asks of a tournament before changing it (is a round played, is round 1 seated).

Every write of the setup is a core.writes unit: its rows and its audit row(s) commit
together, or nothing does."""

from __future__ import annotations

import re

from sqlalchemy import exists, func, or_, select, update

from core.access import staff_role
from core.errors import Refused
from core.rounds import initial_seating
from core.words import staff_actor, unshowable
from models import Competition, GameEntry, Player, Round, Scoresheet, Tournament, User, db, record

WHOLE = re.compile(r"[0-9]{1,9}")

RULES_FIXED = ("Scores have been entered, so the rules are fixed: changing a number now "
               "would change games already played.")
GAMES_FIXED = ("Scores have been entered, so the number of games per round can no longer "
               "change.")


class SetupError(Refused):
    """A director's request that cannot be done: at `field` (None: the whole form), the
    message says why in plain words."""


class RulesFixed(SetupError):
    """The rules (or games per round) cannot change: a game has been entered."""


def audit(tournament: Tournament, user: User | None, action: str, subject: str = "",
          before=None, after=None, reason: str = "") -> None:
    """The audit row of a setup change, in the change's unit; the actor is the user in
    their role on this tournament."""
    role = staff_role(tournament, user) if user is not None else None
    record(action, tournament_id=tournament.id, subject=subject, before=before, after=after,
          reason=reason, actor=staff_actor(user, role),
           actor_user_id=user.id if user else None)


def players_changed(tournament: Tournament) -> None:
    """Count a change to the players (one added, renamed, renumbered, withdrawn or
    replaced) in the tournament's players_version, in the change's unit: the live parts
    that show names (the standings, the big screen's leaders, a table's panel) fingerprint
    it, so a corrected name reaches their next poll. Counted in SQL: two directors' changes at once
    are two counts, not one."""
    db.session.execute(update(Tournament).where(Tournament.id == tournament.id)
                       .values(players_version=Tournament.players_version + 1)
                       .execution_options(synchronize_session=False))


def plain_text(value: str, field: str, what: str = "This") -> str:
    """The text trimmed; SetupError when it holds control characters (a NUL byte from a
    pasted spreadsheet, say), which nobody means to type and PostgreSQL refuses."""
    value = (value or "").strip()
    if unshowable(value):
        raise SetupError(field,
                         f"{what} has characters in it that cannot be shown; please retype "
                         "it.")
    return value


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


def lock_tournament(tournament: Tournament) -> None:
    """Lock the tournament's row FOR UPDATE until this write commits, before a setup
    change checks that nothing is played or scored. A game's save holds the row FOR SHARE
    from its first statement to its commit (blueprints.table.sheet_writes.save_game), so
    this waits for any save in progress, and the checks after it see its game. Without
    it, on PostgreSQL, a check or a guarded UPDATE or DELETE begun before that save
    committed reads a snapshot without its game, waits for the save, then goes ahead: new
    rules over a scored game, or a redraw whose delete of the unplayed rounds takes the
    round's first game with it. (SQLite lets one writer in at a time: nothing to wait for.)"""
    db.session.execute(select(Tournament.id).where(Tournament.id == tournament.id)
                       .with_for_update())


def played_refusal(tournament: Tournament, action: str, field: str) -> None:
    """SetupError naming the first played round when any round is played (a redraw or a
    swap changes round 1 and so every later round). It locks the tournament first
    (lock_tournament): a game being saved counts."""
    lock_tournament(tournament)
    played = played_rounds(tournament)
    if played:
        number = min(played)
        raise SetupError(field, f"Round {number} {played[number]}, so {action}.")


def player_count(tournament: Tournament) -> int:
    return db.session.scalar(
        select(func.count()).select_from(Player).where(Player.tournament_id == tournament.id,
                                                       Player.withdrawn_from_round.is_(None))
    )


def ranked_players(tournament: Tournament) -> list[Player]:
    """Players still in the field who are ranked: substitutes play but are never ranked."""
    return [p for p in tournament.players
            if p.withdrawn_from_round is None and not p.is_substitute]


def mini_competition(tournament: Tournament) -> Competition | None:
    return next((c for c in tournament.competitions if c.kind == "mini"), None)


def initial_seating_ids(tournament: Tournament) -> list[int]:
    return [pid for seats in initial_seating(tournament).values() for pid in seats.values()]
