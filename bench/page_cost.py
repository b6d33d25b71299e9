"""CPU cost and SQL statements per request of the pages a table's QR link opens.

    .venv/bin/python -m bench.page_cost [--n 200] [--tables 150] [--sql NAME] [--profile NAME]

Seeds a tournament of --tables tables (bench.flows.seed) on a temporary SQLite file, enters
two games at table 1 through the app (so its sheet is not empty), then for each request
below runs a few warm-up requests and three runs of --n measured ones with the Flask test
client, and prints the CPU milliseconds per request of the least of the three (other
processes share the CPU; time.process_time counts this process only, the test client's
own work included, as in the floor line) and the SQL statements per request (a SQLAlchemy
before_cursor_execute listener). The floor is a bare Flask view answering a short string
through the same client.

--dump FOLDER writes each answer's body there (to compare pages before and after a change).
--sql NAME prints the statements of one such request (names as printed); --profile NAME
runs cProfile over that request and prints the top functions by cumulative and own time."""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import tempfile
import time

from flask import Flask
from sqlalchemy import event

from bench.flows import GAMES, app_for, live_poll, migrated_seed, table_url, with_versions
from bench.table_flow import Forms, game_fields, signer_of

HX = {"HX-Request": "true"}


def enter_games(client, code_seed, number: int, games: list[dict]) -> None:
    for game in games:
        page = client.get(table_url(code_seed, number, "/game"))
        form = Forms(page.get_data(as_text=True)).find("/game")
        data = {**form["fields"], **game_fields(game, signer_of(game))}
        answer = client.post(form["action"], data=data)
        assert answer.status_code in (302, 303), answer.status_code


def requests_of(client, code_seed) -> dict[str, tuple[str, dict, int]]:
    """name -> (path, headers, expected status)."""
    page = client.get(table_url(code_seed, 1)).get_data(as_text=True)
    url, versions = live_poll(page)
    entry = table_url(code_seed, 1, "/game")
    return {
        "app floor (favicon)": ("/favicon.ico", {}, 200),
        "table page": (table_url(code_seed, 1), {}, 200),
        "entry page": (entry, {}, 200),
        "entry step (htmx preview)": (entry, HX, 200),
        "review page": (table_url(code_seed, 1, "/review"), {}, 200),
        "player seat page": (f"/p/{code_seed.code}/seat?number=5", {}, 200),
        "poll, panel changed": (with_versions(url, {**versions, "panel": "1-0-0-x"}), HX, 200),
        "poll, all changed": (with_versions(url, {**{k: "x" for k in versions},
                                                   "panel": "1-0-0-x"}), HX, 200),
    }


def floor_ms(n: int) -> float:
    bare = Flask("floor")
    bare.get("/")(lambda: "ok")
    client = bare.test_client()
    for _ in range(20):
        client.get("/")
    start = time.process_time()
    for _ in range(n):
        client.get("/")
    first = time.process_time() - start
    start = time.process_time()
    for _ in range(n):
        client.get("/")
    return min(first, time.process_time() - start) * 1000 / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--profile", default=None)
    parser.add_argument("--sql", default=None, help="print the statements of this request")
    parser.add_argument("--dump", default=None,
                        help="write each response's body to this folder (to compare pages)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        database_url = "sqlite:///" + os.path.join(folder, "bench.db")
        code_seed = migrated_seed(database_url, args.tables)
        app = app_for(database_url)
        app.config["WTF_CSRF_ENABLED"] = False
        client = app.test_client()
        enter_games(client, code_seed, 1, GAMES[:2])

        with app.app_context():
            from models import db
            engine = db.engine
        queries = [0]
        show = [False]

        @event.listens_for(engine, "before_cursor_execute")
        def count(conn, cursor, statement, *_):
            queries[0] += 1
            if show[0]:
                print("   ", " ".join(statement.split())[:300])

        print(f"{'request':28} {'CPU ms':>7} {'queries':>8} {'bytes':>7}")
        print(f"{'bare Flask floor':28} {floor_ms(args.n):7.2f}")
        for name, (path, headers, status) in requests_of(client, code_seed).items():
            if name.startswith("entry step"):
                # an htmx preview of the wizard's second step: a mahjong, nothing more yet
                form = Forms(client.get(path).get_data(as_text=True)).find("/game")
                data = {**form["fields"], "outcome": "mahjong"}
                path = form["action"].replace("/game?", "/game/preview?")

                def call(path=path, data=data):
                    return client.post(path, data=data, headers=HX)
            else:
                def call(path=path, headers=headers):
                    return client.get(path, headers=headers)
            for _ in range(10):
                response = call()
                assert response.status_code == status, (name, response.status_code)
            size = len(response.get_data())
            if args.dump:
                os.makedirs(args.dump, exist_ok=True)
                with open(os.path.join(args.dump, name.replace(" ", "_") + ".html"), "wb") as f:
                    f.write(response.get_data())
            if args.sql == name:
                show[0] = True
                call()
                show[0] = False
            if args.profile == name:
                profiler = cProfile.Profile()
                profiler.enable()
                for _ in range(args.n):
                    call()
                profiler.disable()
                stats = pstats.Stats(profiler)
                by_area: dict[str, float] = {}
                for (filename, _, _), (_, _, own, _, _) in stats.stats.items():
                    area = ("sqlalchemy" if "sqlalchemy" in filename else
                            "jinja/markupsafe" if "jinja2" in filename or "markupsafe"
                            in filename or filename.endswith(".html") else
                            "werkzeug/flask" if "werkzeug" in filename or "flask" in filename
                            else "wtforms" if "wtforms" in filename else
                            "project" if filename.startswith(os.getcwd()) else "other")
                    by_area[area] = by_area.get(area, 0) + own
                for area, own in sorted(by_area.items(), key=lambda item: -item[1]):
                    print(f"    {area:20} {own * 1000 / args.n:6.2f} ms per request (profiled)")
                stats.sort_stats("cumulative").print_stats(120)
                stats.sort_stats("tottime").print_stats(30)
                continue
            queries[0] = 0
            spent = []
            for _ in range(3):  # the least of three: other processes share the CPU
                start = time.process_time()
                for _ in range(args.n):
                    call()
                spent.append((time.process_time() - start) * 1000 / args.n)
            print(f"{name:28} {min(spent):7.2f} {queries[0] / args.n / 3:8.1f} {size:7d}")


if __name__ == "__main__":
    main()
