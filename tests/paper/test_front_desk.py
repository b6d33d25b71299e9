"""The front desk keys a paper sheet in, whole, and submits it for the table; the
director has a table score a round on paper. Who may, bad input at its box, nothing
changed when refused."""

from __future__ import annotations

import re

import pytest

from models import AuditEvent, Scoresheet, TournamentStaff, db
from tests.conftest import make_tournament, make_user, sign_in


@pytest.fixture
def tnt(director):
    """Table 1 scores round 1 on paper: the desk keys in only a table on paper."""
    tournament = make_tournament(director, players=8, rounds=2)
    paper(tournament, director, True)
    return tournament


def paper(tournament, director, on, table=1):
    from blueprints.table.desk_writes import set_on_paper
    from core.rounds import ensure_round

    set_on_paper(tournament.tables[table - 1], ensure_round(tournament, 1), on,
                 user=director, role="director")


def url(tournament, table=1, round_no=1, tail=""):
    return f"/t/director/{tournament.id}/{table}/{round_no}/desk{tail}"


def form_of(body: str) -> dict[str, str]:
    """The desk form's hidden fields as the page rendered them."""
    return dict(re.findall(r'<input[^>]*name="(version|round_no|request_key|csrf_token)"'
                           r'[^>]*value="([^"]*)"', body))


GAMES = {  # S 25 off W (2 exposures); E self-picked 30; wall; N 25 off E (1 exposure)
    0: {"winner": "S", "value": "25", "thrower": "W", "exposures": "2"},
    1: {"winner": "e", "value": "30", "self": "y"},
    2: {"winner": "wall"},
    3: {"winner": "Player 4", "value": "25", "thrower": "1", "exposures": "1"},
}


def sheet_data(hidden, games=GAMES, **extra):
    data = dict(hidden)
    for index, row in games.items():
        for name, value in row.items():
            data[f"games-{index}-{name}"] = value
    return {**data, **extra}


def stored(tournament, table=1):
    db.session.expire_all()
    return db.session.scalar(db.select(Scoresheet).where(
        Scoresheet.table_id == tournament.tables[table - 1].id))


def nothing_stored(tournament, table=1):
    sheet = stored(tournament, table)
    return sheet is None or (sheet.games == [] and sheet.state == "open")


def test_four_games_keyed_and_submitted_from_the_paper_sheet(client, tnt, director):
    page = client.get(url(tnt)).get_data(as_text=True)
    assert "?k=" not in page and "&amp;k=" not in page  # no table link on a staff page
    assert tnt.tables[0].token not in page
    response = client.post(url(tnt), data=sheet_data(form_of(page), action="submit",
                                                      initialled="y"))
    assert response.status_code == 303, response.get_data(as_text=True)
    sheet = stored(tnt)
    assert sheet.state == "submitted" and sheet.submitted_by == "front desk: Ann Director"
    points = [g.points for g in sheet.games]
    # tnt: S 25 thrown by W to 2 exposures: W -10; E self-picked 30 + 10 (losers X);
    # wall +10 each; N 25 thrown by E to 1 exposure: no penalty
    assert points == [{"E": 0, "S": 25, "W": -10, "N": 0},
                      {"E": 40, "S": 0, "W": 0, "N": 0},
                      {"E": 10, "S": 10, "W": 10, "N": 10},
                      {"E": 0, "S": 0, "W": 0, "N": 25}]
    assert {s.seat for s in sheet.signoffs} == {"E", "S", "W", "N"}  # tnt: every total
    rows = db.session.scalars(db.select(AuditEvent).where(
        AuditEvent.action == "game.paper")).all()
    assert len(rows) == 4
    assert rows[0].reason == "entered from the paper sheet by Ann Director"
    # the standings and the exports count it
    csv = client.get(f"/results/director/{tnt.id}/standings.csv").get_data(as_text=True)
    assert '"Player 4","35"' in csv  # North: X, X, wall 10, won 25
    games_csv = client.get(f"/results/director/{tnt.id}/games.csv").get_data(as_text=True)
    assert games_csv.count("\n") >= 5


def test_a_contradiction_is_named_at_its_box_and_nothing_is_saved(client, tnt):
    page = client.get(url(tnt)).get_data(as_text=True)
    games = {**GAMES, 0: {"winner": "S", "value": "25", "thrower": "S", "exposures": "2"}}
    response = client.post(url(tnt), data=sheet_data(form_of(page), games, action="submit",
                                                      initialled="y"))
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert "Game 1: The thrower cannot be the winner." in body
    assert re.search(r'name="games-0-thrower"[^>]*aria-invalid="true"', body) or \
        re.search(r'aria-invalid="true"[^>]*name="games-0-thrower"', body)
    assert nothing_stored(tnt)


