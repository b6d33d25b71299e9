"""Results pages: who may see what, polling, the director's forms and the exports."""

from __future__ import annotations

import csv
import io

import pytest

from blueprints.results import standings, standings_versions
from models import Tiebreak, TournamentStaff, db
from tests.conftest import make_tournament, make_user, sign_in
from tests.cycles import left_in_cycles
from tests.results.conftest import WALL, add_sheet, win


def test_public_standings_by_code_need_no_sign_in(app, tournament):
    add_sheet(tournament, 1, 1, [win("E")])
    client = app.test_client()
    page = client.get(f"/results/{tournament.code.lower()}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Player 1" in html and "35" in html and 'id="standings"' in html
    assert 'style="' not in html
    assert client.get("/results/NOSUCH").status_code == 404



def test_the_public_standings_leave_nothing_to_the_garbage_collector(app, tournament):
    """The standings' macros are imported without the page's context, and its pager is
    rendered once rather than defined as a macro of the page: a macro made at each render
    holds the render's context, the board and its lines with it, in a cycle that waits
    for the garbage collector."""
    add_sheet(tournament, 1, 1, [win("E")])
    client = app.test_client()
    pages = (lambda: client.get(f"/results/{tournament.code}"),
             lambda: client.get(f"/results/{tournament.code}?view=provisional"))
    for page in pages:
        assert page().status_code == 200
    assert left_in_cycles(*pages) == []
    assert "Player 1" in pages[0]().get_data(as_text=True)

def test_poll_gets_204_until_a_sheet_changes(app, tournament):
    client = app.test_client()
    headers = {"HX-Request": "true"}
    versions = standings_versions.results_versions(tournament)
    url = f"/results/{tournament.code}?v={versions.official}&o={versions.open_games}"
    assert client.get(url, headers=headers).status_code == 204
    add_sheet(tournament, 1, 1, [win("E")])
    partial = client.get(url, headers=headers)
    assert partial.status_code == 200
    html = partial.get_data(as_text=True)
    assert html.lstrip().startswith("<section") and "<html" not in html
    assert "HX-Request" in partial.headers["Vary"]
    shown = standings_versions.results_versions(tournament)
    assert f"v={shown.official}" in html and f"o={shown.open_games}" in html


def test_a_game_saved_on_an_open_sheet_sends_the_official_standings_only_its_count(
        app, tournament):
    """The official standings count final sheets only: a game saved at a table whose sheet
    is still open changes the count of games not counted yet, and the poll gets that
    count and its own new address out of band, not the lines again. The provisional
    standings, which show that game, get their lines."""
    add_sheet(tournament, 1, 1, [win("E")])
    client = app.test_client()
    headers = {"HX-Request": "true"}
    before = standings_versions.results_versions(tournament)
    official = f"/results/{tournament.code}?v={before.official}&o={before.open_games}&me=3"
    provisional = f"/results/{tournament.code}?view=provisional&v={before.every}"
    assert client.get(official, headers=headers).status_code == 204
    assert client.get(provisional, headers=headers).status_code == 204

    open_sheet = add_sheet(tournament, 1, 2, [win("S"), WALL], state="open")
    after = standings_versions.results_versions(tournament)
    assert (after.official, after.open_games) == (before.official, 2)
    assert after.every != before.every
    answer = client.get(official, headers=headers)
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200 and answer.headers["HX-Reswap"] == "none"
    assert "<section" not in html and "Player 1" not in html      # no line re-sent
    assert html.count('hx-swap-oob="true"') == 2
    assert 'id="standings-open"' in html and "2 games entered at tables" in html
    poll = html.split('id="standings-poll"')[1].split(">")[0]
    assert f"v={after.official}" in poll and "o=2" in poll and "me=3" in poll
    following = official.replace(f"o={before.open_games}", "o=2")
    assert client.get(following, headers=headers).status_code == 204
    lines = client.get(provisional, headers=headers)
    assert lines.status_code == 200 and "<section" in lines.get_data(as_text=True)

    open_sheet.state = "submitted"  # now it counts: the lines change
    db.session.commit()
    submitted = client.get(following, headers=headers)
    assert submitted.status_code == 200 and "HX-Reswap" not in submitted.headers
    html = submitted.get_data(as_text=True)
    assert html.lstrip().startswith("<section") and 'id="standings-open"' in html
    assert standings_versions.results_versions(tournament).open_games == 0


def test_onlookers_on_one_version_share_one_ranking(app, tournament, monkeypatch):
    """A worker ranks the public standings once for each version of what they show;
    what differs between onlookers ("Find me") and what the version leaves out (the count
    of games not counted yet) is each request's own, and a new version is ranked again.
    A page served from a kept ranking is the page a fresh ranking gives."""
    monkeypatch.setattr(standings_versions, "_PUBLIC_BOARDS", {})
    ranked = []
    rank = standings.board
    monkeypatch.setattr(standings_versions, "board",
                        lambda *args, **kwargs: ranked.append(kwargs) or rank(*args, **kwargs))
    client = app.test_client()

    def page(query: str = "") -> str:
        return client.get(f"/results/{tournament.code}{query}").get_data(as_text=True)

    add_sheet(tournament, 1, 1, [win("E")])
    first, second = page("?me=1"), page("?me=2")
    assert len(ranked) == 1
    assert "(No. 1): rank 1" in first and "(No. 2): rank 2" in second  # East won

    add_sheet(tournament, 1, 2, [win("S")], state="open")  # the official lines stay
    kept = page()
    assert len(ranked) == 1 and "1 game entered at tables" in kept
    standings_versions._PUBLIC_BOARDS.clear()
    assert page() == kept and len(ranked) == 2

    add_sheet(tournament, 1, 3, [win("W", value=50)])     # a sheet submitted: new lines
    versions = standings_versions.results_versions(tournament)
    poll = client.get(f"/results/{tournament.code}?v=shown&o={versions.open_games}",
                      headers={"HX-Request": "true"})
    assert poll.status_code == 200 and len(ranked) == 3
    assert len(standings_versions._PUBLIC_BOARDS) == 1  # the older version is not kept beside it
    standings_versions._PUBLIC_BOARDS.clear()
    assert client.get(f"/results/{tournament.code}?v=shown&o={versions.open_games}",
                      headers={"HX-Request": "true"}).data == poll.data
    assert len(ranked) == 4

    page("?view=provisional")  # its own version, ranked once for both onlookers
    page("?view=provisional&me=5")
    assert len(ranked) == 5 and ranked[-1]["provisional"] is True
    assert len(standings_versions._PUBLIC_BOARDS) == 2  # the official view's and this one's

    monkeypatch.setattr(standings_versions, "PUBLIC_BOARDS_KEPT", 1)  # the oldest make room
    standings_versions._PUBLIC_BOARDS.pop((tournament.id, False))
    page()
    assert len(ranked) == 6 and list(standings_versions._PUBLIC_BOARDS) == [(tournament.id, False)]


def change_watch(tournament, which: str):
    """changed(): commit, then whether the standings' version `which` (a field of
    standings_versions.Versions) is one not seen before."""
    seen = {getattr(standings_versions.results_versions(tournament), which)}

    def changed() -> bool:
        db.session.commit()
        version = getattr(standings_versions.results_versions(tournament), which)
        new = version not in seen
        seen.add(version)
        return new

    return changed


def test_the_version_follows_every_change_of_a_game_the_standings_show(app, tournament):
    sheet = add_sheet(tournament, 1, 1, [win("E"), WALL], state="open")
    changed = change_watch(tournament, "every")
    sheet.games[1].points = {"E": -10, "S": 30, "W": -10, "N": -10}   # new points
    assert changed()
    sheet.games[1].record = {"outcome": "mahjong", "winner": "S", "value": 30,
                             "self_picked": True}                     # a win, same points
    assert changed()
    sheet.games.pop()                                                 # a game removed
    assert changed()
    sheet.games[0].note = "checked"       # nothing the standings show: no refresh for it
    assert not changed()


def test_the_official_version_follows_every_change_of_a_final_sheet(app, tournament):
    sheet = add_sheet(tournament, 1, 1, [win("E"), WALL])
    changed = change_watch(tournament, "official")
    sheet.games[1].points = {"E": -10, "S": 30, "W": -10, "N": -10}   # an amendment
    assert changed()
    sheet.state = "open"                                              # reopened
    assert changed()
    sheet.games[1].note = "checked"          # on an open sheet: not in the official lines
    assert not changed()


def test_provisional_view_and_competition_tabs(app, tournament):
    add_sheet(tournament, 1, 2, [win("E")], state="open")
    client = app.test_client()
    official = client.get(f"/results/{tournament.code}").get_data(as_text=True)
    assert "1 game entered at tables" in official
    provisional = client.get(f"/results/{tournament.code}?view=provisional").get_data(
        as_text=True)
    assert "Provisional" in provisional and "35" in provisional
    assert client.get(f"/results/{tournament.code}?c=nonsense").status_code == 200


def test_director_page_is_404_for_another_director(app, client, tournament):
    assert client.get(f"/results/director/{tournament.id}").status_code == 200
    other = make_user("bob@example.com", "Bob")
    theirs = make_tournament(other, players=8, code="BOBS01")
    for path in ("", "/games.csv", "/standings.csv", "/print", "/backup.json"):
        assert client.get(f"/results/director/{theirs.id}{path}").status_code == 404, path
    assert client.post(f"/results/director/{theirs.id}/prize-places",
                       data={"prize_places": 1}).status_code == 404
    assert client.get("/results/director/99999").status_code == 404


def test_signed_out_visitors_are_sent_to_sign_in(app, tournament):
    from flask import g

    g.pop("_login_user", None)  # the test's app context outlives requests; forget the director
    response = app.test_client().get(f"/results/director/{tournament.id}")
    assert response.status_code == 302 and "/auth/sign-in" in response.headers["Location"]


def test_table_guides_see_results_but_cannot_change_or_back_up(app, tournament):
    guide = make_user("gus@example.com", "Gus")
    db.session.add(TournamentStaff(tournament_id=tournament.id, user_id=guide.id,
                                   role="table-guide"))
    db.session.commit()
    client = app.test_client()
    sign_in(client, "gus@example.com")
    assert client.get(f"/results/director/{tournament.id}").status_code == 200
    assert client.get(f"/results/director/{tournament.id}/games.csv").status_code == 200
    assert client.get(f"/results/director/{tournament.id}/backup.json").status_code == 403
    assert client.post(f"/results/director/{tournament.id}/prize-places",
                       data={"prize_places": 1}).status_code == 403


def test_prize_places_form(client, tournament):
    url = f"/results/director/{tournament.id}/prize-places"
    bad = client.post(url, data={"prize_places": "lots"})
    assert bad.status_code == 422
    assert "prize_places-error" in bad.get_data(as_text=True)
    db.session.refresh(tournament)
    assert tournament.prize_places == 3
    assert client.post(url, data={"prize_places": "5"}).status_code == 302
    db.session.refresh(tournament)
    assert tournament.prize_places == 5


def test_tie_form_records_a_draw_and_refuses_bad_places(client, tournament):
    add_sheet(tournament, 1, 1, [win("E")])
    add_sheet(tournament, 1, 2, [win("E")])
    page = client.get(f"/results/director/{tournament.id}").get_data(as_text=True)
    assert "Tie for place 1" in page
    ids = [line.player.id for line in standings.board(tournament).main.lines[:2]]
    url = f"/results/director/{tournament.id}/ties"
    group = ",".join(map(str, ids))
    bad = client.post(url, data={"competition": "main", "group": group, "decision": "draw",
                                 f"place-{ids[0]}": "1", f"place-{ids[1]}": "1"})
    assert bad.status_code == 422 and "different place" in bad.get_data(as_text=True)
    assert db.session.query(Tiebreak).count() == 0
    ok = client.post(url, data={"competition": "main", "group": group, "decision": "draw",
                                f"place-{ids[0]}": "2", f"place-{ids[1]}": "1"})
    assert ok.status_code == 302
    lines = standings.board(tournament).main.lines
    assert [line.player.id for line in lines[:2]] == [ids[1], ids[0]]
    tiebreak = db.session.query(Tiebreak).one()
    assert client.post(f"{url}/clear", data={"tiebreak_id": tiebreak.id}).status_code == 302
    assert db.session.query(Tiebreak).count() == 0


def test_missing_results_link_to_the_tables_sheet(client, tournament):
    add_sheet(tournament, 1, 1, [win("E"), WALL], state="open")
    html = client.get(f"/results/director/{tournament.id}").get_data(as_text=True)
    assert f"/t/director/{tournament.id}/1/1" in html
    assert "East: #1 Player 1" in html


def test_missing_results_page_names_sheets_awaiting_a_guide_under_hidden_tile(client,
                                                                              director):
    tournament = make_tournament(director, players=8, preset="hidden-tile")
    add_sheet(tournament, 1, 1, [win("E")])
    html = client.get(f"/results/director/{tournament.id}").get_data(as_text=True)
    assert "submitted, awaiting a table guide's verification" in html
    assert "1 of 2 tables not submitted" in html


def test_csv_exports(client, tournament):
    add_sheet(tournament, 1, 1, [win("S", discarder="W"), WALL])
    games = client.get(f"/results/director/{tournament.id}/games.csv")
    assert games.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(games.get_data(as_text=True))))
    assert len(rows) == 8                                     # 2 games x 4 seats
    assert rows[1]["seat"] == "S" and rows[1]["points"] == "25"
    assert rows[2]["discarder"] == "W" and rows[2]["points"] == "-10"
    assert rows[4]["outcome"] == "wall" and rows[4]["player_name"] == "Player 1"
    table = client.get(f"/results/director/{tournament.id}/standings.csv")
    lines = list(csv.DictReader(io.StringIO(table.get_data(as_text=True))))
    assert lines[0]["player_number"] == "2" and lines[0]["total"] == "35"
    assert len(lines) == 32


