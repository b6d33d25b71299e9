"""The table's part of its page's one poll (core.live): the sheet's panel."""

from __future__ import annotations

from flask import render_template

from core.live import Part, register

from .pages import page_context
from .sheet_view import sheet_view


@register("table.panel")
def panel(table, state, live_url: str) -> Part:
    """The panel of `table` for the round and versions of `state` (core.sheets.PollState)."""

    def render() -> str:
        view = sheet_view(table, state.round, panel=True)
        context = page_context(table, view, state.clock_state)
        return render_template("table/_panel.html", poll_token=state.token,
                               live_url=live_url, oob=True, **context)

    return Part(version=state.token, render=render)
