"""A backup brings nothing the pages would refuse: every value goes through the checks of
the forms and of tournament/, game points are scored again, no account of this site is
made staff or credited with a row, and a hostile file gets a plain refusal (never a 500),
with nothing imported."""

from __future__ import annotations

import io
import json

import pytest

from blueprints.results import backup
from models import (
    AuditEvent,
    DirectorCall,
    GameEntry,
    Scoresheet,
    Tournament,
    TournamentStaff,
    User,
    db,
)
from tests.conftest import make_tournament, make_user, sign_in
from tests.results.test_backup import as_text, rich_tournament, wipe

BIG = 2**63 + 5


@pytest.fixture
def exported(director):
    data = backup.export_tournament(rich_tournament(director))
    wipe()
    return data


def refused(data, importer, match):
    with pytest.raises(backup.BackupError, match=match):
        backup.import_tournament(data, importer)
    assert db.session.query(Tournament).count() == 0


def put(data, path, value):
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


@pytest.mark.parametrize("path, value, match", [
    # bounds of the tournament form (and a guard against a billion rounds pinning workers)
    (("tournament", "rounds"), 1_000_000_000, "number of rounds"),
    (("tournament", "rounds"), 0, "number of rounds"),
    (("tournament", "rounds"), True, "number of rounds"),
    (("tournament", "games_per_round"), 21, "Games per round"),
    (("tournament", "round_minutes"), 100_000, "Minutes per round"),
    (("tournament", "prize_places"), -1, "Prize places"),
    (("tournament", "seating_seed"), BIG, "draw number"),
    (("tournament", "movement"), {"kind": "swiss"}, "movement"),
    (("tournament", "movement"), {"moves": {"E": 1}}, "movement"),
    (("tournament", "name"), "x" * 121, "tournament name"),
    (("tournament", "name"), "Spring\x00Open", "tournament name"),
    (("tournament", "venue"), "Hall\r\nSet-Cookie: x", "venue"),
    (("tournament", "preset"), "house", "rule set"),
    # codes the forms never make: lower case, quotes, line breaks (Content-Disposition)
    (("tournament", "code"), "demo26", "tournament code"),
    (("tournament", "code"), 'AB"CD', "tournament code"),
    (("tournament", "code"), "ABCD\r\nX", "tournament code"),
    (("tournament", "code"), "ABC", "tournament code"),
    # the rules go through RuleSet
    (("tournament", "rules"), {}, "rules"),
    (("tournament", "rules", "self_pick_bonus"), -10, "Self-pick bonus cannot be negative"),
    (("tournament", "rules", "self_pick_bonus"), BIG, "Self-pick bonus"),
    (("tournament", "rules", "thrower_penalty"), [0, 0, -10, -25, 5], "Thrower penalty"),
    # every number within its column and its form
    (("players", 0, "number"), BIG, "player number"),
    (("players", 0, "number"), 0, "player number"),
    (("players", 0, "name"), "Ann\x00Lee", "player's name"),
    (("players", 0, "withdrawn_from_round"), 99, "withdrawal round"),
    (("tables", 0, "number"), BIG, "table number"),
    (("rounds", 0, "number"), 4, "round number"),
    (("rounds", 0, "duration_seconds"), BIG, "round's length"),
    (("rounds", 0, "paused_seconds"), -1, "paused time"),
    (("sheets", 0, "version"), BIG, "sheet's version"),
    (("sheets", 0, "state"), "locked", "sheet's state"),
    (("sheets", 0, "games", 0, "note"), "ok\x00", "game's note"),
    (("sheets", 0, "games", 0, "initials"), "TOOLONGXX", "game's initials"),
    (("sheets", 0, "games", 0, "number"), 9, "game number"),
    (("sheets", 0, "pending_adjustments", 0, "points"), BIG, "adjustment"),
    (("calls", 0, "note"), "help\x00", "call's note"),
    (("calls", 0, "reason"), "bribe", "call's reason"),
    (("calls", 0, "version"), BIG, "call's version"),
    (("announcements", 0, "text"), "x" * 281, "announcement"),
    (("audit", 0, "after"), {"n": BIG}, "too large"),
    (("audit", 0, "at"), "yesterday", "audit time"),
    (("audit", 0, "at"), "2026-05-14T10:00:00", "time zone"),
    (("tiebreaks", 0, "competition"), "competition#99", "names no competition"),
])
def test_each_value_is_checked_as_the_forms_check_it(exported, path, value, match):
    put(exported, path, value)
    refused(exported, make_user(), match)


