"""Load benchmark: a 600-player round end on one machine, over loopback.

`make bench` (or `python -m bench --tables 150`) does, in one run:

1. a fresh database (SQLite in a temporary folder, or the PostgreSQL at DATABASE_URL, whose
   schema is dropped and rebuilt), migrated, seeded with a tournament of --tables tables,
   round 1 seated and its clock running;
2. the app under gunicorn with gunicorn.conf.py (the Procfile's config) on 127.0.0.1, and a
   bare Flask endpoint (bench/floor.py) under the same config: the floor;
3. the floor's throughput, then the unchanged clock poll's (the 204 path), closed loop;
4. the round end, open loop: every seat's phone polls the clock every POLL seconds, every
   East enters four games with initials and submits (starts spread over --spread seconds),
   10% of tables call the director, directors poll and work the queue, players open the
   standings;
5. per endpoint p50/p95/p99 latency, throughput and errors, each throughput as a ratio of
   the floor; then the database check: every sheet submitted once, with four games whose
   points are what tournament.scoring.score_game gives; then compressed page sizes.

It prints a Markdown report (also written to bench/out/last.md). Bounded in time and
requests; loopback only. Nothing here is a test: tests never assert timings."""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import re
import resource
import ssl
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

import httpx

from bench import flows

ROOT = Path(__file__).resolve().parent.parent
CSRF = re.compile(r'"X-CSRFToken": "([^"]+)"')
# One TLS context for every simulated phone: httpx builds one per client otherwise (about
# 20 ms of CPU each), which starved the server of the machine's two cores. Loopback is
# plain HTTP anyway.
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
                f"{rps / floor_rps:.3f} |")
        return rows


def pct(sorted_values: list[float], p: float) -> float:
    if not sorted_values:
        return 0.0
    k = min(len(sorted_values) - 1, max(0, round(p / 100 * len(sorted_values)) - 1))
    return sorted_values[k] * 1000


class Client:
    """One phone: its own cookies and CSRF token; records each request's latency."""

    def __init__(self, base: str, stats: Stats, http: httpx.AsyncClient | None = None):
        self.base = base
        self.stats = stats
        self.http = http or httpx.AsyncClient(base_url=base, timeout=30.0, verify=SSL,
                                              follow_redirects=False)
        self.csrf = ""

    async def request(self, label: str, method: str, url: str, *, ok=(200, 204, 302, 303),
                      retries: int = 0, **kwargs) -> httpx.Response | None:
        headers = kwargs.pop("headers", {})
        if self.csrf and method != "GET":
            headers["X-CSRFToken"] = self.csrf
        for attempt in range(retries + 1):
            start = time.monotonic()
            try:
                response = await self.http.request(method, url, headers=headers, **kwargs)
            except httpx.HTTPError as error:
                self.stats.add(label, time.monotonic() - start, False, repr(error))
                if attempt < retries:
                    await asyncio.sleep(0.5)
                    continue
                return None
            good = response.status_code in ok
            self.stats.add(label, time.monotonic() - start, good,
                           f"{response.status_code} {url} {response.text[:200]}")
            if good:
                if match := CSRF.search(response.text or ""):
                    self.csrf = match.group(1)
                return response
            if attempt < retries and response.status_code >= 500:
                await asyncio.sleep(0.5)
                continue
            return response
        return None

    async def close(self):
        await self.http.aclose()


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
def gunicorn(app_spec: str, env: dict, log: Path):
    port = free_port()
    env = {**env, "HOST": "127.0.0.1", "PORT": str(port)}
    with open(log, "w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", app_spec],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    httpx.get(url + "/", timeout=2)
                    break
                except httpx.HTTPError:
                    if process.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(f"gunicorn did not start; see {log}") from None
                    time.sleep(0.2)
            yield url
        finally:
            process.terminate()
            process.wait(15)


