"""No page repeats an element id: a label, a skip link or an aria reference to a repeated
id finds the first one only, and axe counts each as a violation."""

from __future__ import annotations

import re
from collections import Counter

from models import db
from tests.conftest import make_tournament
from tests.security.test_stored_state import every_page


def test_no_page_repeats_an_id(app, client, director):
    app.config["WTF_CSRF_ENABLED"] = True  # each form's token field is drawn (GETs only)
    tournament = make_tournament(director, players=32, rounds=3)
    from blueprints.calls import table_calls

    table_calls.place_call(tournament.tables[0], "", "")
    db.session.commit()
    repeated, pages = {}, 0
    for url in every_page(app, tournament):
        response = client.get(url)
        if response.status_code != 200 or "html" not in response.content_type:
            continue
        pages += 1
        ids = Counter(re.findall(r'\sid="([^"]+)"', response.get_data(as_text=True)))
        twice = {i: n for i, n in ids.items() if n > 1}
        if twice:
            repeated[url.split("?")[0]] = twice
    assert not repeated
    assert pages >= 30
