"""The Flask application factory: configuration, extensions, blueprints, error pages, CLI.

Configuration comes from the environment (see README's table): DATABASE_URL, SECRET_KEY,
BASE_URL, TIMEZONE, POLL_SECONDS, TRUST_PROXY.
No state is kept in a worker's memory between requests (what a worker keeps is keyed by
what the database says: README, "How a page reads"): every worker of every host reads the
same database, so `gunicorn -w N` and several hosts behave as one."""

from __future__ import annotations

import gzip
import hashlib
import importlib
import os
import secrets
import select
import socket
import time
from pathlib import Path
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import rcssmin
import rjsmin
from flask import Flask, Response, abort, render_template, request
from flask.sessions import SecureCookieSessionInterface
from flask_login import current_user
from flask_wtf.csrf import CSRFError, same_origin
from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import InvalidatePoolError, OperationalError
from sqlalchemy.pool import Pool
from werkzeug.exceptions import SecurityError
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter
from werkzeug.security import safe_join

from core import reads, rows
from extensions import compress, csrf, db, htmx, login_manager, migrate

# What static/ serves: the pages' styles, scripts, images, sounds and fonts.
STATIC_KINDS = frozenset(("css", "js", "png", "svg", "ico", "wav", "mp3", "woff2"))

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "media-src 'self'; connect-src 'self'; font-src 'self'; object-src 'none'; "
    "base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)


def normalise_database_url(url: str) -> str:
    """Point postgres:// and postgresql:// URLs (as hosts hand them out) at psycopg 3."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def secret_key(instance_path: str) -> str:
    """SECRET_KEY from the environment, else one generated once and kept in the instance
    folder, so sessions survive restarts and every worker on this machine agrees."""
    if key := os.environ.get("SECRET_KEY"):
        return key
    path = Path(instance_path) / "secret_key"
    try:
        # O_EXCL: when several gunicorn workers start at once, exactly one writes the key
        # and the others read it.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
    for _ in range(50):  # another worker may be between creating and writing the file
        if key := path.read_text().strip():
            return key
        time.sleep(0.05)
    raise RuntimeError(f"{path} is empty: delete it, or set SECRET_KEY")


def owner_only(path: str | Path, mode: int) -> None:
    """Give a file or folder of ours `mode` (0o700 / 0o600): the database holds names,
    results and every table's token; the folder holds the secret key."""
    try:
        if os.stat(path).st_uid == os.geteuid():
            os.chmod(path, mode)
    except FileNotFoundError:
        pass


def protect_sqlite_files(database_url: str) -> None:
    """Create a SQLite database file owner-only before SQLite does (SQLite gives its -wal
    and -shm files the database file's mode), and tighten one made before."""
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:") \
            or url.database.startswith("file:"):
        return
    path = Path(url.database)
    if path.parent.is_dir():
        os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    for name in (path, f"{path}-wal", f"{path}-shm", f"{path}-journal"):
        owner_only(name, 0o600)


def this_machine_hosts() -> list[str]:
    """The names this machine answers to when no BASE_URL or TRUSTED_HOSTS says: loopback,
    its host name, and the LAN address a phone on the venue's Wi-Fi uses (found without
    sending a packet, and without a DNS lookup that could stall at a venue offline)."""
    hosts = {"localhost", "127.0.0.1", "[::1]"}
    name = socket.gethostname()
    hosts.update({name, f"{name}.local"})
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))  # UDP connect: picks a route, sends nothing
            hosts.add(s.getsockname()[0])
    except OSError:
        pass
    return sorted(hosts)


