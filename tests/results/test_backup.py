"""The JSON backup: export, import into an empty database, export again: identical.
Through the service, the CLI command and the director's upload."""

from __future__ import annotations

import io
import json
from datetime import timedelta

import pytest

from blueprints.results import backup, standings, tiebreaks
from models import (
    Announcement,
    AuditEvent,
    CallClaim,
    Competition,
    CompetitionEntry,
    DirectorCall,
    Player,
    RoundSignoff,
    Substitution,
    Tiebreak,
    Tournament,
    TournamentStaff,
    User,
    db,
    record,
    utcnow,
)
from tests.conftest import make_tournament, make_user, sign_in
from tests.results.conftest import WALL, add_sheet, win


def rich_tournament(director):
    """A tournament touching every table a backup carries."""
    tournament = make_tournament(director, players=8, rounds=3, code="RICH26")
    tournament.public_url = "http://192.168.1.10:8000"
    tournament.movement = {"kind": "moves", "pattern": "mahjcon",
                           "moves": {"E": 0, "S": -1, "W": -2, "N": 1}, "seed": 0,
                           "from_round": 2}
    guide = make_user("gus@example.com", "Gus Guide")
    tournament.staff.append(TournamentStaff(user=guide, role="table-guide"))
    sub = Player(number=50, name="House Sub", is_substitute=True)
    tournament.players.append(sub)
    db.session.flush()
    leaver = tournament.players[1]
    leaver.withdrawn_from_round = 3
    db.session.add(Substitution(tournament_id=tournament.id, player_id=leaver.id,
                                substitute_id=sub.id, from_round=3))
    mini = Competition(tournament_id=tournament.id, kind="mini", name="Mini", first_round=2,
                       last_round=3, entrants_only=True)
    mini.entries = [CompetitionEntry(player_id=tournament.players[0].id)]
    db.session.add(mini)
    db.session.commit()
    sheet = add_sheet(tournament, 1, 1, [win("E", jokerless=True), win("S", discarder="W"),
                                         WALL])
    sheet.signoffs.append(RoundSignoff(seat="E", initials="AB"))
    sheet.pending_adjustments = [{"game": 4, "seat": "N", "points": -10, "reason": "peek"}]
    add_sheet(tournament, 1, 2, [win("N")], state="open")
    add_sheet(tournament, 2, 1, [win("E")])
    add_sheet(tournament, 3, 2, [win("W")], state="verified")
    rnd = sheet.round
    rnd.started_at = utcnow() - timedelta(hours=1)
    rnd.ended_at = utcnow()
    call = DirectorCall(tournament_id=tournament.id, table_id=sheet.table_id, round_id=rnd.id,
                        reason="ruling", note="dead hand?", state="resolved",
                        ruling="Hand is dead", resolved_at=utcnow(), resolved_by_id=director.id)
    call.claims.append(CallClaim(user_id=guide.id, released_at=utcnow()))
    call.claims.append(CallClaim(user_id=director.id))
    db.session.add(call)
    db.session.add(Announcement(tournament_id=tournament.id, text="Lunch at noon",
                                created_by_id=director.id))
    db.session.flush()
    record("call.resolve", tournament_id=tournament.id, subject=f"call:{call.id}",
           before={"state": "open"}, after={"state": "resolved"}, actor="Ann",
           actor_user_id=director.id)
    record("sheet.amend", tournament_id=tournament.id, subject=f"sheet:{sheet.id}",
           reason="typo", actor="Ann", actor_user_id=director.id)
    record("odd.subject", tournament_id=tournament.id, subject="something:else")
    db.session.commit()
    tournament.prize_places = 2
    db.session.commit()
    lines = standings.board(tournament).main.lines
    tied = [line.player.id for line in lines if line.rank == lines[1].rank]
    if len(tied) > 1:
        tiebreaks.decide_tie(tournament, "main", tied, tied, director, "bag draw")
    mini_key = standings.competition_key(mini)
    db.session.add(Tiebreak(tournament_id=tournament.id, competition_key=mini_key,
                                    player_ids=[tournament.players[0].id], note="odd"))
    db.session.commit()
    return tournament


def wipe():
    """Empty every table, as a fresh hosted site would be."""
    db.session.rollback()
    for table in reversed(db.metadata.sorted_tables):
        db.session.execute(table.delete())
    db.session.commit()


def as_text(data):
    return json.dumps(data, sort_keys=True, indent=1)


