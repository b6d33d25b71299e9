"""The four ways a request is refused, shared by every audience.

- Refused (422): an input that cannot be taken, in plain words, tied to the form field it
  concerns (None: the whole form). tournament.errors.FieldError is one too, so the rules'
  own refusals (InvalidGame, InvalidRules) read the same way.
- Conflict (409): the row changed since the page showed it; `current` is the row as it is
  now (or None when it is gone), so the page can show both.
- Replay: this very request was applied already (a resend after a lost reply); the caller
  answers as for the first time, with `current`.
- TooMany (429): too many requests of one kind; `retry_after` in seconds when known.

Services raise these (or subclasses that name what was refused); blueprint error
handlers and `attach` turn them into answers. Nobody reads the message to guess a field."""

from __future__ import annotations

from typing import Any

from tournament.errors import FieldError


class Refused(FieldError):
    """An input refused at `field` (None: the whole form). Argument order: field, message,
    as tournament.errors.FieldError."""

    status = 422

    def __init__(self, field: str | None, message: str):
        super().__init__(field, message)  # type: ignore[arg-type]


class Conflict(Exception):
    """Someone else changed the row first; `current` is how it stands now."""

    status = 409

    def __init__(self, current: Any = None, message: str = ""):
        super().__init__(message or "This was changed meanwhile.")
        self.current = current
        self.message = str(self.args[0])


class Replay(Exception):
    """The request was applied already: not an error for the person who sent it."""

    def __init__(self, current: Any = None):
        super().__init__("Already applied.")
        self.current = current


class TooMany(Exception):
    status = 429

    def __init__(self, message: str, retry_after: int | None = None):
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


def attach(form, error: FieldError, fallback: str | None = None) -> bool:
    """Put a refusal's message on the form field it names (or on `fallback`, else the
    form's own list). Returns whether it landed on a field of the form."""
    name = error.field if error.field in getattr(form, "_fields", {}) else fallback
    if name and name in form._fields:
        form[name].errors = [*(form[name].errors or []), error.message]
        return True
    form.form_errors.append(error.message)
    return False
