"""Load benchmark: a 600-player round end on one machine, over loopback.

`make bench` (or `python -m bench --tables 150`) does, in one run:

1. a fresh database (SQLite in a temporary folder; the PostgreSQL at --database-url or
   DATABASE_URL, whose schema is dropped and rebuilt; or with --postgres alone a throwaway
   cluster, bench/postgres.py), migrated, seeded with a tournament of --tables tables,
   round 1 seated and its clock running;
2. the app under gunicorn with gunicorn.conf.py (the Procfile's config) on 127.0.0.1
   (--servers N: N instances on their own ports, sharing the database), and a bare Flask
   endpoint (bench/floor.py) under the same config: the floor;
3. wrk against the floor, the page's one poll (the 204 path) and the pages, in turn,
   --rounds times over (each ratio to the floor from the same round, then the median);
   East's round alone for a few tables; from both, the server CPU per table-round;
4. the round end, open loop (bench/flows.py): every table's page loaded, then every seat's
   phone makes the page's one poll every POLL seconds, every East enters four games with
   initials and submits, each at its own moment within --spread seconds (--slice: only
   that part of the window, at its rate), 10% of those tables call the director, directors
   work the queue, big screens poll, onlookers keep the standings open (polling) and
   reload them about once a minute;
5. per endpoint p50/p95/p99 latency, throughput and errors; the CPU of server, generator
   and database; then the database check: every table that submitted has one sheet, with
   four games whose points are what tournament.scoring.score_game gives; page sizes; the
   standings of a finished event.

--capacity runs step 4 at increasing table counts (bench/capacity.py); --wifi times first
visits over slow Wi-Fi (bench/wifi.py); --full runs every measurement RESULTS.md quotes.
Each prints a Markdown report (also written to bench/out/). Bounded in time and requests;
loopback only. Nothing here is a test: tests never assert timings."""

from __future__ import annotations

import argparse
import asyncio
import atexit
import os
import platform
import re
import shutil
import ssl
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median

import aiohttp
import httpx

from bench import flows, wrk

ROOT = Path(__file__).resolve().parent.parent
CSRF = re.compile(r'"X-CSRFToken": "([^"]+)"')
# One TLS context for every simulated phone: the HTTP clients build one per client otherwise
# (about 20 ms of CPU each), which starved the server of the machine's two cores.
# Loopback is plain HTTP anyway.
SSL = ssl.create_default_context()


# -- measurements ---------------------------------------------------------------------------

class Stats:
    """Latencies and outcomes per endpoint label."""

    def __init__(self):
        self.samples: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.error_examples: dict[str, str] = {}
        self.started = time.monotonic()
        self.ended: float | None = None

    def add(self, label: str, seconds: float, ok: bool, detail: str = "") -> None:
        self.samples[label].append(seconds)
        if not ok:
            self.errors[label] += 1
            self.error_examples.setdefault(label, detail[:300])

    def table(self, floor_rps: float) -> list[str]:
        duration = (self.ended or time.monotonic()) - self.started
        rows = ["| endpoint | requests | errors | p50 ms | p95 ms | p99 ms | req/s | x floor |",
                "|---|---:|---:|---:|---:|---:|---:|---:|"]
        for label in sorted(self.samples):
            values = sorted(self.samples[label])
            rps = len(values) / duration
            rows.append(
                f"| {label} | {len(values)} | {self.errors[label]} | {pct(values, 50):.1f} | "
                f"{pct(values, 95):.1f} | {pct(values, 99):.1f} | {rps:.1f} | "
                + (f"{rps / floor_rps:.3f} |" if floor_rps else "- |"))
        return rows


FLOOR = "bare Flask floor"


@dataclass
class Throughput:
    """One path's wrk runs, one per round, with the server CPU per request of each."""

    runs: list[wrk.WrkResult] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)

    @property
    def median_rps(self) -> float:
        return median(run.rps for run in self.runs)

    @property
    def median_cpu(self) -> float:
        return median(self.cpu_ms)

    def ratios(self, floor: Throughput) -> tuple[list[float], list[float]]:
        """This path against the floor in each round (req/s, then the CPU per request
        the other way round): each ratio from two runs a few seconds apart."""
        by_rps = [mine.rps / theirs.rps for mine, theirs in zip(self.runs, floor.runs,
                                                                strict=True)]
        by_cpu = [theirs / mine if mine else 0.0
                  for mine, theirs in zip(self.cpu_ms, floor.cpu_ms, strict=True)]
        return by_rps, by_cpu


