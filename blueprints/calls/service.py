"""The names the live poll reads of a table's call; the call itself lives in
table_calls (the table's side), queue (the staff's side) and history."""

from __future__ import annotations

from .table_calls import INVALID_LINK, RECENT, table_call, table_version

__all__ = ["INVALID_LINK", "RECENT", "table_call", "table_version"]
