"""Creating and editing a tournament, its rules (editable until the first score, then
read-only), players one by one, table tokens and the printable pages."""

from __future__ import annotations

import re

from sqlalchemy import select

from blueprints.director.seating import seat_round_one
from core.rounds import ensure_round, round_row
from models import AuditEvent, Competition, Player, Table, Tournament, db
from tests.conftest import make_tournament
from tests.director.conftest import enter_a_game
from tournament.rules import PRESETS


def actions():
    return [e.action for e in db.session.scalars(select(AuditEvent).order_by(AuditEvent.id))]


def create(client, **data):
    form = {"name": "Cruise Classic", "preset": "destination", "rounds": "12",
            "prize_places": "3", **data}
    return client.post("/director/new", data=form)


def test_create_from_destination_with_mini_and_sessions(client, director):
    response = create(client, mini="y", sessions="1-4, 5-8, 9-12", venue="Deck 5",
                      starts_on="2026-05-14", ends_on="2026-05-16")
    assert response.status_code == 302
    tournament = db.session.scalar(select(Tournament))
    assert tournament.preset == "destination" and tournament.rounds == 12
    assert tournament.games_per_round == 4 and tournament.round_minutes == 50
    kinds = [(c.kind, c.first_round, c.last_round, c.entrants_only)
             for c in tournament.competitions]
    assert ("mini", 10, 12, True) in kinds
    assert [k for k in kinds if k[0] == "session"] == [
        ("session", 1, 4, False), ("session", 5, 8, False), ("session", 9, 12, False)]
    assert tournament.rules["mini_tournament"] == {"first_round": 10, "last_round": 12}
    assert "tournament.create" in actions()


def test_create_with_own_games_and_minutes(client, director):
    create(client, preset="tnt", rounds="3", games_per_round="5", round_minutes="60")
    tournament = db.session.scalar(select(Tournament))
    assert (tournament.games_per_round, tournament.round_minutes) == (5, 60)
    assert tournament.rules["games_per_round"] == 5 and tournament.rules["round_minutes"] == 60


def test_create_errors_at_the_field_and_nothing_saved(client, director):
    response = create(client, name="", rounds="many", games_per_round="0",
                      sessions="1-4, 3-6", starts_on="2026-05-14", ends_on="2026-05-01")
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert 'id="name-error"' in body and "Please give the tournament a name." in body
    assert 'id="rounds-error"' in body and "whole number" in body
    assert 'id="games_per_round-error"' in body
    assert db.session.scalar(select(Tournament)) is None


def test_create_session_problems_at_the_field(client, director):
    response = create(client, rounds="8", sessions="1-4, 3-6")
    assert response.status_code == 422
    assert "overlaps" in response.get_data(as_text=True)
    response = create(client, rounds="8", sessions="1-4, 5-9")
    assert "only 8 rounds" in response.get_data(as_text=True)
    response = create(client, rounds="8", mini="y")
    assert "cannot end after the last round" in response.get_data(as_text=True)
    assert db.session.scalar(select(Tournament)) is None


def test_edit_details(client, tournament):
    response = client.post(f"/director/t/{tournament.id}/edit", data={
        "name": "Renamed Open", "rounds": "6", "games_per_round": "4", "round_minutes": "45",
        "prize_places": "5", "sessions": "1-3, 4-6", "venue": "Hall B"})
    assert response.status_code == 302
    db.session.expire_all()
    assert tournament.name == "Renamed Open" and tournament.rounds == 6
    assert tournament.round_minutes == 45 and tournament.prize_places == 5
    assert [c.name for c in tournament.competitions] == [
        "Session 1 (rounds 1-3)", "Session 2 (rounds 4-6)"]
    assert "tournament.update" in actions()


def test_rules_page_shows_every_rule_with_the_sheets_words(client, tournament):
    body = client.get(f"/director/t/{tournament.id}/rules").get_data(as_text=True)
    assert "Self-pick bonus" in body
    assert "PICKS their own Mahjong tile" in body  # tnt's own words
    assert "Not on this sheet" in body
    assert 'name="thrower_penalty_4"' in body


