"""The unchanged poll, answered before Flask builds a request.

Most polls find nothing new. Flask would first open the session (verify and decode the
cookie), match the route, run the before- and after-request hooks (CSRF, login, security
headers, compression) for an empty 204; at a few hundred phones that is most of the
server's work. This WSGI wrapper recognises the poll's path, compares the versions with
one statement on a pooled connection (blueprints.live.service.fast_unchanged, checked
against the full view's comparison in tests/live; on PostgreSQL outside a transaction, a
single round trip), and answers 204 itself. Anything else, and any doubt (a bad link, an
error), goes to Flask, which answers it in full."""

from __future__ import annotations

from urllib.parse import unquote_plus

from werkzeug.http import parse_cookie

from core.calls import DISMISSED_COOKIE, dismissed_ids
from core.table_pages import asked_round
from models import db

from . import service

PREFIX = "/live/t/"
# What the full answer's after-request hooks would add to an empty 204 that matters.
# (No Content-Length: a 204 must not carry one.)
HEADERS = [("Vary", "HX-Request"), ("Cache-Control", "no-store"),
           ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer")]


class UnchangedPoll:
    def __init__(self, app, wsgi_app):
        self.app = app
        self.wsgi_app = wsgi_app
        self.engine = None

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        if (path.startswith(PREFIX) and environ.get("REQUEST_METHOD") == "GET"
                and environ.get("HTTP_HX_REQUEST") == "true"
                and "HTTP_HX_BOOSTED" not in environ
                and "HTTP_HX_HISTORY_RESTORE_REQUEST" not in environ
                and self._unchanged(path[len(PREFIX):], environ)):
            start_response("204 No Content", list(HEADERS))
            return []
        return self.wsgi_app(environ, start_response)

    def _unchanged(self, rest: str, environ) -> bool:
        code, _, number = rest.partition("/")
        if not code or not number.isascii() or not number.isdigit() or len(number) > 9:
            return False
        args = query_args(environ.get("QUERY_STRING", ""))
        dismissed: list[int] = []
        if DISMISSED_COOKIE in environ.get("HTTP_COOKIE", ""):
            dismissed = dismissed_ids(parse_cookie(environ).get(DISMISSED_COOKIE))
        try:
            if self.engine is None:
                with self.app.app_context():
                    self.engine = db.engine
            engine = self.engine
            connection = engine.raw_connection()
        except Exception:
            return False  # no database: the full request reports it
        try:
            return self._compare(connection, engine.dialect, code, int(number), args,
                                 dismissed)
        except Exception:
            # A failing database, or anything unexpected: the full request reports it.
            # The connection may be broken: the pool must not hand it out again.
            connection.invalidate()
            return False
        finally:
            connection.close()

    @staticmethod
    def _compare(connection, dialect, code, number, args, dismissed) -> bool:
        def compare() -> bool:
            return service.fast_unchanged(connection, dialect, code, number, args.get("k"),
                                          asked_round(args), args, dismissed)

        if dialect.name != "postgresql":
            return compare()
        # One statement is its own snapshot: no BEGIN before it and no ROLLBACK after it,
        # two of the poll's three round trips. Back to transactions before the pool has it.
        driver = connection.driver_connection
        driver.autocommit = True
        try:
            return compare()
        finally:
            driver.autocommit = False


def query_args(query: str) -> dict[str, str]:
    """dict(urllib.parse.parse_qsl(query)): the last of each name, a pair with no value
    left out. The poll's names and versions need no unquoting, so only a pair with a
    % or + is unquoted: parse_qsl unquotes every one, a third of this path's Python."""
    args = {}
    for pair in query.split("&"):
        name, equals, value = pair.partition("=")
        if not equals or not value:
            continue
        if "%" in pair or "+" in pair:
            name, value = unquote_plus(name), unquote_plus(value)
        args[name] = value
    return args


def install(app) -> None:
    app.wsgi_app = UnchangedPoll(app, app.wsgi_app)
