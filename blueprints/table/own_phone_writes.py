"""A player's own phone at the table: "this is me" (which seat this phone is, kept in
the phone's own session cookie for this table and round, and marked on the sheet so East's
phone knows to wait for it), and the confirmation of a game the player signs, from their
own phone or on East's; and East's answers so far for the game East is entering, kept
for those phones to show (store_draft).

The phone's seat gives it no more trust than a tap on East's phone: anyone holding the
table's link may tap any name there too. It only chooses what the phone shows and what
the audit row says ("on their own phone"). Nothing is kept in a worker's memory: the
choice is the phone's cookie, the mark a column of the sheet."""

from __future__ import annotations

from typing import NamedTuple

from flask import session
from sqlalchemy import select, update
from sqlalchemy.orm import aliased

from blueprints.common import points_text
from core.sheets import draft_live, ensure_sheet, subject_of
from core.words import SEAT_NAMES, SEATS, SheetState, table_actor
from core.writes import write
from models import Player, Round, Scoresheet, Seating, Table, db, record, utcnow

from .sheet_reads import seats_of
from .sheet_writes import (
    SheetError,
    begin_write,
    player_initials,
    sheet_and_key,
    sheet_write,
)

# The session's key: [table id, round number, seat] of the one seat this phone is.
AT_TABLE = "at_table"
ON_OWN_PHONE = "on their own phone"
ON_EAST_PHONE = "on East's phone"


def my_seat(table: Table, round_no: int) -> str | None:
    """The seat this phone said it is at this table in this round, or None."""
    mine = session.get(AT_TABLE)
    if (isinstance(mine, list) and len(mine) == 3 and mine[0] == table.id
            and mine[1] == round_no and mine[2] in SEATS):
        return mine[2]
    return None


class MovedOn(NamedTuple):
    """The player this phone was at this table in an earlier round, and their seat now."""

    name: str
    number: int
    round_no: int          # the round they are seated for now
    table: int | None      # None: not seated in it (withdrawn, or sitting it out)
    seat: str | None


def moved_on(table: Table, round_: Round) -> MovedOn | None:
    """Where this phone's player sits in `round_`, when the phone said "this is me" at
    this table in an earlier round: the table's link now shows the next players, and
    she needs to know where she went. None when the phone never said so here."""
    mine = session.get(AT_TABLE)
    if not (isinstance(mine, list) and len(mine) == 3 and mine[0] == table.id
            and isinstance(mine[1], int) and mine[1] < round_.number and mine[2] in SEATS):
        return None
    then, then_round = aliased(Seating), aliased(Round)
    now, now_table = aliased(Seating), aliased(Table)
    row = db.session.execute(
        select(Player.name, Player.number, now_table.number, now.seat)
        .select_from(then)
        .join(then_round, (then_round.id == then.round_id)
              & (then_round.tournament_id == table.tournament_id)
              & (then_round.number == mine[1]))
        .join(Player, Player.id == then.player_id)
        .outerjoin(now, (now.player_id == Player.id) & (now.round_id == round_.id))
        .outerjoin(now_table, now_table.id == now.table_id)
        .where(then.table_id == table.id, then.seat == mine[2])).first()
    if row is None:
        return None
    name, number, table_no, seat = row
    return MovedOn(name, number, round_.number, table_no, seat)


def phone_column(seat: str):
    return getattr(Scoresheet, f"phone_{seat.lower()}")


def own_phones(sheet) -> set[str]:
    """The seats whose player said "this is me" on their own phone (a sheet row)."""
    if sheet is None:
        return set()
    return {seat for seat in SEATS if getattr(sheet, f"phone_{seat.lower()}", False)}


@write(retry=True)
def claim_seat(table: Table, round_: Round, seat: str) -> None:
    """This phone is `seat`'s: kept in the session, marked on the sheet. One column a
    seat, set without reading it first: four phones claiming at once each write theirs.
    The sheet's version is not bumped: nothing East entered changed, and a bump would
    make East's open entry stale."""
    if seat not in SEATS or seat not in seats_of(round_, table):
        raise SheetError("seat", "Choose your own name.")
    previous = my_seat(table, round_.number)
    sheet = ensure_sheet(round_, table)
    values = {phone_column(seat).key: True}
    if previous and previous != seat:
        values[phone_column(previous).key] = False
    db.session.execute(update(Scoresheet).where(Scoresheet.id == sheet.id).values(**values)
                       .execution_options(synchronize_session=False))
    record("seat.own_phone", tournament_id=table.tournament_id, subject=subject_of(sheet),
           before={"seat": previous}, after={"seat": seat},
           actor=f"{table_actor(table.number, seat)}, {ON_OWN_PHONE}")
    session[AT_TABLE] = [table.id, round_.number, seat]