def rules_data(tournament, **changes):
    from blueprints.director.forms import rules_form

    form = rules_form(tournament.rules)
    data = {}
    for f in form:
        if f.type == "CSRFTokenField":
            continue
        if f.type == "BooleanField":
            if f.data:
                data[f.name] = "y"
        else:
            data[f.name] = "" if f.data is None else str(f.data)
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_rules_are_editable_before_the_first_score(client, tournament):
    response = client.post(f"/director/t/{tournament.id}/rules",
                           data=rules_data(tournament, self_pick_bonus="15",
                                           thrower_penalty_2="-15"))
    assert response.status_code == 302
    db.session.expire_all()
    assert tournament.rules["self_pick_bonus"] == 15
    assert tournament.rules["thrower_penalty"] == [0, 0, -15, -25, -25]
    event = db.session.scalar(select(AuditEvent).where(AuditEvent.action == "rules.update"))
    assert event.before == {"self_pick_bonus": 10, "thrower_penalty": [0, 0, -10, -25, -25]}


def test_bad_rule_values_are_refused_at_the_field(client, tournament):
    before = dict(tournament.rules)
    response = client.post(f"/director/t/{tournament.id}/rules",
                           data=rules_data(tournament, self_pick_bonus="-5",
                                           wall_game_points="ten"))
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert 'id="wall_game_points-error"' in body and "whole number" in body
    response = client.post(f"/director/t/{tournament.id}/rules",
                           data=rules_data(tournament, self_pick_bonus="-5"))
    body = response.get_data(as_text=True)
    assert response.status_code == 422
    assert 'id="self_pick_bonus-error"' in body and "cannot be negative" in body
    response = client.post(f"/director/t/{tournament.id}/rules",
                           data=rules_data(tournament, thrower_penalty_3="5"))
    assert response.status_code == 422
    assert 'id="thrower_penalty_0-error"' in response.get_data(as_text=True)
    db.session.expire_all()
    assert tournament.rules == before


def test_rules_are_read_only_once_a_score_is_entered(client, tournament):
    enter_a_game(tournament)
    page = client.get(f"/director/t/{tournament.id}/rules").get_data(as_text=True)
    assert "Scores have been entered, so the rules are fixed" in page
    assert 'name="self_pick_bonus"' not in page
    before = dict(tournament.rules)
    response = client.post(f"/director/t/{tournament.id}/rules",
                           data=rules_data(tournament, self_pick_bonus="99"))
    assert response.status_code == 409
    response = client.post(f"/director/t/{tournament.id}/rules/preset",
                           data={"preset": "hidden-tile"})
    db.session.expire_all()
    assert tournament.rules == before and tournament.preset == "tnt"
    response = client.post(f"/director/t/{tournament.id}/edit", data={
        "name": "Test Open", "rounds": "3", "games_per_round": "6", "round_minutes": "50",
        "prize_places": "3"})
    assert response.status_code == 422
    assert "games per round can no longer change" in response.get_data(as_text=True)


def test_switch_preset_before_play(client, tournament):
    response = client.post(f"/director/t/{tournament.id}/rules/preset",
                           data={"preset": "hidden-tile"})
    assert response.status_code == 302
    db.session.expire_all()
    assert tournament.preset == "hidden-tile"
    assert tournament.rules["jokerless_bonus"] == PRESETS["hidden-tile"].jokerless_bonus
    assert "rules.preset" in actions()


