"""A backup whose round seats tables with a gap in their numbers (1-6 and 8 for 7
tables): refused at import in plain words; and a seating stored that way is read safely
by the schedule and the itineraries (no 500)."""

from __future__ import annotations

import pytest

from blueprints.results import backup
from models import Seating, Table, Tournament, db, new_token
from tests.conftest import make_tournament, make_user
from tests.results.test_backup import wipe


@pytest.fixture
def gap_backup(director):
    data = backup.export_tournament(make_tournament(director, players=28, rounds=3))
    wipe()
    data["tables"].append({"number": 8, "token": new_token(), "token_rotated_at": None})
    for seat in data["rounds"][0]["seats"]:
        if seat["table"] == 7:
            seat["table"] = 8
    return data


def test_a_round_with_a_gap_in_its_tables_is_refused_at_import(gap_backup):
    with pytest.raises(backup.BackupError, match="table 7") as refused:
        backup.import_tournament(gap_backup, make_user())
    assert "Round 1" in str(refused.value)
    assert db.session.query(Tournament).count() == 0


def test_a_seat_at_a_table_the_backup_does_not_list_is_refused(director):
    data = backup.export_tournament(make_tournament(director, players=8, rounds=2))
    wipe()
    data["rounds"][0]["seats"][0]["table"] = 9
    with pytest.raises(backup.BackupError, match="table 9"):
        backup.import_tournament(data, make_user())
    assert db.session.query(Tournament).count() == 0


def test_a_stored_seating_with_a_gap_is_read_safely(client, director):
    tournament = make_tournament(director, players=28, rounds=3)
    eight = Table(tournament_id=tournament.id, number=8, token=new_token())
    db.session.add(eight)
    db.session.flush()
    seventh = next(t for t in tournament.tables if t.number == 7)
    for row in db.session.scalars(db.select(Seating).where(Seating.table_id == seventh.id)):
        row.table_id = eight.id
    db.session.commit()
    for page in ("schedule", "itineraries"):
        response = client.get(f"/director/t/{tournament.id}/{page}")
        assert response.status_code == 200, page