def test_print_page(client, tournament):
    add_sheet(tournament, 1, 1, [win("E")])
    html = client.get(f"/results/director/{tournament.id}/print").get_data(as_text=True)
    assert "Test Open: results" in html and "/static/bundle/staff.css" in html
    from assets import BUNDLES

    assert "css/results.css" in BUNDLES["staff"]["css"]


def render_include(app, name, **context):
    from flask import render_template_string

    with app.test_request_context():
        return render_template_string('{% include "' + name + '" %}', **context)


def test_player_history_include_draws_an_svg_without_style_attributes(app, tournament):
    player = tournament.players[0]
    empty = render_include(app, "results/_player_history.html", tournament=tournament,
                           player=player)
    assert "<svg" not in empty and "No submitted sheet yet" in empty
    add_sheet(tournament, 1, 1, [win("E")])
    add_sheet(tournament, 2, 1, [WALL])
    html = render_include(app, "results/_player_history.html", tournament=tournament,
                          player=player)
    assert "<svg" in html and "<polyline" in html and 'role="img"' in html
    assert "style=" not in html and "<script" not in html
    assert "Rank after" in html and ">45<" in html            # 35 + a wall game's 10


def test_leaders_include_for_the_big_screen(app, tournament):
    html = render_include(app, "results/_leaders.html", tournament=tournament)
    assert "No results yet" in html and "<li>" not in html
    add_sheet(tournament, 1, 1, [win("E")])
    html = render_include(app, "results/_leaders.html", tournament=tournament)
    # Only the four who played: the 28 with no result yet are not leaders "at X".
    assert "Player 1" in html and html.count("<li>") == 4
    assert "No results yet" not in html
    assert html.count(">X<") == 3                     # the real zeros of the three who paid