def without_tokens(data):
    """The document but for what goes with the printed links: each table's token and the
    address the cards carry."""
    return {**data, "tables": [{**t, "token": None} for t in data["tables"]],
            "tournament": {**data["tournament"], "public_url": None}}


ACCOUNT_KEYS = {"actor_user", "verified_by", "amended_by", "resolved_by", "created_by",
                "recorded_by"}


def without_accounts(data):
    """The document with every reference to an account taken out: an import credits no
    row to an account of the site it lands on."""
    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items()
                    if k not in ACCOUNT_KEYS and k != "claims"}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value
    return strip({k: v for k, v in data.items() if k not in ("users", "staff")})


def account_references(data):
    found = []

    def walk(value):
        if isinstance(value, dict):
            for key, item in value.items():
                if key in ACCOUNT_KEYS and item is not None:
                    found.append((key, item))
                if key == "claims" and item:
                    found.append((key, item))
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
    walk({k: v for k, v in data.items() if k not in ("users", "staff")})
    return found


def test_export_import_export_is_identical_but_for_accounts(director):
    tournament = rich_tournament(director)
    first = backup.export_tournament(tournament)
    assert len(first["sheets"]) == 4 and len(first["calls"][0]["claims"]) == 2
    assert any(a["subject"].startswith("call#") for a in first["audit"])
    assert all("password" not in json.dumps(u) for u in first["users"])
    assert account_references(first)
    wipe()
    importer = make_user()                                   # the same director's account
    make_user("gus@example.com", "Gus Guide")                # the guide has an account here
    result = backup.import_tournament(json.loads(as_text(first)), importer, keep_tokens=True)
    assert result.not_staff == ["gus@example.com"] and not result.fresh_tokens
    second = backup.export_tournament(db.session.get(Tournament, result.tournament.id))
    assert as_text(without_accounts(second)) == as_text(without_accounts(first))
    assert account_references(second) == []
    assert second["staff"] == [{"email": "ann@example.com", "role": "director"}]


def test_the_movement_travels_and_an_old_backup_keeps_east_stays(director):
    first = backup.export_tournament(rich_tournament(director))
    assert first["tournament"]["movement"]["pattern"] == "mahjcon"
    wipe()
    importer = make_user()
    result = backup.import_tournament(json.loads(as_text(first)), importer)
    assert result.tournament.movement["moves"] == {"E": 0, "S": -1, "W": -2, "N": 1}
    assert result.tournament.movement["from_round"] == 2
    wipe()
    importer = make_user()
    del first["tournament"]["movement"]               # a backup made before movements
    result = backup.import_tournament(json.loads(as_text(first)), importer)
    assert result.tournament.movement is None


def test_import_issues_fresh_table_tokens_by_default(director):
    tournament = rich_tournament(director)
    first = backup.export_tournament(tournament)
    old = {t["token"] for t in first["tables"]}
    wipe()
    importer = make_user()
    make_user("gus@example.com", "Gus Guide")
    result = backup.import_tournament(first, importer)
    assert result.fresh_tokens
    second = backup.export_tournament(db.session.get(Tournament, result.tournament.id))
    new = [t["token"] for t in second["tables"]]
    assert not old & set(new) and all(len(token) >= 22 for token in new)
    # The cards are printed again from this site: its own default address, not the file's.
    assert second["tournament"]["public_url"] is None
    assert as_text(without_accounts(without_tokens(second))) == \
        as_text(without_accounts(without_tokens(first)))


@pytest.mark.parametrize("token", ["short", "x" * 21, "bad token with spaces!!!", None,
                                   "é" * 22, "a" * 65])
def test_keeping_tokens_refuses_tokens_that_are_not_ours(director, token):
    data = backup.export_tournament(rich_tournament(director))
    wipe()
    importer = make_user()
    data["tables"][0]["token"] = token
    with pytest.raises(backup.BackupError, match="does not look like a MahjTable table link"):
        backup.import_tournament(data, importer, keep_tokens=True)
    assert db.session.query(Tournament).count() == 0


def test_keeping_the_links_keeps_the_address_the_cards_carry(director):
    data = backup.export_tournament(rich_tournament(director))
    assert data["tournament"]["public_url"] == "http://192.168.1.10:8000"
    wipe()
    result = backup.import_tournament(data, make_user(), keep_tokens=True)
    assert result.tournament.public_url == "http://192.168.1.10:8000"


