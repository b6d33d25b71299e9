"""The tables' links and the address the QR codes and printed cards use."""

from __future__ import annotations

import ipaddress
import socket

from sqlalchemy import select

from core.addresses import clean_public_url
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


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, the default route's first: what
    to offer when the cards would print 127.0.0.1. Sends nothing (a UDP "connect" only
    picks the interface)."""

    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never reached
            found.append(probe.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(info[4][0])
    except OSError:
        pass
    usable = []
    for address in found:
        ip = ipaddress.ip_address(address)
        if not (ip.is_loopback or ip.is_unspecified or ip.is_link_local) \
                and address not in usable:
            usable.append(address)
    return usable
