"""The director's pages in words: table counts that name the substitutes still needed,
role labels, the "Getting ready" list and the repeat-meetings wording, the backup-import
link only for directors, and the rules link once scores are in."""

from __future__ import annotations

import re

import pytest

from models import TournamentStaff, db
from tests.conftest import make_tournament, make_user, sign_in
from tests.director.conftest import enter_a_game


def text_of(body: str) -> str:
    """The page's words with tags dropped and spaces squeezed."""
    import html

    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))


# --- table counts -----------------------------------------------------------------

@pytest.mark.parametrize("players, words", [
    (30, "30 players: 2 substitutes needed for 8 tables"),
    (33, "33 players: 3 substitutes needed for 9 tables"),
    (31, "31 players: 1 substitute needed for 8 tables"),
    (1, "1 player: 3 substitutes needed for 1 table"),
    (32, "32 players · 8 tables"),
    (4, "4 players · 1 table"),
])
def test_players_and_seating_pages_count_the_tables_the_substitutes_fill(
        client, director, players, words):
    tournament = make_tournament(director, players=players, seated=False)
    for path in ("/players", "/seating"):
        page = text_of(client.get(f"/director/t/{tournament.id}{path}").get_data(as_text=True))
        assert words in page, path


def test_no_players_yet_says_so_without_a_table_count(client, director):
    tournament = make_tournament(director, players=0, seated=False)
    page = text_of(client.get(f"/director/t/{tournament.id}/players").get_data(as_text=True))
    assert "0 tables" not in page and "No players yet" in page


# --- role labels, getting ready, repeat meetings ---------------------------------

def test_staff_form_and_list_use_the_same_role_labels(client, tournament, guide):
    body = client.get(f"/director/t/{tournament.id}/staff").get_data(as_text=True)
    options = dict(re.findall(r'<option[^>]*value="([^"]+)"[^>]*>([^<]+)</option>', body))
    assert options == {"director": "Director", "co-director": "Co-director",
                       "table-guide": "Table guide", "scorer": "Scorer (front desk)"}
    assert "Gail Guide</strong> · Table guide" in body
    assert "Co director" not in body


def test_home_and_overview_say_co_director_with_a_hyphen(client, tournament):
    co = make_user("cora@example.com", "Cora Co", "co password")
    db.session.add(TournamentStaff(tournament_id=tournament.id, user_id=co.id,
                                   role="co-director"))
    db.session.commit()
    client.post("/auth/sign-out")
    sign_in(client, "cora@example.com", "co password")
    home = text_of(client.get("/director/").get_data(as_text=True))
    assert "Co-director · code" in home and "Co director" not in home
    overview = text_of(client.get(f"/director/t/{tournament.id}").get_data(as_text=True))
    assert "you are co-director" in overview and "co director" not in overview


def test_getting_ready_marks_done_items_and_names_the_rest_to_do(client, director):
    tournament = make_tournament(director, players=30, seated=False)
    body = client.get(f"/director/t/{tournament.id}").get_data(as_text=True)
    ready = body[body.index('id="todo"'):]
    ready = ready[:ready.index("</section>")]
    assert "<ol" not in ready          # no numbers beside the ticks
    items = [text_of(li).strip() for li in re.findall(r"<li[^>]*>(.*?)</li>", ready, re.S)]
    assert len(items) == 3
    # 30 players still need 2 substitutes: not done yet
    assert all(item.startswith("To do:") for item in items), items

    tournament = make_tournament(director, players=32, seated=True, name="Ready Open")
    body = client.get(f"/director/t/{tournament.id}").get_data(as_text=True)
    ready = body[body.index('id="todo"'):]
    ready = ready[:ready.index("</section>")]
    items = [text_of(li).strip() for li in re.findall(r"<li[^>]*>(.*?)</li>", ready, re.S)]
    assert items[0].startswith("✓ Done: Players: 32"), items
    assert items[1].startswith("✓ Done: Round 1 seated"), items
    assert items[2].startswith("To do:"), items


def test_no_repeat_meetings_says_only_nobody_meets_twice(client, tournament):
    page = text_of(client.get(f"/director/t/{tournament.id}/meetings").get_data(as_text=True))
    assert "Nobody meets the same player twice." in page
    assert "0 pairs" not in page and "more than once" not in page


def test_repeat_meetings_still_counts_the_pairs(client, director):
    tournament = make_tournament(director, players=24, rounds=3, name="Six Open")
    page = text_of(client.get(f"/director/t/{tournament.id}/meetings").get_data(as_text=True))
    assert "6 pairs of players together more than once" in page
    assert "Nobody meets" not in page


# --- the backup import link -------------------------------------------------------------

def test_home_offers_the_backup_import_to_a_director(client, tournament):
    assert "/results/import" in client.get("/director/").get_data(as_text=True)


def test_home_hides_the_backup_import_from_a_table_guide(client, tournament, guide):
    client.post("/auth/sign-out")
    sign_in(client, "gail@example.com", "guide password")
    body = client.get("/director/").get_data(as_text=True)
    assert "Test Open" in body
    assert "/results/import" not in body and "from a backup" not in body
    assert client.get("/results/import").status_code == 403


def test_home_offers_neither_creating_nor_importing_to_an_account_not_allowed(client, app):
    make_user("new@example.com", "New Person", "new person password")
    sign_in(client, "new@example.com", "new person password")
    body = client.get("/director/").get_data(as_text=True)
    assert "/results/import" not in body and "Create a tournament" not in body


# --- the rules link once scores are in -----------------------------------------------------

def test_overview_rules_link_says_read_only_once_scores_are_in(client, tournament):
    link = re.compile(rf'href="/director/t/{tournament.id}/rules">(.*?)</a>', re.S)
    before = text_of(link.search(client.get(f"/director/t/{tournament.id}")
                                 .get_data(as_text=True)).group(1))
    assert "read-only" not in before
    enter_a_game(tournament)
    after = text_of(link.search(client.get(f"/director/t/{tournament.id}")
                                .get_data(as_text=True)).group(1))
    assert "read-only" in after and "scores are in" in after
