"""What a request leaves in reference cycles, for the tests that check a page leaves
nothing of its own for the garbage collector."""

from __future__ import annotations

import gc
import types

from wtforms import Field, Form


def left_in_cycles(*requests) -> list:
    """The frames, and the objects of this app's own types, that `requests` (each called
    once, each answering 200) left in reference cycles: freed only when the garbage
    collector next walks every young object, in every worker, after every page. Not our
    forms: WTForms' fields refer to their form by design. Not the models' column types
    either: in a run of the whole suite some turn up that earlier tests left (the test
    session shares one app, one engine and its statement cache). Call each request once
    before: what a first request compiles and caches is not the page's."""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for request in requests:
            assert request().status_code == 200
        gc.collect()
        return [found for found in gc.garbage if isinstance(found, types.FrameType)
                or (type(found).__module__.split(".")[0] in ("blueprints", "core")
                    and not isinstance(found, Form | Field))]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