@write(retry=True)
def release_seat(table: Table, round_: Round) -> None:
    """"Not me": this phone is nobody's at this table again."""
    seat = my_seat(table, round_.number)
    session.pop(AT_TABLE, None)
    if seat is None:
        return
    sheet = ensure_sheet(round_, table)
    db.session.execute(update(Scoresheet).where(Scoresheet.id == sheet.id)
                       .values(**{phone_column(seat).key: False})
                       .execution_options(synchronize_session=False))
    record("seat.own_phone", tournament_id=table.tournament_id, subject=subject_of(sheet),
           before={"seat": seat}, after={"seat": None},
           actor=f"{table_actor(table.number, seat)}, {ON_OWN_PHONE}")


@write
def store_draft(table: Table, round_: Round, sheet, draft: dict) -> None:
    """Keep East's answers so far for game draft["game"] (blueprints.table.drafts) on the
    sheet (its row as the preview read it), for the players' own phones to show.

    Nothing is written when no seat has its own phone, or when the same answers are
    still shown. Neither the sheet's version (East's own entry would turn stale) nor its
    updated_at (the standings and the big screen compare it) moves: only the draft and
    when it was stored, which the table page's poll compares. Never over a game saved
    meanwhile: a preview answered after the save of its game keeps nothing."""
    if sheet is None or not own_phones(sheet):
        return
    if getattr(sheet, "draft", None) == draft and draft_live(
            getattr(sheet, "draft_at", None), utcnow()):
        return
    db.session.execute(
        update(Scoresheet)
        .where(Scoresheet.id == sheet.id, Scoresheet.state == SheetState.OPEN,
               Scoresheet.on_paper.is_(False), Scoresheet.games_count < draft["game"])
        .values(draft=draft, draft_at=utcnow(), updated_at=Scoresheet.updated_at)
        .execution_options(synchronize_session=False))


@sheet_write
def confirm_game(table: Table, round_: Round, number: int, seat: str, *,
                 shown_points: int | None, version: int | None, key: str | None,
                 own_phone: bool) -> Scoresheet:
    """The signer of game `number` confirms its scores (East saved it to be confirmed on
    the signer's own phone): their initials, from their name, go beside the game.

    The first confirmation wins: a second one (the other phone, or East's) is told it was
    given already, and changes nothing. Like the round's initials, a confirmation still
    applies when the sheet changed since the button was shown (East entering the next
    game meanwhile) if the points it confirms still stand."""
    if seat not in SEATS:
        raise SheetError("seat", "Choose your seat.")
    sheet, key = sheet_and_key(round_, table, key, "confirm-game", number, seat, games=True,
                               content=[shown_points])
    entry = next((e for e in sheet.games if e.number == number), None)
    if entry is None:
        raise SheetError("confirm", f"Game {number} is not entered yet.", status=409)
    if entry.initials:
        raise SheetError("confirm", f"Game {number} is already confirmed ({entry.initials}). "
                         "Nothing more to do.", status=409)
    if entry.signer != seat:
        raise SheetError("confirm", f"Game {number} was changed: "
                         f"{SEAT_NAMES.get(entry.signer or '', 'nobody')} signs it now.",
                         status=409)
    if version != sheet.version:
        if shown_points is None or entry.points[seat] != shown_points:
            raise SheetError("confirm", f"Game {number} was changed meanwhile: your points "
                             f"are now {points_text(entry.points[seat]) or 'X'}. Check "
                             "them, then confirm again.", status=409)
        # the bump below still fails if anything changes the sheet from here on
        version = sheet.version
    sheet = begin_write(sheet, version, key, confirmation=True)
    initials = player_initials(seats_of(round_, table).get(seat), seat)
    entry.initials = initials
    where = ON_OWN_PHONE if own_phone else ON_EAST_PHONE
    record("game.confirm", tournament_id=table.tournament_id, subject=subject_of(sheet),
           before={"game": number, "initials": ""},
           after={"game": number, "initials": initials, "points": entry.points[seat],
                  "where": where},
           actor=f"{table_actor(table.number, seat)}, {where}")
    return sheet