@pytest.mark.parametrize("record, match", [
    ({"outcome": "mahjong", "winner": "E", "value": 7}, "value"),
    ({"outcome": "mahjong", "winner": "E", "value": 25, "discarder": "E"},
     "rules or games are not valid"),
    ({"outcome": "bribe"}, "rules or games are not valid"),
    ("not a record", "not valid|damaged"),
])
def test_game_records_go_through_game_parsing(exported, record, match):
    exported["sheets"][0]["games"][0]["record"] = record
    refused(exported, make_user(), match)


def test_game_points_are_scored_again_never_taken_from_the_file(exported):
    expected = [[g["points"] for g in s["games"]] for s in exported["sheets"]]
    for sheet in exported["sheets"]:
        for game in sheet["games"]:
            game["points"] = {"E": 1_000_000, "S": -5, "W": 0, "N": BIG}
            game["signer"] = "E"
    result = backup.import_tournament(exported, make_user())
    again = backup.export_tournament(result.tournament)
    assert [[g["points"] for g in s["games"]] for s in again["sheets"]] == expected
    assert all(g["signer"] != "E" or g["record"].get("winner") == "E"
               for s in again["sheets"] for g in s["games"])


def test_staff_in_the_file_are_never_attached_even_with_an_account_here(exported):
    """A file naming another director's account as co-director gets them no role and
    credits them with nothing: they must accept an invitation from Staff."""
    importer = make_user()
    victim = make_user("victim@example.com", "Vic Tim", "victim password")
    exported["staff"].append({"email": "victim@example.com", "role": "director"})
    exported["audit"][0]["actor_user"] = "victim@example.com"
    exported["calls"][0]["resolved_by"] = "victim@example.com"
    exported["calls"][0]["claims"] = [{"user": "victim@example.com", "claimed_at": None,
                                       "released_at": None}]
    exported["sheets"][0]["verified_by"] = "victim@example.com"
    result = backup.import_tournament(exported, importer)
    staff = db.session.query(TournamentStaff).filter_by(
        tournament_id=result.tournament.id).all()
    assert [(s.user_id, s.role) for s in staff] == [(importer.id, "director")]
    assert "victim@example.com" in result.not_staff
    rows = db.session.query(AuditEvent).filter_by(tournament_id=result.tournament.id).all()
    assert rows and all(row.actor_user_id is None for row in rows)
    assert exported["audit"][0]["actor"] in {row.actor for row in rows}   # the words stay
    call = db.session.query(DirectorCall).one()
    assert call.resolved_by_id is None and call.claims == []
    assert all(s.verified_by_id is None for s in db.session.query(Scoresheet))
    assert victim.id not in {g.sheet.verified_by_id for g in db.session.query(GameEntry)}


def test_a_deeply_nested_or_huge_backup_is_refused_through_the_page(app, client, director):
    make_tournament(director, players=4, code="HOME26")
    count = db.session.query(Tournament).count()
    for body in (b"[" * 100_000 + b"]" * 100_000,
                 b'{"format": "mahjtable-backup", "version": ' + str(BIG).encode() + b"}",
                 b'{"format": "mahjtable-backup", "version": 1, "tournament": NaN}'):
        page = client.post("/results/import", data={"backup": (io.BytesIO(body), "b.json")},
                           content_type="multipart/form-data")
        assert page.status_code == 422, body[:60]
    assert db.session.query(Tournament).count() == count


