"""Accounts and sign-in with a rate limit kept in the database (staff access checks are in
core.access, since every staff page needs them)."""

from __future__ import annotations

import re
import secrets
from datetime import timedelta

from flask import current_app
from sqlalchemy import delete, func, select
from werkzeug.security import check_password_hash, generate_password_hash

from core.errors import TooMany
from core.writes import write
from models import LoginAttempt, User, db, utcnow
from models.password_policy import WeakPassword  # noqa: F401 (raised by create_user)


class TooManyAttempts(TooMany):
    """Too many wrong passwords from this address: wait for the cool-down."""

    def __init__(self):
        super().__init__(
            "Too many wrong passwords from here. Please wait "
            f"{cooldown_words()} and try again, or ask the tournament director to reset your "
            "password.", retry_after=current_app.config["LOGIN_COOLDOWN_SECONDS"])


def create_user(email: str, name: str, password: str | None = None, *,
                may_create_tournaments: bool = False) -> tuple[User, str]:
    """Create an account; returns it and its password (generated when none is given).
    Raises WeakPassword for a given password the policy refuses."""
    password = secrets.token_urlsafe(12) if password is None else password
    user = User(email=email.strip().lower(), name=name.strip() or email.split("@")[0],
                may_create_tournaments=may_create_tournaments)
    user.set_password(password)
    db.session.add(user)
    return user, password


_dummy_hashes: dict[str, str] = {}


def _dummy_hash() -> str:
    """A hash of a random password made with the configured method, checked for unknown
    emails so they take as long to refuse as a wrong password (no enumeration by timing)."""
    method = current_app.config.get("PASSWORD_HASH_METHOD", "scrypt")
    if method not in _dummy_hashes:
        _dummy_hashes[method] = generate_password_hash(secrets.token_hex(16), method=method)
    return _dummy_hashes[method]


def _locked(since, cooldown_since, limit: int, *where) -> bool:
    count, last = db.session.execute(
        select(func.count(), func.max(LoginAttempt.at)).where(LoginAttempt.at >= since, *where)
    ).one()
    return count >= limit and last is not None and last >= cooldown_since


def authenticate(email: str, password: str, remote_addr: str = "") -> User | None:
    """The user for these credentials, or None. Raises TooManyAttempts, before even
    checking the password, once this address has failed LOGIN_ATTEMPTS times for this
    email, or LOGIN_ADDRESS_ATTEMPTS times for any emails, within the window, and its last
    failure is under LOGIN_COOLDOWN_SECONDS old. So past the limit an address gets one
    guess per cool-down, and a director sharing a venue's address with someone guessing is
    never held off longer than a cool-down; guesses from elsewhere never lock them out.
    `remote_addr` is the client's address as the app sees it (behind TRUST_PROXY, the one
    the proxy added, never a client-supplied X-Forwarded-For entry)."""
    email = email.strip().lower()
    address = remote_addr[:64]
    if not _claim_guess(email, address, utcnow()):
        raise TooManyAttempts()
    user = db.session.scalar(select(User).where(User.email == email))
    if user is None:
        check_password_hash(_dummy_hash(), password)
    elif user.check_password(password):
        _forget_failures(email, address)
        return user
    # The guess was counted as a failure when it was let in; a wrong one leaves it so.
    return None


@write
def _claim_guess(email: str, address: str, now) -> bool:
    """Whether this address may make one more guess now; if so, the guess is counted as a
    failure before the password is checked (a right one clears it). The check and the
    count are one step, taken by one request of an address at a time: otherwise guesses
    sent together all pass the check before any is counted, and each gets a password
    check past the limit."""
    config = current_app.config
    since = now - timedelta(seconds=config["LOGIN_WINDOW_SECONDS"])
    cooldown_since = now - timedelta(seconds=config["LOGIN_COOLDOWN_SECONDS"])
    if db.session.get_bind().dialect.name == "postgresql":
        # held to the commit: the next guess of this address waits and then sees this one
        db.session.execute(select(func.pg_advisory_xact_lock(
            func.hashtext("sign-in " + address))))
    # On SQLite this write comes first and so takes the database's one write lock (held to
    # the commit); it also keeps the table to the window.
    db.session.execute(delete(LoginAttempt).where(LoginAttempt.at < since))
    if _locked(since, cooldown_since, config["LOGIN_ATTEMPTS"],
               LoginAttempt.email == email, LoginAttempt.remote_addr == address) or \
            _locked(since, cooldown_since, config["LOGIN_ADDRESS_ATTEMPTS"],
                    LoginAttempt.remote_addr == address):
        return False
    db.session.add(LoginAttempt(email=email, remote_addr=address, at=now))
    return True


@write
def _forget_failures(email: str, address: str) -> None:
    # Only this address's failures: a success elsewhere must not reset an attacker's.
    db.session.execute(delete(LoginAttempt).where(LoginAttempt.email == email,
                                                  LoginAttempt.remote_addr == address))


@write
def end_sessions(user: User) -> None:
    """Sign the account out everywhere: every session cookie issued so far opens nothing."""
    user.end_sessions()


@write
def change_password(user: User, password: str) -> None:
    """A new password, chosen by the account's owner; it ends every session of the
    account."""
    user.set_password(password)


def cooldown_words() -> str:
    seconds = current_app.config["LOGIN_COOLDOWN_SECONDS"]
    minutes = max(1, round(seconds / 60))
    return "a minute" if minutes == 1 else f"{minutes} minutes"


def load_user(user_id: str) -> User | None:
    """The account of a session cookie, if the cookie is still current: its id carries the
    account's session version, which sign-out, a new password and removal from a staff
    raise (cookies from before sessions had versions carry none and are refused)."""
    match = re.fullmatch(r"(\d{1,12})\.(\d{1,12})", user_id)
    if match is None:
        return None
    user = db.session.get(User, int(match[1]))
    if user is None or user.session_version != int(match[2]):
        return None
    return user
