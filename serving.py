"""What gunicorn's gevent workers (gunicorn.conf.py) put around the app: each request's
body read whole, within a deadline, before the app sees the request; then one request in
the app at a time per worker process. And the server that needs no fork (waitress), for
Windows and for `mahjtable run --server waitress`, set up to the same ends.

gunicorn reads a request's headers, within the keepalive deadline, and hands the app the
body as a stream it reads from the socket as the app asks. A POST whose body stops
halfway would then stall inside the app: in Flask-WTF's CSRF check, after the request had
opened its database session. Read here first, a slow body costs a greenlet waiting on a
socket and nothing the other phones need.

One request in the app at a time keeps what the sync workers gave and the rest of the
code was measured and tested on: a worker's database connections, SQLite's queue of
writers, no two requests interleaved in one process. gevent switches greenlets only
where one waits on a socket (on PostgreSQL, psycopg waits cooperatively), never inside a
C extension's call, and all run in the process's one thread: the threads that crashed
C extensions under gthread are not there."""

from __future__ import annotations

import gc
import io
import logging
import os
import socket

import gevent
from gevent.lock import BoundedSemaphore

# A body must arrive whole within this many seconds of its headers: a form post is a few
# hundred bytes, a CSV import some tens of KB, a second or two on bad venue Wi-Fi. As long
# as gunicorn's worker timeout, because the deadline also runs while the worker serves
# the requests ahead of this one (one at a time, no socket read in between): a worker
# that cannot read a body for that long is as stuck as a sync worker killed then.
BODY_SECONDS = 30


def _answer(start_response, status: str, text: str) -> list[bytes]:
    body = text.encode()
    start_response(status, [("Content-Type", "text/plain; charset=utf-8"),
                            ("Content-Length", str(len(body))), ("Connection", "close")])
    return [body]


class ReadWhole:
    """WSGI middleware: the body read into memory, at most `limit` bytes within
    `seconds`, then the app called under a lock held only while it runs (the answer's
    bytes are written to the phone after it is released)."""

    def __init__(self, app, limit: int, seconds: float = BODY_SECONDS):
        self.app = app
        self.limit = limit
        self.seconds = seconds
        self.lock = BoundedSemaphore(1)

    def _read(self, stream) -> bytes:
        """To the body's end (gunicorn's stream ends it at Content-Length, or at the last
        chunk), or one byte past the limit; a read may return less than it was asked."""
        body = bytearray()
        while len(body) <= self.limit:
            chunk = stream.read(min(64 * 1024, self.limit + 1 - len(body)))
            if not chunk:
                break
            body += chunk
        return bytes(body)

    def __call__(self, environ, start_response):
        declared = environ.get("CONTENT_LENGTH") or ""
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if chunked or (declared.isdigit() and 0 < int(declared) <= self.limit):
            try:
                with gevent.Timeout(self.seconds):
                    body = self._read(environ["wsgi.input"])
            except gevent.Timeout:
                return _answer(start_response, "408 Request Timeout",
                               "The request did not arrive in time. Please try again.")
            if len(body) > self.limit:
                return _answer(start_response, "413 Request Entity Too Large",
                               "That is more than this server accepts.")
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
        # A body declared larger than the limit is left unread: Flask answers 413 from the
        # header alone.
        with self.lock:
            return self.app(environ, start_response)


# waitress: one thread runs the app, as one gevent worker does (ReadWhole's lock). Its
# main thread reads every connection's request whole before handing it over, so a phone
# that sends half a request holds up nobody; the app's requests are a few milliseconds
# each. More threads buy little under the GIL and bring back what gthread workers showed
# here: crashes inside C extensions under concurrent threads (gunicorn.conf.py).
WAITRESS_THREADS = int(os.environ.get("WAITRESS_THREADS", "1"))
# Connections held at once, waiting or served (waitress's default is 100: two hundred
# half-sent requests would have shut the phones out). Below 512, the most a select() on
# Windows can watch; elsewhere waitress polls, which has no such bound.
WAITRESS_CONNECTIONS = 500
# As gunicorn's keepalive: a connection silent this long is closed.
WAITRESS_IDLE_SECONDS = 30


def waitress_server(app, host: str, port: int):
    """A waitress server for `app` on host:port, not yet running (call .run()). waitress
    buffers each request, headers and body, before a thread runs the app, and answers 413
    past the body limit, which ReadWhole does for gunicorn."""
    from waitress.server import create_server

    compile_templates = getattr(app, "compile_templates", None)
    if compile_templates is not None:
        compile_templates()
    # waitress says "Task queue depth is N" each time a request waits for a free thread: a
    # round's end does that by design (the requests are short), and in the director's
    # console window a stream of warnings reads as trouble where there is none.
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    gc.collect()  # what lives as long as the server: see gunicorn.conf.py's post_worker_init
    gc.freeze()
    limit = getattr(app, "config", {}).get("MAX_CONTENT_LENGTH") or 2 * 1024 * 1024
    server = create_server(
        app, host=host, port=port, threads=WAITRESS_THREADS,
        connection_limit=WAITRESS_CONNECTIONS, channel_timeout=WAITRESS_IDLE_SECONDS,
        max_request_body_size=limit, asyncore_use_poll=os.name != "nt",
        ident="MahjTable", expose_tracebacks=False, backlog=1024)
    # As gunicorn.conf.py's when_ready: a connection reaches the server only once its
    # request has begun to arrive (Linux).
    option = getattr(socket, "TCP_DEFER_ACCEPT", None)
    listener = getattr(server, "socket", None)
    if option is not None and listener is not None \
            and listener.family in (socket.AF_INET, socket.AF_INET6):
        listener.setsockopt(socket.IPPROTO_TCP, option, 60)
    return server
