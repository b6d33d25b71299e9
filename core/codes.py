"""A tournament's public code as someone typed it or a URL carries it."""

from __future__ import annotations


def plain_code(code: str | None) -> str | None:
    """A tournament code as typed or in a URL, upper-cased; None when it cannot be one
    (codes are letters and digits, at most 16): a NUL byte in it would make PostgreSQL
    refuse the query, a 500 on every public page of a tournament."""
    code = (code or "").strip().upper()
    return code if code.isascii() and code.isalnum() and len(code) <= 16 else None