def trusted_hosts(base_url: str) -> list[str] | None:
    """Which Host (or, behind TRUST_PROXY, X-Forwarded-Host) values a request may carry.
    Without BASE_URL, printed QR codes and table cards use the request's host, so a forged
    one must not get in: only TRUSTED_HOSTS (comma-separated), else this machine's own
    names. With BASE_URL the QR codes never read the host; TRUSTED_HOSTS still applies
    when given."""
    listed = [h.strip() for h in os.environ.get("TRUSTED_HOSTS", "").split(",") if h.strip()]
    if base_url:
        return [*listed, urlsplit(base_url).hostname or ""] if listed else None
    return listed or this_machine_hosts()


class BoundedInt(IntegerConverter):
    """<int:...> in every route, capped at what an SQL INTEGER holds: a URL with a huge
    number is simply not found, instead of overflowing the database driver (a 500)."""

    def __init__(self, url_map, fixed_digits=0, min=None, max=2**31 - 1, signed=False):
        super().__init__(url_map, fixed_digits=fixed_digits, min=min, max=max, signed=signed)


class MahjTable(Flask):
    """Flask, serving our own CSS and JS minified (rcssmin, rjsmin), so the comments that
    explain them stay in the source and off the phones: a table page's first load fits in
    30 KB with htmx. Minified once per file version, kept in this process (a cache of
    files, not of state). Vendored files and the bundles (static/bundle, minified when
    built by assets.py) are served as they are; a bundle from memory too, so that it is
    gzipped whole rather than streamed. Its templates can be compiled up front, as each
    gunicorn worker starts."""

    _minified: dict[tuple[str, float], bytes] = {}
    _gzipped: dict[tuple[str, float], bytes | None] = {}

    # Templates kept in a plain dict, not Jinja's default 400-entry LRU cache: the LRU
    # moves a template to the back of a queue on every lookup with a linear
    # deque.remove, comparing (weakref, name) keys one by one, and a table's page looks
    # up nine templates (extends, includes) among the eighty compile_templates loads:
    # about 3% of the page's instructions (bench.instructions). Our templates are a
    # fixed set of files; nothing is ever evicted.
    jinja_options = {**Flask.jinja_options, "cache_size": -1}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._sync: dict = {}

    def ensure_sync(self, func):
        # Flask asks this of every hook and view on every request, and each asking is an
        # `inspect` of the function: about 1% of a table's page. The answer for a
        # function never changes.
        try:
            return self._sync[func]
        except KeyError:
            sync = self._sync[func] = super().ensure_sync(func)
            return sync

    def compile_templates(self) -> int:
        """Compile every template now (returns how many): gunicorn calls it as each worker
        starts (gunicorn.conf.py), so that no phone's request pays for compiling a page's
        templates, 5 to 35 ms each, on every worker. Jinja keeps them while the app runs."""
        names = self.jinja_env.list_templates(extensions=["html"])
        for name in names:
            self.jinja_env.get_template(name)
        return len(names)

    def send_static_file(self, filename: str):
        kind = filename.rsplit(".", 1)[-1]
        # Assets only: a script, a note or a stray file put in static/ is never served.
        if kind not in STATIC_KINDS:
            abort(404)
        if kind not in ("css", "js") or filename.startswith("vendor/"):
            return super().send_static_file(filename)
        built = filename.startswith("bundle/")
        path = safe_join(self.static_folder, filename)
        if path is None or not os.path.isfile(path):
            abort(404)
        key = (path, os.stat(path).st_mtime)
        if key not in self._minified:
            with open(path, encoding="utf-8") as source:
                text = source.read()
            small = (text if built else rcssmin.cssmin(text) if kind == "css"
                     else rjsmin.jsmin(text))
            self._minified[key] = small.encode("utf-8")
        body, zipped = self._minified[key], None
        if built and request.accept_encodings["gzip"]:
            zipped = self._bundle_gzip(path, key)
        response = Response(zipped or body,
                            mimetype="text/css" if kind == "css" else "text/javascript")
        response.cache_control.public = True
        response.cache_control.max_age = self.get_send_file_max_age(filename)
        if built:
            response.vary.add("Accept-Encoding")
        if zipped:
            # Flask-Compress leaves a response that says its encoding as it is.
            response.headers["Content-Encoding"] = "gzip"
        response.set_etag(f"{int(key[1])}-{len(body)}" + ("-gz" if zipped else ""))
        return response.make_conditional(request)

    def _bundle_gzip(self, path: str, key: tuple[str, float]) -> bytes | None:
        """The bundle's gzip made by assets.py (zopfli: smaller than Flask-Compress's
        zlib), read once per bundle version; None when missing or not of this bundle
        (then Flask-Compress gzips it as any response)."""
        if key not in self._gzipped:
            try:
                with open(path + ".gz", "rb") as file:
                    zipped = file.read()
                current = gzip.decompress(zipped) == self._minified[key]
            except (OSError, EOFError):
                zipped, current = None, False
            self._gzipped[key] = zipped if current else None
        return self._gzipped[key]


