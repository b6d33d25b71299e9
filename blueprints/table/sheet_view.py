"""A table's sheet as its pages show it: who sits where and where they go next, every
game entered with its scores and the sentence that says who won, the totals, the initials
and what still stands between the table and submitting.

Read only: the writes are in blueprints.table.sheet_writes. Points are read as stored
(GameEntry keeps the EFFECTIVE points, see core.sheets); the score lines are recomputed
from the records under the tournament's RuleSet to show how each total came about."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from markupsafe import Markup, escape

from blueprints.common import points_text
from core.lookup import rules_of
from core.words import OUTCOME_LABELS, SEAT_NAMES, SEATS, SheetState, ruling_label, short_names
from models import (
    Round,
    Table,
    Tournament,
    User,
    db,
)
from tournament.rules import RuleSet, score_checker
from tournament.scoring import Game, InvalidGame, ScoreLine, round_lines

from .sheet_reads import (
    SeatedPlayer,
    _seated,
    _sheet_with_games,
)

# ---- the sheet as shown -----------------------------------------------------------------


# The live scores sit two to a row at 360 px, each on one line: the seat's letter (its word
# for a screen reader), then a name of at most this many letters ("Ruth A.", else the
# first name).
LIVE_NAME_LETTERS = 8


@dataclass
class GameRow:
    number: int
    outcome: str
    label: str
    points: dict[str, int]
    signer: str | None
    initials: str
    note: str
    record: dict[str, Any]
    seat_initials: dict[str, str] = field(default_factory=dict)
    sentence: str = ""
    ruled_at: Any = None  # a director amended it then: only a director changes it now
    ruling: str = ""  # her written reason for that change
    ruled_by: str = ""
    # its place on the sheet: the few pages that show a game's score lines ask its
    # SheetView (lines_of), which works them out for the round as a whole. A row keeps no
    # reference to its view: the two would be a cycle, each page's rows and view left for
    # the garbage collector.
    position: int = 0

    @property
    def ruled(self) -> bool:
        return self.ruled_at is not None

    @property
    def adjustments(self) -> list[dict[str, Any]]:
        """The director's rulings on this game: [{"seat", "points", "reason"}]."""
        return list(self.record.get("adjustments") or [])


def with_ruling_labels(lines: list[ScoreLine], adjustments: list[Any]) -> list[ScoreLine]:
    """tournament.scoring puts a game's adjustments last, one line each: word them as the
    table reads them (ruling_label)."""
    if not adjustments or len(lines) < len(adjustments):
        return lines
    head = lines[:len(lines) - len(adjustments)]
    tail = lines[len(lines) - len(adjustments):]
    return head + [replace(line, label=ruling_label(line.points, _reason(adj)))
                   for line, adj in zip(tail, adjustments, strict=True)]


def _reason(adjustment: Any) -> str:
    return adjustment["reason"] if isinstance(adjustment, dict) else adjustment.reason


