"""A table's token is the right to enter its points. A table guide takes calls and
verifies sheets but changes no points, so no page a guide can open carries a token:
otherwise the guide, or a guide later removed from the staff, could score as the table."""

from __future__ import annotations

import pytest

from models import TournamentStaff, db
from tests.conftest import make_tournament, make_user, sign_in
from tests.security.test_access import build, rules_with


@pytest.fixture
def guide_client(app, client, director):
    tournament = make_tournament(director, players=8, rounds=2, code="GUIDE1")
    from blueprints.calls import table_calls
    from tests.director.conftest import enter_a_game

    table_calls.place_call(tournament.tables[0], "", "")  # so the call pages have a call
    sheet = enter_a_game(tournament)                       # and a sheet has a game
    sheet.state = "submitted"
    db.session.commit()
    gail = make_user("gail@example.com", "Gail Guide", "guide password")
    db.session.add(TournamentStaff(tournament_id=tournament.id, user_id=gail.id,
                                   role="table-guide"))
    db.session.commit()
    client.post("/auth/sign-out")
    sign_in(client, "gail@example.com", "guide password")
    return tournament


def test_no_page_a_guide_opens_carries_a_table_token(app, client, guide_client):
    tournament = guide_client
    from models import DirectorCall

    call = db.session.scalar(db.select(DirectorCall))
    tokens = {t.token for t in tournament.tables}
    opened = 0
    for rule in rules_with(app, "tournament_id"):
        if "GET" not in rule.methods:
            continue
        for table_no in (1, 2):
            url = build(rule, tournament_id=tournament.id, table_no=table_no, number=table_no,
                        call_id=call.id)
            response = client.get(url)
            if response.status_code != 200:
                continue
            opened += 1
            body = response.get_data(as_text=True)
            assert not [t for t in tokens if t in body], url
    for url in ("/director/", f"/t/{tournament.code}/seat", "/auth/account"):
        body = client.get(url).get_data(as_text=True)
        assert not [t for t in tokens if t in body], url
    # the sheet pages, the call page, the overview, the queue, the clock at least
    assert opened >= 8
