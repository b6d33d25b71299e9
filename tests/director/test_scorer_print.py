"""A scorer's printed score sheets: the sheets, without the director's bar (its clock,
calls and sheets in are not a scorer's) and without a poll the scorer may not make."""

from __future__ import annotations

from blueprints.clock import actions
from core.rounds import round_row
from models import TournamentStaff, db
from tests.conftest import make_tournament, make_user, sign_in


def test_a_scorers_printed_sheets_carry_no_directors_bar_and_no_poll(app, director):
    tournament = make_tournament(director, players=8, rounds=2)
    actions.start_round(tournament, 1, round_row(tournament, 1).clock_version, director)
    user = make_user("sue@example.com", "Sue Scorer", "staff password")
    db.session.add(TournamentStaff(tournament_id=tournament.id, user_id=user.id,
                                   role="scorer"))
    db.session.commit()
    scorer = app.test_client()
    sign_in(scorer, "sue@example.com", "staff password")
    response = scorer.get(f"/director/t/{tournament.id}/rounds/1/sheets")
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert "Table 1" in body
    assert 'id="director-bar"' not in body
    assert f"/live/director/{tournament.id}" not in body
    assert scorer.get(f"/live/director/{tournament.id}").status_code == 403
    # the director's own printed sheets keep the bar
    own = app.test_client()
    sign_in(own)
    assert 'id="director-bar"' in own.get(
        f"/director/t/{tournament.id}/rounds/1/sheets").get_data(as_text=True)