class SessionInterface(SecureCookieSessionInterface):
    """Mark the session cookie Secure whenever the request came over HTTPS (directly or
    through a proxy we trust), even if the config does not say so."""

    def get_cookie_secure(self, app):
        return bool(app.config["SESSION_COOKIE_SECURE"] or request.is_secure)


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection, connection_record):
    # WAL lets phones read while East writes; busy_timeout makes writers queue, not fail.
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()


# A pooled PostgreSQL connection idle this long gets a real round trip before use. Keep it
# below the shortest idle timeout between here and the database (a NAT, load balancer or
# pooler that drops idle connections without a word): a connection dropped silently
# within it would fail its request. Read from the environment, as the pool's events run
# outside any app.
IDLE_PING_SECONDS = float(os.environ.get("DATABASE_IDLE_PING_SECONDS", "30"))


@event.listens_for(Pool, "checkin")
def _note_checkin(dbapi_connection, connection_record):
    connection_record.info["checked_in"] = time.monotonic()


@event.listens_for(Pool, "checkout")
def _postgres_alive(dbapi_connection, connection_record, connection_proxy):
    """Replaces pool_pre_ping, which cost every request a round trip (SELECT 1) to the
    server, a quarter of an unchanged poll's. A server that restarts, or ends a session
    (pg_terminate_backend, an idle timeout, a pooler), sends its goodbye and closes the
    socket, so a dead connection is readable while a live idle one has nothing to read:
    one poll(2) with no wait tells them apart. Only a readable connection (dead, or rarely
    a message of the server's own) and one idle for a while (when a silent NAT or firewall
    drop is likelier) get the round trip. A failed one drops the pool's connections, and
    the pool opens a new one before the request uses it."""
    if not type(dbapi_connection).__module__.startswith("psycopg"):
        return  # SQLite is a file: nothing to lose between requests
    checked_in = connection_record.info.get("checked_in")
    if checked_in is None:
        return  # just opened
    try:
        poller = select.poll()
        poller.register(dbapi_connection.fileno(), select.POLLIN)
        if poller.poll(0) or time.monotonic() - checked_in >= IDLE_PING_SECONDS:
            autocommit = dbapi_connection.autocommit
            dbapi_connection.autocommit = True
            try:
                cursor = dbapi_connection.cursor()  # psycopg 3 and psycopg2 alike
                cursor.execute("SELECT 1")
                cursor.close()
            finally:
                dbapi_connection.autocommit = autocommit
    except Exception as error:
        raise InvalidatePoolError(f"lost the database connection: {error}") from error


