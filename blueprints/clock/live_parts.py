"""The clock console's parts of a staff page's one poll (core.live): the grid of tables,
and the director's bar that every director page shows while the event is in play."""

from __future__ import annotations

from flask import render_template

from core.live import Part, register

from .views import _bar_for, _grid_context, safe_back


@register("clock.grid")
def grid(tournament, clock, live_url: str) -> Part:
    context = _grid_context(tournament, clock)

    def render() -> str:
        return render_template("clock/_grid.html", live_url=live_url, oob=True, **context)

    return Part(version=context["grid_version"], render=render)


@register("clock.bar")
def bar(tournament, live_url: str, back: str | None, table: int | None) -> Part:
    """The bar as the signed-in staff member sees it ("none": nothing to show, as a
    guide's page before any round is seated)."""
    shown = _bar_for(tournament)

    def render() -> str:
        if shown is None:
            # The bar is gone (no role any more): an empty placeholder keeps its place.
            return ('<section id="director-bar" hidden data-live="bar" '
                    'data-live-version="none" hx-swap-oob="true"></section>')
        return render_template("clock/_bar.html", tournament=tournament, bar=shown,
                               bar_back=safe_back(back),
                               handling_table=table, live_url=live_url, oob=True)

    return Part(version=shown.version if shown else "none", render=render)
