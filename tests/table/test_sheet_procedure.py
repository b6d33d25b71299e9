"""The sheets' procedure at the table: a director's change after submission is a ruling
where the sheet allows no changes; a changed verified sheet goes back to a table guide; a
joker exchange is entered by its name; under Destination every player initials each game
and West checks the sheet; under Hidden Tile the director can end one table's round."""

from __future__ import annotations

import html
import re
import secrets

import pytest

from blueprints.table.sheet_reads import seats_of
from core import sheets
from models import AuditEvent, Tournament, db
from tests.table.conftest import TableClient
from tests.table.test_director import add_guide, sheet_url, staff_form, submitted_round


def amend_game_two(client, east, tournament, reason="Ruling: North's Mah Jongg was valid"):
    data = staff_form(east, outcome="mahjong", winner="N", value="25", win_by="self",
                      reason=reason)
    return client.post(sheet_url(tournament, tail="/game/2"), data=data)


def last_action():
    return db.session.scalar(db.select(AuditEvent.action).order_by(AuditEvent.id.desc()))


def with_rules(tournament, **changes):
    db.session.execute(db.update(Tournament).where(Tournament.id == tournament.id)
                       .values(rules={**tournament.rules, **changes}))
    db.session.commit()
    db.session.expire_all()


def test_tnt_amendment_form_warns_it_is_a_ruling_before_it_is_saved(client, east, tnt):
    # tnt: "Once submitted, no changes may be made."
    east.save(1, outcome="wall")
    open_form = client.get(sheet_url(tnt, tail="/game/1")).get_data(as_text=True)
    assert 'id="ruling-warning"' not in open_form  # before submission: an amendment
    for number in range(2, 5):
        east.save(number, outcome="wall")
    for seat in "ESWN":
        east.post("/initial", staff_form(east, seat=seat, initials=seat))
    east.post("/submit", staff_form(east))
    form = client.get(sheet_url(tnt, tail="/game/2")).get_data(as_text=True)
    assert 'id="ruling-warning"' in form
    assert "no changes after submission: saving this is a director's ruling" in form


def test_a_ruling_shows_on_the_sheet_the_players_page_and_the_results_page(client, east, tnt):
    # tnt: "Once submitted, no changes may be made."
    submitted_round(east)
    assert amend_game_two(client, east, tnt).status_code == 303
    assert last_action() == "sheet.ruling"
    assert "Director's ruling after submission" in east.get().get_data(as_text=True)
    north = seats_of(east.sheet().round, east.table)["N"]
    scores = client.get(f"/p/{tnt.code}/player/{north.number}").get_data(as_text=True)
    # on the line of the game it changed
    assert re.search(r"<td>Mah Jongg: you won<span class=\"ruling\">Director&#39;s ruling "
                     r"after submission: Ruling: North&#39;s Mah Jongg was valid</span>", scores)
    results = client.get(f"/results/director/{tnt.id}").get_data(as_text=True)
    assert "Rulings after submission" in results and "Round 1, table 1" in results


def test_where_changes_are_allowed_a_change_stays_an_amendment(client, east, tnt):
    with_rules(tnt, changes_after_submit="amendment")
    submitted_round(east)
    form = client.get(sheet_url(tnt, tail="/game/2")).get_data(as_text=True)
    assert 'id="ruling-warning"' not in form
    assert amend_game_two(client, east, tnt).status_code == 303
    assert last_action() == "sheet.amend"
    page = east.get().get_data(as_text=True)
    assert "Game 2 amended by Ann Director" in page and "ruling after submission" not in page
    results = client.get(f"/results/director/{tnt.id}").get_data(as_text=True)
    assert "Rulings after submission" not in results


def verified_htm_round(app, client, hidden):
    east = TableClient(client, hidden)
    guide = add_guide(app, hidden)
    for number in range(1, 5):
        east.save(number, outcome="wall")
    assert east.post("/submit", staff_form(east)).status_code == 303
    assert guide.post(sheet_url(hidden, tail="/verify"), data=staff_form(east)).status_code \
        == 303
    assert east.sheet().state == "verified"
    return east


def test_amending_a_verified_sheet_returns_it_to_awaiting_verification(app, client, hidden):
    # hidden-tile: "after verification, scores are final": a changed sheet is verified again
    east = verified_htm_round(app, client, hidden)
    assert amend_game_two(client, east, hidden).status_code == 303
    sheet = east.sheet()
    assert sheet.state == "submitted" and sheet.verified_by_id is None
    event = db.session.scalar(db.select(AuditEvent).where(AuditEvent.action == "sheet.amend"))
    assert event.after["state"] == "submitted"
    page = client.get(sheet_url(hidden)).get_data(as_text=True)
    assert "Mark verified" in page