def reset_database(database_url: str, env: dict) -> None:
    if database_url.startswith("postgres"):
        from sqlalchemy import create_engine, text

        from app import normalise_database_url

        engine = create_engine(normalise_database_url(database_url))
        with engine.begin() as conn:
            conn.execute(text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
        engine.dispose()
    subprocess.run([sys.executable, "-m", "flask", "--app", "app", "db", "upgrade"],
                   cwd=ROOT, env=env, check=True)


# -- the run --------------------------------------------------------------------------------

async def run(args) -> str:
    workdir = Path(tempfile.mkdtemp(prefix="mahjtable-bench-"))
    database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{workdir / 'bench.db'}"
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
              f"- database: {'PostgreSQL' if database_url.startswith('postgres') else 'SQLite'}",
              f"- gunicorn: gunicorn.conf.py (sync workers, WEB_CONCURRENCY="
              f"{os.environ.get('WEB_CONCURRENCY', '2 per core + 1')}), loopback", ""]

    with gunicorn("bench.floor:app", env, workdir / "floor.log") as floor_url:
        floor_rps, _ = await closed_loop(floor_url, "/", args.concurrency, args.burst)
    report += [f"Floor (bare Flask endpoint, {args.concurrency} clients, {args.burst:.0f} s): "
               f"**{floor_rps:.0f} req/s**", ""]

    with gunicorn("app:create_app()", env, workdir / "app.log") as url:
        poll_path = flows.unchanged_poll_path(url, seed)
        poll_rps, poll_errors = await closed_loop(url, poll_path, args.concurrency, args.burst,
                                                  ok=(204,))
        report += [f"Unchanged clock poll (204 path) `{poll_path.split('?')[0]}`: "
                   f"**{poll_rps:.0f} req/s = {poll_rps / floor_rps:.2f} x floor** "
                   f"(target >= 0.5), {poll_errors} errors", ""]

        sizes = await flows.page_sizes(url, seed)  # before the round end: entry pages exist
        stats = Stats()
        cpu_before = resource.getrusage(resource.RUSAGE_SELF)
        await flows.round_end(url, seed, stats, args, Client)
        stats.ended = time.monotonic()
        cpu_after = resource.getrusage(resource.RUSAGE_SELF)
        generator_cpu = (cpu_after.ru_utime - cpu_before.ru_utime
                         + cpu_after.ru_stime - cpu_before.ru_stime)
        report += ["## Round end (open loop)", "",
                   f"{args.tables} Easts submitting 4 games each, starts spread over "
                   f"{args.spread:.0f} s; {args.tables * 4} phones polling the clock every "
                   f"{args.poll:.0f} s; calls from 10% of tables; directors working the queue; "
                   "players opening the standings.", ""]
        report += stats.table(floor_rps)
        wall = stats.ended - stats.started
        report += ["", f"The load generator itself used {generator_cpu:.0f} CPU-seconds in "
                   f"these {wall:.0f} s ({generator_cpu / wall:.0%} of one core) on the same "
                   f"{os.cpu_count()} cores as the server."]
        if stats.error_examples:
            report += ["", "Errors (first of each):", ""]
            report += [f"- {label}: `{text}`" for label, text in stats.error_examples.items()]
        save = sorted(stats.samples.get("save game", []) + stats.samples.get("submit", []))
        report += ["", f"Score save and submit p95: **{pct(save, 95):.0f} ms** (target < 150)", ""]
        report += ["## Page sizes on the wire (first visit, including htmx, CSS and JS)", ""]
        report += sizes

    report += ["", "## Database check", ""]
    report += flows.check_database(database_url, seed)
    report += ["", "## Standings of a finished event (one query and one pass)", ""]
    report += flows.standings_speed(database_url, args.tables)
    return "\n".join(report) + "\n"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--poll", type=int, default=10, help="clock poll interval, s")
    parser.add_argument("--spread", type=float, default=60.0,
                        help="Easts start submitting within this many seconds")
    parser.add_argument("--concurrency", type=int, default=32,
                        help="clients for the closed-loop floor and poll measurements")
    parser.add_argument("--burst", type=float, default=10.0,
                        help="seconds for each closed-loop measurement")
    args = parser.parse_args(argv)
    report = asyncio.run(run(args))
    out = ROOT / "bench" / "out"
    out.mkdir(exist_ok=True)
    (out / "last.md").write_text(report)
    print(report)


if __name__ == "__main__":
    main()

