"""The audit trail of one tournament as a page: every row, newest first, each placed at
its table, round and player where it has one, filtered by who, what, table, round and
player. Read-only; the rows are written by each write's `record()` call.

Rows name their subject by database id ("sheet:12", "call:3", "round:5"); a few small
queries turn those into the table, round and player numbers people use."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from models import AuditEvent, DirectorCall, Player, Round, Scoresheet, Seating, Table, db

# What a row is about, from the first part of its action, in words.
KINDS = {
    "clock": "Round clock", "round": "Rounds and sign-offs", "call": "Director calls",
    "sheet": "Score sheets", "game": "Games", "player": "Players", "seating": "Seating",
    "rules": "Rules", "tournament": "Tournament details", "staff": "Staff",
    "table": "Table links", "announcement": "Announcements", "results": "Results and prizes",
}
SHOWN = 500  # rows on one page; the filters narrow it


@dataclass(frozen=True)
class AuditLine:
    event: AuditEvent
    table: int | None
    round: int | None
    players: frozenset[int]     # numbers of the players the row concerns
    changes: list[tuple[str, str, str]]   # (what, before, after) for the values that differ

    @property
    def kind(self) -> str:
        prefix = self.event.action.split(".")[0]
        return KINDS.get(prefix, prefix.capitalize())


@dataclass(frozen=True)
class AuditFilter:
    who: str = ""
    kind: str = ""
    table: int | None = None
    round: int | None = None
    player: int | None = None

    @property
    def active(self) -> bool:
        return bool(self.who or self.kind or self.table or self.round or self.player)

    def keeps(self, line: AuditLine) -> bool:
        if self.who and self.who.lower() not in line.event.actor.lower():
            return False
        if self.kind and line.event.action.split(".")[0] != self.kind:
            return False
        if self.table is not None and line.table != self.table:
            return False
        if self.round is not None and line.round != self.round:
            return False
        return self.player is None or self.player in line.players


def _text(value: Any) -> str:
    if value is None or value == "":
        return "-"
    if isinstance(value, dict):
        return ", ".join(f"{key}: {_text(item)}" for key, item in value.items())
    if isinstance(value, list):
        return "; ".join(_text(item) for item in value)
    return str(value)


def changes(before: Any, after: Any) -> list[tuple[str, str, str]]:
    """The values that differ, as (what, before, after); a dict's unchanged keys are left
    out so a clock action reads "state: running -> paused", not twelve fields."""
    if isinstance(before, dict) or isinstance(after, dict):
        before, after = before or {}, after or {}
        if not isinstance(before, dict) or not isinstance(after, dict):
            return [("", _text(before), _text(after))]
        keys = list(before) + [key for key in after if key not in before]
        pairs = [(key.replace("_", " "), _text(before.get(key)), _text(after.get(key)))
                 for key in keys]
        return [pair for pair in pairs if pair[1] != pair[2]]
    if before is None and after is None:
        return []
    return [("", _text(before), _text(after))]


def trail(tournament_id: int, wanted: AuditFilter) -> tuple[list[AuditLine], int]:
    """The matching rows, newest first (at most SHOWN), and how many matched in all."""
    tables = dict(db.session.execute(
        select(Table.id, Table.number).where(Table.tournament_id == tournament_id)).all())
    rounds = dict(db.session.execute(
        select(Round.id, Round.number).where(Round.tournament_id == tournament_id)).all())
    players = dict(db.session.execute(
        select(Player.id, Player.number).where(Player.tournament_id == tournament_id)).all())
    sheets = {sid: (table_id, round_id) for sid, table_id, round_id in db.session.execute(
        select(Scoresheet.id, Scoresheet.table_id, Scoresheet.round_id)
        .where(Scoresheet.round_id.in_(rounds or [0])))}
    calls = {cid: (table_id, round_id) for cid, table_id, round_id in db.session.execute(
        select(DirectorCall.id, DirectorCall.table_id, DirectorCall.round_id)
        .where(DirectorCall.tournament_id == tournament_id))}
    seated: dict[tuple[int, int], set[int]] = {}
    for round_id, table_id, player_id in db.session.execute(
            select(Seating.round_id, Seating.table_id, Seating.player_id)
            .where(Seating.round_id.in_(rounds or [0]))):
        seated.setdefault((round_id, table_id), set()).add(players.get(player_id))

    def place(event: AuditEvent) -> tuple[int | None, int | None, frozenset[int]]:
        kind, _, raw = (event.subject or "").partition(":")
        ident = int(raw) if raw.isdigit() else None
        table_id = round_id = None
        who: set[int] = set()
        if kind == "sheet" and ident in sheets:
            table_id, round_id = sheets[ident]
        elif kind == "call" and ident in calls:
            table_id, round_id = calls[ident]
        elif kind == "table":
            table_id = ident
        elif kind == "round":
            round_id = ident
        elif kind == "player" and ident in players:
            who.add(players[ident])
        if table_id is not None and round_id is not None:
            who |= seated.get((round_id, table_id), set())
        table_no = tables.get(table_id)
        round_no = rounds.get(round_id)
        # Rows about a round or table (clock, seating) carry its number in their values.
        for values in (event.after, event.before):
            if isinstance(values, dict):
                if round_no is None and isinstance(values.get("round"), int):
                    round_no = values["round"]
                if table_no is None and isinstance(values.get("table"), int):
                    table_no = values["table"]
        return table_no, round_no, frozenset(n for n in who if n is not None)

    events = db.session.scalars(
        select(AuditEvent).where(AuditEvent.tournament_id == tournament_id)
        .order_by(AuditEvent.at.desc(), AuditEvent.id.desc()))
    kept: list[AuditLine] = []
    matched = 0
    for event in events:
        table_no, round_no, who = place(event)
        line = AuditLine(event, table_no, round_no, who, changes(event.before, event.after))
        if wanted.keeps(line):
            matched += 1
            if len(kept) < SHOWN:
                kept.append(line)
    return kept, matched


def kinds_in(tournament_id: int) -> list[tuple[str, str]]:
    """(prefix, words) for the kinds of row this tournament has, for the filter."""
    actions = db.session.scalars(select(AuditEvent.action).distinct()
                                 .where(AuditEvent.tournament_id == tournament_id))
    prefixes = sorted({action.split(".")[0] for action in actions})
    return [(prefix, KINDS.get(prefix, prefix.capitalize())) for prefix in prefixes]
