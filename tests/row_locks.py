"""For tests that hold a row lock on one PostgreSQL connection while a request runs on
another thread: has that request come to wait for it?"""

from __future__ import annotations

import threading
import time

# pg_locks, not pg_stat_activity: the latter shows one snapshot for a whole transaction,
# and the holding connection is inside one. Only waits on this connection count (tests on
# other workers share the database).
_WAITING_ON_ME = ("SELECT count(*) FROM pg_locks WHERE NOT granted"
                  " AND pg_backend_pid() = ANY(pg_blocking_pids(pid))")


def waits_on(connection, thread: threading.Thread, seconds: float = 10.0) -> bool:
    """True once `thread` waits on a lock `connection` holds; False if it ended first. After
    `seconds` of neither, True if it is still running (blocked somewhere, not yet seen)."""
    deadline = time.monotonic() + seconds
    while thread.is_alive() and time.monotonic() < deadline:
        if connection.exec_driver_sql(_WAITING_ON_ME).scalar():
            return True
        time.sleep(0.05)
    return thread.is_alive()
