"""Check-in at the door: found by name or number, a tap named back before it counts, undo,
round 1 seated from the players here, a withdrawal undone, a late arrival seated in the
next round (the movement and an imported plan), and the printed list."""

from __future__ import annotations

import re

from sqlalchemy import select

from core.rounds import ensure_round, plan_rounds, round_row
from models import AuditEvent, Player, TournamentStaff, db, utcnow
from tests.conftest import make_tournament, make_user, sign_in


def door_event(director, players=28, rounds=3, preset="tnt"):
    tournament = make_tournament(director, players=players, rounds=rounds, preset=preset,
                                 seated=False)
    return tournament


def page(client, tournament, query=""):
    return client.get(f"/director/t/{tournament.id}/checkin{query}").get_data(as_text=True)


def mark(client, tournament, player, arrival="here"):
    return client.post(f"/director/t/{tournament.id}/checkin/{player.id}",
                       data={"arrival": arrival})


def all_here_but(client, tournament, absent):
    for player in tournament.players:
        if player.number not in absent:
            assert mark(client, tournament, player).status_code == 302
    db.session.expire_all()


def test_the_search_finds_a_player_by_number_or_name(client, director):
    tournament = door_event(director, players=12)
    tournament.players[4].name = "Bea Goldberg"
    db.session.commit()
    body = page(client, tournament, "?q=5")
    assert "Bea Goldberg" in body and "Player 6" not in body
    body = page(client, tournament, "?q=gol")
    assert "Bea Goldberg" in body and "Player 1<" not in body
    body = page(client, tournament, "?q=zzz")
    assert "Nobody matches" in body


def test_a_tap_names_the_player_and_counts_only_when_confirmed(client, director):
    tournament = door_event(director, players=12)
    bea = tournament.players[11]
    body = page(client, tournament, f"?pick={bea.id}")
    assert "Player 12, No. 12" in body
    db.session.expire_all()
    assert bea.arrival is None  # looking at the confirmation changes nothing
    response = mark(client, tournament, bea)
    assert response.status_code == 302 and f"done={bea.id}" in response.location
    db.session.expire_all()
    assert bea.arrival == "here"
    body = client.get(response.location).get_data(as_text=True)
    assert "Player 12, No. 12: here" in body and ">Undo<" in body
    assert 'id="count-here">1<' in body
    # Undo, in one tap: the form the toast carries.
    assert mark(client, tournament, bea, "clear").status_code == 302
    db.session.expire_all()
    assert bea.arrival is None


def test_late_and_not_coming_are_marked_and_audited(client, director):
    tournament = door_event(director, players=8)
    mark(client, tournament, tournament.players[0], "late")
    mark(client, tournament, tournament.players[1], "absent")
    db.session.expire_all()
    assert [p.arrival for p in tournament.players[:2]] == ["late", "absent"]
    assert db.session.scalar(select(AuditEvent).where(AuditEvent.action == "checkin.mark")
                             .limit(1)) is not None
    assert mark(client, tournament, tournament.players[2], "bogus").status_code == 422
    db.session.expire_all()
    assert tournament.players[2].arrival is None


def test_round_1_is_seated_from_the_players_here_with_named_substitutes(client, director):
    tournament = door_event(director)
    all_here_but(client, tournament, {3, 9, 20})
    body = page(client, tournament)
    assert 'id="count-here">25<' in body and 'id="count-subs">3<' in body
    assert 'id="count-tables">7<' in body
    response = client.post(f"/director/t/{tournament.id}/checkin/seat",
                           data={"name1": "Sub Ada", "name2": "Sub Bo", "name3": "Sub Cy",
                                 "method": "draw"})
    assert response.status_code == 302
    db.session.expire_all()
    seated_ids = {s.player_id for s in round_row(tournament, 1).seats}
    assert len(seated_ids) == 28
    gone = {p.number for p in tournament.players if p.withdrawn_from_round == 1}
    assert gone == {3, 9, 20}
    assert not {p.id for p in tournament.players if p.number in gone} & seated_ids
    subs = [p for p in tournament.players if p.is_substitute]
    assert sorted(p.name for p in subs) == ["Sub Ada", "Sub Bo", "Sub Cy"]
    assert all(p.arrival == "here" for p in subs)
    withdrawals = db.session.scalars(select(AuditEvent).where(
        AuditEvent.action == "player.withdraw")).all()
    assert len(withdrawals) == 3


