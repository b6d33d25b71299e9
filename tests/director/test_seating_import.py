"""The Seating page's movement choice and the organiser's imported seating (hidden-tile:
"follow the table assignment provided by HTM"): round 1, later rounds, itineraries, the
table page's next table and the big screen follow it."""

from __future__ import annotations

from blueprints.director import seating
from blueprints.table.sheet_reads import next_tables
from blueprints.table.sheet_view import sheet_view
from core.rounds import ensure_round, round_row
from models import AuditEvent, Tournament, db
from tests.conftest import make_tournament

ROUND_2 = [1, 6, 3, 8, 5, 2, 7, 4]


def seating_csv():
    lines = ["round,table,seat,player"]
    for round_no, order in ((1, range(1, 9)), (2, ROUND_2)):
        for index, player in enumerate(order):
            lines.append(f"{round_no},{index // 4 + 1},{'ESWN'[index % 4]},{player}")
    return "\n".join(lines)


def page_next_tables(round_, table):
    """next_tables as the table's page reads it: the next round read with the seats."""
    view = sheet_view(table, round_, panel=True)
    assert view.next_seating is not None
    return next_tables(round_, table, view.seats, view.rules, view.next_seating)


def htm(director):
    return make_tournament(director, players=8, rounds=2, preset="hidden-tile", code="HTMSEA",
                           seated=False)


def choose_imported(client, tournament):
    response = client.post(f"/director/t/{tournament.id}/seating/movement",
                           data={"movement": "imported"})
    assert response.status_code == 302
    db.session.expire_all()


def test_the_director_chooses_the_movement_on_the_seating_page(client, director):
    tournament = htm(director)
    page = client.get(f"/director/t/{tournament.id}/seating").get_data(as_text=True)
    assert 'name="pattern"' in page and "Seat round 1" in page
    choose_imported(client, tournament)
    assert tournament.rules["movement"] == "imported"
    page = client.get(f"/director/t/{tournament.id}/seating").get_data(as_text=True)
    assert "Import the organiser's seating" in page
    assert f'action="/director/t/{tournament.id}/seating"' not in page  # no draw


def test_an_imported_seating_seats_every_round(client, director):
    tournament = htm(director)
    choose_imported(client, tournament)
    response = client.post(f"/director/t/{tournament.id}/seating/import",
                           data={"text": seating_csv()})
    assert response.status_code == 302
    db.session.expire_all()
    players = {p.number: p for p in tournament.players}
    round_one = round_row(tournament, 1)
    assert {(s.table.number, s.seat): s.player.number for s in round_one.seats}[(2, "S")] == 6
    # the table page's "next table" follows the organiser's round 2, before it is seated
    table_one = next(t for t in tournament.tables if t.number == 1)
    assert next_tables(round_one, table_one) == {"E": 1, "S": 2, "W": 1, "N": 2}
    assert page_next_tables(round_one, table_one) == {"E": 1, "S": 2, "W": 1, "N": 2}
    itinerary = client.get(f"/p/{tournament.code}/seat?number=2").get_data(as_text=True)
    assert "table 2" in itinerary.lower()
    schedule = dict((r.number, tables) for r, tables in seating.schedule(tournament))
    assert {s: p.number for s, p in schedule[2][0][1].items()} == dict(
        zip("ESWN", ROUND_2[:4], strict=True))
    round_two = ensure_round(tournament, 2)
    assert {(s.table.number, s.seat): s.player_id for s in round_two.seats}[(1, "S")] == \
        players[6].id
    assert db.session.scalar(db.select(AuditEvent).where(AuditEvent.action == "seating.import"))
    meetings = seating.meetings_report(tournament)
    assert {(m["first"].number, m["second"].number) for m in meetings} >= {(1, 3)}


def test_a_bad_file_saves_nothing_and_names_each_line(client, director):
    tournament = htm(director)
    choose_imported(client, tournament)
    bad = seating_csv().replace("2,1,S,6", "2,1,S,60")
    response = client.post(f"/director/t/{tournament.id}/seating/import", data={"text": bad})
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert "Line 11: There is no player number &#39;60&#39;" in body
    db.session.expire_all()
    assert round_row(tournament, 1) is None
    assert db.session.get(Tournament, tournament.id).imported_seating is None


def test_without_the_imported_movement_there_is_no_import(client, director):
    tournament = htm(director)
    response = client.post(f"/director/t/{tournament.id}/seating/import",
                           data={"text": seating_csv()})
    assert response.status_code == 422 and round_row(tournament, 1) is None


def test_the_big_screen_names_the_chosen_movement(client, director):
    from blueprints.display.service import board

    tournament = htm(director)
    assert board(tournament).movement.startswith("East stays")
    choose_imported(client, tournament)
    assert board(tournament).movement == "the organiser's own seating"


def test_between_rounds_the_big_screen_sends_players_to_their_own_lookup(client, director):
    """An imported seating follows no rule the room can read off a screen ("Move to your
    next table: the organiser's own seating" told nobody where to go)."""
    from tests.clock.conftest import ended, started

    tournament = htm(director)
    choose_imported(client, tournament)
    assert client.post(f"/director/t/{tournament.id}/seating/import",
                       data={"text": seating_csv()}).status_code == 302
    db.session.expire_all()
    started(tournament, 1, minutes_ago=50)
    ended(tournament, 1)
    page = client.get(f"/display/{tournament.code}").get_data(as_text=True)
    assert ("Move to your next table: <strong>look it up by your player number</strong> "
            "(the organiser&#39;s own seating)") in page


def test_next_tables_follow_a_seated_next_round_over_the_movement(director):
    """Once round 2 is seated its stored tables win, whatever the movement would say."""
    from models import Seating

    tournament = make_tournament(director, players=12, rounds=2)
    round_one, round_two = round_row(tournament, 1), ensure_round(tournament, 2)
    db.session.flush()
    table_one = next(t for t in tournament.tables if t.number == 1)
    table_three = next(t for t in tournament.tables if t.number == 3)
    by_movement = next_tables(round_one, table_one)
    assert page_next_tables(round_one, table_one) == by_movement
    east = next(s.player_id for s in round_one.seats if s.table_id == table_one.id
                and s.seat == "E")
    moved = next(s for s in round_two.seats if s.player_id == east)
    other = next(s for s in round_two.seats if s.table_id == table_three.id
                 and s.seat == moved.seat)
    old_table, other_player = moved.table_id, other.player_id
    db.session.delete(other)
    db.session.flush()
    moved.table_id = table_three.id
    db.session.flush()
    db.session.add(Seating(round_id=round_two.id, table_id=old_table, seat=moved.seat,
                           player_id=other_player))
    db.session.flush()
    db.session.expire_all()
    assert db.session.get(Seating, moved.id).table_id == table_three.id
    assert next_tables(round_one, table_one) == {**by_movement, "E": 3}
    assert page_next_tables(round_one, table_one) == {**by_movement, "E": 3}
