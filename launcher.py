"""The `mahjtable` command: a whole event from one laptop, with no make, no checkout and no
internet. `mahjtable` (or `mahjtable run`) keeps its data in the user's data folder,
migrates, loads the demo tournament on the first start, prints the address the phones
open (with its QR code) and the director's login, and serves: gunicorn where it runs,
waitress on Windows or when asked (`--server waitress`). Every `flask --app app` command
of the guides is here too: `mahjtable create-director EMAIL`, `mahjtable import-backup`,
`mahjtable db upgrade`...

Installed from the wheel (pyproject.toml), the application's files sit together in
site-packages/mahjtable/ and import one another by their top-level names (app, core,
models...), as in a checkout; the one-file build (tools/mahjtable.spec) puts them at the root
of its bundle. Either way the code and its templates are read-only: everything written
goes to the data folder."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if __package__:  # mahjtable.launcher, from the installed wheel
    sys.path.insert(0, str(HERE))

import click  # noqa: E402
from flask.cli import FlaskGroup, with_appcontext  # noqa: E402

# Where the database, the secret key and the demo login live (app.create_app reads it).
DATA_ENV = "MAHJTABLE_DATA_DIR"
SERVERS = ("gunicorn", "waitress")


def default_data_dir() -> Path:
    """The user's own data folder: ~/.local/share/MahjTable on Linux,
    %LOCALAPPDATA%\\MahjTable on Windows, ~/Library/Application Support/MahjTable on a Mac."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("MahjTable", appauthor=False))


def use_data_dir(value: str | None) -> Path:
    """--data-dir, else MAHJTABLE_DATA_DIR, else the user's data folder: made owner-only
    and put in the environment, where create_app (here and in gunicorn's workers) finds it."""
    chosen = value or os.environ.get(DATA_ENV) or default_data_dir()
    path = Path(chosen).expanduser().resolve()
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.environ[DATA_ENV] = str(path)
    return path


def _data_dir_option(ctx, param, value):
    use_data_dir(value)


def default_server(system: str = os.name) -> str:
    # gunicorn forks its workers: there is no fork on Windows.
    return "waitress" if system == "nt" else "gunicorn"


def create_app():
    from app import create_app

    return create_app()


def lan_address(port: int) -> str:
    from cli import lan_base_url

    os.environ["PORT"] = str(port)
    return lan_base_url()


def print_start(base: str, data_dir: Path, server: str) -> None:
    """What the director reads at every start: the address the phones open and its QR
    code, where the director's login is, where the data lives and how to keep it safe,
    and how to stop."""
    import segno

    from cli import DEMO_EMAIL

    login = data_dir / "demo-login.txt"
    click.echo("")
    click.echo("  MahjTable is ready. Phones on this laptop's Wi-Fi open:")
    click.echo("")
    click.echo(f"      {base}/")
    click.echo("")
    # Block characters where the console has them; Windows' older consoles get the
    # coloured-spaces form, which segno draws through the console's own calls.
    segno.make(base + "/", error="m").terminal(compact=os.name != "nt", border=2)
    click.echo("")
    if login.exists():
        click.echo(f"  Director login:   {DEMO_EMAIL}: its password is in {login.name} in")
        click.echo("                    the data folder below")
    click.echo(f"  Your data:        {data_dir}")
    click.echo("  Back it up:       Director > a tournament > Exports > Whole tournament "
               "backup,")
    click.echo("                    or copy the folder above while MahjTable is stopped.")
    click.echo("  To stop:          press Ctrl-C (or close this window). A sheet being "
               "saved is")
    click.echo("                    saved whole or not at all; nothing is half-written.")
    click.echo(f"  Server:           {server}")
    click.echo("")


@click.command("run")
@click.option("--server", type=click.Choice(SERVERS), default=None,
              help="gunicorn (several processes; not on Windows) or waitress (one process, "
                   "no fork). Default: gunicorn, or waitress on Windows.")
@click.option("--host", default=lambda: os.environ.get("HOST", "0.0.0.0"), show_default="0.0.0.0",
              help="The address to listen on: 0.0.0.0 lets the phones on the network in.")
@click.option("--port", type=int, default=lambda: int(os.environ.get("PORT", "8000")),
              show_default="8000")
@click.option("--no-demo", is_flag=True, help="Do not load the demo tournament.")
@with_appcontext
def run(server, host, port, no_demo):
    """Migrate, load the demo on the first start, print the addresses and serve."""
    from flask import current_app
    from flask_migrate import upgrade

    import cli
    from models import db

    server = server or default_server()
    os.environ["PORT"], os.environ["HOST"] = str(port), host
    data_dir = Path(current_app.instance_path)
    upgrade()
    if not no_demo:
        click.get_current_context().invoke(cli.demo)
    base = lan_address(port)
    print_start(base, data_dir, server)
    # Neither the workers (after gunicorn's fork) nor waitress share this app's
    # connections: each serving app opens its own.
    db.engine.dispose()
    serve(server, host, port)


def serve(server: str, host: str, port: int) -> None:
    if server == "waitress":
        serve_waitress(host, port)
    else:
        serve_gunicorn()


def serve_gunicorn() -> None:
    """gunicorn as `make run` starts it, from gunicorn.conf.py (which reads HOST and PORT),
    in this process: no second program to find, in the wheel or the one-file build."""
    from gunicorn.app.base import Application

    class Server(Application):
        def load_config(self):
            # The settings file alone: the command line is ours, not gunicorn's.
            self.load_config_from_file(str(HERE / "gunicorn.conf.py"))

        def load(self):
            return create_app()

    Server().run()


def serve_waitress(host: str, port: int) -> None:
    from serving import waitress_server

    server = waitress_server(create_app(), host, port)
    # Ctrl-C, even where the shell that started us ignored it (a background job), and
    # SIGTERM (a service manager, the tests) both stop it.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    # Windows: closing the console window arrives as SIGBREAK, with a few seconds to
    # finish before the process is ended.
    if hasattr(signal, "SIGBREAK"):
        signal.signal(signal.SIGBREAK, signal.default_int_handler)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        # The request being served finishes (its unit of work commits whole, or not at
        # all); those not begun are dropped, and their phones send them again.
        server.task_dispatcher.shutdown(cancel_pending=True, timeout=10)
        server.close()
        click.echo("MahjTable stopped.")


class Command(FlaskGroup):
    def __init__(self):
        super().__init__(
            name="mahjtable", create_app=create_app, add_default_commands=False,
            add_version_option=False, load_dotenv=False, set_debug_flag=False,
            invoke_without_command=True, callback=self.run_by_default,
            params=[click.Option(
                ["--data-dir"], is_eager=True, expose_value=False, callback=_data_dir_option,
                envvar=DATA_ENV, help="Where the database, secret key and demo login live. "
                "Default: the user's data folder (MAHJTABLE_DATA_DIR overrides it).")],
            help="MahjTable: run an American Mah Jongg tournament from the phones in the "
                 "room. With no command: `mahjtable run`.",
        )
        self.add_command(run)

    @staticmethod
    @click.pass_context
    def run_by_default(ctx):
        # `mahjtable` alone serves, as `mahjtable run` does.
        if ctx.invoked_subcommand is None:
            ctx.invoke(run)


main = Command()


if __name__ == "__main__":
    main()
