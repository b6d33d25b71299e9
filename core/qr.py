"""QR codes for table links and the big screen, made on the server (no network)."""

from __future__ import annotations


def qr_svg(url: str, scale: int = 6) -> str:
    """An inline SVG QR code for `url` (segno; made here, no network). It has a viewBox and
    no fixed size, so CSS sizes it: a fixed width and height kept the poster's code wider
    than a phone, clipped."""
    import segno

    return segno.make(url, error="m").svg_inline(scale=scale, dark="#000", light="#fff",
                                                 title=None, omitsize=True)