@dataclass
class SheetView:
    """Everything a page shows about one table's sheet for one round."""

    tournament: Tournament
    table: Table
    round: Round
    rules: RuleSet
    sheet: Any  # the sheet's row (read only), None while the table has none
    seats: dict[str, SeatedPlayer]
    games: list[GameRow] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    signoffs: dict[str, str] = field(default_factory=dict)
    pending: list[dict[str, Any]] = field(default_factory=list)
    amended_by: str = ""
    verified_by: str = ""
    # the table's page and its panel (sheet_view's `panel`): they show the next tables
    panel: bool = False
    # next_tables' reading of the next round, when sheet_view read it with the seats
    next_seating: tuple[dict[int, int], int] | None = None

    @property
    def state(self) -> str:
        return self.sheet.state if self.sheet else SheetState.OPEN

    @property
    def version(self) -> int:
        return self.sheet.version if self.sheet else 1

    @property
    def games_per_round(self) -> int:
        return self.tournament.games_per_round

    @property
    def complete(self) -> bool:
        return len(self.games) >= self.games_per_round

    @property
    def next_game(self) -> int | None:
        return None if self.complete else len(self.games) + 1

    @property
    def is_open(self) -> bool:
        return self.state == SheetState.OPEN

    @property
    def on_paper(self) -> bool:
        """The director has this table score the round on paper (the front desk keys it)."""
        return bool(self.sheet and self.sheet.on_paper)

    @property
    def all_initialled(self) -> bool:
        return all(seat in self.signoffs for seat in self.seats)

    @property
    def initials_required(self) -> bool:
        return self.rules.round_signoff_all

    @property
    def every_player_initials_games(self) -> bool:
        """Each score of each game is initialled: by its player, or by the player across."""
        return self.rules.game_signoff in ("all", "across")

    @property
    def games_to_initial(self) -> list[tuple[int, list[str]]]:
        """(game, seats still to initial it) where every player initials each game."""
        if not self.every_player_initials_games:
            return []
        return [(row.number, [seat for seat in self.seats if seat not in row.seat_initials])
                for row in self.games if any(seat not in row.seat_initials
                                             for seat in self.seats)]

    @property
    def west_check_needed(self) -> bool:
        return self.rules.west_checks_sheet and not (self.sheet and self.sheet.west_checked_at)

    @property
    def can_submit(self) -> bool:
        return self.is_open and self.complete and (
            self.all_initialled or not self.initials_required) and not (
            self.games_to_initial or self.west_check_needed)

    @property
    def change_is_ruling(self) -> bool:
        """A director's change now is a ruling: the sheet is submitted and the rule set says
        no changes after submission."""
        return self.state != SheetState.OPEN and self.rules.changes_after_submit == "ruling"

    @property
    def amended_as_ruling(self) -> bool:
        """The last director's change came after submission under such a rule set."""
        sheet = self.sheet
        return bool(sheet and sheet.amended_at and sheet.submitted_at
                    and sheet.amended_at >= sheet.submitted_at
                    and self.rules.changes_after_submit == "ruling")

    @property
    def game_rulings(self) -> list[GameRow]:
        """The games a director changed with a written reason, each shown with its own
        (latest first): a later ruling on the sheet must not hide an earlier one."""
        ruled = [g for g in self.games if g.ruling and g.ruled_at is not None]
        return sorted(ruled, key=lambda g: g.ruled_at, reverse=True)

    def ruled_after_submission(self, game: GameRow) -> bool:
        sheet = self.sheet
        return bool(sheet and sheet.submitted_at and game.ruled_at >= sheet.submitted_at
                    and self.rules.changes_after_submit == "ruling")

    @property
    def round_voided(self) -> bool:
        return self.rules.time_called_zeroes == "round" and any(
            g.outcome == "time" for g in self.games)

    @property
    def time_called_in(self) -> int | None:
        """The first game entered as time called: no game after it was played."""
        return next((g.number for g in self.games if g.outcome == "time"), None)

    @cached_property
    def score_who(self) -> dict[str, Markup]:
        """{seat: the player as a score line names them}: "Ruth Abrams <span
        class="seat-key">East · player 12</span>" (table/_sheet.html), written once for
        all the game cards and the total rather than once a card."""
        return {seat: Markup(f'{escape(player.name)} <span class="seat-key">'
                             f'{SEAT_NAMES[seat]} · player {escape(player.number)}</span>')
                for seat, player in self.seats.items()}

    def score_rows(self, points: dict[str, int]) -> list[tuple[Markup, str]]:
        """(score_who, points as written) for each seated player, in seat order."""
        who = self.score_who
        return [(who[seat], points_text(points[seat])) for seat in self.seats]

    def live_rows(self, points: dict[str, int]) -> list[tuple[str, str, str, str]]:
        """(seat word, the name as it fits beside the points at 360 px, the whole name,
        points as written) for the live scores while a game is entered: the seat, then
        the first name and the family name's initial of a long name, never half a
        surname cut off."""
        shorts = short_names([player.name for player in self.seats.values()],
                             LIVE_NAME_LETTERS)
        return [(SEAT_NAMES[seat], short, player.name, points_text(points[seat]))
                for (seat, player), short in zip(self.seats.items(), shorts, strict=True)]

    @cached_property
    def total_rows(self) -> list[tuple[Markup, str]]:
        """score_rows of the round totals, each name followed by the initials its player
        signed the total with, if any."""
        signed = Markup(' <span class="signed">signed {}</span>')
        return [(who + signed.format(self.signoffs[seat]) if self.signoffs.get(seat)
                 else who, points) for (who, points), seat
                in zip(self.score_rows(self.totals), self.seats, strict=True)]

    @cached_property
    def score_lines(self) -> list[list[ScoreLine]]:
        """Each game's score lines (GameRow.lines): recomputed from the records under the
        rule set, for the round as a whole (time called can zero it all)."""
        records = [row.record for row in self.games]
        try:
            every = round_lines(self.rules, [Game.from_dict(record) for record in records])
        except InvalidGame:  # rules edited after play began: show the stored points alone
            return [[] for _ in records]
        return [with_ruling_labels(lines, record.get("adjustments") or [])
                for lines, record in zip(every, records, strict=True)]

    def lines_of(self, row: GameRow) -> list[ScoreLine]:
        """How game `row`'s points came about, one line a seat's score or ruling."""
        return self.score_lines[row.position]

    def detail(self, row: GameRow) -> str:
        return game_detail(row.record, self)

    def name(self, seat: str) -> str:
        player = self.seats.get(seat)
        return player.name if player else SEAT_NAMES[seat]

    def checker(self, seat: str) -> str | None:
        """The seat who initials `seat`'s score in each game (tournament.rules)."""
        return score_checker(self.rules, seat)

    def person(self, seat: str) -> str:
        """"Ruth Abrams (West)"."""
        return f"{self.name(seat)} ({SEAT_NAMES[seat]})"

    def game(self, number: int) -> GameRow | None:
        for row in self.games:
            if row.number == number:
                return row
        return None

    def adjustments_for(self, number: int | None) -> list[dict[str, Any]]:
        """The rulings that will be on game `number` once it is saved: those already on
        the entered game (a correction keeps them) and those waiting for it."""
        row = self.game(number) if number else None
        kept = row.adjustments if row is not None else []
        waiting = [{"seat": p["seat"], "points": p["points"], "reason": p["reason"]}
                   for p in self.pending if p.get("game") == number]
        return kept + waiting


