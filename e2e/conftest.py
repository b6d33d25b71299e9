"""End-to-end fixtures: a real gunicorn on a free loopback port over a fresh SQLite
database, Debian's Chromium driven by Playwright at phone size, and an axe scan.

Chromium comes from CHROMIUM_PATH, else /usr/bin/chromium, else Playwright's own
download; `make test` installs one first when there is none (e2e/chromium.py). With none
the tests fail and say how to get one: they never skip silently."""

from __future__ import annotations

import os
import shutil
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PHONE = {"width": 390, "height": 844}
# Waits only last this long when something is wrong. Generous, because `make test` runs
# several xdist workers, each with a browser and a server, on as few as two cores.
ACTION_TIMEOUT_MS = 30_000
EXPECT_TIMEOUT_MS = 15_000
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
    # A name for the live server other than the loopback address, as a phone in the room
    # reaches the laptop (static/js/app.js treats the laptop's own browser apart).
    "--host-resolver-rules=MAP venue.test 127.0.0.1",
]


# How often the servers' live parts poll. Short, so a test that waits for a screen to
# follow waits a second, not the 10 of a real event.
POLL_SECONDS = int(os.environ.get("E2E_POLL_SECONDS", "1"))
# A poll, plus time for a loaded machine to answer it and the browser to swap it in.
WITHIN_ONE_POLL = (POLL_SECONDS + 4) * 1000

# Werkzeug's cheapest method, for accounts the tests seed (the same as tests/conftest.py's).
CHEAP_HASH = "pbkdf2:sha256:1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """gunicorn serving the app with the Procfile's config, on its own database; over
    HTTPS when given `tls` (a certificate file and its key file). With
    server="waitress", the fork-free server of Windows, as `mahjtable run --server
    waitress` starts it (plain HTTP only)."""

    def __init__(self, workdir: Path, extra_env: dict | None = None,
                 tls: tuple[Path, Path] | None = None, database_url: str | None = None,
                 server: str = "gunicorn"):
        assert server in ("gunicorn", "waitress") and not (tls and server == "waitress")
        self.server = server
        self.workdir = workdir
        self.log_path = workdir / f"{server}.log"
        self.port = free_port()
        self.tls = tls
        self.url = f"{'https' if tls else 'http'}://127.0.0.1:{self.port}"
        self.database_url = database_url or "sqlite:///" + str(workdir / "e2e.db")
        self.env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "SECRET_KEY": "e2e-secret",
            "BASE_URL": self.url,
            "PORT": str(self.port),
            "HOST": "127.0.0.1",
            "WEB_CONCURRENCY": "2",
            "POLL_SECONDS": str(POLL_SECONDS),
            **(extra_env or {}),
        }
        self.process: subprocess.Popen | None = None
        self._app = None

    def start(self) -> LiveServer:
        self.log = open(self.log_path, "w")  # noqa: SIM115 (closed in stop)
        tls_args = ["--certfile", str(self.tls[0]), "--keyfile", str(self.tls[1])] \
            if self.tls else []
        command = [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", *tls_args,
                   "app:create_app()"]
        if self.server == "waitress":
            # The database is migrated and seeded by the test: no demo.
            command = [sys.executable, "launcher.py", "--data-dir", str(self.workdir), "run",
                       "--server", "waitress", "--no-demo", "--host", "127.0.0.1",
                       "--port", str(self.port)]
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT,
        )
        # The test's own throwaway certificate: nothing to verify it against.
        context = ssl._create_unverified_context() if self.tls else None
        # Generous: on a loaded machine eight workers can take a while to answer at first.
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/", timeout=5, context=context)
                return self
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.2)
        self.stop()  # never leave a half-started server running after the test
        raise RuntimeError(f"{self.server} did not start:\n" + self.log_path.read_text())

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()

    def app_context(self):
        """An app context on the server's database, to seed data and check results."""
        if self._app is None:
            from app import create_app

            # One app per server: building one costs as much as a few page loads. Accounts
            # seeded through it get a cheap password hash (scrypt costs a quarter of a
            # second each); the server checks any hash by the method stored in it and
            # hashes its own (sign-up, new passwords) with scrypt as in production.
            self._app = create_app({"DATABASE_URL": self.database_url, "BASE_URL": self.url,
                                    "PASSWORD_HASH_METHOD": CHEAP_HASH})
        return self._app.app_context()

    def migrate(self) -> None:
        """`flask db upgrade` on the server's database, in this process: a subprocess
        costs a Python start and an app import, many seconds on a busy machine."""
        from flask_migrate import upgrade

        with self.app_context():
            upgrade()

    def add_director(self, email: str, password: str, name: str = "Dee Director") -> None:
        """An account as `flask create-director` makes it (tests/test_app.py tests the
        command), without a Python start and an app import per test."""
        from blueprints.auth.service import create_user
        from models import db

        with self.app_context():
            create_user(email, name, password, may_create_tournaments=True)
            db.session.commit()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    server = LiveServer(tmp_path_factory.mktemp("e2e"))
    server.migrate()
    server.start()
    yield server
    server.stop()


