"""Application code every blueprint may use: lookups, access checks, rounds, shared words.

Blueprints import core; core never imports a blueprint (tests/test_blueprint_imports.py)."""