@pytest.mark.parametrize("row, message", [
    ({"winner": "Q", "value": "25"}, "No one at this table is \u201cQ\u201d."),
    ({"winner": "S", "value": "abc", "thrower": "W", "exposures": "1"},
     "Type the card value in digits, like 25."),
    ({"winner": "S", "value": "27", "thrower": "W", "exposures": "1"},
     "The hand's value must be a card value: 20 to 150, in steps of 5."),
    ({"winner": "S", "value": "25", "thrower": "W"}, "How many exposures did the winner"),
    ({"winner": "S", "value": "25"}, "Who threw the winning tile? Or tick self-picked."),
])
def test_bad_input_at_its_box(client, tnt, row, message):
    page = client.get(url(tnt)).get_data(as_text=True)
    response = client.post(url(tnt), data=sheet_data(form_of(page), {0: row}, action="save"))
    assert response.status_code == 422
    assert message.replace("'", "&#39;") in response.get_data(as_text=True)
    assert nothing_stored(tnt)


def test_submit_needs_the_initials_tick_and_every_game(client, tnt):
    page = client.get(url(tnt)).get_data(as_text=True)
    response = client.post(url(tnt), data=sheet_data(form_of(page), action="submit"))
    assert response.status_code == 422
    assert "Tick that the paper sheet is initialled" in response.get_data(as_text=True)
    assert nothing_stored(tnt)
    response = client.post(url(tnt), data=sheet_data(form_of(page), {0: GAMES[0]},
                                                      action="submit", initialled="y"))
    assert "Game 2 is empty" in response.get_data(as_text=True)
    assert nothing_stored(tnt)


def test_save_then_submit_and_a_resend_changes_nothing_twice(client, tnt):
    page = client.get(url(tnt)).get_data(as_text=True)
    hidden = form_of(page)
    first = client.post(url(tnt), data=sheet_data(hidden, action="submit", initialled="y"))
    again = client.post(url(tnt), data=sheet_data(hidden, action="submit", initialled="y"))
    assert first.status_code == again.status_code == 303
    assert db.session.scalar(db.select(db.func.count()).select_from(AuditEvent).where(
        AuditEvent.action == "sheet.submit")) == 1


def test_a_stale_form_is_a_conflict(client, tnt):
    page = client.get(url(tnt)).get_data(as_text=True)
    hidden = form_of(page)
    client.post(url(tnt), data=sheet_data(hidden, {0: GAMES[0]}, action="save"))
    stale = {**hidden, "request_key": "another"}
    response = client.post(url(tnt), data=sheet_data(stale, action="save"))
    assert response.status_code == 409
    assert len(stored(tnt).games) == 1


def test_a_submitted_sheet_changes_only_with_a_reason(client, tnt):
    page = client.get(url(tnt)).get_data(as_text=True)
    client.post(url(tnt), data=sheet_data(form_of(page), action="submit", initialled="y"))
    page = client.get(url(tnt)).get_data(as_text=True)
    changed = {**GAMES, 2: {"winner": "wall", "dead": "N"}}
    response = client.post(url(tnt), data=sheet_data(form_of(page), changed, action="save"))
    assert response.status_code == 422
    assert "Write the reason for this change" in response.get_data(as_text=True)
    response = client.post(url(tnt), data=sheet_data(form_of(page), changed, action="save",
                                                      reason="N's hand was dead"))
    assert response.status_code == 303
    assert stored(tnt).games[2].points == {"E": 10, "S": 10, "W": 10, "N": 0}
    assert db.session.scalar(db.select(AuditEvent.reason).where(
        AuditEvent.action == "sheet.amend")) == "N's hand was dead"


def test_the_preview_shows_the_points_as_they_will_be_stored(client, tnt):
    page = client.get(url(tnt)).get_data(as_text=True)
    body = client.post(url(tnt, tail="/preview"), data=sheet_data(form_of(page)),
                       headers={"HX-Request": "true"}).get_data(as_text=True)
    assert '<span id="pts-1-W" hx-swap-oob="true">-10</span>' in body
    assert '<span id="pts-2-E" hx-swap-oob="true">40</span>' in body
    assert '<span id="pts-1-E" hx-swap-oob="true">X</span>' in body
    assert '<span id="total-N" hx-swap-oob="true">35</span>' in body
    assert nothing_stored(tnt)


