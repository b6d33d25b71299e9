"""Small helpers every blueprint shares: page-or-partial rendering, external URLs that
honour BASE_URL, and the template filters for seats and points."""

from __future__ import annotations

import secrets
import unicodedata
from datetime import datetime
from urllib.parse import quote, urlencode, urlsplit
from zoneinfo import ZoneInfo

from flask import (
    current_app,
    has_request_context,
    make_response,
    render_template,
    request,
    session,
    url_for,
)
from flask_login import current_user
from flask_wtf import FlaskForm
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup
from wtforms.validators import ValidationError
from wtforms.widgets import HiddenInput

from core.lookup import movement_words, seat_move
from core.words import screen_name, unshowable
from extensions import htmx
from models.password_policy import password_problem

SEAT_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}


def wants_partial() -> bool:
    """An htmx request that is not a boosted navigation or a history restore."""
    return bool(htmx) and not htmx.boosted and not htmx.history_restore_request


def render_page_or_partial(page: str, partial: str, status: int = 200, **context):
    """Serve the whole page, or for htmx only its partial; say that the answer varies."""
    template = partial if wants_partial() else page
    response = make_response(render_template(template, **context), status)
    response.vary.add("HX-Request")
    return response


def external_url(endpoint: str, _tournament=None, **values) -> str:
    """An absolute URL for QR codes and printed cards: the tournament's own public address
    when the director set one, else BASE_URL (e.g. the venue laptop's LAN address), else
    the address this request came in on."""
    base = getattr(_tournament, "public_url", None) or current_app.config.get("BASE_URL")
    if base:
        return base + url_for(endpoint, **values)
    return url_for(endpoint, _external=True, **values)


def chosen_password(form, field) -> None:
    """WTForms validator for any field where someone chooses a password: the one policy
    of models.password_policy, said at the field (once: not again after a length check
    before it in the chain has spoken)."""
    if field.errors:
        return
    if problem := password_problem(field.data or ""):
        raise ValidationError(problem)


def unstorable(text: str | None, lines: bool = False) -> bool:
    """core.words.unshowable: a character nobody means to type."""
    return unshowable(text, lines)


UNSHOWABLE = ("This has a character in it that cannot be shown or stored (an invisible mark or a "
              "control character, perhaps from pasted text); please type it again.")
# Fields whose text is never stored or shown: a password is hashed as typed.
_UNCHECKED = ("PasswordField", "FileField", "MultipleFileField", "CSRFTokenField")


class Form(FlaskForm):
    """Every form's base: text nobody means to type is refused at its field, in every
    field and every key a form carries, before any view reads it (so no database, SQLite
    or PostgreSQL, is ever handed a NUL byte, and no page shows a reversed name)."""

    def validate(self, extra_validators=None):
        valid = super().validate(extra_validators)
        for field in self:
            if field.type in _UNCHECKED:
                continue
            values = field.data if isinstance(field.data, list | tuple) else [field.data]
            lines = field.type == "TextAreaField"
            if any(isinstance(v, str) and unshowable(v, lines) for v in values):
                field.errors = [*field.errors, UNSHOWABLE]
                valid = False
        return valid

    def hidden_tag(self, *fields):
        """The form's hidden fields, as Flask-WTF draws them but without ids: a page with
        several forms (a card per table) would repeat id="csrf_token", and nothing refers
        to a hidden input by its id."""
        chosen = [getattr(self, f) if isinstance(f, str) else f for f in fields] or [
            f for f in self if isinstance(f.widget, HiddenInput)]
        return Markup("\n".join(str(f(id=False)) for f in chosen))


def same_site_path(value: str | None) -> str | None:
    """`value` when it is a path on this site that a Location header can carry, else None:
    for the pages a form comes back to (`back=`, `next=`), checked before the write, since
    a redirect that fails after the commit invites a retry that does it twice."""
    if not value or not value.startswith("/") or value.startswith("//") or "\\" in value \
            or len(value) > 2000:
        return None
    # no control characters (a header cannot hold CR or LF), no spaces or format marks
    if any(unicodedata.category(ch)[0] in "CZ" for ch in value):
        return None
    parts = urlsplit(value)
    return value if not parts.scheme and not parts.netloc else None


def new_request_key() -> str:
    """A fresh idempotency key for a form (see models.sheet.AppliedRequest)."""
    return secrets.token_urlsafe(16)


def points_text(value: int | None) -> str:
    """Points as on the paper sheets: zero is "X", never "O" or "0"."""
    if value is None:
        return ""
    return "X" if value == 0 else str(value)