def test_too_few_substitutes_is_refused_and_nothing_changes(client, director):
    tournament = door_event(director)
    all_here_but(client, tournament, {3, 9, 20})
    response = client.post(f"/director/t/{tournament.id}/checkin/seat",
                           data={"name1": "Sub Ada", "method": "draw"})
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert "name 2 more substitutes" in body
    # said at the first box left empty, not at the one filled in
    assert 'id="name2-error"' in body and 'id="name1-error"' not in body
    db.session.expire_all()
    assert round_row(tournament, 1) is None
    assert not any(p.withdrawn_from_round for p in tournament.players)
    assert len(tournament.players) == 28


def seat_with_three_no_shows(client, tournament):
    all_here_but(client, tournament, {3, 9, 20})
    assert client.post(f"/director/t/{tournament.id}/checkin/seat",
                       data={"name1": "S1", "name2": "S2", "name3": "S3",
                             "method": "number"}).status_code == 302
    db.session.expire_all()


def test_a_no_show_comes_back_before_round_1_with_her_entry_and_number(client, director):
    tournament = door_event(director)
    seat_with_three_no_shows(client, tournament)
    bea = next(p for p in tournament.players if p.number == 3)
    player_id = bea.id
    assert mark(client, tournament, bea).status_code == 302
    db.session.expire_all()
    bea = db.session.get(Player, player_id)
    assert bea.withdrawn_from_round is None and bea.number == 3
    assert len([p for p in tournament.players if p.number == 3]) == 1
    # Re-adding her under her number says whose it is, instead of making a second entry.
    response = client.post(f"/director/t/{tournament.id}/players",
                           data={"number": "3", "name": "Player 3"})
    assert response.status_code == 422
    assert "bring them back" in response.get_data(as_text=True)


def start_round(tournament, number):
    rnd = ensure_round(tournament, number)
    rnd.started_at = utcnow()
    db.session.commit()
    return rnd


def test_a_late_arrival_plays_from_the_next_round_with_three_substitutes(client, director):
    tournament = door_event(director)
    seat_with_three_no_shows(client, tournament)
    start_round(tournament, 1)
    bea = next(p for p in tournament.players if p.number == 9)
    mark(client, tournament, bea)
    db.session.expire_all()
    body = page(client, tournament)
    assert "Waiting for a seat" in body and "cannot be seated yet" in body
    assert 'id="count-subs">3<' in body
    phone = client.get(f"/p/{tournament.code}/seat?number=9").get_data(as_text=True)
    assert "You have no seat yet: a table needs four players" in phone
    seating_page = client.get(f"/director/t/{tournament.id}/seating").get_data(as_text=True)
    assert "3 more substitutes are needed" in seating_page
    # the door's words alone: not also the pre-seating "needed before seating"
    assert "needed before seating" not in seating_page
    assert "substitutes needed for" not in seating_page
    response = client.post(f"/director/t/{tournament.id}/checkin/seat",
                           data={"name1": "S4", "name2": "S5", "name3": "S6"})
    assert response.status_code == 302
    db.session.expire_all()
    assert "plays from round 2" in page(client, tournament)
    rnd2 = ensure_round(tournament, 2)
    db.session.commit()
    tables = {s.table.number for s in rnd2.seats}
    assert tables == set(range(1, 9))
    assert bea.id in {s.player_id for s in rnd2.seats}
    seating_page = client.get(f"/director/t/{tournament.id}/seating").get_data(as_text=True)
    assert 'id="seated-round-2"' in seating_page
    assert seating_page.split('id="seated-round-2"')[1].count('class="table-box"') == 8
    meetings = client.get(f"/director/t/{tournament.id}/meetings")
    assert meetings.status_code == 200
    # Round 3 follows the movement over all eight tables: everyone seated exactly once.
    plan3 = plan_rounds(tournament, 3)[3]
    ids = [pid for seats in plan3.values() for pid in seats.values()]
    assert len(ids) == len(set(ids)) == 32


