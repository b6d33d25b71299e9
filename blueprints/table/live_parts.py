"""The table's parts of its pages' one poll (core.live): the sheet's panel on the table's
page, the review on the review page."""

from __future__ import annotations

from flask import render_template

from core.live import Part, register

from .pages import page_context
from .sheet_view import sheet_view
from .table_views import review_context


@register("table.panel")
def panel(table, state, live_url: str) -> Part:
    """The panel of `table` for the round and versions of `state` (core.sheets.PollState)."""

    def render() -> str:
        view = sheet_view(table, state.round, panel=True)
        context = page_context(table, view, state.clock_state)
        return render_template("table/_panel.html", poll_token=state.token,
                               live_url=live_url, oob=True, **context)

    return Part(version=state.token, render=render)


@register("table.review")
def review(table, state, live_url: str) -> Part:
    """The review of `table`'s round as `state` has it, to swap in out of band."""

    def render() -> str:
        return render_template("table/_review.html", oob=True,
                               **review_context(table, state.round))

    return Part(version=state.token, render=render)