@pytest.mark.parametrize("address, words", [
    ("http://127.0.0.1:8000", "this computer itself"),
    ("ftp://192.168.1.10", "Give an address like"),
    ("http://10.0.0.1\x00", "cannot be shown"),
    (12, "some text of at most 200 characters"),
])
def test_keeping_the_links_refuses_an_address_phones_cannot_open(director, address, words):
    data = backup.export_tournament(rich_tournament(director))
    wipe()
    importer = make_user()
    data["tournament"]["public_url"] = address
    with pytest.raises(backup.BackupError, match=words):
        backup.import_tournament(data, importer, keep_tokens=True)
    assert db.session.query(Tournament).count() == 0
    # without the links, the file's address is not used at all
    assert backup.import_tournament(data, importer).tournament.public_url is None


def test_import_never_creates_accounts_and_lists_staff_without_one(director):
    data = backup.export_tournament(rich_tournament(director))
    data["staff"].append({"email": "Mallory@Example.com", "role": "co-director"})
    wipe()
    importer = make_user()
    result = backup.import_tournament(data, importer)
    assert db.session.query(User).count() == 1               # nobody created
    assert result.not_staff == ["gus@example.com", "mallory@example.com"]
    roles = {s.user.email: s.role for s in result.tournament.staff}
    assert roles == {"ann@example.com": "director"}
    # claims on the call named accounts: none is credited to an account here
    call = db.session.query(DirectorCall).one()
    assert call.claims == []
    # a real director adding that email later creates a fresh account, not the attacker's
    assert db.session.query(User).filter_by(email="mallory@example.com").first() is None


@pytest.mark.parametrize("role", ["owner", "Director", "", None])
def test_import_refuses_unknown_roles(director, role):
    data = backup.export_tournament(rich_tournament(director))
    wipe()
    importer = make_user()
    make_user("gus@example.com", "Gus Guide")
    data["staff"][1]["role"] = role
    with pytest.raises(backup.BackupError, match="a role is one of director, co-director"):
        backup.import_tournament(data, importer)
    assert db.session.query(Tournament).count() == 0


def test_imported_standings_and_audit_subjects_point_at_the_new_rows(director):
    tournament = rich_tournament(director)
    before = [(line.rank, line.player.number, line.total)
              for line in standings.board(tournament).main.lines]
    data = backup.export_tournament(tournament)
    wipe()
    imported = backup.import_tournament(data, make_user()).tournament
    after = [(line.rank, line.player.number, line.total)
             for line in standings.board(imported).main.lines]
    assert after == before
    call = db.session.query(DirectorCall).one()
    resolved = db.session.query(AuditEvent).filter_by(action="call.resolve").one()
    assert resolved.subject == f"call:{call.id}"
    assert db.session.query(AuditEvent).filter_by(action="backup.import").one().tournament_id \
        is None


def test_import_next_to_other_tournaments_and_refuses_a_second_copy(director):
    tournament = rich_tournament(director)
    data = backup.export_tournament(tournament)
    code = tournament.code
    tournament.code = "OLD001"
    for table in tournament.tables:
        table.token = table.token + "x"
    db.session.commit()
    other = make_user("zed@example.com", "Zed")
    result = backup.import_tournament(data, other, keep_tokens=True)
    imported = result.tournament
    assert imported.code == code
    assert result.not_staff == ["ann@example.com", "gus@example.com"]
    # Ann and Gus have accounts here, but only the importer is staff until they accept.
    roles = {s.user.email: s.role for s in imported.staff}
    assert roles == {"zed@example.com": "director"}
    count = db.session.query(Tournament).count()
    with pytest.raises(backup.BackupError, match="already on this site"):
        backup.import_tournament(data, other)
    data["tournament"]["code"] = "NEW001"                   # a new code, the same links kept
    with pytest.raises(backup.BackupError, match="links are already in use"):
        backup.import_tournament(data, other, keep_tokens=True)
    assert db.session.query(Tournament).count() == count


@pytest.mark.parametrize("data, message", [
    ({"format": "other"}, "not a MahjTable backup"),
    ({"format": "mahjtable-backup", "version": 99}, "version 99"),
    ({"format": "mahjtable-backup", "version": 1, "tournament": {"code": "X"}},
     "no valid “tables” section"),
    ({"format": "mahjtable-backup", "version": 1, "tournament": {"code": "X"}, "tables": [],
      "staff": [], "users": [{"email": "new@example.com", "name": "New"}]},
     "no valid “players” section"),
])
def test_bad_backups_are_refused_and_change_nothing(director, data, message):
    with pytest.raises(backup.BackupError, match=message):
        backup.import_tournament(data, director)
    assert db.session.query(Tournament).count() == 0
    assert db.session.query(User).count() == 1


