"""What the benchmark's simulated people do, and the checks after the run.

Seeding and checking use the app's own services and models in this process; the load itself
goes over HTTP to gunicorn, as phones would."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import time
from dataclasses import dataclass, field

import httpx

from tournament.rules import PRESETS
from tournament.scoring import Game, score_game

DIRECTOR = ("bench-director@example.com", "bench-password")


@dataclass
class Seed:
    tournament_id: int
    code: str
    tables: dict[int, str] = field(default_factory=dict)   # number -> token
    round_no: int = 1


def app_for(database_url: str):
    from app import create_app

    return create_app({"DATABASE_URL": database_url})


def migrated_seed(database_url: str, tables: int) -> Seed:
    """`flask db upgrade` on an empty database in this process, then seed() it: the
    in-process measurements' starting point."""
    import os

    from flask_migrate import upgrade

    app = app_for(database_url)
    with app.app_context():
        upgrade(directory=os.path.join(app.root_path, "migrations"))
    return seed(database_url, tables)


def seed(database_url: str, tables: int) -> Seed:
    """A tournament of `tables` tables under TNT rules, round 1 seated and running."""
    from blueprints.auth.service import create_user
    from blueprints.director.seating import seat_round_one
    from blueprints.director.tournaments import create_tournament
    from models import Player, db, utcnow

    app = app_for(database_url)
    with app.app_context():
        director, _ = create_user(*DIRECTOR[:1], name="Bench Director", password=DIRECTOR[1])
        tournament = create_tournament(director, name="Benchmark Open", preset="tnt",
                                               rounds=3, code="BENCH1")
        tournament.players.extend(Player(number=n, name=f"Player {n}")
                                  for n in range(1, tables * 4 + 1))
        db.session.flush()
        rnd = seat_round_one(tournament, method="draw", seed=7)
        rnd.started_at = utcnow()
        rnd.clock_version += 1
        db.session.commit()
        return Seed(tournament.id, tournament.code, {t.number: t.token for t in tournament.tables})


# The four games every East enters: a self-picked jokerless win, a thrown win to two
# exposures, a wall game with a dead hand, and a plain thrown win.
GAMES = [
    {"outcome": "mahjong", "winner": "E", "value": 25, "self_picked": True, "jokerless": True},
    {"outcome": "mahjong", "winner": "S", "value": 30, "discarder": "W", "exposures": 2},
    {"outcome": "wall", "dead": ["N"]},
    {"outcome": "mahjong", "winner": "N", "value": 35, "discarder": "E", "exposures": 1},
]


async def pause(stop: asyncio.Event, seconds: float) -> None:
    """Sleep, waking early when the run stops."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)


def table_url(seed: Seed, number: int, suffix: str = "") -> str:
    return f"/t/{seed.code}/{number}{suffix}?k={seed.tables[number]}"


LIVE_PART = re.compile(r'data-live="(\w+)" data-live-version="([^"]*)"')
LIVE_URL = re.compile(r'<div id="live"[^>]*hx-get="([^"]+)"')


def live_poll(page_html: str) -> tuple[str, dict[str, str]] | None:
    """The page's one poll: its URL and the version of every live part the page shows."""
    found = LIVE_URL.search(page_html)
    if not found:
        return None
    return found.group(1).replace("&amp;", "&"), dict(LIVE_PART.findall(page_html))


def with_versions(url: str, versions: dict[str, str]) -> str:
    """The poll's URL as the browser sends it (static/js/app.js adds the versions)."""
    pairs = "&".join(f"{name}={value}" for name, value in versions.items())
    return url + ("&" if "?" in url else "?") + pairs if pairs else url


def poll_paths(base: str, seed: Seed) -> dict[str, str]:
    """The paths the throughput runs measure, as a phone at table 1 sends them, each
    checked once: the page's one poll unchanged (204) and changed (200), the three
    separate polls a table page made before it had one (each 204), and two pages."""
    page = httpx.get(base + table_url(seed, 1), timeout=10).text
    found = live_poll(page)
    if not found:
        raise RuntimeError("the table page has no live poll")
    url, versions = found
    paths = {
        "one poll, unchanged": with_versions(url, versions),
        "one poll, panel changed": with_versions(url, {**versions, "panel": "1-0-0-x"}),
        "clock poll alone, unchanged": f"/clock/{seed.code}?v={versions['clock']}",
        "panel poll alone, unchanged": table_url(seed, 1) + f"&v={versions['panel']}",
        "call-bar poll alone, unchanged": f"/calls/t/{seed.code}/1?k={seed.tables[1]}"
                                          f"&v={versions['call']}",
        "table page": table_url(seed, 1),
        "entry page": table_url(seed, 1, "/game"),
    }
    expected = {"one poll, unchanged": 204, "one poll, panel changed": 200,
                "table page": 200, "entry page": 200}
    for name, path in paths.items():
        status = httpx.get(base + path, headers={"HX-Request": "true"} if "poll" in name
                           else {}, timeout=10).status_code
        if status != expected.get(name, 204):
            raise RuntimeError(f"{name}: {path} answered {status}")
    return paths


