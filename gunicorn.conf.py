"""gunicorn settings for `make run`, the Procfile and the benchmark.

One process per request at a time (sync workers), 2 per core plus one. We tried threads
(gthread): under the benchmark's round end, workers died of SIGSEGV inside C extensions
(SQLite, MarkupSafe, SQLAlchemy's compiled parts) on Python 3.11, a thread-safety fault we
could not pin on our code. Every request here is short (a poll answers in about 1 ms), so
processes cost little. Nothing a worker keeps between requests can disagree with the
database (README, "How a page reads"), so any number of workers (or hosts) is safe."""

import gc
import multiprocessing
import os
import socket

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "sync")
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
timeout = 30
graceful_timeout = 10
accesslog = os.environ.get("ACCESS_LOG") or None
# %(U)s is the path without its query string: table links carry their secret token in ?k=.
access_log_format = '%(h)s %(t)s "%(m)s %(U)s" %(s)s %(b)s %(M)sms'
errorlog = "-"
# gunicorn's control socket (for `gunicornc`) defaults to one path per user, so a second
# instance on the same host (a second event, a test server) would replace the first's and
# `gunicornc` would steer the wrong one. Off, unless GUNICORN_CONTROL_SOCKET names a path
# for this instance.
control_socket_disable = not os.environ.get("GUNICORN_CONTROL_SOCKET")
if not control_socket_disable:
    control_socket = os.environ["GUNICORN_CONTROL_SOCKET"]

# How long the kernel keeps a connection from the workers while its request has not begun
# to arrive (below).
DEFER_ACCEPT_SECONDS = 60


def when_ready(server):
    """A sync worker that accepts a connection waits for its request, serving nobody else,
    until gunicorn's timeout kills it: five connections that send nothing (a phone
    browser's speculative preconnect, a request whose first packet the venue's Wi-Fi
    lost, a scanner) stopped every request for 32 s, then had every worker killed. With
    TCP_DEFER_ACCEPT (Linux) the kernel hands a connection to a worker only once its
    request has begun to arrive, so the workers serve the phones that are talking
    (e2e/test_idle_connections.py). In a 1,000-table round end the workers' time between
    accepting a connection and reading its request fell from 28.5 to 10.2 s (five
    workers, a 75 s window, one run each)."""
    option = getattr(socket, "TCP_DEFER_ACCEPT", None)
    if option is None:  # not Linux: nothing to set
        return
    for listener in server.LISTENERS:
        if listener.sock.family in (socket.AF_INET, socket.AF_INET6):
            listener.sock.setsockopt(socket.IPPROTO_TCP, option, DEFER_ACCEPT_SECONDS)


def on_reload(server):
    # A reload (SIGHUP) that changes the address opens new listeners before this is called.
    when_ready(server)


def post_worker_init(worker):
    # Every template compiled as the worker starts (about half a second), not by the
    # first requests for each page on each worker (app.MahjTable.compile_templates).
    compile_templates = getattr(worker.wsgi, "compile_templates", None)
    if compile_templates is not None:
        compile_templates()
    # What the worker has made so far (the app, its statements, the compiled templates:
    # some 150,000 objects) lives as long as the worker. Frozen, the garbage collector no
    # longer walks it at every full collection: ranking a 4,000-player event's standings
    # spent three quarters of its time in those walks.
    gc.collect()
    gc.freeze()
