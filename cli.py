"""Command-line tools: `flask --app app create-director EMAIL` and `flask --app app demo`."""

from __future__ import annotations

import os
import socket
from datetime import date
from pathlib import Path

import click
from flask import Flask, current_app
from sqlalchemy import func, select

from blueprints.auth.service import WeakPassword, create_user
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
    app.cli.add_command(may_create_tournaments)
    app.cli.add_command(demo)


@click.command("create-director")
@click.argument("email")
@click.option("--name", default="", help="The name shown to players and staff.")
@click.option("--password", default=None,
              help="Prompted for when not given; at least 10 characters, not a common one.")
@click.option("--generate", is_flag=True, help="Generate a password and print it.")
def create_director(email, name, password, generate):
    """Create a director account (they then create tournaments and add co-directors)."""
    if db.session.scalar(select(User).where(User.email == email.strip().lower())):
        raise click.ClickException(f"There is already an account for {email}.")
    if password is None and not generate:
        password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    try:
        user, password = create_user(email, name, password, may_create_tournaments=True)
    except WeakPassword as problem:
        raise click.ClickException(str(problem)) from None
    db.session.commit()
    click.echo(f"Created {user.email}" + (f" with password {password}" if generate else ""))


@click.command("may-create-tournaments")
@click.argument("email")
@click.option("--revoke", is_flag=True, help="Take the right away instead.")
def may_create_tournaments(email, revoke):
    """Let an account create tournaments and import backups (or, with --revoke, no longer).
    Accounts made by create-director have it; staff who joined by invitation do not."""
    user = db.session.scalar(select(User).where(User.email == email.strip().lower()))
    if user is None:
        raise click.ClickException(f"No account for {email}.")
    user.may_create_tournaments = not revoke
    db.session.commit()
    click.echo(f"{user.email} may {'no longer ' if revoke else ''}create tournaments and "
               "import backups" + (" (the tournaments it directs stay its own)." if revoke
                                   else "."))


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
    try:
        user.set_password(password)  # also signs the account out everywhere
    except WeakPassword as problem:
        raise click.ClickException(str(problem)) from None
    db.session.commit()
    click.echo(f"Changed the password of {user.email}; every device signed in to it is "
               "now signed out.")


def demo_login_path() -> Path:
    return Path(current_app.instance_path) / "demo-login.txt"


@click.command("demo")
def demo():
    """Load a demo tournament (8 tables, 32 players, TNT rules, 3 rounds, round 1 seated)
    when the database has no tournament yet. Its director's password and the table links
    are secrets: printed when the demo is loaded, and kept owner-only in
    instance/demo-login.txt; later starts print only the public addresses."""
    from blueprints.director.seating import seat_round_one
    from blueprints.director.tournaments import create_tournament
    from core.writes import unit

    if db.session.scalar(select(func.count()).select_from(Tournament)):
        click.echo("The database already has a tournament; the demo was not loaded.")
        print_demo_urls(secrets=False)
        return
    director = db.session.scalar(select(User).where(User.email == DEMO_EMAIL))
    password = None
    # The demo loads whole or not at all.
    with unit():
        if director is None:
            director, password = create_user(DEMO_EMAIL, "Demo Director",
                                             may_create_tournaments=True)
        tournament = create_tournament(
            director, name="Demo Spring Classic", preset="tnt", rounds=3, venue="Ballroom A",
            code="DEMO26", starts_on=date.today(),
        )
        for number, name in enumerate(DEMO_PLAYERS, start=1):
            tournament.players.append(Player(number=number, name=name))
        db.session.flush()
        seat_round_one(tournament, method="draw", seed=2026, user=director)
    click.echo("Loaded the demo tournament.")
    text = print_demo_urls(secrets=True, password=password)
    if password:
        # Owner-only from the start: never a moment where another user could read it.
        path = demo_login_path()
        path.unlink(missing_ok=True)
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as f:
            f.write(text)


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


def print_demo_urls(secrets: bool, password: str | None = None) -> str:
    """Print the demo's addresses; with `secrets`, also the table links (each carries its
    table's token) and the director's login. Returns what was printed."""
    from flask import url_for

    tournament = db.session.scalar(select(Tournament).where(Tournament.code == "DEMO26"))
    base = lan_base_url()
    with current_app.test_request_context(base_url=base):
        lines = [("Home", url_for("player.home")), ("Director sign-in", url_for("auth.sign_in"))]
        if tournament is not None:
            lines.append(("Players", url_for("player.tournament", code=tournament.code)))
            if secrets:
                lines += [(f"Table {t.number}", url_for("table.page", code=tournament.code,
                                                        number=t.number, k=t.token))
                          for t in tournament.tables]
    out = [f"  {label + ':':18} {base}{path}" for label, path in lines]
    if secrets and password:
        out.append(f"  {'Director login:':18} {DEMO_EMAIL} / {password}")
    if not secrets and demo_login_path().exists():
        out.append(f"  {'Director login and table links:':18} in {demo_login_path()} "
                   "(printed at the first start only)")
    text = "\n".join(out) + "\n"
    click.echo("\n" + text)
    return text
