"""The name blueprints.live reads a table's sheet by (`service.sheet_view`), kept until
live imports blueprints.table.sheet_view itself; nothing else belongs here."""

from __future__ import annotations

from .sheet_view import sheet_view

__all__ = ["sheet_view"]