def chromium_executable() -> str | None:
    for candidate in (os.environ.get("CHROMIUM_PATH"), "/usr/bin/chromium",
                      shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import Error, expect, sync_playwright

    expect.set_options(timeout=EXPECT_TIMEOUT_MS)  # tests that time a poll say so

    with sync_playwright() as playwright:
        executable = chromium_executable()
        try:
            browser = playwright.chromium.launch(
                executable_path=executable, args=CHROMIUM_FLAGS, headless=True)
        except Error as error:
            pytest.fail(
                "No Chromium for the end-to-end tests. `python -m e2e.chromium` installs "
                "one; or install Debian's chromium (apt-get install chromium), set "
                f"CHROMIUM_PATH, or run `python -m playwright install chromium`. ({error})",
                pytrace=False)
        yield browser
        browser.close()


@pytest.fixture
def context(browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    yield context
    context.close()


@pytest.fixture
def page(context):
    page = context.new_page()
    page.set_default_timeout(ACTION_TIMEOUT_MS)
    return page


@pytest.fixture
def new_phone(browser):
    """Make more phones (separate browser contexts: separate cookies) within one test."""
    contexts = []

    def make(viewport=None):
        context = browser.new_context(viewport=viewport or PHONE, is_mobile=True,
                                      has_touch=True)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(ACTION_TIMEOUT_MS)
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def plain_phone(browser):
    """A phone with JavaScript off, for the no-JavaScript paths."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(ACTION_TIMEOUT_MS)
    yield page
    context.close()


def assert_accessible(page) -> None:
    """axe finds no WCAG 2 A or AA violation on the page as it is now."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": [
        "wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}})
    violations = results.response["violations"]
    assert not violations, results.generate_report()


# Screenshots are for people reviewing the pages (`make screenshots`); no test looks at
# them, and a full page at twice the pixels costs the browser a good part of a second.
SCREENSHOTS = bool(os.environ.get("E2E_SCREENSHOTS"))


def screenshot(page, name: str, full_page: bool = True) -> None:
    """Keep a phone-size screenshot for people to look at (e2e/screenshots/, not in git)
    when E2E_SCREENSHOTS is set."""
    if not SCREENSHOTS:
        return
    out = ROOT / "e2e" / "screenshots"
    out.mkdir(exist_ok=True)
    page.screenshot(path=str(out / f"{name}.png"), full_page=full_page)


@pytest.fixture
def director_account(live_server):
    """A director account on the live server; returns (email, password)."""
    import secrets

    email = f"director-{secrets.token_hex(4)}@example.com"
    password = "e2e-password-1"
    live_server.add_director(email, password)
    return email, password


def sign_in(page, live_server, email, password) -> None:
    page.goto(live_server.url + "/auth/sign-in")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/director/**")


def new_tournament(director_email, name, player_count):
    """Inside the live server's app context: a 3-round TNT tournament `name` run by the
    account `director_email`, with players 1..player_count ("Player N"), not seated yet.
    Returns (tournament, its director); the caller adds to it and commits."""
    from sqlalchemy import select

    from blueprints.director.tournaments import create_tournament
    from models import Player, User, db

    director = db.session.scalar(select(User).where(User.email == director_email))
    tournament = create_tournament(director, name=name, preset="tnt", rounds=3)
    for number in range(1, player_count + 1):
        tournament.players.append(Player(number=number, name=f"Player {number}"))
    db.session.flush()
    return tournament, director


def seat_new_tournament(director_email, name, player_count):
    """new_tournament with round one seated by number. Returns (tournament, round one);
    the caller adds to it and commits."""
    from blueprints.director.seating import seat_round_one

    tournament, director = new_tournament(director_email, name, player_count)
    return tournament, seat_round_one(tournament, method="number", user=director)


def committed_tournament(server, director_email, name, player_count, seated=True) -> dict:
    """new_tournament (seated: seat_new_tournament, by number) made and committed on the
    live `server`: {"id", "code", "tokens": the tables' tokens, by table number}."""
    with server.app_context():
        from models import db

        if seated:
            tournament, _round = seat_new_tournament(director_email, name, player_count)
        else:
            tournament, _director = new_tournament(director_email, name, player_count)
        db.session.commit()
        return {"id": tournament.id, "code": tournament.code,
                "tokens": [table.token for table in tournament.tables]}


def pytest_collection_modifyitems(items):
    # Called with every item of the session, also tests/ when both suites run together.
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.e2e)
