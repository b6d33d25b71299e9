"""Fixtures for the results tests: sheets seeded directly (scored with the tournament's
own rules), so these tests do not go through the table's score entry."""

from __future__ import annotations

import pytest

from core.rounds import ensure_round
from models import GameEntry, Scoresheet, Table, db, utcnow
from tournament.rules import RuleSet
from tournament.scoring import Game, score_game, signer


def win(winner, value=25, discarder=None, **extra):
    record = {"outcome": "mahjong", "winner": winner, "value": value, **extra}
    if discarder:
        record["discarder"] = discarder
        record.setdefault("exposures", 2)
    else:
        record["self_picked"] = True
    return record


WALL = {"outcome": "wall"}


def add_sheet(tournament, round_no, table_no, records, state="submitted"):
    """A sheet for (round, table) with these game records, scored under the tournament's
    rules; the round (and its seats) is made when missing."""

    rnd = ensure_round(tournament, round_no)
    table = db.session.query(Table).filter_by(tournament_id=tournament.id,
                                              number=table_no).one()
    rules = RuleSet.from_dict(tournament.rules)
    sheet = Scoresheet(round_id=rnd.id, table_id=table.id, state=state,
                       submitted_at=utcnow() if state != "open" else None)
    for number, record in enumerate(records, start=1):
        game = Game.from_dict(record, rules)
        entry = GameEntry(number=number, record=game.to_dict(), signer=signer(rules, game))
        entry.points = score_game(rules, game)
        sheet.games.append(entry)
    db.session.add(sheet)
    db.session.commit()
    return sheet


@pytest.fixture
def seed():
    return add_sheet
