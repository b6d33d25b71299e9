"""The procedure rules on the director's Rules page: beside the sheet's words and the app's
reading, editable before play, read-only after."""

from __future__ import annotations

from sqlalchemy import select

from models import AuditEvent, db
from tests.conftest import make_tournament
from tests.director.test_tournament import enter_a_game, rules_data


def rules_page(client, tournament):
    return client.get(f"/director/t/{tournament.id}/rules").get_data(as_text=True)


def test_hidden_tiles_procedure_sits_beside_its_words(client, director):
    htm = make_tournament(director, players=8, preset="hidden-tile", code="HTMRUL")
    page = rules_page(client, htm)
    assert "The director may add minutes to a round" in page
    assert "No extensions are provided." in page            # hidden-tile's own words
    assert "after verification, scores are final." in page
    assert 'name="scores_final"' in page and '<option selected value="verified">' in page
    assert "The app's reading:" in page
    assert "a director&#39;s change to a verified sheet returns it to awaiting" in page


def test_procedure_rules_are_editable_before_play_and_audited(client, tournament):
    # tnt: "Once submitted, no changes may be made."
    page = rules_page(client, tournament)
    assert "Once submitted, no changes may be made." in page
    assert 'checked id="clock_extensions"' in page
    response = client.post(f"/director/t/{tournament.id}/rules",
                           data=rules_data(tournament, changes_after_submit="amendment",
                                           clock_extensions=None, tiebreak="shared"))
    assert response.status_code == 302
    db.session.expire_all()
    assert tournament.rules["changes_after_submit"] == "amendment"
    assert tournament.rules["clock_extensions"] is False
    assert tournament.rules["tiebreak"] == "shared"
    event = db.session.scalar(select(AuditEvent).where(AuditEvent.action == "rules.update"))
    assert event.after == {"changes_after_submit": "amendment", "clock_extensions": False,
                           "tiebreak": "shared"}


def test_final_at_verification_needs_a_table_guide(client, tournament):
    before = dict(tournament.rules)
    response = client.post(f"/director/t/{tournament.id}/rules",
                           data=rules_data(tournament, scores_final="verified"))
    assert response.status_code == 422
    assert 'id="scores_final-error"' in response.get_data(as_text=True)
    db.session.expire_all()
    assert tournament.rules == before


def test_procedure_rules_are_read_only_once_a_score_is_in(client, tournament):
    enter_a_game(tournament)
    page = rules_page(client, tournament)
    assert 'name="changes_after_submit"' not in page
    assert "A director&#39;s change to a submitted sheet" in page
    assert "is a ruling (the sheet says no changes after submission)" in page


def test_a_tournament_stored_before_the_procedure_rules_shows_its_presets(client, director):
    from models import Tournament

    htm = make_tournament(director, players=8, preset="hidden-tile", code="HTMOLD")
    old = {k: v for k, v in htm.rules.items()
           if k not in ("scores_final", "clock_extensions", "west_checks_sheet")}
    db.session.execute(db.update(Tournament).where(Tournament.id == htm.id).values(rules=old))
    db.session.commit()
    db.session.expire_all()
    page = rules_page(client, htm)
    assert '<option selected value="verified">' in page
    assert 'id="clock_extensions"' in page and 'checked id="clock_extensions"' not in page
