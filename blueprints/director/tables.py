"""The tables' links and the address the QR codes and printed cards use."""

from __future__ import annotations

from sqlalchemy import select

from core.addresses import clean_public_url, lan_addresses  # noqa: F401 (card_pages)
from core.writes import write
from models import (
    Table,
    Tournament,
    User,
    db,
    new_token,
    utcnow,
)

from .common import audit


def tournament_table(tournament: Tournament, number: int) -> Table | None:
    return db.session.scalar(select(Table).where(Table.tournament_id == tournament.id,
                                                 Table.number == number))


@write
def rotate_token(tournament: Tournament, user: User, table: Table) -> None:
    """A new secret for the table's link: the old QR code stops working at once."""
    table.token = new_token()
    table.token_rotated_at = utcnow()
    # The token itself is a secret: the audit row says that it changed, not what it is.
    audit(tournament, user, "table.rotate_token", f"table:{table.id}",
          after={"table": table.number, "rotated_at": table.token_rotated_at.isoformat()})


@write
def set_public_url(tournament: Tournament, user: User, value: str | None) -> None:
    """Set the address QR codes and printed cards use (None: BASE_URL); audited."""
    url = clean_public_url(value)
    if url == tournament.public_url:
        return
    before = {"public_url": tournament.public_url}
    tournament.public_url = url
    audit(tournament, user, "tournament.public_url", f"tournament:{tournament.id}",
          before=before, after={"public_url": url})
