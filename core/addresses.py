"""The address phones reach this site on, as QR codes and printed cards carry it: the
check a director's typed address passes (setup, the cards page) and a backup's address
passes again on import."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit, urlunsplit

from .errors import Refused
from .words import unshowable

PUBLIC_URL_MAX = 200  # models.Tournament.public_url


def is_loopback(url: str) -> bool:
    """True when the URL points at this machine only (127.0.0.1, ::1, localhost): a QR code
    no phone can open."""
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def clean_public_url(value: str | None) -> str | None:
    """The address as stored ("http://192.168.1.10:8000", no trailing /), None for empty;
    Refused at "public_url" for anything a phone could not open."""
    value = (value or "").strip()
    if unshowable(value):
        raise Refused("public_url", "The address has characters in it that cannot be shown; "
                                    "please retype it.")
    value = value.rstrip("/")
    if not value:
        return None
    if "://" not in value:
        value = "http://" + value
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 (raises ValueError for a port that is not a number)
    except ValueError:
        parts = None
    if (parts is None or parts.scheme not in ("http", "https") or not parts.hostname
            or parts.username or parts.password or parts.query or parts.fragment
            or " " in value or len(value) > PUBLIC_URL_MAX):
        raise Refused("public_url",
                      "Give an address like http://192.168.1.10:8000 (the laptop's "
                      "address on the venue Wi-Fi) or https://mahj.example.org.")
    if is_loopback(value):
        raise Refused("public_url",
                      f"{parts.hostname} is this computer itself: phones cannot open it. "
                      "Give the laptop's address on the venue Wi-Fi, like "
                      "http://192.168.1.10:8000.")
    return value


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


def reachable(url: str) -> str:
    """`url` as a phone in the room can open it: a loopback address (the big screen opened
    on the laptop itself, at 127.0.0.1) becomes this laptop's first address on the venue
    network, at the same port; anything else, or no such address, stays as it is."""
    if not is_loopback(url):
        return url
    found = lan_addresses()
    if not found:
        return url
    parts = urlsplit(url)
    return urlunsplit(parts._replace(
        netloc=found[0] + (f":{parts.port}" if parts.port else "")))
