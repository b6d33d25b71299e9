"""gunicorn settings for `make run`, the Procfile and the benchmark.

The phones talk to gunicorn directly: at a venue there is no proxy in front, and a hosted
site should not depend on one being set up to buffer. So every worker is a gevent worker:
a connection waits in a greenlet of its worker, which goes on serving the others, until
its request has arrived whole (serving.ReadWhole reads the body), and then the app runs it
alone in that process, one request at a time, as the sync workers did. With sync workers
each connection held a whole worker while its request arrived: six connections that sent
one byte each made the next phone's page take 36 s and had every worker killed, and 200
half-sent requests stopped the room (tests/fault, bench --stall).

Processes, not threads, for the parallelism: 2 workers per core plus one. We tried threads
(gthread): under the benchmark's round end, workers died of SIGSEGV inside C extensions
(SQLite, MarkupSafe, SQLAlchemy's compiled parts) on Python 3.11, a thread-safety fault we
could not pin on our code. A gevent worker runs in one thread; greenlets switch only where
one waits on a socket, never inside a C extension. Every request here is short (a poll
answers in about 1 ms), so processes cost little. Nothing a worker keeps between requests
can disagree with the database (README, "How a page reads"), so any number of workers (or
hosts) is safe.

waitress, which also reads each request whole before the app runs it, was the other
candidate: it serves no HTTPS (which `make run` and hosted sites use through gunicorn's
certfile/keyfile), runs the app in threads, and has no master to replace a dead process or
share one socket among several; gunicorn with gevent keeps all of that. waitress serves
where gunicorn cannot run, on Windows (serving.waitress_server, docs/hosting.md)."""

import gc
import multiprocessing
import os
import signal
import socket

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gevent")
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
# With gevent workers, only how long a worker may go without telling the master it is
# alive (a request that runs longer than this, or a stuck worker); a slow phone's
# connection no longer counts against it.
timeout = 30
# A request's headers must arrive within this many seconds of the connection being
# accepted (the deferred accept below waits for its first bytes), or the connection is
# closed. The deadline runs while the worker serves the requests it took in before this
# one: gevent reads sockets only between them, up to 50 at a time when they queue for
# the app. With 5 s, a 1,000-table round end on a loaded machine lost 225 requests that
# had arrived, closed unanswered; with 30 s (the worker timeout), none. gunicorn calls it
# keepalive because it also bounds the wait for a kept-alive connection's next request,
# but pre_request below closes every connection after its answer.
keepalive = 30
# Connections one worker holds at once, waiting or being served (gunicorn's default):
# hundreds of half-sent requests per worker leave it serving the rest.
worker_connections = 1000
# psycopg, seeing gevent's patched select, waits for PostgreSQL cooperatively: the request
# (holding serving.ReadWhole's lock, so no other request runs meanwhile) gives the hub
# every round trip, and waits behind the other connections' wake-ups before it resumes.
# A 150-table round end's save p95 went from 112 ms (sync) to 507 ms. Its C wait blocks
# the worker for the round trip instead, as a sync worker did: slow phones' reads wait
# those few milliseconds. Set in the environment the workers inherit, before they
# import psycopg (the app is loaded in each worker, after the fork).
if worker_class == "gevent":
    os.environ.setdefault("PSYCOPG_WAIT_FUNC", "wait_c")
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


def on_starting(server):
    """Ctrl-C stops gracefully, as SIGTERM does: the terminal sends it to the master and
    every worker at once, and gunicorn's own answer to it is to end the workers at once.
    The master now asks them to finish what they serve (graceful_timeout) and the workers
    leave the signal to it (post_worker_init). A request cut off regardless commits whole
    or not at all (core.writes)."""
    server.handle_int = server.handle_term


def when_ready(server):
    """With sync workers, a worker that accepted a connection waited for its request,
    serving nobody else, until gunicorn's timeout killed it: five connections that send
    nothing (a phone browser's speculative preconnect, a request whose first packet the
    venue's Wi-Fi lost, a scanner) stopped every request for 32 s, then had every worker
    killed. With TCP_DEFER_ACCEPT (Linux) the kernel hands a connection to a worker only
    once its request has begun to arrive (e2e/test_idle_connections.py). In a 1,000-table
    round end the workers' time between accepting a connection and reading its request
    fell from 28.5 to 10.2 s (five workers, a 75 s window, one run each). A gevent worker
    waits for such a connection in a greenlet, but its header deadline above starts at
    the accept and would close a connection a phone opened ahead of need before it was
    used, and each one would take a greenlet and a file descriptor; in the kernel's queue
    it costs the workers nothing."""
    option = getattr(socket, "TCP_DEFER_ACCEPT", None)
    if option is None:  # not Linux: nothing to set
        return
    for listener in server.LISTENERS:
        if listener.sock.family in (socket.AF_INET, socket.AF_INET6):
            listener.sock.setsockopt(socket.IPPROTO_TCP, option, DEFER_ACCEPT_SECONDS)


def on_reload(server):
    # A reload (SIGHUP) that changes the address opens new listeners before this is called.
    when_ready(server)


def pre_request(worker, req):
    """Every connection closed after its answer, as the sync workers did: a phone whose
    next request on a kept-alive connection crossed the server's close of it would have
    to send it again (a 1,000-table round end had 118 of the benchmark phones' requests
    fail so), and an idle kept-alive connection would hold a greenlet for the deadline
    above; the polls, every 10 s, would reuse few."""
    req.must_close = True


def post_worker_init(worker):
    # The master's Ctrl-C stops this worker gracefully (on_starting); the terminal's own
    # SIGINT to the whole process group would cut its requests off. Only in a worker
    # process gunicorn forked (it knows its master): never in a process that calls this
    # hook itself, as the tests do.
    if getattr(worker, "ppid", None) == os.getppid():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Every template compiled as the worker starts (about half a second), not by the
    # first requests for each page on each worker (app.MahjTable.compile_templates).
    app = worker.wsgi
    compile_templates = getattr(app, "compile_templates", None)
    if compile_templates is not None:
        compile_templates()
    # However the worker class was chosen (here, GUNICORN_WORKER_CLASS, -k): the body is
    # read within a deadline only where reading it lets the worker serve others.
    if type(worker).__module__ == "gunicorn.workers.ggevent":
        from serving import ReadWhole

        limit = getattr(app, "config", {}).get("MAX_CONTENT_LENGTH") or 2 * 1024 * 1024
        worker.wsgi = ReadWhole(app, limit)
    # What the worker has made so far (the app, its statements, the compiled templates:
    # some 150,000 objects) lives as long as the worker. Frozen, the garbage collector no
    # longer walks it at every full collection: ranking a 4,000-player event's standings
    # spent three quarters of its time in those walks.
    gc.collect()
    gc.freeze()