def test_an_adjustment_on_a_verified_sheet_returns_it_to_awaiting_verification(
        app, client, hidden, director):

    east = verified_htm_round(app, client, hidden)
    sheets.add_adjustment(east.table, 1, "N", -10, "ruling: tile count", director, game_no=1)
    db.session.commit()
    assert east.sheet().state == "submitted"
    event = db.session.scalar(db.select(AuditEvent).where(AuditEvent.action == "sheet.adjust"))
    assert event.after["state"] == "submitted"


def test_a_submitted_sheet_counts_as_provisional_until_verified(app, client, hidden):
    # hidden-tile: "after verification, scores are final"
    east = TableClient(client, hidden)
    for number in range(1, 5):
        east.save(number, outcome="wall")
    east.post("/submit", staff_form(east, request_key=secrets.token_urlsafe(8)))
    standings = client.get(f"/results/{hidden.code}").get_data(as_text=True)
    assert "not verified yet" in standings and "No results yet" in standings


def test_east_enters_a_joker_exchange_by_its_name(client, east, tnt):
    # tnt: "This is known as the Finesse Move, because the exchanged joker becomes the
    # player's 14th tile."
    entry = east.get("/game").get_data(as_text=True)
    assert 'id="win_by-joker_exchange"' in entry
    assert "<span>Finesse (joker exchange): self-picked</span>" in entry
    response = east.save(1, outcome="mahjong", winner="S", value="25", win_by="joker_exchange")
    assert response.status_code == 303
    [game] = east.sheet().games
    assert game.record["joker_exchange"] is True and game.record["self_picked"] is True
    assert game.points["S"] == 35
    assert "joker exchange (Finesse), self-picked" in east.get().get_data(as_text=True)
    correction = east.get("/game", g=1).get_data(as_text=True)
    assert 'id="win_by-joker_exchange" value="joker_exchange" checked' in correction


def test_city_mahj_offers_no_joker_exchange(client, director):
    from tests.conftest import make_tournament

    city = make_tournament(director, players=8, rounds=2, preset="city-mahj", code="CITY11")
    table = TableClient(client, city)
    assert 'id="win_by-joker_exchange"' not in table.get("/game").get_data(as_text=True)
    response = table.save(1, outcome="mahjong", winner="S", value="25", win_by="joker_exchange")
    assert response.status_code == 422 and not table.sheet()


def destination_table(client, director):
    from tests.conftest import make_tournament

    tournament = make_tournament(director, players=8, rounds=2, preset="destination",
                                 code="DEST11")
    return TableClient(client, tournament)


def tap(table, game_no, seat):
    return table.post("/game-initial", staff_form(table, game_no=game_no, seat=seat))


def test_destination_every_player_initials_each_game_and_west_checks(client, director):
    # destination: "After each game East will fill it out and give it back to you to confirm
    # your score by signing. ... West will also receive Easts sheet to verify their score."
    table = destination_table(client, director)
    for number in range(1, 5):
        table.save(number, outcome="wall")
    review = table.get("/review").get_data(as_text=True)
    assert "Every player initials each game" in review
    assert "Player 2 (South): 10 is right" in review
    refused = table.post("/submit", staff_form(table))
    assert refused.status_code == 422
    assert "Still to initial: game 1 (East, South, West, North)" in refused.get_data(
        as_text=True)
    for number in range(1, 5):
        for seat in "ESWN":
            assert tap(table, number, seat).status_code == 303
    assert table.sheet().games[0].seat_initials == {"E": "P1", "S": "P2", "W": "P3",
                                                     "N": "P4"}
    refused = table.post("/submit", staff_form(table))
    assert refused.status_code == 422 and "West checks East" in refused.get_data(as_text=True)
    assert table.post("/west-check", staff_form(table)).status_code == 303
    sheet = table.sheet()
    assert sheet.west_checked_at is not None and sheet.west_initials == "P3"
    assert "Checked by West" in table.get("/review").get_data(as_text=True)
    assert table.post("/submit", staff_form(table)).status_code == 303
    actions = db.session.scalars(db.select(AuditEvent.action)).all()
    assert actions.count("game.initial") == 16 and "sheet.west_check" in actions


def test_a_corrected_score_is_initialled_and_checked_again(client, director):
    table = destination_table(client, director)
    for number in range(1, 5):
        table.save(number, outcome="wall")
    for seat in "ESWN":
        tap(table, 1, seat)
    table.post("/west-check", staff_form(table))
    table.save(1, outcome="mahjong", winner="S", value="25", win_by="self")
    sheet = table.sheet()
    assert sheet.games[0].seat_initials == {} and sheet.west_checked_at is None


