"""What gets printed for the tables and the players: table cards with their QR codes,
new table links, the address the codes use, and the seat-lookup poster."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import abort, flash, g, redirect, render_template, request, url_for
from flask_login import current_user

from core.access import MANAGE, staff_required
from core.addresses import is_loopback
from core.qr import qr_svg

from . import forms, tables
from .blueprint import Saving, bp, lookup_url, seating_required, table_url


@bp.get("/t/<int:tournament_id>/cards")
@staff_required(MANAGE)
@seating_required
def table_cards(tournament_id):
    """One printable card per table: the number, a QR code to its page, a typed link."""
    return _cards_page(g.tournament)


def _cards_page(tournament, status=200, address_form=None):
    cards = []
    for table in tournament.tables:
        url = table_url(tournament, table)
        cards.append({"table": table, "url": url, "qr": qr_svg(url, scale=8)})
    return render_template("director/cards.html", tournament=tournament, cards=cards,
                           form=forms.ConfirmForm(),
                           **_address_check(tournament, address_form)), status


def _address_check(tournament, form=None) -> dict:
    """Whether the printed codes would point at this computer itself (127.0.0.1), and the
    addresses to offer instead: this laptop's on the venue network, at this port."""
    base = lookup_url(tournament)
    loopback = is_loopback(base)
    port = urlsplit(base).port
    offers = [f"http://{address}" + (f":{port}" if port and port != 80 else "")
              for address in tables.lan_addresses()] if loopback else []
    return {"base_loopback": loopback, "base_host": urlsplit(base).netloc,
            "address_offers": offers,
            "address_form": form or forms.PublicUrlForm(formdata=None,
                                                        public_url=tournament.public_url)}


@bp.post("/t/<int:tournament_id>/public-address")
@staff_required(MANAGE)
def public_address(tournament_id):
    """Set the address the QR codes and cards use (from the cards page's offers)."""
    tournament = g.tournament
    form = forms.PublicUrlForm()
    # A post without the field at all is not "clear the address": it is a broken form.
    if "public_url" not in request.form:
        form.public_url.errors = ["Give the address, or leave the box empty for the default."]
    elif form.validate_on_submit():
        with Saving(form):
            tables.set_public_url(tournament, current_user, form.public_url.data)
            flash(f"QR codes and cards now use {tournament.public_url or 'the default address'}."
                  " Print the table cards and the poster again.")
            return redirect(url_for("director.table_cards", tournament_id=tournament.id))
    return _cards_page(tournament, 422, form)


@bp.post("/t/<int:tournament_id>/tables/<int:number>/rotate")
@staff_required(MANAGE)
def rotate_token(tournament_id, number):
    """Give a table a new link: its old QR code stops working."""
    tournament = g.tournament
    table = tables.tournament_table(tournament, number)
    if table is None:
        abort(404)
    form = forms.ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    tables.rotate_token(tournament, current_user, table)
    flash(f"Table {number} has a new link. Print its new card; the old QR code no longer "
          "works.")
    return redirect(url_for("director.table_cards", tournament_id=tournament.id)
                    + f"#table-{number}")


@bp.get("/t/<int:tournament_id>/poster")
@staff_required(MANAGE)
def poster(tournament_id):
    """A printable poster with the QR code of the players' seat lookup."""
    tournament = g.tournament
    url = lookup_url(tournament)
    return render_template("director/poster.html", tournament=tournament, url=url,
                           qr=qr_svg(url, scale=12),
                           base_loopback=is_loopback(url), base_host=urlsplit(url).netloc)
