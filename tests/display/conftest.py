"""The display tests use the clock tests' helpers and fixtures."""

from tests.clock.conftest import _user_per_request  # noqa: F401
