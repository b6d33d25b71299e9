"""The parts a live page's one poll can send (blueprints/live), by name.

A live page shows parts that belong to other audiences: the table's panel, its call bar,
the console's grid, the big screen's board, the director's bar. The poll answers for all
of them, yet must not reach into those blueprints: each registers here, at start-up (its
`live_parts.py`, imported by the app factory), a function that builds its part; the poll
asks for a part by name. A part is its version (what the page sends back to say what it
shows) and a way to render it, called only when the version differs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

# part name -> the function that builds it (its arguments are the part's own)
_BUILDERS: dict[str, Callable[..., object]] = {}


@dataclass(frozen=True)
class Part:
    version: str
    render: Callable[[], str]    # the part's HTML, swapped out of band


def register(name: str):
    """Decorator: `fn` builds the live part `name`. A name is registered once (a second
    registration is a mistake, two blueprints claiming one part)."""

    def decorate(fn):
        if _BUILDERS.get(name, fn) is not fn:
            raise ValueError(f"live part {name!r} is registered twice")
        _BUILDERS[name] = fn
        return fn

    return decorate


def build(name: str, *args, **kwargs):
    """What the part `name` builds from these arguments (usually a Part)."""
    try:
        builder = _BUILDERS[name]
    except KeyError:
        raise LookupError(f"no live part {name!r}: is its blueprint's live_parts "
                          "imported by the app factory?") from None
    return builder(*args, **kwargs)


def registered() -> set[str]:
    return set(_BUILDERS)