def bases_of(base) -> list[str]:
    return [base] if isinstance(base, str) else list(base)


async def raw_get(base: str, path: str, headers: dict[str, str] | None = None,
                  timeout: float = 30.0) -> tuple[int, str]:
    """One GET on a fresh connection, written by hand: (status, body). httpx spends about a
    millisecond of the generator's CPU per request; this, a tenth of that, so that a
    thousand tables' phones are not limited by the one Python process simulating them.
    The server closes every connection after its answer anyway (gunicorn.conf.py
    pre_request)."""
    host, port = base.split("//", 1)[1].rsplit(":", 1)
    lines = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())

    async def exchange():
        reader, writer = await asyncio.open_connection(host, int(port))
        try:
            writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n"
                         f"{lines}\r\n".encode())
            return await reader.read()
        finally:
            writer.close()

    data = await asyncio.wait_for(exchange(), timeout)
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head[9:12]), body.decode("utf-8", "replace")


async def raw_request(stats, label: str, base: str, path: str, headers=None,
                      ok=(200, 204)) -> tuple[int, str] | None:
    start = time.monotonic()
    try:
        status, body = await raw_get(base, path, headers)
    except (OSError, TimeoutError, ValueError) as error:
        stats.add(label, time.monotonic() - start, False, repr(error))
        return None
    stats.add(label, time.monotonic() - start, status in ok, f"{status} {path} {body[:200]}")
    return status, body


async def open_pages(bases: list[str], seed: Seed, parallel: int = 4
                     ) -> dict[int, tuple[str, dict[str, str]]]:
    """Every table's page loaded once, before the measured window (its phones opened it when
    the round started): each table's poll URL and the versions its page shows."""
    found: dict[int, tuple[str, dict[str, str]]] = {}
    queue = sorted(seed.tables)

    async def worker():
        while queue:
            number = queue.pop()
            base = bases[number % len(bases)]
            status, body = await raw_get(base, table_url(seed, number), timeout=120)
            poll = live_poll(body) if status == 200 else None
            if poll is None:
                raise RuntimeError(f"table {number}'s page answered {status} without a poll")
            found[number] = poll

    await asyncio.gather(*(worker() for _ in range(parallel)))
    return found


def actors(seed: Seed, args, done: frozenset[int]) -> list[int]:
    """The tables whose Easts act in the measured window. With --slice, a slice of the
    --spread window is run at the window's rate: the share slice/spread of the tables
    enter and submit, within the slice, while every table's phones poll."""
    left = sorted(set(seed.tables) - done)
    if not getattr(args, "slice", None) or args.slice >= args.spread:
        return left
    share = max(1, round(len(left) * args.slice / args.spread))
    return sorted(random.Random(5).sample(left, share))


