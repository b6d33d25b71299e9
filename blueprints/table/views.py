"""The table blueprint's pages, registered on `bp`: the pages a table's QR link opens
(blueprints.table.table_views) and the staff's view of any sheet
(blueprints.table.staff_views); what they share is in blueprints.table.pages."""

from __future__ import annotations

from . import desk_views, own_phone, staff_views, table_views
from .pages import bp

__all__ = ["bp", "desk_views", "own_phone", "staff_views", "table_views"]