def test_a_late_arrival_joins_a_round_made_but_not_started(client, director):
    tournament = door_event(director)
    seat_with_three_no_shows(client, tournament)
    start_round(tournament, 1)
    ensure_round(tournament, 2)
    db.session.commit()
    client.post(f"/director/t/{tournament.id}/checkin/add",
                data={"name": "Late Lou"})
    client.post(f"/director/t/{tournament.id}/checkin/seat",
                data={"name1": "S4", "name2": "S5", "name3": "S6"})
    db.session.expire_all()
    lou = next(p for p in tournament.players if p.name == "Late Lou")
    rnd2 = round_row(tournament, 2)
    assert lou.id in {s.player_id for s in rnd2.seats}
    assert {s.table.number for s in rnd2.seats} == set(range(1, 9))


def test_an_imported_plan_seats_the_late_table_too(client, director):
    tournament = door_event(director, players=8, rounds=2, preset="hidden-tile")
    tournament.rules = tournament.rules | {"movement": "imported"}
    db.session.commit()
    for p in tournament.players:
        mark(client, tournament, p)
    from blueprints.director.seating import import_seating
    lines = ["round,table,seat,player"]
    for round_no, order in ((1, range(1, 9)), (2, [1, 6, 3, 8, 5, 2, 7, 4])):
        for index, number in enumerate(order):
            lines.append(f"{round_no},{index // 4 + 1},{'ESWN'[index % 4]},{number}")
    assert import_seating(tournament, director, "\n".join(lines)).ok
    db.session.commit()
    start_round(tournament, 1)
    for name in ("Late Lou", "S1", "S2", "S3"):
        client.post(f"/director/t/{tournament.id}/checkin/add",
                    data={"name": name, "substitute": "y" if name != "Late Lou" else ""})
    db.session.expire_all()
    rnd2 = ensure_round(tournament, 2)
    db.session.commit()
    lou = next(p for p in tournament.players if p.name == "Late Lou")
    assert lou.id in {s.player_id for s in rnd2.seats}
    assert {s.table.number for s in rnd2.seats} == {1, 2, 3}


def test_scorers_check_in_and_table_guides_may_not(client, director, app):
    tournament = door_event(director, players=8)
    for email, role, status in (("sam@example.com", "scorer", 200),
                                ("gail@example.com", "table-guide", 403)):
        user = make_user(email, "Someone", "staff password")
        db.session.add(TournamentStaff(tournament_id=tournament.id, user_id=user.id,
                                       role=role))
        db.session.commit()
        client.post("/auth/sign-out")
        sign_in(client, email, "staff password")
        assert client.get(f"/director/t/{tournament.id}/checkin").status_code == status


def test_the_printed_list_has_a_box_each_and_paid_or_due(client, director):
    tournament = door_event(director, players=4)
    tournament.players[0].fee, tournament.players[0].paid = "$40", True
    tournament.players[1].fee = "$40"
    db.session.commit()
    body = client.get(f"/director/t/{tournament.id}/checkin/print").get_data(as_text=True)
    assert body.count('class="tick-box"') == 4
    assert body.count("<td>Paid</td>") == 1 and "Due $40" in body
    tournament.players[0].fee, tournament.players[0].paid = "", False
    tournament.players[1].fee = ""
    db.session.commit()
    body = client.get(f"/director/t/{tournament.id}/checkin/print").get_data(as_text=True)
    assert "Due" not in body



