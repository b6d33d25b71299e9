"""The calls' parts of a live page's one poll (core.live): the table's call bar, what
shows where it was when the table's link is no longer valid, and the staff's queue."""

from __future__ import annotations

from flask import render_template

from core.live import Part, register

from . import queue as calls
from .table_calls import INVALID_LINK
from .views import UNREAD, queue_context, table_call_context


@register("calls.table_bar")
def table_bar(table, live_url: str, call=UNREAD) -> Part:
    """The table's call bar; `call`: the call it shows, when the poll has read it (the
    table's call, less one this phone dismissed), so it is not read twice."""
    context = table_call_context(table, call=call)

    def render() -> str:
        return render_template("calls/_table_state.html", tc=context, live_url=live_url,
                               oob=True)

    return Part(version=context["version"], render=render)


@register("calls.invalid_link")
def invalid_link() -> str:
    return render_template("calls/_invalid_link.html", text=INVALID_LINK, oob=True)


@register("calls.queue")
def queue(tournament, user) -> Part:
    """The open calls as `user` sees them (their own claims offer Release). Its version is
    the queue's (two small queries); the calls are read only when it changed."""
    version = calls.queue_version(tournament)

    def render() -> str:
        return render_template("calls/_queue.html", oob=True,
                               **queue_context(tournament, user, version=version))

    return Part(version=version, render=render)
