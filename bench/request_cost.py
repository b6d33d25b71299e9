"""Server CPU and database work per request, measured in this process.

    python -m bench.request_cost                                   # SQLite (a temporary file)
    python -m bench.request_cost --database-url postgresql+psycopg://u@127.0.0.1:5432/db
    python -m bench.request_cost --profile poll                    # cProfile of one kind
    python -m bench.request_cost --wrk                             # also over HTTP

The database is emptied, migrated and seeded with bench.flows.seed (150 tables); then the
Flask test client sends, after a warm-up, a few hundred of each request a phone at table 1
makes: the page's one poll carrying the versions the page shows (unchanged: 204), the
table page, and a bare route through the whole stack (session, login, hooks). CPU is
time.process_time per request, the best of five batches (the client's share included,
the same for every kind; the bare Flask app of bench/floor.py is measured the same way
as the floor). Database work is
counted with SQLAlchemy's events (and, for the poll's statement, which runs on the
driver's cursor outside any session, by wrapping core.rows.PrecompiledRead.run): statements, pool
checkouts, pre-pings, the BEGIN psycopg sends before a transaction's first statement, and
the transaction ends (COMMIT, ROLLBACK) that reach the server. On PostgreSQL each of
those but checkouts is a round trip; SQLite has no round trips, only statements.

With --wrk, the same paths (and the floor) are then served by gunicorn (gunicorn.conf.py,
5 sync workers) and loaded with wrk for a few seconds each; the server's CPU per request
is its processes' CPU from /proc (bench/wrk.py), the database server's beside it when it
is a local PostgreSQL."""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import tempfile
import time
from collections import Counter
from pathlib import Path

KINDS = ("poll", "page", "bare")


def reset_schema(app) -> None:
    from flask_migrate import upgrade

    from bench.postgres import empty_schema
    from models import db

    with app.app_context():
        if db.engine.dialect.name == "postgresql":
            empty_schema(app.config["SQLALCHEMY_DATABASE_URI"])
        upgrade(directory=os.path.join(app.root_path, "migrations"))
        db.engine.dispose()


class Counts:
    """Database events, counted on one engine."""

    def __init__(self, engine):
        from sqlalchemy import event

        self.counts: Counter[str] = Counter()
        self.postgres = engine.dialect.name == "postgresql"
        event.listen(engine, "before_cursor_execute", self._statement)
        event.listen(engine, "commit", self._commit)
        event.listen(engine, "rollback", self._rollback)
        event.listen(engine.pool, "checkout", self._checkout)
        event.listen(engine.pool, "reset", self._reset)
        dialect = engine.dialect
        ping = dialect.do_ping

        def counted_ping(dbapi_connection):
            self.counts["pings"] += 1
            return ping(dbapi_connection)

        dialect.do_ping = counted_ping
        # The unchanged poll runs its statement on the driver's cursor outside any session,
        # past the events (core.rows.PrecompiledRead.run).
        from core.rows import PrecompiledRead

        self.run = run = PrecompiledRead.run

        def counted_run(read, dbapi_connection, *args):
            self.counts["statements"] += 1
            self._before_statement(dbapi_connection.driver_connection)
            return run(read, dbapi_connection, *args)

        PrecompiledRead.run = counted_run

    def _statement(self, conn, cursor, statement, parameters, context, executemany):
        self.counts["statements"] += 1
        self._before_statement(conn.connection.driver_connection)

    def _before_statement(self, dbapi_connection):
        # psycopg sends BEGIN before a statement on an idle connection that does not
        # autocommit.
        if self.postgres and not dbapi_connection.autocommit:
            from psycopg.pq import TransactionStatus

            if dbapi_connection.info.transaction_status == TransactionStatus.IDLE:
                self.counts["begins"] += 1

    def _commit(self, conn):
        self.counts["ends"] += 1

    def _rollback(self, conn):
        self._end(conn.connection.dbapi_connection)

    def _checkout(self, dbapi_connection, record, proxy):
        self.counts["checkouts"] += 1

    def _reset(self, dbapi_connection, record, reset_state=None):
        self._end(dbapi_connection)

    def _end(self, dbapi_connection):
        # A rollback reaches the server only inside a transaction (psycopg sends nothing
        # for an idle connection; sqlite3 neither).
        if dbapi_connection is None:
            return
        if self.postgres:
            from psycopg.pq import TransactionStatus

            if dbapi_connection.info.transaction_status != TransactionStatus.IDLE:
                self.counts["ends"] += 1
        elif dbapi_connection.in_transaction:
            self.counts["ends"] += 1

    def per(self, requests: int) -> dict[str, float]:
        out = {k: self.counts[k] / requests
               for k in ("statements", "checkouts", "pings", "begins", "ends")}
        if self.postgres:
            out["round trips"] = (out["statements"] + out["pings"] + out["begins"]
                                  + out["ends"])
        return out


