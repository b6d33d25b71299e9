"""What the table's pages give a phone without :has() (Safari before 15.4, Firefox before
121) and what an older player reads: classes the server sets for the layout that matters,
the chosen answers marked, and Submit green only when it can be used."""

from __future__ import annotations

import re

from tests.table.test_round import initial_all, play_round


def body_class(html: str) -> set[str]:
    return set(re.search(r'<body[^>]* class="([^"]*)"', html).group(1).split())


def test_the_call_bars_room_is_a_class_of_the_page(east):
    assert {"table-area", "with-call-bar"} <= body_class(east.get().get_data(as_text=True))
    assert "with-entry" not in body_class(east.get().get_data(as_text=True))
    entry = east.get("/game").get_data(as_text=True)
    assert {"with-call-bar", "with-entry"} <= body_class(entry)
    review = east.get("/review").get_data(as_text=True)
    assert {"with-call-bar", "with-entry"} <= body_class(review)


def test_empty_live_scores_are_marked_for_the_script_to_hide(east):
    entry = east.get("/game").get_data(as_text=True)
    assert re.search(r'class="live-scores is-empty"', entry)


def test_submit_is_grey_with_its_reason_until_it_can_be_used(east):
    review = east.get("/review").get_data(as_text=True)
    assert 'class="big is-waiting" aria-describedby="submit-why"' in review
    assert "Enter every game first, or record time called." in review
    play_round(east)
    review = east.get("/review").get_data(as_text=True)
    assert "is-waiting" in review
    assert "Each player taps their own total above, then East submits." in review
    assert 'class="big primary"' not in review.split('class="submit-form')[1]
    initial_all(east)
    review = east.get("/review").get_data(as_text=True)
    form = review.split('class="submit-form')[1].split("</form>")[0]
    assert 'class="big primary"' in form and "is-waiting" not in form
