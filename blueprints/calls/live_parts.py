"""The calls' parts of a table page's one poll (core.live): the call bar, and what shows
where it was when the table's link is no longer valid."""

from __future__ import annotations

from flask import render_template

from core.live import Part, register

from .table_calls import INVALID_LINK
from .views import table_call_context


@register("calls.table_bar")
def table_bar(table, live_url: str) -> Part:
    context = table_call_context(table)

    def render() -> str:
        return render_template("calls/_table_state.html", tc=context, live_url=live_url,
                               oob=True)

    return Part(version=context["version"], render=render)


@register("calls.invalid_link")
def invalid_link() -> str:
    return render_template("calls/_invalid_link.html", text=INVALID_LINK, oob=True)
