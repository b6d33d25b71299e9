"""The one error shape the rules and the services share: a plain-words message tied to
the field it concerns, so a page can show it right where the player or director typed."""


class FieldError(ValueError):
    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
        self.message = message
