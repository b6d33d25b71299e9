"""East's answers so far for the game East is entering, as the players' own phones see
them: which of them are kept (`draft_of`, from the entry wizard's preview) and how a
player's phone says them (`shown_draft`).

Kept only while a seat of the table has its own phone (own_phone_writes.store_draft
writes them): a table whose players have no phone of their own writes nothing on a
preview. Only answers that hold as far as they go are kept: an answer the rules refuse
keeps nothing new, and a game's points only once every question is answered."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from blueprints.common import points_text
from core.sheets import draft_live
from core.words import OUTCOME_LABELS
from models import utcnow
from tournament.scoring import InvalidGame, check_answers_so_far

from .entry import Preview, outcome_choices
from .forms import GameForm
from .sheet_view import SheetView, game_sentence


def draft_of(form: GameForm, view: SheetView, preview: Preview,
             errors: dict[str, str]) -> dict[str, Any] | None:
    """What to keep of the answers East has tapped for the next game ({"game", "record",
    "points"}), or None: nothing to keep (a correction of a saved game, a sheet East cannot
    enter on, an answer refused)."""
    number = form.game_no.data
    if (form.entered_as.data == "correction" or not view.is_open or view.on_paper
            or number is None or number != view.next_game or errors):
        return None
    try:
        record = form.record(view.rules, so_far=True)
        check_answers_so_far(record)
    except InvalidGame:
        return None
    if record.get("outcome") not in dict(outcome_choices(view.rules)):
        return None
    return {"game": number, "record": record,
            "points": dict(preview.points) if preview.points else None}


@dataclass(frozen=True)
class ShownDraft:
    """East's draft as one player's phone says it."""

    number: int
    words: str          # what East has answered, in the sheet's words
    points: str | None  # this player's points as they stand, once every answer is in


def shown_draft(view: SheetView, seat: str) -> ShownDraft | None:
    """The draft of the game East is entering, for the player in `seat`: None when there
    is none, when it is stale (core.sheets.DRAFT_SHOWN_FOR), or when its game is saved."""
    sheet = view.sheet
    draft = getattr(sheet, "draft", None)
    if (not isinstance(draft, dict) or not view.is_open or view.on_paper
            or not draft_live(getattr(sheet, "draft_at", None), utcnow())
            or draft.get("game") != view.next_game):
        return None
    record = draft.get("record") or {}
    points = draft.get("points")
    mine = points.get(seat) if isinstance(points, dict) else None
    return ShownDraft(number=draft["game"], words=draft_words(record, view),
                      points=None if mine is None else points_text(mine) or "X")


def draft_words(record: dict[str, Any], view: SheetView) -> str:
    """East's answers so far in a sentence: "Bea Goldberg (South) won, thrown by Carol
    Chen (West). Hand: 25."; "Wall game."."""
    outcome = record.get("outcome")
    if outcome == "mahjong" and record.get("winner"):
        words = game_sentence(record, view)
        if record.get("value"):
            words += f" Hand: {record['value']}."
        return words
    label = OUTCOME_LABELS.get(outcome or "", "")
    sentence = game_sentence(record, view)
    return " ".join(part for part in (f"{label}." if label else "", sentence) if part)