def game_detail(record_: dict[str, Any], view: SheetView) -> str:
    """Who won and how, in a few words: "Bea Goldberg, self-picked"; "thrown by Ruth
    Abrams (South)" (the seat and the full name: first names repeat)."""
    if record_.get("outcome") != "mahjong" or not record_.get("winner"):
        dead = [view.person(seat) for seat in record_.get("dead", [])]
        return ("dead: " + ", ".join(dead)) if dead else ""
    how = ("joker exchange (Finesse), self-picked" if record_.get("joker_exchange") else
           "self-picked" if record_.get("self_picked") else
           "heavenly hand" if record_.get("heavenly") else
           f"thrown by {view.person(record_['discarder'])}"
           if record_.get("discarder") else "")
    return ", ".join(part for part in (view.name(record_["winner"]), how) if part)


def game_sentence(record_: dict[str, Any], view: SheetView) -> str:
    """Who won and how as a sentence for the sheet's game card, the winner named with the
    seat so the thrower's name is never read as the subject: "Bea Goldberg (South) won,
    thrown by Ruth Abrams (East)."; "Dead hands: Ruth Abrams (East)."."""
    if record_.get("outcome") != "mahjong" or not record_.get("winner"):
        dead = [view.person(seat) for seat in record_.get("dead", [])]
        return f"Dead hand{'s' if len(dead) > 1 else ''}: {', '.join(dead)}." if dead else ""
    how = (" by joker exchange (Finesse), self-picked" if record_.get("joker_exchange") else
           ", self-picked" if record_.get("self_picked") else
           " with a heavenly hand" if record_.get("heavenly") else
           f", thrown by {view.person(record_['discarder'])}"
           if record_.get("discarder") else "")
    return f"{view.person(record_['winner'])} won{how}."


def sheet_view(table: Table, round_: Round, *, panel: bool = False) -> SheetView:
    """The sheet as the pages show it; `panel`: as the table's page and its live panel
    show it, with where each player goes next (the next round's seating is read with the
    seats)."""
    tournament = table.tournament
    rules = rules_of(tournament)
    seats, signed, next_seating = _seated(
        round_, table, with_next=panel and round_.number < tournament.rounds)
    sheet, entries = _sheet_with_games(round_, table)
    view = SheetView(tournament=tournament, table=table, round=round_, rules=rules,
                     sheet=sheet, seats=seats, panel=panel, next_seating=next_seating)
    view.totals = dict.fromkeys(SEATS, 0)
    if sheet is None:
        return view
    for position, entry in enumerate(entries):
        record = entry.record
        view.games.append(GameRow(
            number=entry.number, outcome=record.get("outcome", ""),
            label=OUTCOME_LABELS.get(record.get("outcome"), ""), points=entry.points,
            signer=entry.signer, initials=entry.initials, note=entry.note,
            record=record, seat_initials=dict(entry.seat_initials or {}),
            sentence=game_sentence(record, view), position=position,
            ruled_at=entry.ruled_at, ruling=entry.ruling, ruled_by=entry.ruled_by,
        ))
        for seat in SEATS:
            view.totals[seat] += entry.points[seat]
    # each seat's initials, looked up by seat and game: their order does not matter
    view.signoffs = signed
    view.pending = list(sheet.pending_adjustments or [])
    if sheet.amended_by_id:
        user = db.session.get(User, sheet.amended_by_id)
        view.amended_by = user.name if user else "a director"
    if sheet.verified_by_id:
        user = db.session.get(User, sheet.verified_by_id)
        view.verified_by = user.name if user else "a table guide"
    return view
