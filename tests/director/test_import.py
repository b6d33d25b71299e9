"""Importing players from a CSV: a preview naming every row's problem before anything is
saved, and one transaction for the whole file (600 rows)."""

from __future__ import annotations

import io

import pytest
from sqlalchemy import func, select

from models import AuditEvent, CompetitionEntry, Player, db
from tests.conftest import make_tournament


@pytest.fixture
def empty(director):
    return make_tournament(director, players=0, seated=False, preset="destination", rounds=12)


def upload(client, tournament, content: bytes, confirm=False):
    data = {"file": (io.BytesIO(content), "players.csv")}
    if confirm:
        data = {"text": content.decode("utf-8-sig"), "confirm": "yes"}
    return client.post(f"/director/t/{tournament.id}/players/import", data=data,
                       content_type="multipart/form-data")


def count_players(tournament):
    return db.session.scalar(select(func.count()).select_from(Player)
                             .where(Player.tournament_id == tournament.id))


def test_preview_lists_every_problem_and_saves_nothing(client, empty):
    make_tournament  # noqa: B018 (the fixture made the tournament)
    empty.players.append(Player(number=99, name="Already Here"))
    db.session.commit()
    csv = ("number,name\n"
           "1,Ruth Abrams\n"
           "2,\n"                 # empty name
           "x7,Carol Chen\n"      # not a number
           "1,Dolores Ortiz\n"    # duplicate within the file
           "99,Edith Klein\n"     # duplicate with an existing player
           ",Fran Weiss\n")       # missing number
    response = upload(client, empty, csv.encode())
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert "The name is empty." in body
    assert "“x7” is not a player number" in body
    assert "Number 1 is also on line 2 of the file." in body
    assert "Number 99 already belongs to Already Here." in body
    assert "The number is missing." in body
    assert "5 rows need fixing. Nothing was saved." in body
    assert "Save all" not in body
    assert count_players(empty) == 1


def test_a_file_that_is_not_utf8_gets_one_clear_message(client, empty):
    response = upload(client, empty, "1,José Núñez\n2,Zoë Ångström\n".encode("latin-1"))
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert body.count("not saved as UTF-8") == 1
    assert 'id="file-error"' in body
    assert count_players(empty) == 0


def test_utf8_with_bom_and_no_header(client, empty):
    response = upload(client, empty, "\ufeff1,José Núñez\n2,Zoë Ångström\n".encode())
    assert response.status_code == 200
    assert "Save all 2 players" in response.get_data(as_text=True)
    assert count_players(empty) == 0  # a preview saves nothing


def test_confirm_saves_600_rows_in_one_transaction_with_mini_entries(client, empty):
    db.session.commit()
    empty.competitions  # noqa: B018
    from blueprints.director.tournaments import _set_competitions

    _set_competitions(empty, [], (10, 12))
    db.session.commit()
    lines = ["number,name,mini,club"] + [
        f"{n},Player {n},{'yes' if n % 3 == 0 else 'no'},Club" for n in range(1, 601)]
    content = "\n".join(lines).encode()
    preview = upload(client, empty, content)
    assert preview.status_code == 200
    assert "Save all 600 players" in preview.get_data(as_text=True)
    assert "Columns not used: club" in preview.get_data(as_text=True)
    commits = []
    from sqlalchemy import event

    def count(conn):
        commits.append(conn)
    event.listen(db.engine, "commit", count)
    try:
        response = upload(client, empty, content, confirm=True)
    finally:
        event.remove(db.engine, "commit", count)
    assert response.status_code == 302
    assert count_players(empty) == 600
    assert db.session.scalar(select(func.count()).select_from(CompetitionEntry)) == 200
    events = list(db.session.scalars(select(AuditEvent).where(
        AuditEvent.action == "player.import")))
    assert len(events) == 1 and events[0].after["players"] == 600
    # One transaction for the whole file (and its audit row).
    assert len(commits) == 1, len(commits)


def test_confirm_rechecks_and_saves_nothing_if_a_row_went_bad(client, empty):
    content = b"1,Ann\n2,Bea\n"
    empty.players.append(Player(number=2, name="Got There First"))
    db.session.commit()
    response = upload(client, empty, content, confirm=True)
    assert response.status_code == 422
    assert count_players(empty) == 1


def test_mini_column_without_a_mini_tournament_is_a_row_problem(client, director):
    tournament = make_tournament(director, players=0, seated=False)
    response = upload(client, tournament, b"number,name,mini\n1,Ann,yes\n2,Bea,maybe\n")
    body = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "has no mini tournament" in body
    assert "Mini: write yes or no, not “maybe”." in body


def test_substitute_column_makes_house_players(client, empty):
    response = upload(client, empty, b"number,name,substitute\n1,Ann,no\n2,Hal House,yes\n",
                      confirm=True)
    assert response.status_code == 302
    subs = [p.name for p in db.session.scalars(select(Player).where(Player.is_substitute))]
    assert subs == ["Hal House"]


