"""The rules of the game, in pure Python: rule sets, scoring, seating, standings, the clock.

Nothing in this package imports Flask, SQLAlchemy or anything outside the standard library;
blueprints/<name>/service.py is the only bridge between it and the database.
"""
