"""Every link and button a director, co-director or scorer taps on the staff pages is a
whole 44 px target at 390x844: the header's name of the site, the queue's history link,
inline links in a sentence, the crumbs. Measured on the pages as they render, so a new
small link on any of them fails here."""

from __future__ import annotations

from e2e.conftest import sign_in
from e2e.test_directors_room import start_round_one
from e2e.test_table_round import seed

SMALLEST = 44

# What a phone user can tap: visible links, buttons, summaries, checkboxes' labels are
# measured by their own pages' tests (the table's); the skip link shows only on focus.
MEASURE = """(smallest) => {
  const out = [];
  const tappable = 'a[href], button, summary, input[type=submit]';
  for (const el of document.querySelectorAll(tappable)) {
    if (el.closest('.visually-hidden, .skip-link, [hidden], .print-only')) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (box.height < smallest || box.width < smallest) {
      const text = (el.innerText || el.value || '').trim().slice(0, 40);
      const size = Math.round(box.width) + 'x' + Math.round(box.height);
      out.push(el.tagName.toLowerCase() + ' "' + text + '" ' + size);
    }
  }
  return out;
}"""


def staff_pages(tournament_id):
    t = tournament_id
    return ["/director/", f"/director/t/{t}", f"/director/t/{t}/players",
            f"/director/t/{t}/schedule", f"/director/t/{t}/itineraries",
            f"/director/t/{t}/staff", f"/director/t/{t}/audit", f"/director/t/{t}/rules",
            f"/director/t/{t}/cards", f"/director/t/{t}/rounds/1/sheets",
            f"/clock/director/{t}", f"/calls/director/{t}", f"/calls/director/{t}/history",
            f"/results/director/{t}", f"/t/director/{t}/1/1", f"/t/director/{t}/desk",
            f"/t/director/{t}/1/1/desk"]


def in_play(live_server, code) -> tuple[int, int]:
    """A game saved at table 1 and a call open from table 2: the pages show their rows.
    Returns the call's id and the id of one of the tournament's players (ids are shared by
    every tournament in the database, so not 1)."""
    from blueprints.calls.table_calls import place_call
    from blueprints.table.sheet_writes import save_game
    from core.rounds import round_row
    from models import Tournament, db

    with live_server.app_context():
        tournament = db.session.scalar(db.select(Tournament).where(Tournament.code == code))
        save_game(tournament.tables[0], round_row(tournament, 1), 1, {"outcome": "wall"},
                  initials="CC", version=1, key="tap-targets")
        call, _ = place_call(tournament.tables[1], note="a ruling, please")
        return call.id, tournament.players[0].id


def test_every_link_and_button_on_the_staff_pages_is_a_44_px_target(live_server, page):
    code, _, tournament_id, email, password = seed(live_server, "tnt", with_director=True)
    start_round_one(live_server, code)
    call_id, player_id = in_play(live_server, code)
    sign_in(page, live_server, email, password)
    small = {}
    for path in [*staff_pages(tournament_id), f"/calls/director/{tournament_id}/{call_id}",
                 f"/director/t/{tournament_id}/players/{player_id}"]:
        response = page.goto(live_server.url + path)
        assert response.status == 200, path
        found = page.evaluate(MEASURE, SMALLEST)
        if found:
            small[path] = found
    assert not small, "\n".join(f"{path}: {items}" for path, items in small.items())
