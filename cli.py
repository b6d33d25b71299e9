"""Command-line tools: `flask --app app create-director EMAIL` and `flask --app app demo`."""

from __future__ import annotations

import os
import socket
from datetime import date
from pathlib import Path

import click
from flask import Flask, current_app
from sqlalchemy import func, select

from blueprints.auth.service import create_user
from models import Player, Tournament, User, db

DEMO_PLAYERS = [
    "Ruth Abrams", "Bea Goldberg", "Carol Chen", "Dolores Ortiz", "Edith Klein", "Fran Weiss",
    "Gloria Park", "Harriet Stone", "Irene Malloy", "Joan Feldman", "Kay Morrison",
    "Lois Tanaka", "Marion Hall", "Nora Levine", "Opal Greene", "Pearl Nakamura",
    "Queenie Baker", "Rita Sands", "Sylvia Fox", "Thelma Price", "Una Rivers", "Vera Cohen",
    "Wanda Bell", "Yvonne Diaz", "Zelda Marsh", "Anita Ross", "Brenda Lowe", "Celia Hart",
    "Doris Kim", "Esther Wolfe", "Faye Dunn", "Greta Lind",
]
DEMO_EMAIL = "director@demo.mahjtable"


def register(app: Flask) -> None:
    app.cli.add_command(create_director)
    app.cli.add_command(set_password)
    app.cli.add_command(demo)


@click.command("create-director")
@click.argument("email")
@click.option("--name", default="", help="The name shown to players and staff.")
@click.option("--password", default=None, help="Prompted for when not given.")
@click.option("--generate", is_flag=True, help="Generate a password and print it.")
def create_director(email, name, password, generate):
    """Create a director account (they then create tournaments and add co-directors)."""
    if db.session.scalar(select(User).where(User.email == email.strip().lower())):
        raise click.ClickException(f"There is already an account for {email}.")
    if password is None and not generate:
        password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    user, password = create_user(email, name, password)
    db.session.commit()
    click.echo(f"Created {user.email}" + (f" with password {password}" if generate else ""))


@click.command("set-password")
@click.argument("email")
def set_password(email):
    """Change an account's password (prompted for, never on the command line)."""
    user = db.session.scalar(select(User).where(User.email == email.strip().lower()))
    if user is None:
        raise click.ClickException(f"No account for {email}.")
    password = click.prompt("New password", hide_input=True, confirmation_prompt=True)
    if len(password) < 10:
        raise click.ClickException("A password needs at least 10 characters.")
    user.set_password(password)
    db.session.commit()
    click.echo(f"Changed the password of {user.email}.")


def demo_login_path() -> Path:
    return Path(current_app.instance_path) / "demo-login.txt"


@click.command("demo")
def demo():
    """Load a demo tournament (8 tables, 32 players, TNT rules, 3 rounds, round 1 seated)
    when the database has no tournament yet; print how to sign in and the table links."""
    from blueprints.director import service

    if db.session.scalar(select(func.count()).select_from(Tournament)):
        click.echo("The database already has a tournament; the demo was not loaded.")
    else:
        director = db.session.scalar(select(User).where(User.email == DEMO_EMAIL))
        password = None
        if director is None:
            director, password = create_user(DEMO_EMAIL, "Demo Director")
        tournament = service.create_tournament(
            director, name="Demo Spring Classic", preset="tnt", rounds=3, venue="Ballroom A",
            code="DEMO26", starts_on=date.today(),
        )
        for number, name in enumerate(DEMO_PLAYERS, start=1):
            tournament.players.append(Player(number=number, name=name))
        db.session.flush()
        service.seat_round_one(tournament, method="draw", seed=2026, user=director)
        db.session.commit()
        if password:
            demo_login_path().write_text(f"{DEMO_EMAIL} {password}\n")
            demo_login_path().chmod(0o600)
        click.echo("Loaded the demo tournament.")
    print_demo_urls()


def lan_base_url() -> str:
    """The address phones on the venue's Wi-Fi can reach: BASE_URL when set, else this
    machine's LAN address (found without sending a packet) and PORT."""
    if base := current_app.config.get("BASE_URL"):
        return base
    port = os.environ.get("PORT", "8000")
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))  # UDP connect: picks a route, sends nothing
            address = s.getsockname()[0]
    except OSError:
        address = "localhost"
    return f"http://{address}:{port}"


def print_demo_urls() -> None:
    from flask import url_for

    tournament = db.session.scalar(select(Tournament).where(Tournament.code == "DEMO26"))
    base = lan_base_url()
    with current_app.test_request_context(base_url=base):
        lines = [("Home", url_for("player.home")), ("Director sign-in", url_for("auth.sign_in"))]
        if tournament is not None:
            lines.append(("Players", url_for("player.tournament", code=tournament.code)))
            lines += [(f"Table {t.number}", url_for("table.page", code=tournament.code,
                                                    number=t.number, k=t.token))
                      for t in tournament.tables]
    click.echo("")
    for label, path in lines:
        click.echo(f"  {label + ':':18} {base}{path}")
    if demo_login_path().exists():
        email, password = demo_login_path().read_text().split()
        click.echo(f"  {'Director login:':18} {email} / {password}")
    click.echo("")