def _spread(values: list[float]) -> str:
    """The median, and the range when there is more than one value."""
    if len(values) == 1:
        return f"{values[0]:.2f}"
    return f"{median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def throughput(args, floor_server, url: str, server_pid: int,
               paths: dict[str, str]) -> tuple[list[str], dict[str, Throughput]]:
    """wrk against the floor and each path, in turn, --rounds times over: the floor is
    measured in every round, so each path's ratio to it comes from runs a few seconds
    apart. On a shared machine the server's share of the cores drifts by tens of percent
    within a minute; one run of each, one after the other, compared a path with a floor
    measured minutes earlier on a different machine, in effect."""
    floor_url, floor_pid = floor_server
    targets = [(FLOOR, floor_url + "/", floor_pid, {})] + [
        (name, url + path, server_pid, {"HX-Request": "true"} if "poll" in name else {})
        for name, path in paths.items()]
    measured = {name: Throughput() for name, *_ in targets}
    for _ in range(args.rounds):
        for name, target, pid, headers in targets:
            before = wrk.tree_cpu(pid)
            result = wrk.run(target, args.burst, connections=args.concurrency,
                             headers=headers)
            measured[name].runs.append(result)
            measured[name].cpu_ms.append((wrk.tree_cpu(pid) - before) * 1000
                                         / max(1, result.requests))
    floor = measured[FLOOR]
    rows = ["## Throughput (wrk, same run)", "",
            f"`wrk -t2 -c{args.concurrency} -d{args.burst:g}s` per path against the same "
            f"gunicorn config, the floor and every path in turn, {args.rounds} rounds; server "
            "CPU is the gunicorn master's and workers' CPU time during each run (from /proc). "
            "Each figure is the median of the rounds; `x floor` is each round's ratio to "
            "that round's floor, its median and (in brackets) its range.", "",
            "On a shared machine the server gets an unsteady share of the cores, so req/s "
            "moves with the neighbours; CPU per request moves less, and `x floor (CPU)` = "
            "the floor's CPU per request / this path's says how many of these the server "
            "answers for each floor request given the same CPU.", "",
            "| path | status | req/s | x floor | p50 ms | p99 ms | server CPU ms/request "
            "| x floor (CPU) | wrk CPU s | errors |",
            "|---|---:|---:|---|---:|---:|---:|---|---:|---:|"]
    for name, path_runs in measured.items():
        by_rps, by_cpu = path_runs.ratios(floor)
        runs = path_runs.runs
        status = 204 if "unchanged" in name else 200
        if name == FLOOR:
            by_rps = by_cpu = [1.0]
        rows.append(
            f"| {name} | {status} | {path_runs.median_rps:,.0f} | {_spread(by_rps)} | "
            f"{median(r.p50_ms for r in runs):.1f} | {median(r.p99_ms for r in runs):.1f} | "
            f"{path_runs.median_cpu:.2f} | {_spread(by_cpu)} | "
            f"{sum(r.generator_cpu for r in runs):.1f} | "
            f"{sum(r.non_2xx + r.errors for r in runs)} |")

    def ratio(names, by: int) -> float:
        # the slower of the named paths in each round, then the median of the rounds
        per_round = zip(*(measured[n].ratios(floor)[by] for n in names), strict=True)
        return median(min(values) for values in per_round)

    one = "one poll, unchanged"
    pages = ("table page", "entry page")
    three = sum(measured[n].median_cpu for n in measured if n.endswith("alone, unchanged"))
    rows += ["", f"One poll unchanged: **{ratio([one], 0):.2f} x floor** by req/s, "
             f"**{ratio([one], 1):.2f} x** by CPU (target >= 0.5); the slower page: "
             f"**{ratio(pages, 0):.2f} x** by req/s, **{ratio(pages, 1):.2f} x** by CPU "
             f"(target >= 0.15). A table page made the three separate polls above every "
             f"interval ({three:.2f} CPU-ms); it now makes one "
             f"({measured[one].median_cpu:.2f} CPU-ms).", ""]
    return rows, measured


def pct(sorted_values: list[float], p: float) -> float:
    if not sorted_values:
        return 0.0
    k = min(len(sorted_values) - 1, max(0, round(p / 100 * len(sorted_values)) - 1))
    return sorted_values[k] * 1000


@dataclass
class Answer:
    """What the flows read of a response (httpx's names for them)."""

    status_code: int
    text: str
    headers: Mapping[str, str]


class Client:
    """One phone: its own cookies and CSRF token; records each request's latency.

    Through aiohttp, not httpx: on the same two cores as the server, httpx spent 1.9 CPU-ms
    of the generator on each request and aiohttp 0.7 (3,000 posts to a bare gunicorn app,
    20 at a time, alternating), so that the simulated phones take less of the CPU the
    server is measured on."""

    def __init__(self, base: str, stats: Stats):
        self.base = base
        self.stats = stats
        # unsafe: cookies from an IP address (127.0.0.1) are kept; quote_cookie off: sent
        # back exactly as the server set them, as a browser does
        self.http = aiohttp.ClientSession(
            base_url=base, timeout=aiohttp.ClientTimeout(total=30.0),
            cookie_jar=aiohttp.CookieJar(unsafe=True, quote_cookie=False),
            connector=aiohttp.TCPConnector(ssl=SSL))
        self.csrf = ""

    async def request(self, label: str, method: str, url: str, *, ok=(200, 204, 302, 303),
                      retries: int = 0, **kwargs) -> Answer | None:
        headers = kwargs.pop("headers", {})
        if self.csrf and method != "GET":
            headers["X-CSRFToken"] = self.csrf
        for attempt in range(retries + 1):
            start = time.monotonic()
            try:
                async with self.http.request(method, url, headers=headers,
                                             allow_redirects=False, **kwargs) as response:
                    answer = Answer(response.status, await response.text(), response.headers)
            except (TimeoutError, aiohttp.ClientError) as error:
                self.stats.add(label, time.monotonic() - start, False, repr(error))
                if attempt < retries:
                    await asyncio.sleep(0.5)
                    continue
                return None
            good = answer.status_code in ok
            self.stats.add(label, time.monotonic() - start, good,
                           f"{answer.status_code} {url} {answer.text[:200]}")
            if good:
                if match := CSRF.search(answer.text):
                    self.csrf = match.group(1)
                return answer
            if attempt < retries and answer.status_code >= 500:
                await asyncio.sleep(0.5)
                continue
            return answer
        return None

    async def close(self):
        await self.http.close()