def test_a_whole_hostile_backup_through_the_page_changes_nothing(app, client, exported):
    make_tournament(make_user(may_create_tournaments=True), players=4, code="HOME26")
    sign_in(client)
    exported["tournament"]["rounds"] = 1_000_000_000
    page = client.post("/results/import",
                       data={"backup": (io.BytesIO(as_text(exported).encode()), "b.json")},
                       content_type="multipart/form-data")
    assert page.status_code == 422
    assert "number of rounds" in page.get_data(as_text=True)
    assert db.session.query(Tournament).count() == 1
    assert db.session.query(User).count() == 1


def test_cli_refuses_a_deeply_nested_file(app, director, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    result = app.test_cli_runner().invoke(
        args=["import-backup", str(path), "--director", "ann@example.com"])
    assert result.exit_code != 0 and "not a MahjTable backup" in result.output


def test_a_clean_backup_still_imports(exported):
    result = backup.import_tournament(json.loads(as_text(exported)), make_user())
    assert result.tournament.rounds == 3


STARTED = "2026-05-14T10:00:00+00:00"
LATER = "2026-05-14T10:30:00+00:00"


@pytest.mark.parametrize("clock, match", [
    # tournament/clock.py: "a round that has not started cannot be paused or ended"
    ({"started_at": None, "ended_at": LATER}, "ended or paused but never started"),
    ({"started_at": None, "paused_at": LATER, "ended_at": None},
     "ended or paused but never started"),
    ({"started_at": None, "ended_at": None, "paused_seconds": 60},
     "ended or paused but never started"),
    # "an ended round cannot also be paused"
    ({"started_at": STARTED, "paused_at": LATER, "ended_at": LATER}, "both ended and paused"),
    ({"started_at": LATER, "ended_at": STARTED}, "ends before it starts"),
    ({"started_at": LATER, "paused_at": STARTED, "ended_at": None}, "paused before it starts"),
])
def test_a_round_clock_the_clock_could_never_be_in_is_refused(exported, clock, match):
    exported["rounds"][0].update(clock)
    refused(exported, make_user(), match)


@pytest.mark.parametrize("seating, match", [
    ({"2": {"x": {"E": 1, "S": 2, "W": 3, "N": 4}}}, "table"),
    ({"2": {"1.5": {"E": 1, "S": 2, "W": 3, "N": 4}}}, "table"),
    ({"2": {"0": {"E": 1, "S": 2, "W": 3, "N": 4}}}, "table"),
    ({"round two": {"1": {"E": 1, "S": 2, "W": 3, "N": 4}}}, "round"),
    ({"9": {"1": {"E": 1, "S": 2, "W": 3, "N": 4}}}, "round"),
    ({"2": {"1": {"Q": 1, "S": 2, "W": 3, "N": 4}}}, "seat"),
    ({"2": {"1": {"E": 999, "S": 2, "W": 3, "N": 4}}}, "player"),
    ({"2": {"1": {"E": True, "S": 2, "W": 3, "N": 4}}}, "player"),
    ({"2": {"1": ["E", 1]}}, "seating"),
    (["E", 1], "seating"),
])
def test_an_imported_seating_of_the_wrong_shape_is_refused(exported, seating, match):
    exported["tournament"]["imported_seating"] = seating
    refused(exported, make_user(), match)


def test_a_good_imported_seating_comes_back(exported):
    seating = {"2": {"1": {"E": 1, "S": 2, "W": 3, "N": 4},
                     "2": {"E": 5, "S": 6, "W": 7, "N": 8}}}
    exported["tournament"]["imported_seating"] = seating
    result = backup.import_tournament(exported, make_user())
    assert backup.export_tournament(result.tournament)["tournament"]["imported_seating"] \
        == seating