def test_an_import_carries_the_fee_and_paid_to_the_printed_list(client, director):
    tournament = door_event(director, players=0)
    text = "number,name,fee,paid\n1,Renée Abrams,$40,yes\n2,Bea Goldberg,$40,no\n3,Cy,,\n"
    response = client.post(f"/director/t/{tournament.id}/players/import",
                           data={"text": text, "confirm": "yes"})
    assert response.status_code == 302
    db.session.expire_all()
    assert [(p.fee, p.paid) for p in tournament.players] == [
        ("$40", True), ("$40", False), ("", False)]
    body = client.get(f"/director/t/{tournament.id}/checkin/print").get_data(as_text=True)
    assert body.count("Due $40") == 1 and body.count("<td>Paid</td>") == 1
    refused = client.post(f"/director/t/{tournament.id}/players/import",
                          data={"text": "number,name,paid\n9,Di,maybe\n", "confirm": "yes"})
    assert refused.status_code == 422 and "Paid: write yes or no" in refused.get_data(
        as_text=True)


def test_a_late_arrivals_phone_shows_her_table_before_her_round_is_made(client, director):
    tournament = door_event(director)
    seat_with_three_no_shows(client, tournament)
    start_round(tournament, 1)
    bea = next(p for p in tournament.players if p.number == 9)
    mark(client, tournament, bea)
    client.post(f"/director/t/{tournament.id}/checkin/seat",
                data={"name1": "S4", "name2": "S5", "name3": "S6"})
    db.session.expire_all()
    body = client.get(f"/p/{tournament.code}/seat?number=9").get_data(as_text=True)
    assert "not ready yet" not in body
    assert "You play from round 2" in body and ">Table 8<" in body


def withdraw_from_round_2(client, tournament):
    leaver = tournament.players[0]
    response = client.post(f"/director/t/{tournament.id}/players/{leaver.id}/withdraw",
                           data={"from_round": "2", "new_substitute": "Sub Sue"})
    assert response.status_code == 302
    db.session.expire_all()
    return leaver


def test_a_withdrawal_is_undone_in_one_tap_before_its_round(client, director):
    tournament = make_tournament(director, players=8, rounds=3)
    start_round(tournament, 1)
    ensure_round(tournament, 2)
    db.session.commit()
    leaver = withdraw_from_round_2(client, tournament)
    sue = next(p for p in tournament.players if p.name == "Sub Sue")
    assert sue.id in {s.player_id for s in round_row(tournament, 2).seats}
    assert mark(client, tournament, leaver).status_code == 302
    db.session.expire_all()
    assert leaver.withdrawn_from_round is None
    assert leaver.id in {s.player_id for s in round_row(tournament, 2).seats}
    assert sue.id not in {s.player_id for s in round_row(tournament, 2).seats}
    assert db.session.scalar(select(AuditEvent).where(
        AuditEvent.action == "player.return")) is not None


def test_a_withdrawal_stays_once_her_substitute_has_played(client, director):
    tournament = make_tournament(director, players=8, rounds=3)
    start_round(tournament, 1)
    leaver = withdraw_from_round_2(client, tournament)
    start_round(tournament, 2)
    response = mark(client, tournament, leaver)
    assert response.status_code == 422
    assert "has played Player 1&#39;s seat since round 2" in response.get_data(as_text=True)
    db.session.expire_all()
    assert leaver.withdrawn_from_round == 2


def test_a_player_added_on_the_players_page_joins_a_round_made_but_not_started(
        client, director):
    tournament = make_tournament(director, players=8, rounds=3)
    start_round(tournament, 1)
    ensure_round(tournament, 2)
    db.session.commit()
    client.post(f"/director/t/{tournament.id}/players", data={"name": "Late Lou"})
    body = client.get(f"/director/t/{tournament.id}/seating").get_data(as_text=True)
    assert "3 more substitutes are needed" in body
    client.post(f"/director/t/{tournament.id}/players/substitutes", data={"names": ""})
    db.session.expire_all()
    lou = next(p for p in tournament.players if p.name == "Late Lou")
    assert lou.id in {s.player_id for s in round_row(tournament, 2).seats}
    assert len({s.table_id for s in round_row(tournament, 2).seats}) == 3


def test_the_seating_page_points_to_the_door_once_players_are_checked_in(client, director):
    tournament = door_event(director, players=8)
    mark(client, tournament, tournament.players[0])
    body = client.get(f"/director/t/{tournament.id}/seating").get_data(as_text=True)
    assert "1 of 8 players are checked in at the door" in body