def test_add_edit_players_with_errors_at_the_field(client, tournament):
    url = f"/director/t/{tournament.id}/players"
    response = client.post(url, data={"name": "Nora New"})
    assert response.status_code == 302
    nora = db.session.scalar(select(Player).where(Player.name == "Nora New"))
    assert nora.number == 33
    bad = client.post(url, data={"name": "Dup", "number": "5"})
    assert bad.status_code == 422
    assert "Number 5 already belongs to another player." in bad.get_data(as_text=True)
    empty = client.post(url, data={"name": "  ", "number": "70"})
    assert empty.status_code == 422 and 'id="name-error"' in empty.get_data(as_text=True)
    edit = client.post(f"{url}/{nora.id}", data={"name": "Nora Newer", "number": "40"})
    assert edit.status_code == 302
    db.session.expire_all()
    assert (nora.name, nora.number) == ("Nora Newer", 40)
    clash = client.post(f"{url}/{nora.id}", data={"name": "Nora", "number": "1"})
    assert clash.status_code == 422
    assert {"player.add", "player.edit"} <= set(actions())


def test_a_player_of_another_tournament_is_404(client, tournament, director):
    other = make_tournament(director, name="Other", players=4, seated=False)
    stranger = other.players[0]
    assert client.get(f"/director/t/{tournament.id}/players/{stranger.id}").status_code == 404


def test_table_cards_have_inline_svg_qr_codes_with_base_url(client, tournament, app):
    app.config["BASE_URL"] = "http://192.168.1.10:8000"
    body = client.get(f"/director/t/{tournament.id}/cards").get_data(as_text=True)
    assert body.count("<svg") == 8
    table = tournament.tables[0]
    assert f"http://192.168.1.10:8000/t/{tournament.code}/1?k={table.token}" in body


def test_rotating_a_token_kills_the_old_link_and_is_audited(client, tournament):
    table = tournament.tables[2]
    old = table.token
    response = client.post(f"/director/t/{tournament.id}/tables/3/rotate")
    assert response.status_code == 302
    db.session.expire_all()
    table = db.session.get(Table, table.id)
    assert table.token != old and table.token_rotated_at is not None
    assert db.session.scalar(select(Table).where(Table.token == old)) is None
    event = db.session.scalar(select(AuditEvent).where(AuditEvent.action ==
                                                       "table.rotate_token"))
    assert event.after["table"] == 3 and table.token not in str(event.after)
    body = client.get(f"/director/t/{tournament.id}/cards").get_data(as_text=True)
    assert table.token in body and old not in body
    assert client.post(f"/director/t/{tournament.id}/tables/99/rotate").status_code == 404


def test_poster_has_the_seat_lookup_qr(client, tournament):
    body = client.get(f"/director/t/{tournament.id}/poster").get_data(as_text=True)
    assert "<svg" in body and tournament.code in body and "Find your table" in body


def test_every_change_is_audited(client, tournament):
    client.post(f"/director/t/{tournament.id}/seating", data={"method": "draw", "seed": "5"})
    assert "seating.round1" in actions()
    assert all(e.actor == "Ann Director (director)" for e in db.session.scalars(select(AuditEvent)))


def test_competition_removed_when_sessions_cleared(client, tournament):
    client.post(f"/director/t/{tournament.id}/edit", data={
        "name": "Test Open", "rounds": "3", "games_per_round": "4", "round_minutes": "50",
        "prize_places": "3", "sessions": "1-2"})
    client.post(f"/director/t/{tournament.id}/edit", data={
        "name": "Test Open", "rounds": "3", "games_per_round": "4", "round_minutes": "50",
        "prize_places": "3", "sessions": ""})
    assert db.session.scalar(select(Competition)) is None


def test_fewer_rounds_drop_unstarted_rounds_and_minutes_follow(client, tournament):

    for number in (2, 3):
        ensure_round(tournament, number)
    round_row(tournament, 1).started_at = __import__("models").utcnow()
    db.session.commit()
    response = client.post(f"/director/t/{tournament.id}/edit", data={
        "name": "Test Open", "rounds": "2", "games_per_round": "4", "round_minutes": "45",
        "prize_places": "3"})
    assert response.status_code == 302
    db.session.expire_all()
    assert [r.number for r in tournament.round_list] == [1, 2]
    assert tournament.round_list[1].duration_seconds == 45 * 60
    assert tournament.round_list[0].duration_seconds == 50 * 60  # started: its clock stays
    response = client.post(f"/director/t/{tournament.id}/edit", data={
        "name": "Test Open", "rounds": "0", "games_per_round": "4", "round_minutes": "45",
        "prize_places": "3"})
    assert response.status_code == 422


