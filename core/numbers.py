"""Whole numbers read from a URL or a form, the one strict way."""

from __future__ import annotations

from typing import Any

from core.words import MAX_ROW_NUMBER


def small_int(text: Any, largest: int = MAX_ROW_NUMBER) -> int | None:
    """`text` as a whole number from 0 to `largest`, or None. Only ASCII digits: "²" and
    "٣" pass str.isdigit(), and int() refuses the first and reads the second; a number
    bigger than a database column is no row of ours either."""
    text = str(text if text is not None else "").strip()
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(largest)):
        return None
    number = int(text)
    return number if number <= largest else None