def test_a_player_marked_not_coming_waits_for_no_seat(client, director):
    tournament = make_tournament(director, players=8, rounds=3)
    start_round(tournament, 1)
    client.post(f"/director/t/{tournament.id}/checkin/add", data={"name": "Ann Maybe"})
    db.session.expire_all()
    ann = next(p for p in tournament.players if p.name == "Ann Maybe")
    assert "Waiting for a seat" in page(client, tournament)
    mark(client, tournament, ann, "absent")
    db.session.expire_all()
    assert "Waiting for a seat" not in page(client, tournament)


def test_a_late_arrival_takes_a_substitutes_seat_from_the_next_round(client, director):
    """28 players, 3 no-shows: 3 substitutes fill the last table. One of them arrives
    after round 1 has started: she takes a substitute's seat from round 2 in one tap; he
    keeps his round 1, and round 2 seats her where he would have sat."""
    tournament = door_event(director)
    seat_with_three_no_shows(client, tournament)
    start_round(tournament, 1)
    bea = next(p for p in tournament.players if p.number == 9)
    s1 = next(p for p in tournament.players if p.name == "S1")
    his_round_2 = {(table, seat) for table, seats in plan_rounds(tournament, 2)[2].items()
                   for seat, pid in seats.items() if pid == s1.id}
    mark(client, tournament, bea)
    db.session.expire_all()
    body = page(client, tournament)
    assert f"{bea.name} takes S1’s seat" in body and "from round 2" in body
    response = client.post(f"/director/t/{tournament.id}/checkin/{bea.id}/takes/{s1.id}")
    assert response.status_code == 302
    db.session.expire_all()
    body = page(client, tournament)
    assert "Waiting for a seat" not in body
    assert s1.withdrawn_from_round == 2 and bea.withdrawn_from_round is None
    # the Seating page's schedule, before round 2 is seated, already has her in his seat
    from blueprints.director.movement import preview
    from core.lookup import movement_plan

    [(_, seated, tables)] = [r for r in preview(tournament, movement_plan(tournament)).rounds
                             if r[0] == 2]
    shown = {(table, seat) for table, seats in tables for seat, number in seats.items()
             if number == str(bea.number)}
    assert not seated and shown == his_round_2
    assert not any(number == str(s1.number) for _, seats in tables
                   for number in seats.values())
    rnd2 = ensure_round(tournament, 2)
    db.session.commit()
    assert {(s.table.number, s.seat) for s in rnd2.seats if s.player_id == bea.id} \
        == his_round_2
    assert s1.id not in {s.player_id for s in rnd2.seats}
    assert s1.id in {s.player_id for s in round_row(tournament, 1).seats}
    events = db.session.scalars(select(AuditEvent.action).where(
        AuditEvent.tournament_id == tournament.id)).all()
    assert "player.substitute" in events


def test_a_seat_that_cannot_be_given_is_refused_in_plain_words(client, director):
    tournament = door_event(director)
    seat_with_three_no_shows(client, tournament)
    start_round(tournament, 1)
    bea = next(p for p in tournament.players if p.number == 9)
    ruth = next(p for p in tournament.players if p.number == 1)  # seated, not a substitute
    mark(client, tournament, bea)
    db.session.expire_all()
    response = client.post(f"/director/t/{tournament.id}/checkin/{bea.id}/takes/{ruth.id}")
    assert response.status_code == 409
    assert "seat cannot be given" in response.get_data(as_text=True)
    db.session.expire_all()
    assert ruth.withdrawn_from_round is None
    assert "Waiting for a seat" in page(client, tournament)