def test_leaders_are_capped_at_the_count_with_the_rest_of_the_tie_counted(app, tournament):
    """Three tables' wall games in: 12 players tied at +10, ten lines, then "and 2 more"."""
    for table in (1, 2, 3):
        add_sheet(tournament, 1, table, [WALL])
    html = render_include(app, "results/_leaders.html", tournament=tournament)
    assert html.count("<li>") == 10
    assert "and 2 more tied" in html


def test_public_standings_say_no_results_yet_before_any_sheet(app, tournament):
    """Not 32 players all "1=" with X."""
    client = app.test_client()
    html = client.get(f"/results/{tournament.code}").get_data(as_text=True)
    assert "No results yet" in html
    assert "<abbr" not in html and "Player 1<" not in html
    add_sheet(tournament, 1, 2, [win("E")], state="open")
    html = client.get(f"/results/{tournament.code}").get_data(as_text=True)
    assert "No results yet" in html and "1 game entered at tables" in html
    provisional = client.get(f"/results/{tournament.code}?view=provisional").get_data(
        as_text=True)
    assert "No results yet" not in provisional and "35" in provisional
    add_sheet(tournament, 1, 1, [win("E")])
    html = client.get(f"/results/{tournament.code}").get_data(as_text=True)
    assert "No results yet" not in html and "Player 1<" in html


