"""Connections that send nothing must not hold up the phones that talk.

A phone's browser opens connections ahead of need (preconnects), and the venue's Wi-Fi
loses packets. With gunicorn's sync workers, which serve one connection at a time, as many
such connections as workers made every request wait until gunicorn's timeout killed the
workers (32 s, then again). gunicorn.conf.py's when_ready defers each accept until the
request has begun to arrive (TCP_DEFER_ACCEPT, Linux), and its gevent workers wait on a
connection in a greenlet, serving the others (tests/fault: half-sent requests). waitress,
the server that needs no fork, waits on every connection in its one loop until a request
has arrived whole, and is held to the same."""

from __future__ import annotations

import socket
import urllib.request

import pytest

from e2e.conftest import LiveServer


@pytest.mark.skipif(not hasattr(socket, "TCP_DEFER_ACCEPT"), reason="Linux only")
@pytest.mark.parametrize("kind", ["gunicorn", "waitress"])
def test_a_page_loads_while_more_connections_than_workers_send_nothing(tmp_path, kind):
    # waitress (`mahjtable run --server waitress`) has one thread for the app: four silent
    # connections are more than it has.
    server = LiveServer(tmp_path, extra_env={"WEB_CONCURRENCY": "2"}, server=kind)
    server.migrate()
    server.start()
    try:
        silent = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(4)]
        try:
            # Without the deferred accept this waits for gunicorn's 30 s timeout, twice.
            with urllib.request.urlopen(server.url + "/", timeout=15) as response:
                assert response.status == 200
                assert b"MahjTable" in response.read()
        finally:
            for connection in silent:
                connection.close()
    finally:
        server.stop()
    assert "WORKER TIMEOUT" not in server.log_path.read_text()
