"""Instructions per request, counted by valgrind: a cost other processes cannot move.

    .venv/bin/python -m bench.instructions [--n 100] [--tables 150] [--pages NAME,...]

On a shared machine CPU time per request moves by 10-20% between runs with what the
neighbours do, which is as much as a change to a page is worth. The number of machine
instructions a request executes does not (about 1% between runs here: hash seeds and
the random tokens). So to compare two versions of the code, run this in each checkout:
it seeds a tournament (bench.flows.seed, two games entered at table 1, as
bench.page_cost), then runs the app in-process under `valgrind --tool=cachegrind`
(apt package valgrind) twice, once with no measured requests and once with --n, and
divides the difference by --n. The Flask test client's own work is included, the same for
every page; about 50 times slower than native, so --n stays small.

A cookieless phone (no session yet) with CSRF on, as a phone's first visit and as wrk
sends them. Not a substitute for the wrk ratios in `python -m bench`: cache misses and
the kernel's share are not instructions."""

from __future__ import annotations

import argparse
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from bench.flows import GAMES, app_for, migrated_seed, table_url
from bench.page_cost import enter_games

PAGES = {
    "table page": "",
    "entry page": "/game",
    "review page": "/review",
}


def _serve(folder: str, page: str, n: int) -> None:
    """The measured process: `n` GETs of `page` (after five unmeasured ones, which the
    n=0 run makes too, so the difference is the n requests alone)."""
    with open(os.path.join(folder, "seed.pkl"), "rb") as f:
        seed = pickle.load(f)
    app = app_for("sqlite:///" + os.path.join(folder, "bench.db"))
    app.config["WTF_CSRF_ENABLED"] = True
    app.compile_templates()
    path = "/floor" if page == "app-floor" else table_url(seed, 1, PAGES[page])
    if page == "app-floor":
        app.add_url_rule("/floor", "app-floor", lambda: "ok")
    client = app.test_client(use_cookies=False)
    for _ in range(5):
        assert client.get(path).status_code == 200, path
    for _ in range(n):
        # a page that started failing would be counted as a cheap one
        assert client.get(path).status_code == 200, path


def _count(folder: str, page: str, n: int) -> int:
    out = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, "-m", "bench.instructions", "--serve", folder, "--pages", page,
         "--n", str(n)],
        capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"}).stderr
    return int(re.search(r"I\s+refs:\s+([\d,]+)", out).group(1).replace(",", ""))


def measure(folder: str, page: str, n: int) -> float:
    with ThreadPoolExecutor(2) as pool:  # valgrind is single-threaded: one per core
        base, measured = pool.map(lambda k: _count(folder, page, k), (0, n))
    return (measured - base) / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--pages", default="app-floor," + ",".join(PAGES),
                        help="comma-separated: app-floor (a view answering 'ok' inside "
                             "this app, its hooks included), " + ", ".join(PAGES))
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        _serve(args.serve, args.pages, args.n)
        return
    if shutil.which("valgrind") is None:
        sys.exit("bench.instructions needs valgrind (apt-get install -y valgrind)")
    folder = tempfile.mkdtemp(prefix="mahjtable-instructions-")
    try:
        seed = migrated_seed("sqlite:///" + os.path.join(folder, "bench.db"), args.tables)
        app = app_for("sqlite:///" + os.path.join(folder, "bench.db"))
        app.config["WTF_CSRF_ENABLED"] = False
        enter_games(app.test_client(), seed, 1, GAMES[:2])
        with open(os.path.join(folder, "seed.pkl"), "wb") as f:
            pickle.dump(seed, f)
        pages = args.pages.split(",")
        print(f"{'request':14} {'instructions':>14} {'x floor':>8}", flush=True)
        floor = None
        for page in pages:
            count = measure(folder, page, args.n)
            floor = count if page == "app-floor" else floor
            ratio = f"{floor / count:8.3f}" if floor else ""
            print(f"{page:14} {count:14,.0f} {ratio}", flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
