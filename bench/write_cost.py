"""CPU cost and SQL statements of East's whole round at one table, per kind of request.

    .venv/bin/python -m bench.write_cost [--tables 150] [--rounds 30] [--batches 3]
                                         [--sql NAME] [--profile NAME|all] [--no-steps]
                                         [--postgres | --database-url URL]

Seeds a tournament of --tables tables (bench.flows.seed) on a temporary SQLite file (or
on PostgreSQL: a throwaway cluster with --postgres, or the database at --database-url,
whose public schema is dropped and rebuilt), then
with the Flask test client (CSRF on, the cookie jar of one phone) plays the round of
bench.flows.GAMES at tables 1, 2, ... one after another, as a phone does it: the table
page; per game the entry page, the wizard's htmx previews as each answer is tapped
("game step", one per answer; --no-steps leaves them out, as a phone without JavaScript
does), the save and the page its redirect opens; the review, each player's initials and
the review again, West's check where the page offers it, the submit and its redirect.
Every form's hidden fields (sheet version, request key, CSRF token) are read from the
page just served, as a browser sends them.

Three tables are played first to warm up; then --batches batches of --rounds tables each
are measured. It prints, per kind of request, how many a table-round makes, the mean CPU
milliseconds (time.process_time: this process only, the test client's own work included;
the least of the batches' means, as other processes share the CPU) and SQL statements (a
before_cursor_execute listener) of one, and the total per table-round.
--sql NAME prints the statements of the requests of that kind at the last table;
--profile NAME (or "all") runs cProfile over those requests and prints the top functions.
On PostgreSQL the statements' own cost is on the server, not in this process: the report
adds the database server's CPU per table-round (its postmaster and backends, from /proc;
only for the throwaway cluster, whose port names it)."""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import tempfile
import time
from collections import defaultdict
from contextlib import contextmanager
from urllib.parse import urlsplit

from sqlalchemy import event

from bench.flows import GAMES, app_for, migrated_seed, table_url
from bench.table_flow import Forms, game_fields, preview_of, signer_of, steps_of
from bench.wrk import postgres_cpu

HX = {"HX-Request": "true"}
WARM_UP = 3


class Meter:
    """Runs each request under a name, adding its CPU and statements to that name."""

    def __init__(self, client, engine, profile: str | None, sql: str | None):
        self.client = client
        self.cpu: dict[str, float] = defaultdict(float)
        self.count: dict[str, int] = defaultdict(int)
        self.statements: dict[str, int] = defaultdict(int)
        self.measuring = False
        self.profile_name, self.sql_name = profile, sql
        self.profiler = cProfile.Profile(time.process_time) if profile else None
        self.last_table = False
        self._queries = 0
        self._show = False

        @event.listens_for(engine, "before_cursor_execute")
        def count(conn, cursor, statement, *_):
            self._queries += 1
            if self._show:
                print("   ", " ".join(statement.split())[:300])

    def __call__(self, name: str, method: str, path: str, data=None, headers=None):
        profiling = self.measuring and self.profile_name in (name, "all")
        self._show = self.measuring and self.last_table and self.sql_name == name
        if self._show:
            print(f"  {name}: {method} {path.split('?')[0]}")
        self._queries = 0
        start = time.process_time()
        if profiling:
            self.profiler.enable()
        response = self.client.open(path, method=method, data=data, headers=headers or {})
        if profiling:
            self.profiler.disable()
        spent = time.process_time() - start
        self._show = False
        if self.measuring:
            self.cpu[name] += spent
            self.count[name] += 1
            self.statements[name] += self._queries
        return response

    def follow(self, name: str, response, expected=(302, 303)):
        """A post's redirect, followed like a browser (HX-Redirect for htmx)."""
        target = response.headers.get("HX-Redirect") or response.headers.get("Location")
        assert response.status_code in expected and target, (name, response.status_code)
        page = self(name, "GET", target)
        assert page.status_code == 200, (name, page.status_code)
        return page