def create_app(config: dict | None = None) -> Flask:
    # The `mahjtable` command (launcher.py) keeps the instance folder (database, secret
    # key, demo login) in the user's data folder: never inside the installed package.
    data_dir = os.environ.get("MAHJTABLE_DATA_DIR")
    app = MahjTable(__name__, instance_relative_config=True,
                    instance_path=os.path.abspath(data_dir) if data_dir else None)
    app.url_map.converters["int"] = BoundedInt
    os.makedirs(app.instance_path, mode=0o700, exist_ok=True)
    owner_only(app.instance_path, 0o700)
    config = dict(config or {})

    default_db = "sqlite:///" + os.path.join(app.instance_path, "mahjtable.db")
    database_url = config.pop("DATABASE_URL", None) or os.environ.get("DATABASE_URL", default_db)
    base_url = os.environ.get("BASE_URL", "").rstrip("/")
    app.config.from_mapping(
        SECRET_KEY=secret_key(app.instance_path),
        SQLALCHEMY_DATABASE_URI=normalise_database_url(database_url),
        # No pool_pre_ping: _postgres_alive checks a connection without a round trip.
        SQLALCHEMY_ENGINE_OPTIONS={},
        BASE_URL=base_url,
        TRUSTED_HOSTS=trusted_hosts(base_url),
        TIMEZONE=os.environ.get("TIMEZONE") or None,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=base_url.startswith("https://"),
        REMEMBER_COOKIE_HTTPONLY=True,
        REMEMBER_COOKIE_SAMESITE="Lax",
        WTF_CSRF_TIME_LIMIT=None,  # a table page stays open all day; the token is per session
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,  # a 600-row CSV is ~20 KB
        COMPRESS_MIMETYPES=["text/html", "text/css", "text/javascript", "application/javascript",
                            "text/csv", "application/json", "image/svg+xml"],
        # Static files are streamed; Flask-Compress streams deflate, not gzip.
        COMPRESS_ALGORITHM_STREAMING=["deflate"],
        # gzip and deflate only (zlib): a benchmark run that also offered brotli lost a
        # worker to a SIGSEGV under many threads; zlib costs ~1 KB more on htmx.
        COMPRESS_ALGORITHM=["gzip", "deflate"],
        # Static files carry ?v=<content hash> (see register_template_helpers), so phones may keep
        # them for a year: a page load costs no asset requests at all, even conditional ones.
        SEND_FILE_MAX_AGE_DEFAULT=365 * 24 * 3600,
        # How often live parts poll, in seconds (see README "Live updates").
        POLL_SECONDS=int(os.environ.get("POLL_SECONDS", "10")),
        LOGIN_ATTEMPTS=5,  # failed sign-ins per email and address in LOGIN_WINDOW_SECONDS
        LOGIN_ADDRESS_ATTEMPTS=20,  # failed sign-ins per address, whatever the emails
        LOGIN_WINDOW_SECONDS=15 * 60,
        LOGIN_COOLDOWN_SECONDS=60,  # past a limit, one more try per cool-down
        SESSION_IDLE_SECONDS=4 * 3600,
        SESSION_MAX_SECONDS=16 * 3600,
    )
    if os.environ.get("TRUST_PROXY"):
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)
    app.config.update(config)
    if app.config["TIMEZONE"]:
        ZoneInfo(app.config["TIMEZONE"])  # fail at start, not on every page showing a time
    app.session_interface = SessionInterface()
    protect_sqlite_files(app.config["SQLALCHEMY_DATABASE_URI"])

    db.init_app(app)
    with app.app_context():
        reads.install(db.engine)  # PostgreSQL: GET requests read outside a transaction
    # A request that only shows reads on a connection of its own (core.rows)
    app.teardown_request(rows.close_shown_connection)
    migrate.init_app(app, db, directory=os.path.join(app.root_path, "migrations"),
                     render_as_batch=True, compare_type=True)
    csrf.init_app(app)
    # current_user is a template global (blueprints.common.template_globals): loaded
    # where a template reads it, not for every page as Flask-Login's processor does.
    login_manager.init_app(app, add_context_processor=False)
    htmx.init_app(app)
    compress.init_app(app)

    register_blueprints(app)
    register_live_polls(app)
    register_favicon(app)
    register_error_pages(app)
    register_origin_check(app)
    register_security_headers(app)
    register_template_helpers(app)

    import cli

    cli.register(app)
    return app