def test_west_checks_only_a_complete_sheet(client, director):
    table = destination_table(client, director)
    table.save(1, outcome="wall")
    response = table.post("/west-check", staff_form(table))
    assert response.status_code == 422 and table.sheet().west_checked_at is None


def test_under_tnt_there_is_no_per_player_tap(client, east, tnt):
    east.save(1, outcome="wall")
    assert "Every player initials each game" not in east.get("/review").get_data(as_text=True)
    assert tap(east, 1, "S").status_code == 409
    assert east.sheet().games[0].seat_initials == {}


def end_form(table, **extra):
    return staff_form(table, reason="Incorrect exposed hand: two hands left intact", **extra)


def test_hidden_tile_director_ends_a_tables_round_keeping_the_games_played(client, hidden):
    # hidden-tile: "otherwise the round ends and the remaining score is determined by the
    # Tournament Director."
    table = TableClient(client, hidden)
    table.save(1, outcome="mahjong", winner="S", value="25", win_by="self")
    page = client.get(sheet_url(hidden)).get_data(as_text=True)
    assert "End this table's round" in page
    response = client.post(sheet_url(hidden, tail="/end"),
                           data=end_form(table, points_N="10", points_E="-10"))
    assert response.status_code == 303
    sheet = table.sheet()
    assert [g.record["outcome"] for g in sheet.games] == ["mahjong", "ended", "ended", "ended"]
    assert sheet.games[0].points["S"] == 35                 # not zeroed, unlike time called
    assert sheet.games[1].points == {"E": -10, "S": 0, "W": 0, "N": 10}
    assert sheet.games[2].points == dict.fromkeys("ESWN", 0)
    event = db.session.scalar(db.select(AuditEvent).where(
        AuditEvent.action == "sheet.director_end"))
    assert event.reason.startswith("Incorrect exposed hand") and event.after["games"] == [2, 3, 4]
    table_page = table.get().get_data(as_text=True)
    assert "Round ended by the director" in table_page
    # East cannot overwrite a game the director ended
    response = table.save(2, outcome="wall")
    assert response.status_code == 422
    assert table.sheet().games[1].record["outcome"] == "ended"


@pytest.mark.parametrize("data, field", [
    ({"reason": "  "}, "Write the reason"),
    ({"points_N": "ten"}, "North: type a whole number"),
])
def test_ending_a_round_refuses_bad_input_at_the_field(client, hidden, data, field):
    table = TableClient(client, hidden)
    table.save(1, outcome="wall")
    response = client.post(sheet_url(hidden, tail="/end"), data={**end_form(table), **data})
    assert response.status_code == 422 and field in response.get_data(as_text=True)
    assert len(table.sheet().games) == 1


def test_ending_a_round_the_table_changed_meanwhile_keeps_what_the_director_typed(client,
                                                                                   hidden):
    table = TableClient(client, hidden)
    table.save(1, outcome="wall")
    stale = end_form(table, points_N="10")
    table.save(2, outcome="wall")  # the table saves a game while the director types
    response = client.post(sheet_url(hidden, tail="/end"), data=stale)
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "Incorrect exposed hand: two hands left intact" in page
    assert 'name="points_N" maxlength="4" value="10"' in page
    # every form on the page now carries the sheet's version, so the next tap counts
    assert set(re.findall(r'name="version" type="hidden" value="(\d+)"', page)) == {
        str(table.version())}
    again = dict(re.findall(r'name="(request_key|round_no|version)" type="hidden" '
                            r'value="([^"]*)"', page.split('end-table-round"')[1]))
    response = client.post(sheet_url(hidden, tail="/end"),
                           data={**again, "reason": stale["reason"], "points_N": "10"})
    assert response.status_code == 303
    assert [g.record["outcome"] for g in table.sheet().games] == ["wall", "wall", "ended",
                                                                  "ended"]


def test_under_tnt_the_director_does_not_end_one_tables_round(client, east, tnt):
    east.save(1, outcome="wall")
    assert "End this table" not in client.get(sheet_url(tnt)).get_data(as_text=True)
    response = client.post(sheet_url(tnt, tail="/end"), data=end_form(east))
    assert response.status_code == 422 and len(east.sheet().games) == 1


def test_a_table_guide_cannot_end_a_round(app, client, hidden):
    table = TableClient(client, hidden)
    table.save(1, outcome="wall")
    guide = add_guide(app, hidden)
    assert guide.post(sheet_url(hidden, tail="/end"), data=end_form(table)).status_code == 403