def test_empty_upload_is_refused_at_the_field(client, empty):
    response = client.post(f"/director/t/{empty.id}/players/import", data={"text": ""})
    assert response.status_code == 422
    assert "Choose a CSV file" in response.get_data(as_text=True)


def test_header_without_name_column(client, empty):
    response = upload(client, empty, b"number,player\n1,Ann\n")
    assert response.status_code == 422
    assert "needs both" in response.get_data(as_text=True)


# --- files saved with semicolons or tabs between the columns -------------------------------

@pytest.mark.parametrize("content", [
    "number;name;mini\n1;Ann Lee;no\n2;Bea, Jr;no\n3;Cy Park;no\n",   # European Excel
    "1;Ann Lee\n2;Bea, Jr\n3;Cy Park\n",
    "number\tname\n1\tAnn Lee\n2\tBea, Jr\n3\tCy Park\n",           # pasted from a sheet
    "1,Ann Lee\n2,\"Bea, Jr\"\n3,Cy Park\n",
])
def test_the_separator_is_read_from_the_file(client, director, content):
    tournament = make_tournament(director, players=0, seated=False, preset="destination",
                                 rounds=12)
    preview = client.post(f"/director/t/{tournament.id}/players/import",
                          data={"file": (io.BytesIO(content.encode()), "players.csv")},
                          content_type="multipart/form-data")
    assert preview.status_code == 200, preview.get_data(as_text=True)
    assert "Every row is fine" in preview.get_data(as_text=True)
    response = upload(client, tournament, content.encode(), confirm=True)
    assert response.status_code == 302
    names = db.session.scalars(select(Player.name).where(Player.tournament_id == tournament.id)
                               .order_by(Player.number)).all()
    assert names == ["Ann Lee", "Bea, Jr", "Cy Park"]


def test_a_row_with_another_separator_is_named_plainly(client, empty):
    # Mostly semicolons, one comma line: no single separator, so commas are assumed
    response = upload(client, empty, b"1;Ann\n2;Bea\n3,Cy\n")
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert "is not a player number" not in body
    assert "semicolon" in body
    assert count_players(empty) == 0


def test_a_tab_separated_row_in_a_comma_file_is_named_plainly(client, empty):
    response = upload(client, empty, b"1,Ann\n2\tBea\n")
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert "“2\tBea” is not a player number" not in body
    assert "tab" in body


def paste(client, tournament, text: str):
    return client.post(f"/director/t/{tournament.id}/players/import", data={"text": text})


@pytest.mark.parametrize("content", [
    b"1,Ann Lee\r2,Bea Ross\r3,Cy Young\r",          # old Mac and some exports: CR alone
    b"number,name\r1,Ann Lee\r2,Bea Ross\r3,Cy Young",
    b"1,Ann Lee\r\n2,Bea Ross\n3,Cy Young\r",        # mixed
])
def test_every_kind_of_line_end_imports(client, empty, content):
    response = upload(client, empty, content)
    assert response.status_code == 200, response.get_data(as_text=True)[-600:]
    assert "Save all 3 players" in response.get_data(as_text=True)


@pytest.mark.parametrize("text", ["\ufeffnumber,name\n1,Ann Lee\n2,Bea Ross\n",
                                  "\ufeff1,Ann Lee\n2,Bea Ross\n"])
def test_a_pasted_list_that_starts_with_a_byte_order_mark_imports(client, empty, text):
    response = paste(client, empty, text)
    assert response.status_code == 200, response.get_data(as_text=True)[-600:]
    assert "Save all 2 players" in response.get_data(as_text=True)


@pytest.mark.parametrize("text", [',"' * 8192, '"' * 16384, ";" * 16384, ',"a' * 5461,
                                  "\t\"" * 8192])
def test_a_hostile_paste_is_previewed_quickly(client, empty, text):
    import time

    started = time.perf_counter()
    response = paste(client, empty, text)
    assert response.status_code == 422
    assert time.perf_counter() - started < 0.5
    assert count_players(empty) == 0


def test_a_name_entered_twice_is_pointed_out_but_not_refused(client, empty):
    """Two entries of one name may be two people (two Mary Cohens) or one person
    registered twice: the preview says so beside the line, and the file can still be
    saved."""
    empty.players.append(Player(number=1, name="Ruth Abrams"))
    db.session.commit()
    csv = "number,name\n30,ruth  abrams\n31,Bea Goldberg\n32,Bea Goldberg\n33,Carol Chen\n"
    response = upload(client, empty, csv.encode())
    body = response.get_data(as_text=True)
    assert "Player 1 has this name already: the same person twice?" in body
    assert "Line 3 has this name too: the same person twice?" in body
    assert body.count("the same person twice?") == 2
    assert "Save all" in body
    response = upload(client, empty, csv.encode(), confirm=True)
    assert response.status_code in (302, 303)
    assert count_players(empty) == 5
