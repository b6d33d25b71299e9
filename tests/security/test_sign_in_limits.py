"""Sign-in guessing: unknown emails cost the same password check as known ones, one
address is limited across emails, a success clears only its own address's failures, a
lock lasts only a short cool-down, and old attempt rows are pruned."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from blueprints.auth import service
from models import LoginAttempt, db, utcnow
from tests.conftest import make_user

RIGHT = {"email": "ann@example.com", "password": "correct horse"}


def attempt(client, address="10.0.0.5", **data):
    return client.post("/auth/sign-in", data={**RIGHT, **data},
                       environ_base={"REMOTE_ADDR": address})


def attempts(**where) -> int:
    query = select(func.count()).select_from(LoginAttempt)
    for name, value in where.items():
        query = query.where(getattr(LoginAttempt, name) == value)
    return db.session.scalar(query)


def age_attempts(seconds: int) -> None:
    for row in db.session.scalars(select(LoginAttempt)):
        row.at = row.at - timedelta(seconds=seconds)
    db.session.commit()


def test_an_unknown_email_checks_a_password_hash_like_a_known_one(app, client, monkeypatch):
    make_user()
    checked = []
    real = service.check_password_hash

    def spy(pwhash, password):
        checked.append(pwhash)
        return real(pwhash, password)

    monkeypatch.setattr(service, "check_password_hash", spy)
    response = attempt(client, email="nobody@example.com", password="some guess")
    assert response.status_code == 422
    assert "do not match" in response.get_data(as_text=True)
    # A hash made with the configured method, so it costs what a real account's does.
    assert len(checked) == 1 and checked[0].startswith(app.config["PASSWORD_HASH_METHOD"])


def test_one_address_trying_many_emails_is_limited(app, client):
    make_user()
    limit = app.config["LOGIN_ADDRESS_ATTEMPTS"]
    for n in range(limit):
        assert attempt(client, email=f"someone{n}@example.com",
                       password="guess").status_code == 422
    blocked = attempt(client, email="another@example.com", password="guess")
    assert blocked.status_code == 429
    assert attempt(client).status_code == 429  # this address, any email, for the cool-down
    assert attempt(client, address="10.0.0.9").status_code == 302  # another address is fine


def test_a_success_clears_only_the_failures_from_its_own_address(app, client):
    make_user()
    for address in ("10.0.0.5", "10.0.0.66"):
        for _ in range(3):
            attempt(client, address, password="guess")
    assert attempt(client, "10.0.0.5").status_code == 302
    assert attempts(remote_addr="10.0.0.5") == 0
    assert attempts(remote_addr="10.0.0.66") == 3


def test_a_lock_lasts_only_a_short_cool_down(app, client):
    make_user()
    for _ in range(app.config["LOGIN_ATTEMPTS"]):
        attempt(client, password="guess")
    assert attempt(client).status_code == 429
    assert "wait a minute" in attempt(client).get_data(as_text=True)
    # Someone sharing the venue's address kept guessing; a cool-down after the last guess
    # the right password goes through...
    age_attempts(app.config["LOGIN_COOLDOWN_SECONDS"] + 1)
    assert attempt(client).status_code == 302
    # ...while a guesser past the limit gets one try per cool-down.
    for _ in range(app.config["LOGIN_ATTEMPTS"]):
        attempt(client, password="guess")
    age_attempts(app.config["LOGIN_COOLDOWN_SECONDS"] + 1)
    assert attempt(client, password="guess").status_code == 422
    assert attempt(client, password="guess").status_code == 429


def test_attempts_older_than_the_window_are_pruned(app, client):
    make_user()
    old = utcnow() - timedelta(seconds=app.config["LOGIN_WINDOW_SECONDS"] + 60)
    db.session.add_all([LoginAttempt(email="ann@example.com", remote_addr="10.0.0.1", at=old),
                        LoginAttempt(email="bea@example.com", remote_addr="10.0.0.2", at=old)])
    db.session.commit()
    attempt(client, password="guess")
    assert attempts() == 1
    assert attempts(remote_addr="10.0.0.5") == 1


def test_parallel_guesses_after_the_cool_down_get_one_password_check(app, client,
                                                                     monkeypatch):
    """Past the limit an address gets one guess per cool-down, however many it sends at
    once: the limit is counted in the database, atomically, not per worker or request."""
    import threading
    import time

    from models import User

    user = make_user()
    cooldown = app.config["LOGIN_COOLDOWN_SECONDS"]
    for _ in range(app.config["LOGIN_ATTEMPTS"]):
        db.session.add(LoginAttempt(email=user.email, remote_addr="10.0.0.5",
                                    at=utcnow() - timedelta(seconds=cooldown + 5)))
    db.session.commit()
    checks, lock = [], threading.Lock()
    real = User.check_password

    def slow_check(self, password):  # a real hash takes this long or longer
        with lock:
            checks.append(password)
        time.sleep(0.2)
        return real(self, password)

    monkeypatch.setattr(User, "check_password", slow_check)
    start, statuses = threading.Barrier(30), []

    def guess():
        with app.app_context():
            start.wait()
            response = attempt(app.test_client(), password="guess")
            with lock:
                statuses.append(response.status_code)
            db.session.remove()

    threads = [threading.Thread(target=guess) for _ in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(checks) == 1
    assert sorted(statuses) == [422] + [429] * 29