def test_competition_tabs_show_the_mini_tournament_apart(app, director):
    from models import Competition, CompetitionEntry

    tournament = make_tournament(director, players=8, rounds=3, preset="destination")
    mini = Competition(tournament_id=tournament.id, kind="mini", name="Mini tournament",
                       first_round=2, last_round=3, entrants_only=True)
    mini.entries = [CompetitionEntry(player_id=tournament.players[2].id)]
    db.session.add(mini)
    db.session.commit()
    add_sheet(tournament, 2, 1, [win("E")])
    client = app.test_client()
    main = client.get(f"/results/{tournament.code}").get_data(as_text=True)
    assert "Mini tournament" in main and f"c=competition:{mini.id}" in main.replace(
        "%3A", ":")
    page = client.get(f"/results/{tournament.code}?c=competition:{mini.id}")
    html = page.get_data(as_text=True)
    assert "rounds 2-3, entrants only" in html
    assert "Player 3" in html and "Player 4" not in html


@pytest.mark.parametrize("tiebreak_id", ["²", "１", "99999999999999999999999", "-1", " ", "1e3"])
def test_undo_with_a_bad_tiebreak_id_is_404_never_500(client, tournament, tiebreak_id):
    response = client.post(f"/results/director/{tournament.id}/ties/clear",
                           data={"tiebreak_id": tiebreak_id})
    assert response.status_code == 404


