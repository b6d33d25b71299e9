"""A backup into this database: every reader in turn, in one unit of work, so a file
refused anywhere leaves nothing behind."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy.exc import SQLAlchemyError

from core.words import staff_actor
from core.writes import unit
from models import Tournament, User, record
from tournament.rules import InvalidRules
from tournament.scoring import InvalidGame

from .checks import FORMAT, VERSION, BackupError, _entries, _need
from .read_audit import read_audit
from .read_calls import read_announcements, read_calls, read_tiebreaks
from .read_players import read_competitions, read_players, read_substitutions
from .read_rounds import read_rounds, read_tables
from .read_sheets import read_sheets
from .read_tournament import read_tournament

SECTIONS = ("tables", "staff", "users", "players", "substitutions", "competitions", "rounds",
            "sheets", "calls", "announcements", "tiebreaks", "audit")


@dataclass
class Imported:
    """What an import did: the new tournament, the staff emails that have no account on
    this site (not made staff: the director adds them from Staff), and whether the tables
    got fresh tokens (then the printed table cards must be reprinted)."""

    tournament: Tournament
    not_staff: list[str] = field(default_factory=list)
    fresh_tokens: bool = True


def import_tournament(data: dict, director: User, *, keep_tokens: bool = False) -> Imported:
    """Create the tournament of a backup in this database, in one transaction; the
    importing `director` becomes its director and its only staff. Every value is checked
    as the forms and the rules would check it; game points are scored again under the
    backup's rules. Raises BackupError (and changes nothing) for a file that is not a
    backup or holds a value the pages would refuse, a code or table token already in use,
    or (with `keep_tokens`) a token that does not look like ours."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError("This file is not a MahjTable backup.")
    if data.get("version") != VERSION:
        version = data.get("version")
        shown = version if isinstance(version, int | str) and len(str(version)) < 12 else "?"
        raise BackupError(f"This backup is version {shown}; this site reads "
                          f"version {VERSION}.")
    info = _need(data, "tournament", dict)
    try:
        with unit():
            return _import(data, info, director, keep_tokens)
    except BackupError:
        raise
    except (InvalidRules, InvalidGame) as error:
        raise BackupError(f"This backup's rules or games are not valid: {error.message}") \
            from error
    except SQLAlchemyError as error:
        raise BackupError("This backup is damaged or incomplete: a required value is "
                          "missing or repeated.") from error
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        raise BackupError(f"This backup is damaged or incomplete ({error!s:.200}).") \
            from error


def _import(data: dict, info: dict, director: User, keep_tokens: bool) -> Imported:
    for key in SECTIONS:
        _entries(data, key)
    into = read_tournament(data, info, director, keep_tokens)
    read_players(data, info, into)
    read_tables(data, into)
    read_substitutions(data, into)
    read_competitions(data, into)
    read_rounds(data, into)
    read_sheets(data, into)
    read_calls(data, into)
    read_announcements(data, into)
    read_tiebreaks(data, into)
    read_audit(data, into)
    tournament = into.tournament
    # The import itself is a site event (not one of the tournament's own rows), so that
    # exporting the imported tournament gives back the same document.
    record("backup.import", tournament_id=None, subject=f"tournament:{tournament.id}",
           after={"code": tournament.code, "name": tournament.name,
                  "not_staff": into.not_staff, "fresh_tokens": not keep_tokens},
           actor=staff_actor(director), actor_user_id=director.id)
    return Imported(tournament, into.not_staff, fresh_tokens=not keep_tokens)