def play_round(meter: Meter, code_seed, number: int, steps: bool) -> None:
    page = meter("table page", "GET", table_url(code_seed, number))
    assert page.status_code == 200
    for game in GAMES:
        entry = meter("entry page", "GET", table_url(code_seed, number, "/game"))
        assert entry.status_code == 200, entry.status_code
        form = Forms(entry.get_data(as_text=True)).find("/game")
        fields = game_fields(game, signer_of(game))
        if steps:
            preview = preview_of(form["action"])
            for answers in steps_of(fields):
                step = meter("game step (htmx preview)", "POST", preview,
                             data={**form["fields"], **answers}, headers=HX)
                assert step.status_code == 200, step.status_code
        saved = meter("save game", "POST", form["action"], data={**form["fields"], **fields})
        meter.follow("save game -> table page", saved)
    review = meter("review page", "GET", table_url(code_seed, number, "/review"))
    assert review.status_code == 200
    for seat in "ESWN":
        form = Forms(review.get_data(as_text=True)).find("/initial", seat=seat)
        if form is None:
            continue
        signed = meter("initial", "POST", form["action"],
                       data={**form["fields"], "initials": seat * 2})
        review = meter.follow("initial -> review page", signed)
    form = Forms(review.get_data(as_text=True)).find("/west-check")
    if form is not None:
        checked = meter("west check", "POST", form["action"], data=form["fields"])
        review = meter.follow("west check -> review page", checked)
    form = Forms(review.get_data(as_text=True)).find("/submit")
    assert form is not None
    submitted = meter("submit", "POST", form["action"], data=form["fields"])
    meter.follow("submit -> table page", submitted)


@contextmanager
def database(args):
    """The URL of an empty database for this run, and the port of its server when it is
    the throwaway cluster (whose CPU can be read)."""
    if args.postgres:
        from bench.postgres import cluster
        with cluster() as url:
            yield url, urlsplit(url).port
    elif args.database_url:
        from bench.postgres import empty_schema
        empty_schema(args.database_url)
        yield args.database_url, None
    else:
        with tempfile.TemporaryDirectory() as folder:
            yield "sqlite:///" + os.path.join(folder, "bench.db"), None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=30, help="tables in a batch")
    parser.add_argument("--batches", type=int, default=3)
    parser.add_argument("--profile", default=None)
    parser.add_argument("--sql", default=None, help="print the statements of this kind")
    parser.add_argument("--no-steps", action="store_true",
                        help="leave out the wizard's htmx previews")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--postgres", action="store_true",
                       help="on a throwaway PostgreSQL cluster (bench.postgres)")
    where.add_argument("--database-url", default=None,
                       help="on this PostgreSQL (its public schema is dropped and rebuilt)")
    args = parser.parse_args()
    assert args.rounds * args.batches + WARM_UP <= args.tables

    server_cpu: list[float] = []
    with database(args) as (database_url, port):
        code_seed = migrated_seed(database_url, args.tables)
        app = app_for(database_url)
        with app.app_context():
            from models import db
            engine = db.engine
        meter = Meter(app.test_client(), engine, args.profile, args.sql)

        for number in range(1, WARM_UP + 1):
            play_round(meter, code_seed, number, not args.no_steps)
        cpu: dict[str, float] = {}
        number = WARM_UP + 1
        for batch in range(args.batches):
            meter.cpu.clear()
            meter.count.clear()
            meter.statements.clear()
            meter.measuring = True
            server_before = postgres_cpu(port)
            for _ in range(args.rounds):
                meter.last_table = batch == args.batches - 1 and _ == args.rounds - 1
                play_round(meter, code_seed, number, not args.no_steps)
                number += 1
            meter.measuring = False
            if server_before is not None:
                server_cpu.append(postgres_cpu(port) - server_before)
            for name, spent in meter.cpu.items():
                cpu[name] = min(cpu.get(name, spent), spent)

    rounds = args.rounds
    print(f"{'request':30} {'per round':>9} {'CPU ms':>7} {'SQL':>6} "
          f"{'CPU ms/round':>12} {'SQL/round':>9}")
    for name in meter.count:
        n = meter.count[name]
        print(f"{name:30} {n / rounds:9.1f} {cpu[name] * 1000 / n:7.2f} "
              f"{meter.statements[name] / n:6.1f} {cpu[name] * 1000 / rounds:12.1f} "
              f"{meter.statements[name] / rounds:9.1f}")
    print(f"{'table-round':30} {sum(meter.count.values()) / rounds:9.1f} {'':7} {'':6} "
          f"{sum(cpu.values()) * 1000 / rounds:12.1f} "
          f"{sum(meter.statements.values()) / rounds:9.1f}")
    if server_cpu:
        print(f"database server CPU per table-round: {min(server_cpu) * 1000 / rounds:.1f} ms "
              "(the least of the batches)")
    if meter.profiler is not None:
        if args.profile != "all" and args.profile not in meter.count:
            raise SystemExit(f"--profile {args.profile!r}: no request of that kind; the kinds "
                             f"are the names above, or 'all'")
        stats = pstats.Stats(meter.profiler)
        stats.sort_stats("cumulative").print_stats(90)
        stats.sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