def _staff(app, tournament, role, email):
    user = make_user(email, f"{role} person", "staff password")
    db.session.add(TournamentStaff(tournament_id=tournament.id, user_id=user.id, role=role))
    db.session.commit()
    other = app.test_client()
    sign_in(other, email, "staff password")
    return other


def test_a_scorer_keys_in_and_submits_and_gets_nothing_else(app, tnt):
    scorer = _staff(app, tnt, "scorer", "sue@example.com")
    page = scorer.get(url(tnt))
    assert page.status_code == 200
    assert "The sheet&#39;s page" not in page.get_data(as_text=True)
    response = scorer.post(url(tnt), data=sheet_data(form_of(page.get_data(as_text=True)),
                                                     action="submit", initialled="y"))
    assert response.status_code == 303
    assert stored(tnt).state == "submitted"
    assert scorer.get(f"/t/director/{tnt.id}/desk").status_code == 200
    for forbidden in (f"/director/t/{tnt.id}", f"/t/director/{tnt.id}/1/1",
                      f"/calls/director/{tnt.id}", f"/clock/director/{tnt.id}",
                      f"/director/t/{tnt.id}/audit", f"/director/t/{tnt.id}/cards"):
        assert scorer.get(forbidden).status_code in (403, 404), forbidden
    assert scorer.post(f"/t/director/{tnt.id}/round/1/paper",
                       data={"table": "1", "on": "1"}).status_code == 403
    # a submitted sheet is a director's to change
    page = scorer.get(url(tnt)).get_data(as_text=True)
    response = scorer.post(url(tnt), data=sheet_data(
        form_of(page), {**GAMES, 2: {"winner": "wall", "dead": "N"}}, action="save",
        reason="typo"))
    assert response.status_code == 409
    assert "Only a director can change it now." in response.get_data(as_text=True)


def test_a_table_guide_gets_nothing_that_changes_points(app, tnt):
    guide = _staff(app, tnt, "table-guide", "gail@example.com")
    assert guide.get(url(tnt)).status_code == 403
    assert guide.post(url(tnt), data=sheet_data({}, action="submit",
                                                initialled="y")).status_code == 403
    assert guide.post(url(tnt, tail="/preview"), data={}).status_code == 403
    assert guide.get(f"/t/director/{tnt.id}/desk").status_code == 403
    assert guide.post(f"/t/director/{tnt.id}/round/1/paper",
                      data={"table": "all", "on": "1"}).status_code == 403
    assert nothing_stored(tnt)


def test_another_directors_tournament_is_not_found(app, tnt):
    make_user("bob@example.com", "Bob Other", "other password")
    other = app.test_client()
    sign_in(other, "bob@example.com", "other password")
    assert other.get(url(tnt)).status_code == 404
    assert other.get(f"/t/director/{tnt.id}/desk").status_code == 404


def test_the_desk_refuses_without_a_csrf_token(app, client, tnt):
    page = client.get(url(tnt)).get_data(as_text=True)
    app.config["WTF_CSRF_ENABLED"] = True
    hidden = {k: v for k, v in form_of(page).items() if k != "csrf_token"}
    response = client.post(url(tnt), data=sheet_data(hidden, action="submit", initialled="y"))
    assert response.status_code == 400
    assert nothing_stored(tnt)


def test_a_scorers_home_and_crumbs_lead_to_the_front_desk(app, tnt):
    scorer = _staff(app, tnt, "scorer", "sue@example.com")
    home = scorer.get("/director/").get_data(as_text=True)
    assert f'href="/t/director/{tnt.id}/desk"' in home
    assert f'href="/director/t/{tnt.id}"' not in home
    page = scorer.get(url(tnt)).get_data(as_text=True)
    assert f'href="/director/t/{tnt.id}"' not in page