def register_blueprints(app: Flask) -> None:
    from blueprints.auth.views import bp as auth_bp
    from blueprints.calls.views import bp as calls_bp
    from blueprints.clock.views import bp as clock_bp
    from blueprints.director.views import bp as director_bp
    from blueprints.display.views import bp as display_bp
    from blueprints.player.views import bp as player_bp
    from blueprints.results.views import bp as results_bp
    from blueprints.table.views import bp as table_bp

    for bp in (auth_bp, director_bp, table_bp, player_bp, clock_bp, display_bp, calls_bp,
               results_bp):
        app.register_blueprint(bp)


def register_live_polls(app: Flask) -> None:
    # One poll per live page; its unchanged answer (204) is given before Flask opens the
    # session or loads the user (see blueprints/live/fast.py).
    # The live blueprint finds other audiences' parts by name (core.live); each
    # registers them in its live_parts module.
    for audience in ("calls", "clock", "display", "table"):
        importlib.import_module(f"blueprints.{audience}.live_parts")
    from blueprints.live import fast
    from blueprints.live.views import bp as live_bp

    app.register_blueprint(live_bp)
    fast.install(app)


def register_favicon(app: Flask) -> None:
    # Browsers ask for /favicon.ico on every first visit: a 113-byte icon, cached for a
    # year, instead of a 404 page over the venue's slow Wi-Fi.
    @app.get("/favicon.ico")
    def favicon():
        response = app.send_static_file("favicon.png")
        response.headers["Cache-Control"] = "public, max-age=31536000"
        return response


def register_error_pages(app: Flask) -> None:
    messages = {
        400: ("Something in that request was not right", "Please go back and try again."),
        403: ("Not allowed", "You do not have permission to do that."),
        404: ("Page not found", "This page does not exist, or you may not see it."),
        405: ("Not allowed", "That page cannot be used this way."),
        409: ("Someone changed this first",
              "Someone else changed this while you were working. Reload to see the current "
              "version."),
        413: ("Too large", "That file is too large."),
        503: ("Busy for a moment",
              "The server is busy and did not save that. Please tap again in a few seconds."),
        422: ("Please check your entry", "Something in the form needs fixing."),
        500: ("Something went wrong on our side",
              "Nothing you did caused this. Please try again; if it happens again, tell the "
              "director."),
    }

    def render_error(code: int, detail: str | None = None):
        title, text = messages[code]
        return render_template("errors/error.html", code=code, title=title,
                               text=detail or text), code

    for code in messages:
        if code == 500:
            continue
        app.register_error_handler(code, lambda e, code=code: render_error(code))

    @app.errorhandler(500)
    def server_error(e):
        db.session.rollback()
        return render_error(500)

    @app.errorhandler(OperationalError)
    def database_busy(e):
        # SQLite answers "database is locked" when writers queue past busy_timeout: nothing
        # was written (the transaction rolled back), so say "try again", never a 500.
        db.session.rollback()
        if "locked" not in str(e.orig).lower() and "busy" not in str(e.orig).lower():
            raise e
        response, code = render_error(503)
        return response, code, {"Retry-After": "2"}

    @app.errorhandler(SecurityError)
    def untrusted_host(e):
        # Plain text: with no trusted host there is no URL adapter, so templates that
        # build links cannot render.
        return Response(
            "This server does not answer to that address. Use the address on the table "
            "cards; whoever runs it can set BASE_URL or TRUSTED_HOSTS.\n",
            400, mimetype="text/plain")

    @app.errorhandler(CSRFError)
    def csrf_error(e):
        return render_error(
            400, "This form had expired or came from elsewhere. Reload the page and try again."
        )