def test_the_old_table_link_is_dead_after_rotation(client, tournament):
    table = tournament.tables[0]
    old = table.token
    old_link = f"/t/{tournament.code}/1?k={old}"
    assert client.get(old_link).status_code == 200
    client.post(f"/director/t/{tournament.id}/tables/1/rotate")
    db.session.expire_all()
    dead = client.get(old_link)
    assert dead.status_code == 404
    assert "no longer valid" in dead.get_data(as_text=True)
    new = db.session.get(Table, table.id).token
    assert client.get(f"/t/{tournament.code}/1?k={new}").status_code == 200


def test_poster_points_at_the_seat_lookup_with_base_url(client, tournament, app):
    app.config["BASE_URL"] = "http://192.168.1.10:8000"
    body = client.get(f"/director/t/{tournament.id}/poster").get_data(as_text=True)
    assert f"http://192.168.1.10:8000/p/{tournament.code}/seat" in body


def test_players_page_answers_htmx_with_its_partial(client, tournament):
    response = client.get(f"/director/t/{tournament.id}/players", headers={"HX-Request": "true"})
    body = response.get_data(as_text=True)
    assert '<div id="players">' in body and "<html" not in body
    assert "HX-Request" in response.headers["Vary"]



def test_a_refusal_no_page_shows_is_a_plain_422(app):
    """A refusal that escapes its page is answered by the blueprint's handler, not a 500."""
    from blueprints.director.blueprint import bp
    from blueprints.director.common import SetupError
    from core.errors import Refused

    handler = bp.error_handler_spec[None][None][Refused]
    with app.test_request_context("/director/"):
        body, status = handler(SetupError(None, "Not now."))
    assert status == 422 and "Not now." in body


def test_the_overview_polls_once_before_round_one_is_seated_too(client, director):
    """No director's bar yet: the overview's own poll keeps its clock, which changes once
    round 1 is seated."""
    tournament = make_tournament(director, seated=False, code="EARLY")
    page = client.get(f"/director/t/{tournament.id}").get_data(as_text=True)
    assert page.count('hx-trigger="every') == 1 and 'id="director-bar"' not in page
    poller = re.search(r'<div id="live"[^>]*>', page).group(0)
    url = re.search(r'hx-get="([^"]*)"', poller).group(1).replace("&amp;", "&")
    assert url.startswith(f"/live/director/{tournament.id}?")
    shown = dict(re.findall(r'data-live="(\w+)" data-live-version="([^"]*)"', page))
    assert shown == {"clock": "none", "seated": "no"}
    hx = {"HX-Request": "true"}
    assert client.get(f"{url}&clock=none&seated=no", headers=hx).status_code == 204
    seat_round_one(tournament, method="number", user=director)
    db.session.commit()
    # seated from another screen: the overview reloads, "Run the event" first and the bar
    reload = client.get(f"{url}&clock=none&seated=no", headers=hx)
    assert reload.status_code == 200 and reload.headers.get("HX-Refresh") == "true"
    page = client.get(f"/director/t/{tournament.id}").get_data(as_text=True)
    assert 'data-live="seated" data-live-version="yes"' in page
    assert page.index('id="run-the-event"') < page.index("Round 1 seated")
    # a page that sends no "seated" (any other director page) gets the clock as before
    answer = client.get(f"{url}&clock=none", headers=hx).get_data(as_text=True)
    assert 'id="clock"' in answer and 'hx-swap-oob="true"' in answer and "Round 1" in answer
