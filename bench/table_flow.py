"""East's round, a table's call and a director's queue work, as a phone does them: the
entry wizard's htmx preview at each answer tapped and the sheet's writes through htmx,
whose answer is the page that follows (no redirect to follow), as a phone with
JavaScript sends them; the call and the queue as plain form posts. The hidden fields
of each form (sheet version, idempotency key, round) are read from the page just served,
as a browser would send them. Used by the benchmark and by the fault tests."""

from __future__ import annotations

import re
from html import unescape

SIGNERS = {"E": "W"}  # West initials East's win; see tournament.scoring.signer
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_TAG = re.compile(r"""<(form|input)\b((?:[^>"']|"[^"]*"|'[^']*')*)>""", re.I)
_ATTR = re.compile(r'([^\s=/>]+)\s*=\s*"([^"]*)"')


class Forms:
    """Every <form> on a page: its action and its hidden inputs' values.

    Read with two regular expressions, not html.parser: the pages are ours (every
    attribute quoted), and the parser's walk over every tag and text was a tenth of the
    load generator's CPU, taken from the server it shares the cores with."""

    def __init__(self, html: str):
        self.forms: list[dict] = []
        for match in _TAG.finditer(_COMMENT.sub("", html)):
            attrs = {name.lower(): unescape(value) for name, value in _ATTR.findall(match[2])}
            if match[1].lower() == "form":
                self.forms.append({"action": attrs.get("action", ""), "fields": {}})
            elif self.forms and attrs.get("name") and attrs.get("type") == "hidden":
                self.forms[-1]["fields"][attrs["name"]] = attrs.get("value", "")

    def find(self, action_part: str, **matching) -> dict | None:
        for form in self.forms:
            if action_part in form["action"] and all(
                    form["fields"].get(k) == v for k, v in matching.items()):
                return form
        return None


def game_fields(game: dict, signer: str) -> dict:
    """The entry form's fields for one game record of bench.flows.GAMES, as the page's
    buttons post them: who won with how the game ended, the thrower with how the tile
    came, the dead hands where they are asked, and last the signer's own button."""
    outcome = game["outcome"]
    fields = {"outcome": f"mahjong:{game['winner']}" if outcome == "mahjong" else outcome}
    if outcome == "mahjong":
        fields["value"] = str(game["value"])
        if game.get("self_picked"):
            fields["win_by"] = "self"
        else:
            fields.update(win_by=f"thrown:{game['discarder']}",
                          exposures=str(game.get("exposures", 0)))
        if game.get("jokerless"):
            fields["jokerless"] = "y"
    if game.get("dead"):
        fields["dead"] = game["dead"]
    elif outcome != "mahjong":
        fields["no_dead"] = "y"
    fields["signed_by"] = signer
    return fields


def preview_of(action: str) -> str:
    """The wizard's preview URL beside the entry form's `action` (its save)."""
    return action.replace("/game?", "/game/preview?")


def steps_of(fields: dict) -> list[dict]:
    """The wizard's answers as tapped one by one: each step's form holds the answers so
    far (the signer's tap comes last: it is the save)."""
    answers = [(k, v) for k, v in fields.items() if k != "signed_by"]
    return [dict(answers[:i]) for i in range(1, len(answers) + 1)]


def signer_of(game: dict) -> str:
    if game["outcome"] != "mahjong":
        return "W"
    return SIGNERS.get(game["winner"], game["winner"])


async def enter_games(client, seed, number: int, games: list[dict], retries: int = 0) -> None:
    """East enters these games, each with the right initials, each answer tapped first
    getting the wizard's preview (htmx), as on a phone with JavaScript: East's most
    frequent request, about 19 a round."""
    from bench.flows import table_url

    for game in games:
        page = await client.request("entry page", "GET", table_url(seed, number, "/game"),
                                    retries=retries)
        if page is None:
            return
        form = Forms(page.text).find("/game")
        if form is None:
            return
        action = form["action"] or table_url(seed, number, "/game")
        fields = game_fields(game, signer_of(game))
        for answers in steps_of(fields):
            await client.request("game step", "POST", preview_of(action),
                                 data={**form["fields"], **answers},
                                 headers={"HX-Request": "true"}, retries=retries)
        # the answer is the table's page (pages.done): nothing to follow
        await client.request("save game", "POST", action, data={**form["fields"], **fields},
                             headers={"HX-Request": "true"}, retries=retries)


async def enter_round(client, seed, number: int, games: list[dict], retries: int = 0) -> None:
    """East enters the round's games (with the wizard's previews), every player initials,
    East submits."""
    from bench.flows import table_url

    await client.request("table page", "GET", table_url(seed, number), retries=retries)
    await enter_games(client, seed, number, games, retries)
    await submit_round(client, seed, number, retries)


async def submit_round(client, seed, number: int, retries: int = 0) -> None:
    """The round review: every player initials, East submits."""
    from bench.flows import table_url

    review = await client.request("review page", "GET", table_url(seed, number, "/review"),
                                  retries=retries)
    for seat in "ESWN":
        if review is None:
            return
        form = Forms(review.text).find("/initial", seat=seat)
        if form is None:
            continue  # already initialled (a retry)
        # the player's tap: the answer is the review again, swapped in place
        review = await client.request("initial", "POST", form["action"], data=form["fields"],
                                      headers={"HX-Request": "true"}, retries=retries)
    if review is None:
        return
    form = Forms(review.text).find("/submit")
    if form is not None:
        await client.request("submit", "POST", form["action"], data=form["fields"],
                             headers={"HX-Request": "true"}, retries=retries)


async def call_director(client, seed, number: int) -> None:
    from bench.flows import table_url

    page = await client.request("table page", "GET", table_url(seed, number))
    if page is None:
        return
    form = Forms(page.text).find("/calls/t/")
    if form is None:
        return
    await client.request("call director", "POST", form["action"],
                         data={**form["fields"], "reason": "ruling", "note": "bench"})


async def director_sign_in(client, account) -> None:
    page = await client.request("sign-in page", "GET", "/auth/sign-in")
    token = ""
    if page is not None:
        found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page.text)
        token = found.group(1) if found else ""
    await client.request("sign in", "POST", "/auth/sign-in",
                         data={"email": account[0], "password": account[1], "csrf_token": token})


async def work_queue(client, seed) -> None:
    """Poll the queue; claim and resolve the oldest open call."""
    queue = await client.request("director queue", "GET",
                                 f"/calls/director/{seed.tournament_id}")
    if queue is None:
        return
    forms = Forms(queue.text)
    claim = next((f for f in forms.forms if f["action"].endswith("/claim")), None)
    if claim is None:
        return
    # Three directors race for the oldest call: "already resolved" (409) is a right answer.
    await client.request("claim call", "POST", claim["action"], data=claim["fields"],
                         ok=(200, 204, 302, 303, 409))
    resolve_url = claim["action"].rsplit("/", 1)[0] + "/resolve"
    await client.request("resolve call", "POST", resolve_url,
                         data={"ruling": "Play on: the tile stands.", "seat": ""},
                         ok=(200, 204, 302, 303, 409, 422))