def test_cli_import_backup(app, director, tmp_path):
    data = backup.export_tournament(rich_tournament(director))
    path = tmp_path / "backup.json"
    path.write_text(as_text(data))
    wipe()
    make_user()
    runner = app.test_cli_runner()
    result = runner.invoke(args=["import-backup", str(path), "--director", "ann@example.com"])
    assert result.exit_code == 0, result.output
    assert "Imported Test Open (code RICH26)" in result.output
    assert "print the table cards again" in result.output
    assert "not imported as staff: gus@example.com; invite them from Staff" in result.output
    assert "password" not in result.output
    assert db.session.query(User).count() == 1
    again = runner.invoke(args=["import-backup", str(path), "--director", "ann@example.com"])
    assert again.exit_code != 0 and "already on this site" in again.output
    nobody = runner.invoke(args=["import-backup", str(path), "--director", "no@example.com"])
    assert nobody.exit_code != 0 and "No account" in nobody.output


def test_cli_keep_tokens_keeps_the_printed_links(app, director, tmp_path):
    data = backup.export_tournament(rich_tournament(director))
    path = tmp_path / "backup.json"
    path.write_text(as_text(data))
    wipe()
    make_user()
    result = app.test_cli_runner().invoke(
        args=["import-backup", str(path), "--director", "ann@example.com", "--keep-tokens"])
    assert result.exit_code == 0, result.output
    assert "keep their links" in result.output
    tournament = db.session.query(Tournament).one()
    assert sorted(t.token for t in tournament.tables) == \
        sorted(t["token"] for t in data["tables"])


def test_download_then_upload_through_the_pages(app, client, director):
    tournament = rich_tournament(director)
    response = client.get(f"/results/director/{tournament.id}/backup.json")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"].endswith('RICH26-backup.json"')
    body = response.get_data()
    old_tokens = {t["token"] for t in json.loads(body)["tables"]}
    wipe()
    make_user(may_create_tournaments=True)   # as create-director makes one
    sign_in(client)
    page = client.post("/results/import", data={"backup": (io.BytesIO(body), "b.json")},
                       content_type="multipart/form-data")
    text = page.get_data(as_text=True)
    assert page.status_code == 200, text
    assert "Imported Test Open" in text
    assert "Print the table cards again" in text
    assert "Not imported as staff" in text and "gus@example.com" in text
    imported = db.session.query(Tournament).filter_by(code="RICH26").one()
    assert not old_tokens & {t.token for t in imported.tables}
    bad = client.post("/results/import", data={"backup": (io.BytesIO(b"nope"), "b.json")},
                      content_type="multipart/form-data")
    assert bad.status_code == 422 and "not a MahjTable backup" in bad.get_data(as_text=True)


@pytest.mark.parametrize("role", [None, "table-guide", "co-director"])
def test_only_a_director_may_import_through_the_page(app, client, director, role):
    data = backup.export_tournament(rich_tournament(director))
    data["tournament"]["code"] = "OTHER1"
    wipe()
    make_user()
    stranger = make_user("eve@example.com", "Eve")
    if role:
        other = make_tournament(make_user("dir@example.com", "Dee"), players=4, code="DEE026")
        other.staff.append(TournamentStaff(user=stranger, role=role))
        db.session.commit()
    sign_in(client, "eve@example.com")
    assert client.get("/results/import").status_code == 403
    page = client.post("/results/import",
                       data={"backup": (io.BytesIO(as_text(data).encode()), "b.json")},
                       content_type="multipart/form-data")
    assert page.status_code == 403
    assert "may not create tournaments or import backups" in page.get_data(as_text=True)
    assert db.session.query(Tournament).filter_by(code="OTHER1").count() == 0


def test_a_backup_missing_a_required_value_is_refused(director):
    data = backup.export_tournament(rich_tournament(director))
    wipe()
    importer = make_user()
    data["players"][0]["name"] = None
    with pytest.raises(backup.BackupError, match="A player's name in this backup must be"):
        backup.import_tournament(data, importer)
    assert db.session.query(Tournament).count() == 0
