"""A table on paper: the director's switch (one table or every table, audited, both
ways), the table's page saying so plainly, and the table's own writes refused."""

from __future__ import annotations

import secrets

import pytest

from core.rounds import ensure_round
from models import AuditEvent, Scoresheet, TournamentStaff, db
from tests.conftest import make_tournament, make_user, sign_in
from tests.table.conftest import TableClient

SAYS = "This round is scored on paper: hand the sheet to the front desk."


@pytest.fixture
def tnt(director):
    tournament = make_tournament(director, players=8, rounds=2)
    ensure_round(tournament, 1)
    db.session.commit()
    return tournament


def switch(client, tournament, table, on):
    return client.post(f"/t/director/{tournament.id}/round/1/paper",
                       data={"table": str(table), "on": "1" if on else "0"})


def test_a_table_on_paper_says_so_and_keeps_seats_clock_and_call(app, client, tnt):
    assert switch(client, tnt, 1, True).status_code == 303
    phone = TableClient(app.test_client(), tnt)
    body = phone.get().get_data(as_text=True)
    assert SAYS in body
    assert "Enter game 1" not in body
    assert "Who sits here" in body and 'id="clock"' in body
    assert "Call the director" in body
    other = TableClient(app.test_client(), tnt, 2).get().get_data(as_text=True)
    assert SAYS not in other and "Enter game 1" in other


def test_the_tables_own_save_is_refused_in_plain_words(app, client, tnt):
    switch(client, tnt, 1, True)
    phone = TableClient(app.test_client(), tnt)
    entry = phone.get("/game")
    assert entry.status_code == 303
    response = phone.save(1, outcome="wall")
    assert response.status_code == 409
    assert "This round is scored on paper" in response.get_data(as_text=True)
    sheet = phone.sheet()
    assert sheet.games == []
    time = phone.post("/time", {"confirm": "y", "version": phone.version(), "round_no": 1,
                                "request_key": secrets.token_urlsafe(8)})
    assert time.status_code == 409 and phone.sheet().games == []


def test_switched_back_the_table_enters_again_and_both_are_audited(app, client, tnt):
    switch(client, tnt, 1, True)
    switch(client, tnt, 1, False)
    phone = TableClient(app.test_client(), tnt)
    assert "Enter game 1" in phone.get().get_data(as_text=True)
    assert phone.save(1, outcome="wall").status_code in (200, 303)
    actions = db.session.scalars(db.select(AuditEvent.action).where(
        AuditEvent.action.in_(("sheet.paper", "sheet.phone"))).order_by(AuditEvent.id)).all()
    assert actions == ["sheet.paper", "sheet.phone"]


def test_every_table_at_once(client, tnt):
    response = client.post(f"/t/director/{tnt.id}/round/1/paper", data={"table": "all",
                                                                        "on": "1"})
    assert response.status_code == 303
    db.session.expire_all()
    assert db.session.scalars(db.select(Scoresheet.on_paper)).all() == [True, True]


def test_the_desk_still_keys_in_a_table_on_paper(client, tnt):
    switch(client, tnt, 1, True)
    assert client.get(f"/t/director/{tnt.id}/1/1/desk").status_code == 200


@pytest.mark.parametrize("role", ["table-guide", "scorer"])
def test_only_a_director_switches(app, tnt, role):
    user = make_user("sam@example.com", "Sam", "staff password")
    db.session.add(TournamentStaff(tournament_id=tnt.id, user_id=user.id, role=role))
    db.session.commit()
    other = app.test_client()
    sign_in(other, "sam@example.com", "staff password")
    assert switch(other, tnt, 1, True).status_code == 403
    assert db.session.scalar(db.select(Scoresheet)) is None


def test_the_switch_needs_its_csrf_token(app, client, tnt):
    app.config["WTF_CSRF_ENABLED"] = True
    assert switch(client, tnt, 1, True).status_code == 400
    assert db.session.scalar(db.select(Scoresheet)) is None


def test_the_review_page_sends_a_table_on_paper_back_to_its_page(app, client, tnt):
    switch(client, tnt, 1, True)
    phone = TableClient(app.test_client(), tnt)
    response = phone.get("/review")
    assert response.status_code == 303
    assert SAYS not in response.get_data(as_text=True)  # said on the page it goes to


@pytest.mark.parametrize("back", ["//evil.example/", "https://evil.example/",
                                  "/director/\r\nSet-Cookie: x=1", "/\\evil.example"])
def test_the_switch_goes_back_only_to_a_page_of_this_site(client, tnt, back):
    response = client.post(f"/t/director/{tnt.id}/round/1/paper",
                           data={"table": "1", "on": "1", "back": back})
    assert response.status_code == 303
    location = response.headers["Location"]
    assert "evil" not in location and "\n" not in location
    assert location.endswith(f"/t/director/{tnt.id}/desk?r=1")
    db.session.expire_all()
    assert db.session.scalar(db.select(Scoresheet.on_paper)) is True


def test_the_switch_goes_back_to_the_page_it_came_from(client, tnt):
    response = client.post(f"/t/director/{tnt.id}/round/1/paper",
                           data={"table": "1", "on": "1", "back": f"/director/t/{tnt.id}"})
    assert response.headers["Location"].endswith(f"/director/t/{tnt.id}")