def test_the_clock_page_warns_before_seating_a_round_someone_here_would_sit_out(
        client, director):
    tournament = door_event(director)
    seat_with_three_no_shows(client, tournament)
    start_round(tournament, 1)
    clock = f"/clock/director/{tournament.id}"
    assert "here without a seat" not in client.get(clock).get_data(as_text=True)
    bea = next(p for p in tournament.players if p.number == 9)
    mark(client, tournament, bea)
    db.session.expire_all()
    round_row(tournament, 1).ended_at = utcnow()
    db.session.commit()
    body = client.get(clock).get_data(as_text=True)
    assert f"{bea.name} (No. 9)" in body and "is here without a seat" in body


def test_a_no_show_looking_up_her_seat_is_sent_to_the_desk_not_told_to_wait(client,
                                                                             director):
    tournament = door_event(director)
    seat_with_three_no_shows(client, tournament)
    phone = client.get(f"/p/{tournament.code}/seat?number=3").get_data(as_text=True)
    assert "You are not in the seating from round 1" in phone
    assert "please see the director at the desk" in phone
    assert "not ready yet" not in phone


def test_two_substitutes_are_never_given_one_name(client, director):
    """Two lines of one name in the standings and at the seat lookup cannot be told apart:
    a substitute's name that another substitute, or a player on the list, already has is
    refused at its box, and nothing is seated."""
    tournament = door_event(director)
    all_here_but(client, tournament, {3, 9, 20})
    taken = next(p for p in tournament.players if p.number == 5).name
    for names, box, name in (({"name1": "Ann B", "name2": " ann  b ", "name3": "Sue"},
                              "name2", "ann  b"),
                             ({"name1": "Ann B", "name2": "Sue", "name3": taken.upper()},
                              "name3", taken.upper())):
        response = client.post(f"/director/t/{tournament.id}/checkin/seat",
                               data=names | {"method": "number"})
        assert response.status_code == 422
        body = response.get_data(as_text=True)
        # said at the box that repeats the name
        assert re.search(rf'id="{box}-error"[^>]*>{re.escape(name)} is already a name on '
                         r"the list: add a last initial", body)
        db.session.expire_all()
        assert round_row(tournament, 1) is None
        assert not any(p.is_substitute for p in tournament.players)


def test_an_arrival_already_on_the_list_is_pointed_to_her_entry(client, director):
    """The person at the desk did not find her: adding her again would split her scores
    over two entries. The name is refused at its box, naming her number."""
    tournament = door_event(director, players=12)
    listed = next(p for p in tournament.players if p.number == 7)
    count = len(tournament.players)
    response = client.post(f"/director/t/{tournament.id}/checkin/add",
                           data={"name": f"  {listed.name.lower()} "})
    assert response.status_code == 422
    assert re.search(r'id="name-error"[^>]*>' + re.escape(listed.name.lower())
                     + " is already on the list as number 7: find number 7 above",
                     response.get_data(as_text=True))
    db.session.expire_all()
    assert len(tournament.players) == count
    response = client.post(f"/director/t/{tournament.id}/checkin/add",
                           data={"name": f"{listed.name} B."})
    assert response.status_code == 302
    db.session.expire_all()
    assert len(tournament.players) == count + 1


def test_the_list_tells_a_no_show_from_a_late_arrival_and_expected_counts_who_may_come(
        client, director):
    """Not coming lowers "Expected" at once; once round 1 is seated, the one who never came
    and the one on her way read differently, not both "left from round 1"."""
    tournament = door_event(director, players=12)
    nan, phyl = (next(p for p in tournament.players if p.number == n) for n in (11, 12))
    assert 'id="count-expected">12<' in page(client, tournament)
    mark(client, tournament, nan, "absent")
    db.session.expire_all()
    assert 'id="count-expected">11<' in page(client, tournament)
    mark(client, tournament, phyl, "late")
    all_here_but(client, tournament, {11, 12})
    assert client.post(f"/director/t/{tournament.id}/checkin/seat",
                       data={"name1": "Sadie Sub", "name2": "Tess Sub",
                             "method": "number"}).status_code == 302
    db.session.expire_all()
    body = page(client, tournament)
    assert re.search(r">Player 11<.*?not here: out from round 1<", body, re.S)
    assert re.search(r">Player 12<.*?late: no seat from round 1 yet<", body, re.S)
    assert "left from round" not in body