def test_a_game_the_desk_cannot_type_is_kept_as_entered(client, tnt, director):
    from blueprints.table.sheet_writes import save_game
    from core.rounds import ensure_round

    rnd = ensure_round(tnt, 1)
    paper(tnt, director, False)
    misnamed = {"outcome": "misnamed_tile", "misnamer": "W"}
    save_game(tnt.tables[0], rnd, 1, misnamed, initials="AB", version=stored(tnt).version,
              key="k1")
    paper(tnt, director, True)
    page = client.get(url(tnt)).get_data(as_text=True)
    assert "kept as entered" in page
    rest = {1: GAMES[1], 2: GAMES[2], 3: GAMES[3]}
    response = client.post(url(tnt), data=sheet_data(form_of(page), rest, action="submit",
                                                      initialled="y"))
    assert response.status_code == 303, response.get_data(as_text=True)
    sheet = stored(tnt)
    assert sheet.state == "submitted"
    assert sheet.games[0].record["outcome"] == "misnamed_tile"
    # tnt: the mis-caller -25, the other three +10
    assert sheet.games[0].points == {"E": 10, "S": 10, "W": -25, "N": 10}
    assert db.session.scalar(db.select(db.func.count()).select_from(AuditEvent).where(
        AuditEvent.action == "game.paper")) == 3  # the kept game was not written again


def test_the_desk_opens_on_the_latest_round_that_started(client, tnt):
    from blueprints.clock import actions
    from core.rounds import round_row

    body = client.get(f"/t/director/{tnt.id}/desk").get_data(as_text=True)
    assert "round 1" in body
    actions.start_round(tnt, 1, round_row(tnt, 1).clock_version, tnt.staff[0].user)
    response = client.get(f"/t/director/{tnt.id}/desk?table=2")
    assert response.headers["Location"].endswith(f"/t/director/{tnt.id}/2/1/desk")


def test_a_directors_ruling_on_a_game_stays_and_is_not_a_change(client, tnt, director):
    from blueprints.table.sheet_writes import save_game
    from core.rounds import ensure_round
    from core.sheets import add_adjustment

    rnd = ensure_round(tnt, 1)
    paper(tnt, director, False)
    save_game(tnt.tables[0], rnd, 1, {"outcome": "wall"}, initials="CC",
              version=stored(tnt).version, key="k")
    add_adjustment(tnt.tables[0], 1, "N", -10, "ruling: tile count", director, game_no=1)
    db.session.commit()
    paper(tnt, director, True)
    page = client.get(url(tnt)).get_data(as_text=True)
    assert '<span id="pts-1-N">X</span>' in page  # wall +10, ruling -10: as stored
    rest = {0: {"winner": "wall"}, 1: GAMES[1], 2: GAMES[2], 3: GAMES[3]}
    response = client.post(url(tnt), data=sheet_data(form_of(page), rest, action="submit",
                                                      initialled="y"))
    assert response.status_code == 303
    sheet = stored(tnt)
    assert sheet.games[0].record["adjustments"][0]["points"] == -10
    assert sheet.games[0].points["N"] == 0


def test_a_scorer_is_invited_like_a_guide_and_lands_on_the_front_desk(app, client, tnt):
    from tests.auth.test_staff import NEW_PASSWORD, invite, path_of

    link, _ = invite(client, tnt, "sue@example.com", "scorer")
    sue = app.test_client()
    done = sue.post(path_of(link), data={"name": "Sue Scorer", "password": NEW_PASSWORD,
                                         "repeat": NEW_PASSWORD})
    assert done.status_code == 302
    staff = db.session.scalar(db.select(TournamentStaff).where(
        TournamentStaff.tournament_id == tnt.id, TournamentStaff.role == "scorer"))
    assert staff is not None
    home = sue.get("/director/").get_data(as_text=True)
    assert f'href="/t/director/{tnt.id}/desk"' in home
    assert sue.get(url(tnt)).status_code == 200


@pytest.mark.parametrize("preset", ["city-mahj", "hidden-tile"])
def test_the_desks_initialled_tick_shows_on_the_players_page(client, director, preset):
    # city-mahj: the winner initials each game; hidden-tile asks for no initials at all.
    # Either way the desk's tick that the paper is initialled is what the player sees.
    tournament = make_tournament(director, players=8, rounds=2, preset=preset)
    paper(tournament, director, True)
    page = client.get(url(tournament)).get_data(as_text=True)
    before = client.get(f"/p/{tournament.code}/player/1").get_data(as_text=True)
    assert "initialled on the paper sheet" not in before
    response = client.post(url(tournament), data=sheet_data(form_of(page), action="submit",
                                                            initialled="y"))
    assert response.status_code == 303, response.get_data(as_text=True)
    body = client.get(f"/p/{tournament.code}/player/1").get_data(as_text=True)
    assert "Every game initialled on the paper sheet" in body
    assert "Not initialled yet" not in body