async def round_end(base, seed: Seed, stats, args, client_class,
                    done: frozenset[int] = frozenset(), on_start=None) -> list[int]:
    """The round end; the tables in `done` have submitted already (their phones poll).
    `base` is one server's URL or a list of them: tables, directors and onlookers are
    spread over the list. `on_start()` is called when the measured window opens (after
    the pages are loaded), for the caller's CPU readings. Returns the tables whose Easts
    acted."""
    bases = bases_of(base)
    window = min(args.spread, getattr(args, "slice", None) or args.spread)
    pages = await open_pages(bases, seed)
    acting = actors(seed, args, done)
    if on_start is not None:
        on_start()
    stats.started = time.monotonic()
    stop = asyncio.Event()
    rng = random.Random(11)
    pollers = [asyncio.create_task(phone(bases[number % len(bases)], pages[number], stats,
                                         args, stop, rng.uniform(0, args.poll)))
               for number in seed.tables for _ in range(4)]
    screens = [asyncio.create_task(screen(bases[i % len(bases)], seed, stats, args, stop))
               for i in range(2)]
    directors = [asyncio.create_task(director(bases[i % len(bases)], seed, stats, args,
                                              client_class, stop))
                 for i in range(3)]
    spectators = [asyncio.create_task(spectator(bases[i % len(bases)], seed, stats, args,
                                                client_class, stop))
                  for i in range(getattr(args, "onlookers", 20))]
    callers = set(random.Random(3).sample(acting, max(1, len(acting) // 10)))
    easts = [asyncio.create_task(east(bases[number % len(bases)], seed, number,
                                      number in callers, stats, window, client_class,
                                      random.Random(number)))
             for number in acting]
    # A count far beyond capacity would otherwise keep a capacity search waiting on queued
    # requests for many minutes: past the limit, unfinished Easts count as errors and
    # their tables as lost sheets, and the count does not hold.
    limit = getattr(args, "give_up", None)
    _, late = await asyncio.wait(easts, timeout=limit) if easts else (set(), set())
    for task in late:
        task.cancel()
        stats.add("East unfinished", float(limit or 0), False,
                  f"still entering {limit:.0f} s after the window opened")
    await asyncio.gather(*late, return_exceptions=True)
    await asyncio.sleep(args.poll)
    stop.set()
    await asyncio.gather(*pollers, *screens, *directors, *spectators)
    return acting


async def phone(base, page, stats, args, stop, delay) -> None:
    """One seat's phone on its table page: the page's one poll every --poll seconds."""
    url, versions = page[0], dict(page[1])
    await pause(stop, delay)
    while not stop.is_set():
        answer = await raw_request(stats, "live poll", base, with_versions(url, versions),
                                   headers={"HX-Request": "true"})
        if answer is not None and answer[0] == 200:
            versions.update(LIVE_PART.findall(answer[1]))
        await pause(stop, args.poll)


async def screen(base, seed, stats, args, stop) -> None:
    """The venue's big screen: the display page, then its one poll."""
    answer = await raw_request(stats, "big screen", base, f"/display/{seed.code}")
    found = answer is not None and live_poll(answer[1])
    if not found:
        return
    url, versions = found
    await pause(stop, args.poll)
    while not stop.is_set():
        answer = await raw_request(stats, "big screen poll", base, with_versions(url, versions),
                                   headers={"HX-Request": "true"})
        if answer is not None and answer[0] == 200:
            versions.update(LIVE_PART.findall(answer[1]))
        await pause(stop, args.poll)


async def east(base, seed, number, calls, stats, window, client_class, rng) -> None:
    """East's four games and the submission, each at its own moment of the window, as a
    table finishing its games one after another would."""
    from bench import table_flow

    moments = sorted(rng.uniform(0, window) for _ in range(5))
    start = time.monotonic()

    async def until(moment):
        await asyncio.sleep(max(0.0, start + moment - time.monotonic()))

    client = client_class(base, stats)
    try:
        await until(moments[0])
        if calls:
            await table_flow.call_director(client, seed, number)
        for game, moment in zip(GAMES, moments[:4], strict=False):
            await until(moment)
            await table_flow.enter_games(client, seed, number, [game])
        await until(moments[4])
        await table_flow.submit_round(client, seed, number)
    finally:
        await client.close()


async def director(base, seed, stats, args, client_class, stop) -> None:
    from bench import table_flow

    client = client_class(base, stats)
    try:
        await table_flow.director_sign_in(client, DIRECTOR)
        while not stop.is_set():
            await table_flow.work_queue(client, seed)
            await pause(stop, 2)
    finally:
        await client.close()


STANDINGS_POLL = re.compile(r'<div id="standings-poll"[^>]*?hx-get="([^"]*)"')
RELOAD_SECONDS = (30.0, 90.0)  # an onlooker reloads the standings about once a minute


def onlookers(args) -> str:
    """The onlookers of the report's prose: `--onlookers` phones on the standings."""
    count = getattr(args, "onlookers", 20)
    return "twenty onlookers" if count == 20 else \
        f"{count:,} onlooker{'s' if count != 1 else ''}"


async def spectator(base, seed, stats, args, client_class, stop) -> None:
    """An onlooker with the standings open on a phone: the page, then its poll every
    --poll seconds as htmx makes it (following the address each answer carries), and a
    reload about once a minute, as a player pulling the page to refresh."""
    client = client_class(base, stats)
    rng = random.Random()
    poll = None
    try:
        await pause(stop, rng.uniform(0, args.poll))
        reload_at = 0.0
        while not stop.is_set():
            if poll is None or time.monotonic() >= reload_at:
                answer = await client.request("standings", "GET", f"/results/{seed.code}")
                reload_at = time.monotonic() + rng.uniform(*RELOAD_SECONDS)
            else:
                answer = await client.request("standings poll", "GET", poll,
                                              headers={"HX-Request": "true"})
            found = answer is not None and answer.status_code == 200 and \
                STANDINGS_POLL.search(answer.text)
            if found:
                poll = found.group(1).replace("&amp;", "&")
            await pause(stop, args.poll)
    finally:
        await client.close()


async def page_sizes(base: str, seed: Seed) -> list[str]:
    """Each page's bytes on the wire on a first visit over plain HTTP (gzip/deflate, as a
    phone on the venue's Wi-Fi gets them), with every asset it loads (htmx, CSS, JS)."""
    rows = ["| page | HTML KB | with assets KB | assets |", "|---|---:|---:|---|"]
    pages = {"home": "/", "table": table_url(seed, 2), "entry": table_url(seed, 3, "/game"),
             "seat lookup": f"/p/{seed.code}/seat", "standings": f"/results/{seed.code}",
             "display": f"/display/{seed.code}"}
    async with httpx.AsyncClient(base_url=base, timeout=30,
                                 headers={"Accept-Encoding": "gzip, deflate"}) as http:
        for name, path in pages.items():
            response = await http.get(path)
            html_bytes = response.num_bytes_downloaded
            # What a browser fetches on load: stylesheets, scripts and images (the big
            # screen's chime is preload="none": it loads on the first tap).
            assets = sorted(set(re.findall(
                r'<(?:link|script|img)[^>]*(?:src|href)="(/static/[^"]+)"', response.text)))
            total = html_bytes
            for asset in assets:
                total += (await http.get(asset.replace("&amp;", "&"))).num_bytes_downloaded
            names = ", ".join(a.split("/")[-1].split("?")[0] for a in assets)
            rows.append(f"| {name} ({response.status_code}) | {html_bytes / 1024:.1f} | "
                        f"{total / 1024:.1f} | {names} |")
    rows += ["", "Target: under 30 KB compressed, htmx included. Assets are then cached for a "
             "year (their URLs change with the file), so later pages cost only their HTML."]
    return rows


async def table_rounds(base: str, seed: Seed, numbers: list[int], stats, client_class,
                       parallel: int = 4) -> None:
    """Easts of these tables enter their four games, initial and submit, `parallel` at a
    time, with nothing else running: what one table's round costs the server."""
    from bench import table_flow

    queue = list(numbers)

    async def worker():
        while queue:
            number = queue.pop()
            client = client_class(base, stats)
            try:
                await table_flow.enter_round(client, seed, number, GAMES)
            finally:
                await client.close()

    await asyncio.gather(*(worker() for _ in range(parallel)))


def sheet_versions(database_url: str, seed: Seed, numbers: list[int]) -> list[int]:
    """The final version of these tables' sheets: how many times each changed."""
    from sqlalchemy import select

    from models import Round, Scoresheet, Table, db

    app = app_for(database_url)
    with app.app_context():
        return list(db.session.scalars(
            select(Scoresheet.version).join(Round, Round.id == Scoresheet.round_id)
            .join(Table, Table.id == Scoresheet.table_id)
            .where(Round.tournament_id == seed.tournament_id,
                   Round.number == seed.round_no, Table.number.in_(numbers))))


def check_database(database_url: str, seed: Seed, expected=None) -> list[str]:
    """Every table in `expected` (all of them by default) has its sheet stored once,
    submitted, with its four games scored exactly as tournament.scoring says; every other
    table has at most one sheet, not submitted."""
    from sqlalchemy import func, select

    from models import GameEntry, Round, Scoresheet, Table, Tournament, db

    expected = set(seed.tables) if expected is None else set(expected)
    app = app_for(database_url)
    with app.app_context():
        tournament = db.session.get(Tournament, seed.tournament_id)
        from tournament.rules import RuleSet

        rules = RuleSet.from_dict(tournament.rules) if tournament.rules else PRESETS["tnt"]
        rows = db.session.execute(
            select(Scoresheet, Table.number).join(Round, Round.id == Scoresheet.round_id)
            .join(Table, Table.id == Scoresheet.table_id)
            .where(Round.tournament_id == tournament.id, Round.number == seed.round_no)
        ).all()
        per_table: dict[int, list] = {}
        for sheet, number in rows:
            per_table.setdefault(number, []).append(sheet)
        doubled = sum(1 for v in per_table.values() if len(v) > 1)
        done = {number for number, sheets in per_table.items()
                if any(s.state in ("submitted", "verified") for s in sheets)}
        wrong_games = wrong_points = 0
        for number in expected & done:
            for sheet in per_table[number]:
                if [g.number for g in sheet.games] != [1, 2, 3, 4]:
                    wrong_games += 1
                for game in sheet.games:
                    if score_game(rules, Game.from_dict(game.record)) != game.points:
                        wrong_points += 1
        game_rows = db.session.scalar(select(func.count()).select_from(GameEntry))
    lost, stray = expected - done, done - expected
    verdict = ("PASS" if not lost and not stray and not doubled and not wrong_games
               and not wrong_points else "FAIL")
    return [f"- tables: {len(seed.tables)}; expected to submit: {len(expected)}; sheets "
            f"stored: {len(rows)}; submitted: {len(done)} (missing {len(lost)}, "
            f"unexpected {len(stray)})",
            f"- tables with more than one sheet: {doubled}",
            f"- submitted sheets without exactly games 1-4: {wrong_games}; game rows: "
            f"{game_rows}",
            f"- games whose stored points differ from score_game: {wrong_points}",
            f"- **{verdict}**: zero lost or doubled sheets" + ("" if verdict == "PASS" else " NOT")
            + " met"]


def standings_speed(database_url: str, tables: int, rounds: int = 12) -> list[str]:
    """blueprints.results.standings.board() for a finished event: `tables` x 4 players after
    `rounds` rounds of four games, every sheet submitted. Seeded straight into the database
    (the round end above already exercises the HTTP path); timed in this process, with the
    number of SQL statements it runs."""
    import statistics
    import time

    from sqlalchemy import event

    from blueprints.auth.service import create_user
    from blueprints.director.seating import seat_round_one
    from blueprints.director.tournaments import create_tournament
    from blueprints.results.standings import board
    from core.rounds import ensure_round
    from models import GameEntry, Player, Scoresheet, db, utcnow
    from tournament.rules import PRESETS as presets

    app = app_for(database_url)
    with app.app_context():
        director, _ = create_user("standings-bench@example.com", "Standings Bench")
        tournament = create_tournament(director, name="Standings bench",
                                               preset="tnt", rounds=rounds, code="STAND1")
        tournament.players.extend(Player(number=n, name=f"Player {n}")
                                  for n in range(1, tables * 4 + 1))
        db.session.flush()
        seat_round_one(tournament, method="draw", seed=11)
        rules = presets["tnt"]
        scored = [(Game.from_dict(g).to_dict(), score_game(rules, Game.from_dict(g)))
                  for g in GAMES]
        for round_no in range(1, rounds + 1):
            rnd = ensure_round(tournament, round_no)
            for table in tournament.tables:
                sheet = Scoresheet(round_id=rnd.id, table_id=table.id, state="submitted",
                                   submitted_at=utcnow())
                for number, (record, points) in enumerate(scored, start=1):
                    entry = GameEntry(number=number, record=record)
                    entry.points = points
                    sheet.games.append(entry)
                db.session.add(sheet)
        db.session.commit()
        statements = []
        listener = lambda *args: statements.append(1)  # noqa: E731
        timings, cpu = [], []
        for _ in range(5):
            db.session.expire_all()
            statements.clear()
            event.listen(db.engine, "before_cursor_execute", listener)
            start, start_cpu = time.perf_counter(), time.process_time()
            result = board(tournament, provisional=False)
            timings.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            event.remove(db.engine, "before_cursor_execute", listener)
        # The same main standings from every game, as they were computed before: the
        # database's summing against Python's, in the same conditions.
        from blueprints.results.totals import load_results
        from tournament.standings import Competition

        every_game = []
        for _ in range(5):
            db.session.expire_all()
            start_cpu = time.process_time()
            results = load_results(tournament.id)
            Competition("main", "Overall", 1, rounds).standings(results.official,
                                                                results.entrants)
            every_game.append(time.process_time() - start_cpu)
        games = tables * rounds * 4
        return [f"- {tables * 4} players, {rounds} rounds, {games} games ({games * 4} scores), "
                f"every sheet submitted: `board(tournament)` median "
                f"**{statistics.median(timings) * 1000:.0f} ms** wall (min "
                f"{min(timings) * 1000:.0f}, max {max(timings) * 1000:.0f}) over 5 runs, "
                f"median **{statistics.median(cpu) * 1000:.0f} CPU-ms** (SQLite runs in this "
                f"process, so its work is included; PostgreSQL's is not), "
                f"**{len(statements)} SQL statements** per call; "
                f"{len(result.tables)} competition(s), {len(result.tables[0].lines)} lines",
                f"- the same standings ranked from every game (load_results + standings, the "
                f"way board() worked before): median "
                f"{statistics.median(every_game) * 1000:.0f} CPU-ms"]