def local_time(value: datetime | None, fmt: str = "%H:%M") -> str:
    if value is None:
        return ""
    tz = current_app.config.get("TIMEZONE")
    return value.astimezone(ZoneInfo(tz) if tz else None).strftime(fmt)


def fixed_url(endpoint: str, **values) -> str:
    """url_for for a URL the same on every page (the stylesheet, the home page), built once
    per app and script root: base.html names five on every page, and each url_for
    costs more than the rest of its line. Not cached in debug, where static files'
    versions are read again."""
    if current_app.debug or not has_request_context():
        return url_for(endpoint, **values)
    key = (endpoint, request.script_root, *sorted(values.items()))
    urls = current_app.extensions.setdefault("fixed_urls", {})
    url = urls.get(key)
    if url is None:
        url = urls[key] = url_for(endpoint, **values)
    return url


# A table's links differ only in the code, the number and the query: each endpoint's path
# is built by url_for once per process (and script root) around two stand-ins, then
# filled in as werkzeug would (its converters' and query's quoting). A page makes several
# of these links, and url_for costs more than the rest of building one.
_CODE, _NUMBER = "\x01", 987654321
_PATH_SAFE = "!$&'()*+,/:;=@"
_QUERY_SAFE = "!$'()*,/:;?@"
_paths: dict[tuple[str, str], tuple[str, str, str]] = {}


def _path_parts(endpoint: str) -> tuple[str, str, str]:
    key = (endpoint, request.script_root)
    parts = _paths.get(key)
    if parts is None:
        path = url_for(endpoint, code=_CODE, number=_NUMBER)
        head, rest = path.split(quote(_CODE, safe=_PATH_SAFE), 1)
        middle, tail = rest.split(str(_NUMBER), 1)
        parts = _paths[key] = (head, middle, tail)
    return parts


def table_links(table, round_no: int | None = None):
    """link() for one table and round, for a page that makes several of its links: the
    code's quoting and the query's k= and r= are done once, not once a link."""
    code = quote(table.tournament.code, safe=_PATH_SAFE)
    number = table.number
    shared = urlencode([(name, str(value)) for name, value in
                        (("k", table.token), ("r", round_no)) if value is not None],
                       safe=_QUERY_SAFE)

    def to(endpoint: str, **values) -> str:
        head, middle, tail = _path_parts(endpoint)
        path = f"{head}{code}{middle}{number}{tail}"
        query = shared
        if values:
            more = urlencode([(name, str(value)) for name, value in values.items()
                              if value is not None], safe=_QUERY_SAFE)
            query = f"{query}&{more}" if query and more else query or more
        return f"{path}?{query}" if query else path

    return to


def link(endpoint: str, table, round_no: int | None = None, **values) -> str:
    """url_for(endpoint, code=, number=, k=, r=, **values) for this table, as url_for
    gives it."""
    return table_links(table, round_no)(endpoint, **values)


def csrf_input() -> Markup:
    """A form's CSRF token as its hidden input (templates: csrf_input(), or the csrf()
    macro of _macros/forms.html): a template global, so a template that writes it
    several times (the call bar's forms) neither imports the macro nor builds it twice."""
    return Markup('<input type="hidden" name="csrf_token" value="%s">') % generate_csrf()


def signed_in() -> bool:
    """Whether a staff member is signed in on this phone (the header's and footer's links).
    Flask-Login keeps who is signed in in the session, under "_user_id" (this app sets no
    remember-me cookie): a session without it is nobody's, known without loading the
    anonymous user, its session check and its signal on every page."""
    return "_user_id" in session and current_user.is_authenticated


def template_globals(app) -> dict:
    """The helpers every template may call, and the poll interval: Jinja globals, set once
    per app, rather than a context processor that Flask calls on every page."""
    return {
        "fixed_url": fixed_url,
        "seat_name": SEAT_NAMES.get,
        "seat_move": seat_move,
        "movement_words": movement_words,
        "points_text": points_text,
        "screen_name": screen_name,
        "local_time": local_time,
        "signed_in": signed_in,
        "csrf_input": csrf_input,
        "current_user": current_user,
        "poll_seconds": app.config["POLL_SECONDS"],
        "favicon_uri": favicon_uri(app),
    }


def favicon_uri(app) -> str:
    """static/favicon.svg as a data: address, written into each page's head: a first
    visit over slow venue Wi-Fi then makes one request fewer (a round trip and its
    headers, more than the icon itself)."""
    with app.open_resource("static/favicon.svg") as icon:
        return "data:image/svg+xml," + quote(icon.read().decode("utf-8").strip(), safe=" =/:")