@pytest.mark.parametrize("place", ["²", "99999999999999999999999"])
def test_tie_places_in_other_digits_are_refused_at_the_field(client, tournament, place):
    add_sheet(tournament, 1, 1, [win("E")])
    add_sheet(tournament, 1, 2, [win("E")])
    ids = [line.player.id for line in standings.board(tournament).main.lines[:2]]
    response = client.post(
        f"/results/director/{tournament.id}/ties",
        data={"competition": "main", "group": f"{ids[0]},{ids[1]}²", "decision": "draw",
              f"place-{ids[0]}": place, f"place-{ids[1]}": "1"})
    assert response.status_code == 422
    response = client.post(
        f"/results/director/{tournament.id}/ties",
        data={"competition": "main", "group": f"{ids[0]},{ids[1]}", "decision": "draw",
              f"place-{ids[0]}": place, f"place-{ids[1]}": "1"})
    assert response.status_code == 422
    assert "place in the draw" in response.get_data(as_text=True)
    assert db.session.query(Tiebreak).count() == 0


@pytest.mark.parametrize("key", ["main\nSet-Cookie: x=1", "competition:999\r\n",
                                 "../../etc", "é"])
def test_standings_csv_filename_comes_from_the_resolved_competition(client, tournament, key):
    response = client.get(f"/results/director/{tournament.id}/standings.csv",
                          query_string={"c": key})
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == \
        f'attachment; filename="{tournament.code}-standings.csv"'


def test_a_corrected_name_reaches_the_polling_standings_and_big_screen(app, client,
                                                                        tournament):
    """A rename changes no score, yet the standings and the big screen's leaders show the
    name: their fingerprints count the changes to the players."""
    from blueprints.display.service import board

    add_sheet(tournament, 1, 1, [win("E")])
    player = next(p for p in tournament.players if p.number == 1)
    versions, screen = standings_versions.results_versions(tournament), board(tournament).version
    response = client.post(f"/director/t/{tournament.id}/players/{player.id}",
                           data={"number": "1", "name": "Ruth Abrams"})
    assert response.status_code == 302
    db.session.expire_all()
    assert standings_versions.results_versions(tournament).official != versions.official
    assert board(tournament).version != screen
    poll = app.test_client().get(
        f"/results/{tournament.code}?v={versions.official}&o={versions.open_games}",
        headers={"HX-Request": "true"})
    assert poll.status_code == 200 and "Ruth Abrams" in poll.get_data(as_text=True)


def test_changes_to_the_players_are_counted_in_sql(tournament):
    """Two changes in one unit (or from two directors at once) count twice: the count is
    raised by the database, not written back from what the page had read."""
    from blueprints.director.common import players_changed

    before = tournament.players_version
    players_changed(tournament)
    players_changed(tournament)
    db.session.commit()
    db.session.expire_all()
    assert tournament.players_version == before + 2
