"""The field: players added and edited one by one, substitutes, the mini tournament
entry, and a player who leaves (a substitute takes their seat)."""

from __future__ import annotations

from sqlalchemy import func, select

from core.lookup import rules_of
from core.rounds import seated
from core.words import repeated_name
from core.writes import write
from models import (
    CompetitionEntry,
    Player,
    Round,
    Substitution,
    Tournament,
    User,
    db,
)

from .common import (
    SetupError,
    audit,
    initial_seating_ids,
    lock_tournament,
    mini_competition,
    plain_text,
    played_rounds,
    player_count,
    players_changed,
)


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


def _taken_message(tournament: Tournament, number: int) -> str:
    """Why a number is taken: a player who left keeps hers, and comes back with it."""
    owner = db.session.scalar(select(Player).where(Player.tournament_id == tournament.id,
                                                   Player.number == number))
    if owner is not None and owner.withdrawn_from_round is not None:
        return (f"Number {number} is {owner.name}'s, who left from round "
                f"{owner.withdrawn_from_round}. If she is back, tap her name on the Check-in "
                "page to bring them back: she keeps her entry, her number and her games.")
    return f"Number {number} already belongs to another player."


def next_player_number(tournament: Tournament) -> int:
    return (db.session.scalar(select(func.max(Player.number))
                              .where(Player.tournament_id == tournament.id)) or 0) + 1


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
        raise SetupError("mini_override", closed)
    audit(tournament, user, "mini.override", f"player:{player.id}",
          before={"mini": not entered}, after={"mini": entered}, reason=reason)


@write
def add_player(tournament: Tournament, user: User, *, number: int | None, name: str,
               is_substitute: bool = False, mini: bool = False,
               mini_override: str = "") -> Player:
    name = plain_text(name, "name", "The name")
    if not name:
        raise SetupError("name", "Please enter the player's name.")
    number = number or next_player_number(tournament)
    if number < 1:
        raise SetupError("number", "The number must be 1 or more.")
    if _number_taken(tournament, number):
        raise SetupError("number", _taken_message(tournament, number))
    player = Player(number=number, name=name, is_substitute=is_substitute)
    tournament.players.append(player)
    db.session.flush()
    if mini:
        _mini_override(tournament, user, player, True, mini_override)
        _enter_mini(tournament, player)
    players_changed(tournament)
    audit(tournament, user, "player.add", f"player:{player.id}",
          after=player_snapshot(player) | {"mini": mini})
    return player


def _enter_mini(tournament: Tournament, player: Player) -> None:
    comp = mini_competition(tournament)
    if comp is None:
        raise SetupError("mini",
                         "This tournament has no mini tournament; add it on the tournament's "
                         "details page first.")
    if not any(e.player_id == player.id for e in comp.entries):
        comp.entries.append(CompetitionEntry(player_id=player.id))


def in_mini(tournament: Tournament) -> set[int]:
    comp = mini_competition(tournament)
    return {e.player_id for e in comp.entries} if comp else set()


@write
def edit_player(tournament: Tournament, user: User, player: Player, *, number: int, name: str,
                mini: bool | None = None, mini_override: str = "") -> None:
    name = plain_text(name, "name", "The name")
    if not name:
        raise SetupError("name", "Please enter the player's name.")
    if number < 1:
        raise SetupError("number", "The number must be 1 or more.")
    if _number_taken(tournament, number, except_id=player.id):
        raise SetupError("number", f"Number {number} already belongs to another player.")
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
        players_changed(tournament)
        audit(tournament, user, "player.edit", f"player:{player.id}", before=before,
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


@write
def add_substitutes(tournament: Tournament, user: User, names: list[str]) -> list[Player]:
    """Add house players (they play, they are never ranked), numbered after the last."""
    added = []
    taken = [player.name for player in tournament.players]
    unnamed = 0
    for name in names:
        if not name.strip():
            # "Substitute 1" again, when a first batch has one, is two people of one name
            unnamed += 1
            while repeated_name([f"Substitute {unnamed}"], taken):
                unnamed += 1
            name = f"Substitute {unnamed}"
        taken.append(name)
        added.append(add_player(tournament, user, number=None, name=name.strip(),
                                is_substitute=True))
    return added


@write
def withdraw_player(tournament: Tournament, user: User, player: Player, *,
                    from_round: int, substitute: Player | None = None,
                    new_substitute_name: str = "") -> Substitution | None:
    """A player leaves from `from_round` on. Before round 1 is seated they simply leave
    the field. Once seated, a substitute takes their seat in every round from `from_round`,
    which must come after every played round (round_played): rounds already made are
    updated, later rounds follow via ensure_round.
    The player keeps the games they played; their later games score for the substitute."""
    if player.withdrawn_from_round is not None:
        raise SetupError(None, f"{player.name} has already left (from round "
                               f"{player.withdrawn_from_round}).")
    before = player_snapshot(player)
    if not seated(tournament):
        player.withdrawn_from_round = 1
        players_changed(tournament)
        audit(tournament, user, "player.withdraw", f"player:{player.id}", before=before,
              after=player_snapshot(player))
        return None
    if not 1 <= from_round <= tournament.rounds:
        raise SetupError("from_round",
                         f"Choose a round from 1 to {tournament.rounds}.")
    lock_tournament(tournament)  # a round whose first game is being saved is played
    played = played_rounds(tournament)
    late = [number for number in played if number >= from_round]
    if late:
        # The leaver keeps every played round (and its points): the substitute can only
        # take over after the last of them.
        number = max(late)
        after = (f"the substitute can take over from round {number + 1}"
                 if number < tournament.rounds else "there is no later round to take over")
        raise SetupError("from_round",
                         f"Round {number} {played[number]}, so it keeps its players; "
                         f"{after}.")
    if substitute is None:
        name = plain_text(new_substitute_name, "new_substitute", "The name")
        if not name:
            raise SetupError("substitute", "Choose a substitute, or type a new substitute's name.")
        if repeated_name([name], [p.name for p in tournament.players]):
            raise SetupError("new_substitute", f"{name} is already a name on the list: choose "
                             "that substitute above, or add a last initial or a number.")
        substitute = add_player(tournament, user, number=None, name=name, is_substitute=True)
    else:
        if substitute.id == player.id or substitute.tournament_id != tournament.id:
            raise SetupError("substitute",
                             "Choose another player as the substitute.")
        if substitute.id in set(initial_seating_ids(tournament)) or \
                substitute.withdrawn_from_round is not None or \
                db.session.scalar(select(Substitution.id).where(
                    Substitution.substitute_id == substitute.id)) is not None:
            raise SetupError("substitute",
                             f"{substitute.name} already has a seat; choose a free "
                             "substitute.")
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
    players_changed(tournament)
    audit(tournament, user, "player.substitute", f"player:{player.id}", before=before,
          after=player_snapshot(player) | {"substitute": substitute.number,
                                           "substitute_name": substitute.name,
                                           "from_round": from_round,
                                           "rounds_updated": changed})
    return sub


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