def requests_for(database_url: str):
    """The app, a client holding the page's cookies, and {kind: (path, headers, status)}."""
    from bench import flows

    seed = flows.seed(database_url, 150)
    app = flows.app_for(database_url)
    app.add_url_rule("/_bare", "bare", lambda: "ok")
    client = app.test_client()
    page_path = flows.table_url(seed, 1)
    page = client.get(page_path)
    assert page.status_code == 200, page.status_code
    url, versions = flows.live_poll(page.get_data(as_text=True))
    poll_path = flows.with_versions(url, versions)
    hx = {"HX-Request": "true"}
    kinds = {"poll": (poll_path, hx, 204), "page": (page_path, {}, 200),
             "bare": ("/_bare", {}, 200)}
    return app, client, kinds


def cpu_ms(client, path, headers, status, count: int) -> float:
    """CPU-ms per request: the best of five batches, since neighbours on a shared machine
    (cache and frequency) only ever add to it."""
    for _ in range(max(20, count // 5)):  # warm-up: caches, pool, compiled statements
        response = client.get(path, headers=headers)
        assert response.status_code == status, (path, response.status_code)
    batch, best = max(1, count // 5), float("inf")
    for _ in range(5):
        start = time.process_time()
        for _ in range(batch):
            client.get(path, headers=headers)
        best = min(best, (time.process_time() - start) * 1000 / batch)
    return best


def floor_ms(count: int) -> float:
    from bench.floor import app

    return cpu_ms(app.test_client(), "/", {}, 200, count)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", help="default: SQLite in a temporary folder")
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--profile", choices=KINDS, help="cProfile this kind of request")
    parser.add_argument("--wrk", type=float, metavar="SECONDS", nargs="?", const=5,
                        help="also load each path over HTTP with wrk for this long")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'cost.db'}"
        os.environ.setdefault("SECRET_KEY", "request-cost")
        from bench.flows import app_for

        reset_schema(app_for(url))
        app, client, kinds = requests_for(url)
        with app.app_context():
            from models import db

            engine = db.engine
        print(f"backend: {engine.dialect.name}, {args.requests} requests each after warm-up")
        print(f"  floor (bench/floor.py)  {floor_ms(args.requests):6.2f} CPU-ms")
        for kind, (path, headers, status) in kinds.items():
            ms = cpu_ms(client, path, headers, status, args.requests)
            counts = Counts(engine)
            for _ in range(50):
                client.get(path, headers=headers)
            work = ", ".join(f"{k} {v:g}" for k, v in counts.per(50).items())
            print(f"  {kind:5} {status}  {ms:6.2f} CPU-ms   per request: {work}")
            from sqlalchemy import event

            from core.rows import PrecompiledRead

            PrecompiledRead.run = counts.run
            for name, fn in (("before_cursor_execute", counts._statement),
                             ("commit", counts._commit),
                             ("rollback", counts._rollback)):
                event.remove(engine, name, fn)
            event.remove(engine.pool, "checkout", counts._checkout)
            event.remove(engine.pool, "reset", counts._reset)
            del engine.dialect.do_ping
        if args.profile:
            path, headers, _ = kinds[args.profile]
            profiler = cProfile.Profile(time.process_time)
            profiler.enable()
            for _ in range(args.requests):
                client.get(path, headers=headers)
            profiler.disable()
            stats = pstats.Stats(profiler)
            stats.sort_stats("tottime").print_stats(25)
            stats.sort_stats("cumulative").print_stats(int(os.environ.get("PROFILE_LINES", "40")))
        engine.dispose()
        if args.wrk:
            over_http(url, kinds, args.wrk, Path(folder))


def over_http(url: str, kinds: dict, seconds: float, folder: Path) -> None:
    from bench import wrk
    from bench.__main__ import _port, gunicorn

    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "request-cost",
           "WEB_CONCURRENCY": "5"}
    env.pop("BASE_URL", None)
    pg_port = _port(url) if url.startswith("postgres") else None
    print(f"over HTTP: wrk -t2 -c50 -d{seconds:g}s, gunicorn with 5 "
          f"{os.environ.get('GUNICORN_WORKER_CLASS', 'gevent')} workers")

    def load(base: str, pid: int, path: str, headers: dict) -> tuple[float, float | None]:
        before, db_before = wrk.tree_cpu(pid), wrk.postgres_cpu(pg_port)
        result = wrk.run(base + path, seconds, headers=headers)
        per = (wrk.tree_cpu(pid) - before) * 1000 / max(1, result.requests)
        db_after = wrk.postgres_cpu(pg_port)
        db = (db_after - db_before) * 1000 / max(1, result.requests) \
            if db_before is not None and db_after is not None else None
        if result.non_2xx or result.errors:
            print(f"    ({result.non_2xx} non-2xx, {result.errors} errors)")
        return per, db

    with gunicorn("bench.floor:app", env, folder / "floor.log") as (base, pid):
        floor, _ = load(base, pid, "/", {})
    print(f"  floor        {floor:6.2f} server CPU-ms")
    with gunicorn("app:create_app()", env, folder / "app.log") as (base, pid):
        for kind in ("poll", "page"):
            path, headers, status = kinds[kind]
            per, db = load(base, pid, path, headers)
            print(f"  {kind:5} {status}    {per:6.2f} server CPU-ms  ({floor / per:.2f} x floor)"
                  + (f", PostgreSQL {db:.2f} CPU-ms" if db is not None else ""))


if __name__ == "__main__":
    main()