async def closed_loop(base: str, path: str, concurrency: int, seconds: float,
                      ok=(200, 204)) -> tuple[float, int]:
    """Requests per second that `concurrency` clients achieve back to back on one path."""
    done = errors = 0
    deadline = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, timeout=30.0, limits=limits,
                                 verify=SSL) as http:
        async def worker():
            nonlocal done, errors
            while time.monotonic() < deadline:
                try:
                    response = await http.get(path)
                    if response.status_code not in ok:
                        errors += 1
                except httpx.HTTPError:
                    errors += 1
                done += 1

        start = time.monotonic()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return done / (time.monotonic() - start), errors


# -- servers and database -------------------------------------------------------------------

def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def gunicorn(app_spec: str, env: dict, log: Path, kind: str = "gunicorn"):
    """The app (`app_spec`) under gunicorn with gunicorn.conf.py; with kind="waitress",
    the app under the fork-free server, as `mahjtable run --server waitress` starts it
    (its data folder beside the log; the database is the environment's)."""
    port = free_port()
    env = {**env, "HOST": "127.0.0.1", "PORT": str(port)}
    command = [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", app_spec]
    if kind == "waitress":
        if app_spec != "app:create_app()":
            raise ValueError("waitress serves the app only")
        command = [sys.executable, "launcher.py", "--data-dir", str(log.parent), "run",
                   "--server", "waitress", "--no-demo", "--host", "127.0.0.1",
                   "--port", str(port)]
    with open(log, "w") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out,
                                   stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 120  # a busy shared machine starts slowly
            while True:
                try:
                    httpx.get(url + "/", timeout=2)
                    break
                except httpx.HTTPError:
                    if process.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(f"{kind} did not start; see {log}") from None
                    time.sleep(0.2)
            yield url, process.pid
        finally:
            process.terminate()
            process.wait(15)


def reset_database(database_url: str, env: dict) -> None:
    if database_url.startswith("postgres"):
        from bench.postgres import empty_schema
        empty_schema(database_url)
    subprocess.run([sys.executable, "-m", "flask", "--app", "app", "db", "upgrade"],
                   cwd=ROOT, env=env, check=True)


@contextmanager
def servers(app_spec: str, env: dict, workdir: Path, count: int, kind: str = "gunicorn"):
    """`count` gunicorn (or waitress) instances of the app, each on its own port, sharing
    the database: [(url, master pid)]."""
    with ExitStack() as stack:
        yield [stack.enter_context(gunicorn(app_spec, env, workdir / f"app-{n}.log", kind))
               for n in range(1, count + 1)]


@contextmanager
def database(args):
    """The database URL every run uses: --database-url (or DATABASE_URL), else a throwaway
    PostgreSQL cluster with --postgres, else None (a fresh SQLite file per run)."""
    given = args.database_url or os.environ.get("DATABASE_URL")
    if given:
        yield given
    elif args.postgres:
        from bench import postgres

        with postgres.cluster() as url:
            yield url
    else:
        yield None


def backend(database_url: str) -> str:
    return "PostgreSQL" if database_url.startswith("postgres") else "SQLite"


def pace(args) -> str:
    if args.slice and args.slice < args.spread:
        return (f"a {args.slice:.0f} s slice of a {args.spread:.0f} s round end, at its rate: "
                f"{args.slice / args.spread:.0%} of the tables enter and submit within the "
                "slice, every table's phones poll")
    return f"every East's games and submission spread over {args.spread:.0f} s"


# -- the run --------------------------------------------------------------------------------

def scratch(prefix: str) -> Path:
    """A working folder (the SQLite file, the servers' logs), removed when the benchmark
    process exits: a capacity search makes one per table count."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, folder, True)
    return folder


async def run(args) -> str:
    with database(args) as given:
        return await _run(args, given)


async def _run(args, given: str | None) -> str:
    workdir = scratch("mahjtable-bench-")
    database_url = given or f"sqlite:///{workdir / 'bench.db'}"
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "bench",
           "PYTHONFAULTHANDLER": "1",  # a crashing worker prints where it crashed
           "POLL_SECONDS": str(args.poll)}
    env.pop("BASE_URL", None)
    reset_database(database_url, env)
    seed = flows.seed(database_url, args.tables)
    report = [f"# MahjTable benchmark: {args.tables} tables ({args.tables * 4} players)", "",
              f"- command: `python -m bench {' '.join(sys.argv[1:])}`",
              f"- machine: {platform.platform()}, {os.cpu_count()} cores, "
              f"Python {platform.python_version()}",
              f"- database: {backend(database_url)}"
              + (" (a throwaway cluster started by the benchmark)"
                 if args.postgres and not (args.database_url or os.environ.get("DATABASE_URL"))
                 else ""),
              f"- app servers: {args.servers} {args.server[0]} instance(s) with gunicorn.conf.py "
              f"({os.environ.get('GUNICORN_WORKER_CLASS', 'gevent')} workers, WEB_CONCURRENCY="
              f"{os.environ.get('WEB_CONCURRENCY', '2 per core + 1')}), loopback; the "
              "throughput runs use the first", ""]

    pg_port = _port(database_url)
    measured: dict[str, Throughput] = {}
    floor_rps = 0.0
    with servers("app:create_app()", env, workdir, args.servers, args.server[0]) as running:
        url, server_pid = running[0]
        urls = [u for u, _ in running]

        def server_cpu_now() -> float:
            return sum(wrk.tree_cpu(pid) for _, pid in running)

        if not args.no_wrk:
            with gunicorn("bench.floor:app", env, workdir / "floor.log") as floor_server:
                lines, measured = throughput(args, floor_server, url, server_pid,
                                             flows.poll_paths(url, seed))
            floor_rps = measured[FLOOR].median_rps
            report += lines

        sizes = await flows.page_sizes(url, seed)  # before the round end: entry pages exist

        done: frozenset[int] = frozenset()
        if not args.no_wrk:
            # One table's round, alone: K tables enter, initial and submit with nothing else
            # running, so their server CPU is theirs.
            alone = sorted(seed.tables)[-max(1, min(20, len(seed.tables) // 5)):]
            done = frozenset(alone)
            alone_stats = Stats()
            before = wrk.tree_cpu(server_pid)
            pg_before = wrk.postgres_cpu(pg_port)
            await flows.table_rounds(url, seed, alone, alone_stats, Client)
            east_ms = (wrk.tree_cpu(server_pid) - before) * 1000 / len(alone)
            pg_after = wrk.postgres_cpu(pg_port)
            east_pg_ms = ((pg_after - pg_before) * 1000 / len(alone)
                          if pg_before is not None and pg_after is not None else None)
            versions = flows.sheet_versions(database_url, seed, alone)
            report += cpu_per_table_round(args, measured, east_ms, east_pg_ms, versions,
                                          len(alone))

        stats = Stats()
        before = {}

        def window_opens():
            before.update(generator=wrk.self_cpu(), server=server_cpu_now(),
                          database=wrk.postgres_cpu(pg_port),
                          each=[wrk.tree_cpu(pid) for _, pid in running])

        acting = await flows.round_end(urls, seed, stats, args, Client, done=done,
                                       on_start=window_opens)
        stats.ended = time.monotonic()
        generator_cpu = wrk.self_cpu() - before["generator"]
        server_cpu = server_cpu_now() - before["server"]
        each = [wrk.tree_cpu(pid) - cpu for (_, pid), cpu in zip(running, before["each"],
                                                                  strict=True)]
        pg_before, pg_after = before["database"], wrk.postgres_cpu(pg_port)
        report += ["## Round end (open loop)", "",
                   f"{len(acting)} Easts entering 4 games each (the wizard's preview at each "
                   "answer tapped) and submitting"
                   + (f" (the other {len(done)} submitted above)" if done else "")
                   + f", {pace(args)}; {args.tables * 4} phones (every table's page loaded "
                   f"before the window) each making their page's one poll every "
                   f"{args.poll:.0f} s; two big screens polling; calls from 10% of the "
                   "entering tables; three directors working the queue; "
                   f"{flows.onlookers(args)} with the standings open (their poll, and a "
                   "reload about once a minute); "
                   f"phones spread over {args.servers} app server(s).", ""]
        report += stats.table(floor_rps)
        wall = stats.ended - stats.started
        report += ["", f"CPU in these {wall:.0f} s: server (gunicorn) {server_cpu:.1f} s "
                   f"({server_cpu / wall:.0%} of one core), load generator "
                   f"{generator_cpu:.1f} s ({generator_cpu / wall:.0%})"
                   + (f", PostgreSQL {pg_after - pg_before:.1f} s "
                      f"({(pg_after - pg_before) / wall:.0%})"
                      if pg_before is not None and pg_after is not None else "")
                   + f", on {os.cpu_count()} cores shared by all of them."
                   + ("" if len(running) == 1 else " Server CPU per instance: "
                      + ", ".join(f"{u.rsplit(':', 1)[1]}: {c:.1f} s"
                                  for (u, _), c in zip(running, each, strict=True))
                      + " (port: CPU).")]
        if stats.error_examples:
            report += ["", "Errors (first of each):", ""]
            report += [f"- {label}: `{text}`" for label, text in stats.error_examples.items()]
        save = sorted(stats.samples.get("save game", []) + stats.samples.get("submit", []))
        errors = sum(stats.errors.values())
        report += ["", f"Score save and submit p95: **{pct(save, 95):.0f} ms** (target < 150), "
                   f"over {len(save)} requests; errors: **{errors}**", ""]
        report += ["## Page sizes on the wire (first visit, including htmx, CSS and JS)", ""]
        report += sizes

    report += ["", "## Database check", ""]
    report += flows.check_database(database_url, seed, set(acting) | done)
    if not args.no_standings:
        report += ["", "## Standings of a finished event (target < 50 ms)", ""]
        report += flows.standings_speed(database_url, 150)  # 600 players, whatever --tables
    return "\n".join(report) + "\n"


async def capacity(args) -> str:
    with database(args) as given:
        return await _capacity(args, given)


async def _capacity(args, given: str | None) -> str:
    """The round end at increasing table counts (bench/capacity.py): the counts given, in
    order, until one does not hold; then once halfway between the last that held and it."""
    from contextlib import asynccontextmanager

    from bench import capacity as search

    base_env = {**os.environ, "SECRET_KEY": "bench", "PYTHONFAULTHANDLER": "1",
                "POLL_SECONDS": str(args.poll)}
    base_env.pop("BASE_URL", None)

    kind = args.server[0]  # the server being measured: the loop below sets it

    @asynccontextmanager
    async def run_env(tables):
        workdir = scratch("mahjtable-capacity-")
        database_url = given or f"sqlite:///{workdir / 'bench.db'}"
        env = {**base_env, "DATABASE_URL": database_url}
        reset_database(database_url, env)
        seed = flows.seed(database_url, tables)
        with servers("app:create_app()", env, workdir, args.servers, kind) as running:
            yield running, seed, database_url

    started = time.monotonic()
    steps = []
    by_server = []

    async def measure(tables):
        trials = []
        for _ in range(args.trials):
            trials.append(await search.step(tables, args, run_env))
            s = trials[-1]
            print(f"{kind}, {tables} tables: p95 {s.save_p95_ms:.0f} ms, {s.errors} errors, "
                  f"database "
                  f"{'PASS' if s.database_ok else 'FAIL'}, server CPU {s.server_cpu:.0f} s, "
                  f"generator CPU {s.generator_cpu:.0f} s, {s.wall:.0f} s "
                  f"({time.monotonic() - started:.0f} s so far)", file=sys.stderr)
        steps.extend(trials)
        return search.count_holds(trials)

    # Each server in turn (--server gunicorn,waitress): the same search, the same hour.
    for kind in args.server:
        steps = []
        held = None
        for tables in args.capacity:
            if not await measure(tables):
                if held is not None and args.bisect:
                    middle = (held + tables) // 2
                    if held < middle < tables:
                        await measure(middle)
                break
            held = tables
        by_server.append((kind, steps))
    name = args.out or ("capacity-postgres" if given else "capacity")
    out = ROOT / "bench" / "out"
    out.mkdir(exist_ok=True)
    report = [f"# MahjTable capacity search: {', '.join(map(str, args.capacity))} tables", "",
              f"- command: `python -m bench {' '.join(sys.argv[1:])}`",
              f"- machine: {platform.platform()}, {os.cpu_count()} cores, "
              f"Python {platform.python_version()}",
              f"- database: {backend(given) if given else 'SQLite'}; app servers: "
              f"{args.servers}",
              f"- the whole search took {time.monotonic() - started:.0f} s", ""]
    for kind, steps in by_server:
        # The first server's chart keeps the name RESULTS.md links to.
        chart = name if kind == args.server[0] else f"{name}-{kind}"
        (out / f"{chart}.svg").write_text(search.chart(steps))
        if len(by_server) > 1:
            report += [f"## {kind}", ""]
        report += search.report(steps, args)
        report += [f"![save p95 and errors against table count](out/{chart}.svg)", ""]
    return "\n".join(report) + "\n"


async def slow_wifi(args) -> str:
    """Only the first visits over slow Wi-Fi (bench/wifi.py), on a seeded event."""
    from bench import wifi

    with database(args) as given:
        workdir = scratch("mahjtable-wifi-")
        database_url = given or f"sqlite:///{workdir / 'bench.db'}"
        env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "bench",
               "POLL_SECONDS": str(args.poll)}
        env.pop("BASE_URL", None)
        reset_database(database_url, env)
        seed = flows.seed(database_url, args.tables)
        with gunicorn("app:create_app()", env, workdir / "app.log") as (url, _):
            pages = {"table": flows.table_url(seed, 1), "entry": flows.table_url(seed, 2, "/game"),
                     "standings": f"/results/{seed.code}", "display": f"/display/{seed.code}"}
            rows = await wifi.first_visits(url, pages, args.wifi_latency, args.wifi_kbps)
    return "\n".join([
        "# MahjTable: first visit over slow Wi-Fi", "",
        f"- command: `python -m bench {' '.join(sys.argv[1:])}`",
        f"- machine: {platform.platform()}, {os.cpu_count()} cores; gunicorn.conf.py on "
        f"loopback; database: {backend(database_url)}", "", *rows]) + "\n"


def page_load(url: str) -> tuple[float, str | None]:
    """One page load on a new connection, as a phone opening it: (seconds, failure)."""
    start = time.monotonic()
    try:
        response = httpx.get(url, timeout=30)
        failure = None if response.status_code == 200 else str(response.status_code)
    except httpx.HTTPError as error:
        failure = repr(error)
    return time.monotonic() - start, failure


async def stalled(args) -> str:
    """Two instances of the app on one database, the same config: hundreds of connections
    hold half-sent requests (bench/stall.py) against one of them the whole time, the
    other is left alone. A phone loads a table page on each in turn; then wrk runs the
    floor (bench/floor.py, its own server), the unchanged poll on the calm instance and
    on the held one, in turn, --rounds times: each poll's ratio to the floor of its round,
    so that the neighbours' share of the cores, which drifts within a minute on a shared
    machine, is the same for both."""
    from bench.stall import HalfSent

    workdir = scratch("mahjtable-stall-")
    database_url = f"sqlite:///{workdir / 'bench.db'}"
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "bench",
           "POLL_SECONDS": str(args.poll)}
    env.pop("BASE_URL", None)
    reset_database(database_url, env)
    seed = flows.seed(database_url, args.tables)
    holding = args.stall_hold
    with gunicorn("app:create_app()", env, workdir / "calm.log") as (calm_url, _), \
            gunicorn("app:create_app()", env, workdir / "held.log") as (held_url, _), \
            gunicorn("bench.floor:app", env, workdir / "floor.log") as (floor_url, _):
        poll = flows.poll_paths(calm_url, seed)["one poll, unchanged"]
        page = flows.table_url(seed, 1)
        loads = {"calm": [], "held": []}
        failures = {"calm": [], "held": []}
        rates = {"floor": [], "calm": [], "held": []}
        wrk_failures = {"floor": 0, "calm": 0, "held": 0}
        with HalfSent(int(held_url.rsplit(":", 1)[1]), headers=args.stall,
                      bodies=args.stall) as slow:
            time.sleep(1)
            deadline = time.monotonic() + holding
            while time.monotonic() < deadline:
                for name, url in (("calm", calm_url), ("held", held_url)):
                    seconds, failure = page_load(url + page)
                    loads[name].append(seconds)
                    if failure:
                        failures[name].append(failure)
                    time.sleep(0.125)
            held = []
            for _ in range(args.rounds):
                for name, url in (("floor", floor_url + "/"), ("calm", calm_url + poll),
                                  ("held", held_url + poll)):
                    result = wrk.run(url, args.burst, connections=args.concurrency,
                                     headers={} if name == "floor" else {"HX-Request": "true"})
                    rates[name].append(result.rps)
                    wrk_failures[name] += result.non_2xx + result.errors
                held.append(slow.held)
            reopened = slow.reopened
        timeouts = sum((workdir / f"{n}.log").read_text().count("WORKER TIMEOUT")
                       for n in ("calm", "held"))

    def ratios(name):
        return [mine / floor for mine, floor in zip(rates[name], rates["floor"], strict=True)]

    calm_ratio, held_ratio = median(ratios("calm")), median(ratios("held"))
    paired = median(h / c for h, c in zip(ratios("held"), ratios("calm"), strict=True))
    for values in loads.values():
        values.sort()
    worker = os.environ.get("GUNICORN_WORKER_CLASS", "gevent")
    rows = []
    for name, label in (("calm", "left alone"), ("held", "half-sent requests held")):
        values = loads[name]
        rows.append(
            f"| {label} | {len(values)} | {len(failures[name])} | {pct(values, 50):.0f} | "
            f"{pct(values, 95):.0f} | {values[-1] * 1000:.0f} | "
            f"{median(rates[name]):,.0f} | {_spread(ratios(name))} | {wrk_failures[name]} |")
    return "\n".join([
        f"# MahjTable: {args.stall} + {args.stall} half-sent requests held", "",
        f"- command: `python -m bench {' '.join(sys.argv[1:])}`",
        f"- machine: {platform.platform()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}; database: SQLite, {args.tables} tables",
        f"- app servers: two instances with gunicorn.conf.py ({worker} workers, "
        f"WEB_CONCURRENCY={os.environ.get('WEB_CONCURRENCY', '2 per core + 1')}) on one "
        "database, loopback; the floor (bench/floor.py) on a third, same config", "",
        f"{args.stall} connections stop in a GET's headers and {args.stall} in a POST's "
        "body against one instance, opened again whenever the server closes one, for the "
        f"whole run. A phone loads table 1's page on each instance in turn for {holding:.0f} "
        "s (a new connection each time, 4 a second); then wrk runs the floor, the "
        f"unchanged poll on the instance left alone and on the held one, in turn, "
        f"{args.rounds} times (`wrk -t2 -c{args.concurrency} -d{args.burst:g}s`). Floor: "
        f"{median(rates['floor']):,.0f} req/s (median).", "",
        "| instance | page loads | failed | p50 ms | p95 ms | max ms | poll req/s "
        "| poll x floor | wrk errors |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        *rows, "",
        f"Poll x floor, held / left alone: **{held_ratio / calm_ratio:.2f}** (median of "
        f"each round's pair: {paired:.2f}; target >= 0.90); table page p95 while held: "
        f"**{pct(loads['held'], 95):.0f} ms** (target < 1,000), failed loads: "
        f"**{len(failures['held'])}**. The server closed {reopened} of the slow "
        f"connections (each opened again); held at the end of each round: "
        f"{', '.join(map(str, held))}; worker timeouts in the logs: {timeouts}.",
        *(["", f"First failures: {failures['calm'][:3] + failures['held'][:3]}"]
          if failures["calm"] or failures["held"] else []),
    ]) + "\n"


def _port(database_url: str) -> int | None:
    found = re.search(r"@[^/:]+:(\d+)/", database_url)
    return int(found.group(1)) if found and database_url.startswith("postgres") else None


def cpu_per_table_round(args, measured, east_ms, east_pg_ms, versions, tables) -> list[str]:
    """Server CPU for one table's 50-minute round, from the parts measured above: East's
    requests (measured alone), four phones' unchanged polls, and their changed polls
    (one per sheet change and clock change)."""
    round_seconds, end_seconds = 50 * 60, 10 * 60
    unchanged_ms = measured["one poll, unchanged"].median_cpu
    changed_ms = measured["one poll, panel changed"].median_cpu
    polls = 4 * round_seconds / args.poll
    changes = (sum(versions) / len(versions) if versions else 12) + 3  # + start, time, end
    total = east_ms + (polls - 4 * changes) * unchanged_ms + 4 * changes * changed_ms
    # The last 10 minutes hold every table's entries: the busiest stretch of the round.
    end_polls = 4 * end_seconds / args.poll
    end_total = east_ms + (end_polls - 4 * changes) * unchanged_ms + 4 * changes * changed_ms
    per_core = round_seconds * 1000 / total
    end_per_core = end_seconds * 1000 / end_total
    cores = os.cpu_count() or 1
    rows = ["## Server CPU per table-round", "",
            f"- East's round alone ({tables} tables: table page, 4 x entry page, the "
            f"wizard's preview at each answer tapped and save, "
            f"review, 4 initials, submit, and the pages each redirect to): "
            f"**{east_ms:.0f} CPU-ms** per table"
            + (f" (PostgreSQL: {east_pg_ms:.0f} ms more)" if east_pg_ms is not None else ""),
            f"- one unchanged poll: {unchanged_ms:.2f} CPU-ms; one changed poll (the panel "
            f"out of band): {changed_ms:.2f} CPU-ms; a sheet changed {changes - 3:.0f} "
            f"times in a round here, the clock 3 times",
            f"- four phones polling every {args.poll} s for 50 minutes: {polls:.0f} polls, "
            f"{4 * changes:.0f} of them changed",
            f"- **one table-round: {total:.0f} server CPU-ms** "
            f"({east_ms:.0f} East + {total - east_ms:.0f} polls)",
            f"- capacity over the whole round: {per_core:,.0f} tables per core, "
            f"{per_core * cores:,.0f} on this machine's {cores} cores;",
            f"- in the last 10 minutes, when every East enters (the binding case): "
            f"{end_per_core:,.0f} tables per core, **{end_per_core * cores:,.0f} tables "
            f"({end_per_core * cores * 4:,.0f} players) on this machine**, if nothing else "
            "used the cores (the database, the load generator, other tenants)", ""]
    return rows


# What `--full` runs, one after the other, each its own process and report in bench/out/:
# every measurement bench/RESULTS.md quotes. About half an hour on 2 quiet cores (each
# capacity search under ~10 minutes).
CAPACITY_STEPS = "250,500,750,1000,1250,1500"
FULL = [
    ("sqlite-150", ["--tables", "150"]),
    ("capacity-sqlite", ["--capacity", CAPACITY_STEPS, "--spread", "600", "--slice", "60"]),
    ("wifi", ["--wifi", "--tables", "150"]),
    ("postgres-150", ["--postgres", "--tables", "150", "--no-standings"]),
    ("postgres-2-servers", ["--postgres", "--servers", "2", "--tables", "150", "--no-wrk",
                            "--no-standings"]),
    ("capacity-postgres", ["--postgres", "--capacity", CAPACITY_STEPS, "--spread", "600",
                           "--slice", "60"]),
]


def full(passed: list[str]) -> None:
    """Every run of FULL in turn (the arguments given besides --full are added to each)."""
    passed = [a for a in passed if a != "--full"]
    for name, arguments in FULL:
        command = [sys.executable, "-m", "bench", *arguments, *passed, "--out", name]
        print(f"== {name}: {' '.join(command[1:])}", file=sys.stderr, flush=True)
        started = time.monotonic()
        subprocess.run(command, cwd=ROOT, check=False, stdout=subprocess.DEVNULL)
        print(f"== {name}: {time.monotonic() - started:.0f} s, bench/out/{name}.md",
              file=sys.stderr, flush=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--poll", type=int, default=10, help="clock poll interval, s")
    parser.add_argument("--spread", type=float, default=60.0,
                        help="every East's four games and submission happen within this "
                        "many seconds (600: the last 10 minutes of a round, as played)")
    parser.add_argument("--slice", type=float, default=None,
                        help="run only this many seconds of the --spread window, at its "
                        "rate: slice/spread of the tables enter and submit, every table's "
                        "phones poll (a realistic pace in less time)")
    parser.add_argument("--concurrency", type=int, default=50,
                        help="wrk connections for the throughput runs")
    parser.add_argument("--burst", type=float, default=6.0,
                        help="seconds of each wrk run")
    parser.add_argument("--rounds", type=int, default=3,
                        help="wrk runs of the floor and of each path, in turn")
    parser.add_argument("--capacity", type=lambda text: [int(n) for n in text.split(",")],
                        help="instead: the round end at these table counts, ascending, "
                        "until one does not hold (e.g. 250,500,1000 --spread 600 --slice 60)")
    parser.add_argument("--no-bisect", dest="bisect", action="store_false",
                        help="capacity search: do not try halfway after the first miss")
    parser.add_argument("--trials", type=lambda text: max(1, int(text)), default=1,
                        help="capacity search: round ends at each count; it holds when none "
                        "failed a request or lost a sheet and their median p95 is under "
                        "the target (on a shared machine one trial is one minute's luck)")
    parser.add_argument("--database-url", help="run on this PostgreSQL (its public schema "
                        "is dropped and rebuilt); default DATABASE_URL, else SQLite")
    parser.add_argument("--postgres", action="store_true",
                        help="without a URL: start a throwaway PostgreSQL cluster (initdb, "
                        "a free port), and stop and delete it afterwards")
    parser.add_argument("--servers", type=int, default=1,
                        help="app servers (gunicorn instances on their own ports) sharing "
                        "the database; the simulated phones are spread over them")
    parser.add_argument("--server", type=lambda text: text.split(","), default=["gunicorn"],
                        help="the app server: gunicorn (gunicorn.conf.py) or waitress (the "
                        "fork-free server of `mahjtable run --server waitress`); the "
                        "capacity search takes both, one after the other: gunicorn,waitress")
    parser.add_argument("--no-wrk", action="store_true",
                        help="skip the wrk throughput runs and the CPU per table-round")
    parser.add_argument("--onlookers", type=int, default=20,
                        help="phones keeping the public standings open (default 20)")
    parser.add_argument("--no-standings", action="store_true",
                        help="skip timing the standings of a finished 600-player event")
    parser.add_argument("--wifi", action="store_true",
                        help="instead: time first visits in Chromium over throttled Wi-Fi")
    parser.add_argument("--wifi-latency", type=float, default=400, help="round trip, ms")
    parser.add_argument("--wifi-kbps", type=float, default=400, help="kilobits/s each way")
    parser.add_argument("--stall", type=int, default=0, metavar="N",
                        help="instead: N connections stuck in their headers and N in a "
                        "POST's body held against the server while a table page loads and "
                        "wrk measures the poll against the floor (bench/stall.py)")
    parser.add_argument("--stall-hold", type=float, default=35.0,
                        help="--stall: seconds of page loads, with and without them")
    parser.add_argument("--out", help="report name in bench/out/ (default last or capacity)")
    parser.add_argument("--full", action="store_true",
                        help="every run RESULTS.md quotes, one after the other (see FULL)")
    parser.add_argument("--give-up", type=float, default=None,
                        help="seconds after the window opens when unfinished Easts count as "
                        "errors (default: none; a capacity search: the window + 120)")
    args = parser.parse_args(argv)
    if any(kind not in ("gunicorn", "waitress") for kind in args.server) or (
            len(args.server) > 1 and not args.capacity):
        parser.error("--server: gunicorn or waitress; both only with --capacity")
    # Thousands of simulated phones each hold a socket while a poll is queued.
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    if args.capacity and args.give_up is None:
        args.give_up = min(args.spread, args.slice or args.spread) + 120
    if args.full:
        full(sys.argv[1:] if argv is None else list(argv))
        return
    mode = (capacity if args.capacity else slow_wifi if args.wifi else stalled if args.stall
            else run)
    report = asyncio.run(mode(args))
    out = ROOT / "bench" / "out"
    out.mkdir(exist_ok=True)
    name = args.out or ("capacity" if args.capacity else "wifi" if args.wifi
                        else "stall" if args.stall else "last")
    (out / f"{name}.md").write_text(report)
    print(report)


if __name__ == "__main__":
    main()