# Rules of the Road: "If a question arises during play, Director's ruling is FINAL"; every
# sheet: "the Tournament Director's ruling is final" (rules/README.md, common to all).
@pytest.mark.parametrize("preset", ["tnt", "city-mahj", "hidden-tile", "rules-of-the-road",
                                    "destination"])
def test_a_directors_amendment_of_an_open_sheet_is_final_for_the_table(client, director,
                                                                      preset):
    from tests.conftest import make_tournament

    tournament = make_tournament(director, players=8, rounds=2, preset=preset,
                                 code=f"FIN{preset[:3].upper()}")
    east = TableClient(client, tournament)
    for number in (1, 2):
        assert east.save(number, outcome="wall").status_code in (200, 303)
    assert amend_game_two(client, east, tournament).status_code in (200, 303)
    ruled = {g.number: g.record for g in east.sheet().games}[2]
    assert ruled["winner"] == "N"
    # East, on an open sheet, tries to correct the game the director ruled on...
    response = east.save(2, outcome="wall")
    assert response.status_code == 409
    assert "The director ruled on this game" in response.get_data(as_text=True)
    assert {g.number: g.record for g in east.sheet().games}[2] == ruled
    # ...while a game the director did not touch is still East's to correct.
    assert east.save(1, outcome="mahjong", winner="S", value="25",
                     win_by="self").status_code in (200, 303)
    page = east.get().get_data(as_text=True)
    assert "The director ruled on this game" in page
    assert page.count('class="correct"') == 1  # game 1's link; game 2 says why it has none


def test_a_directors_ruling_on_a_game_survives_a_backup(client, east, tnt):
    from blueprints.results import backup
    from tests.conftest import make_user
    from tests.results.test_backup import wipe

    east.save(1, outcome="wall")
    east.save(2, outcome="wall")
    amend_game_two(client, east, tnt)
    data = backup.export_tournament(tnt)
    wipe()
    imported = backup.import_tournament(data, make_user()).tournament
    db.session.commit()
    from models import GameEntry, Scoresheet

    games = db.session.scalars(db.select(GameEntry).join(Scoresheet).where(
        Scoresheet.table_id == imported.tables[0].id).order_by(GameEntry.number)).all()
    assert [g.ruled_at is not None for g in games] == [False, True]


def test_a_second_ruling_on_a_sheet_keeps_the_first_in_sight(client, east, tnt):
    """Two rulings on one submitted sheet (games 4 and 2): the table, each player's own
    game line and the results page show both, each with its game; the first is not
    replaced by the second (the sheet itself keeps only its latest reason)."""
    submitted_round(east)
    first = "Tile check: the hand on the card is worth 40"
    second = "Card check: the hand is 35"
    for game_no, winner, value, reason in ((4, "W", "40", first), (2, "N", "35", second)):
        data = staff_form(east, outcome="mahjong", winner=winner, value=value, win_by="self",
                          reason=reason)
        assert client.post(sheet_url(tnt, tail=f"/game/{game_no}"), data=data).status_code == 303
    table = html.unescape(east.get().get_data(as_text=True))
    assert re.search(r"Director's ruling after submission on game 4 \(TNT: no changes after "
                     rf"submission\), by Ann Director at [\d:]+: {first}", table)
    assert re.search(rf"ruling after submission on game 2 .*: {second}", table)
    seats = seats_of(east.sheet().round, east.table)
    west = html.unescape(client.get(f"/p/{tnt.code}/player/{seats['W'].number}")
                         .get_data(as_text=True))
    north = html.unescape(client.get(f"/p/{tnt.code}/player/{seats['N'].number}")
                          .get_data(as_text=True))
    for page in (west, north):  # each change on the line of its game
        assert re.search(rf"<th scope=\"row\">4</th><td>[^<]*<span class=\"ruling\">"
                         rf"Director's ruling after submission: {first}</span>", page)
        assert re.search(rf"<th scope=\"row\">2</th><td>[^<]*<span class=\"ruling\">"
                         rf"Director's ruling after submission: {second}</span>", page)
        assert "The director's change cleared your initials" in page
    results = html.unescape(client.get(f"/results/director/{tnt.id}").get_data(as_text=True))
    assert re.search(rf"Round 1, table 1, game 2: Ann Director at [^:]+:\d\d: {second}", results)
    assert re.search(rf"Round 1, table 1, game 4: Ann Director at [^:]+:\d\d: {first}", results)
    assert results.index("game 2:") < results.index("game 4:")  # latest first
