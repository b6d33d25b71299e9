"""Fault tests against a real gunicorn: a worker killed mid-submission, a restart
mid-round, two phones on one sheet, concurrent writers on SQLite.

They drive the app over HTTP exactly as the benchmark's phones do (bench/table_flow.py:
plain form posts with the sheet version and idempotency key from the page) and then read
the database. Marked `fault`; they run in `make test` on the SQLite leg."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import time
from pathlib import Path

import pytest

from bench import flows, table_flow
from bench.__main__ import Client, Stats
from e2e.conftest import LiveServer

pytestmark = [
    pytest.mark.fault,
    pytest.mark.skipif(os.environ.get("MAHJTABLE_TEST_BACKEND") == "postgres",
                       reason="runs once, on the SQLite leg (the servers use their own SQLite)"),
]


@pytest.fixture
def server(tmp_path):
    server = LiveServer(tmp_path, {"WEB_CONCURRENCY": "3"})
    server.flask("db", "upgrade")
    yield server
    server.stop()


def worker_pids(master: int) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == master:
                pids.append(int(entry.name))
    return pids


def check(server, seed) -> list[str]:
    return flows.check_database(server.database_url, seed)


def test_worker_killed_during_submissions_stores_every_sheet_once(server):
    seed = flows.seed(server.database_url, 12)
    server.start()
    stats = Stats()

    async def run():
        async def east(number):
            client = Client(server.url, stats)
            try:
                await table_flow.enter_round(client, seed, number, flows.GAMES, retries=8)
            finally:
                await client.close()

        async def killer():
            await asyncio.sleep(1.0)
            victims = worker_pids(server.process.pid)
            assert victims, "no gunicorn worker found"
            os.kill(victims[0], signal.SIGKILL)

        await asyncio.gather(killer(), *(east(n) for n in seed.tables))

    asyncio.run(run())
    report = check(server, seed)
    assert report[-1].startswith("- **PASS**"), "\n".join(report)
    # The master replaced the killed worker.
    assert len(worker_pids(server.process.pid)) == 3


def test_restart_mid_round_keeps_the_clock_and_every_score(server):
    seed = flows.seed(server.database_url, 2)
    server.start()
    stats = Stats()

    async def two_games():
        client = Client(server.url, stats)
        try:
            await table_flow.enter_games(client, seed, 1, flows.GAMES[:2])
        finally:
            await client.close()

    asyncio.run(two_games())
    started = time.monotonic()
    before = clock_seconds(server, seed)
    server.stop()
    time.sleep(2)
    server.start()
    after = clock_seconds(server, seed)
    elapsed = time.monotonic() - started
    # The clock kept running while the server was down, by no more than the time that
    # passed (plus a second for the whole seconds shown), however slow the restart.
    assert 0 < before - after <= elapsed + 1, (before, after, elapsed)
    page = page_text(server, flows.table_url(seed, 1, "/review"))
    from tournament.rules import PRESETS
    from tournament.scoring import Game, score_game

    for game in flows.GAMES[:2]:
        points = score_game(PRESETS["tnt"], Game.from_dict(game))
        assert all(str(p) in page for p in points.values() if p)
    with server.app_context():
        from sqlalchemy import func, select

        from models import GameEntry, db

        assert db.session.scalar(select(func.count()).select_from(GameEntry)) == 2


def page_text(server, path) -> str:
    import urllib.request

    with urllib.request.urlopen(server.url + path, timeout=10) as response:
        return response.read().decode()


def clock_seconds(server, seed) -> int:
    html = page_text(server, flows.table_url(seed, 1))
    return int(re.search(r'data-remaining="(\d+)"', html).group(1))


def test_two_phones_editing_one_sheet_get_a_409_not_a_lost_update(server):
    seed = flows.seed(server.database_url, 1)
    server.start()
    stats = Stats()

    async def run():
        first, second = Client(server.url, stats), Client(server.url, stats)
        try:
            url = flows.table_url(seed, 1, "/game")
            pages = [await c.request("entry page", "GET", url) for c in (first, second)]
            forms = [table_flow.Forms(p.text).find("/game") for p in pages]
            games = flows.GAMES[0], flows.GAMES[1]
            results = []
            for client, form, game in zip((first, second), forms, games, strict=True):
                data = {**form["fields"],
                        **table_flow.game_fields(game, table_flow.signer_of(game))}
                results.append(await client.request("save game", "POST", form["action"],
                                                    data=data, ok=(303, 409)))
            return [r.status_code for r in results], results[1].text
        finally:
            await first.close()
            await second.close()

    statuses, body = asyncio.run(run())
    assert statuses == [303, 409]
    assert "changed" in body.lower()
    with server.app_context():
        from sqlalchemy import select

        from models import GameEntry, db

        games = db.session.scalars(select(GameEntry)).all()
        assert [g.record.get("winner") for g in games] == ["E"]  # the first save stands


def test_concurrent_writers_on_sqlite_never_get_a_500(tmp_path):
    server = LiveServer(tmp_path, {"WEB_CONCURRENCY": "8"})
    server.flask("db", "upgrade")
    seed = flows.seed(server.database_url, 24)
    server.start()
    try:
        stats = Stats()
        statuses: list[int] = []

        class Recording(Client):
            async def request(self, label, method, url, **kwargs):
                response = await super().request(label, method, url, **kwargs)
                if response is not None:
                    statuses.append(response.status_code)
                return response

        async def run():
            async def east(number):
                client = Recording(server.url, stats)
                try:
                    await table_flow.enter_round(client, seed, number, flows.GAMES)
                finally:
                    await client.close()

            await asyncio.gather(*(east(n) for n in seed.tables))

        asyncio.run(run())
        assert statuses and 500 not in statuses
        # Anything but success must be a clear "try again" (503 with Retry-After), never lost.
        assert set(statuses) <= {200, 204, 302, 303, 503}
        report = check(server, seed)
        assert report[-1].startswith("- **PASS**"), "\n".join(report)
    finally:
        server.stop()