def register_origin_check(app: Flask) -> None:
    """Refuse a form posted from another site, over HTTP as well as HTTPS.

    On top of Flask-WTF's token (and, over HTTPS, its same-origin Referer check): browsers
    say where a POST comes from in `Sec-Fetch-Site` and `Origin`. A request from another
    site, or from a sibling subdomain (which SameSite=Lax cookies would still reach), is
    refused before any view runs. Clients that send neither (curl, the benchmark) fall back
    on the token alone."""

    @app.before_request
    def same_origin_posts():
        if request.method in ("GET", "HEAD", "OPTIONS") or not app.config.get(
                "WTF_CSRF_ENABLED", True):
            return
        site = request.headers.get("Sec-Fetch-Site")
        if site is not None and site not in ("same-origin", "none"):
            raise CSRFError("The request came from another site.")
        origin = request.headers.get("Origin")
        if origin is not None and not any(
                same_origin(origin, good) for good in
                (request.host_url, app.config.get("BASE_URL") or request.host_url)):
            raise CSRFError("The Origin header does not match the host.")


# A stylesheet or a script is never a document: a policy, a frame rule or a referrer
# rule on it does nothing, and on a first visit over slow Wi-Fi their bytes count (about
# 600 of a table page's 30 KB). An SVG keeps them: opened on its own it is a document.
SUBRESOURCE_TYPES = frozenset({"text/css", "text/javascript", "application/javascript"})


def register_security_headers(app: Flask) -> None:
    @app.after_request
    def security_headers(response):
        # Set, not setdefault: no view sets its own, and each setdefault of a header not
        # there raised and caught an exception inside werkzeug (1% of a page, the four).
        response.headers["X-Content-Type-Options"] = "nosniff"
        if response.mimetype not in SUBRESOURCE_TYPES:
            response.headers["Content-Security-Policy"] = CSP
            response.headers["X-Frame-Options"] = "DENY"
            # Table links carry their secret token: never leak it to another site.
            # Same-origin requests keep their Referer (and a real Origin), which
            # Flask-WTF's HTTPS check and ours need: with "no-referrer" every form posted
            # over HTTPS was refused.
            response.headers["Referrer-Policy"] = "same-origin"
        if request.is_secure:
            response.headers["Strict-Transport-Security"] = "max-age=31536000"
        if carries_secrets():
            # A table's token (in the URL and its links), a password on the page, or staff
            # data must not stay in a shared phone's cache or a proxy's.
            response.headers["Cache-Control"] = "no-store"
        # htmx puts a boosted form's answer in the history under the URL it came from. For
        # a refused post (422 at a field, 409 changed meanwhile) that is the form's action,
        # which a reload, Back or Forward would then GET (405). The refusal is the page the
        # form was on, shown again: its address stays. (Here, not in a hook of its own:
        # Flask's call of each hook costs every request about as much as this one.)
        if response.status_code >= 400 and request.method != "GET" and htmx.boosted:
            response.headers["HX-Push-Url"] = "false"
        return response

    def carries_secrets() -> bool:
        if request.endpoint in ("static", "favicon"):
            return False
        return ("k" in request.args or request.blueprint == "auth"
                or current_user.is_authenticated)


def register_template_helpers(app: Flask) -> None:
    from blueprints.common import template_globals

    app.jinja_env.globals.update(template_globals(app))
    versions: dict[str, str] = {}

    @app.url_defaults
    def static_version(endpoint, values):
        # Cache-busting: a changed file gets a new URL, so long caching is safe. Its
        # content's hash, not its mtime: every server of one release (and every checkout)
        # gives a file the same URL, so a phone's cached copy stays good across them.
        if endpoint == "static" and "filename" in values and "v" not in values:
            name = values["filename"]
            if name not in versions or app.debug:
                try:
                    with open(os.path.join(app.static_folder, name), "rb") as file:
                        versions[name] = hashlib.sha256(file.read()).hexdigest()[:12]
                except OSError:
                    versions[name] = "0"
            values["v"] = versions[name]
