"""A throwaway PostgreSQL cluster for the benchmark (`--postgres` without a URL): initdb in a
temporary folder, started on a free loopback port, stopped and deleted afterwards. Its
postmaster's command line carries the port, so bench.wrk.postgres_cpu finds its CPU."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

SEARCH = ["/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin",
          "/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/14/bin"]


def empty_schema(database_url: str) -> None:
    """Drop and recreate the public schema of the PostgreSQL at `database_url`: an empty
    database for a run, whatever an earlier run left in it."""
    from sqlalchemy import create_engine, text

    from app import normalise_database_url

    engine = create_engine(normalise_database_url(database_url))
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    engine.dispose()


def binaries() -> Path:
    """The folder holding initdb and pg_ctl: PG_BIN, else PATH, else Debian's folders."""
    if folder := os.environ.get("PG_BIN"):
        return Path(folder)
    if found := shutil.which("initdb"):
        return Path(found).resolve().parent  # Debian links initdb alone into PATH
    for folder in SEARCH:
        if Path(folder, "initdb").exists():
            return Path(folder)
    raise RuntimeError("--postgres needs PostgreSQL's initdb and pg_ctl (set PG_BIN to "
                       "their folder), or pass --database-url")


def _as_owner(command: list[str], owner: str | None) -> list[str]:
    # initdb and postgres refuse to run as root: run them as the cluster's owner.
    return ["runuser", "-u", owner, "--", *command] if owner else command


@contextmanager
def cluster():
    """Yields a postgresql+psycopg URL to an empty database on a fresh cluster."""
    from bench.__main__ import free_port

    folder = binaries()
    owner = "postgres" if os.geteuid() == 0 else None
    data = Path(tempfile.mkdtemp(prefix="mahjtable-pg-"))
    if owner:
        shutil.chown(data, owner, owner)
    port = free_port()
    log = data / "server.log"
    subprocess.run(_as_owner([str(folder / "initdb"), "-D", str(data / "db"), "-A", "trust",
                              "-U", "bench", "--no-sync", "-E", "UTF8"], owner),
                   check=True, stdout=subprocess.DEVNULL)
    # The server's defaults otherwise (fsync and synchronous commits on, as a hosted
    # database keeps them): a commit's wait for the disk is part of a save's latency.
    options = f"-p {port} -k {data} -c listen_addresses=127.0.0.1 -c max_connections=200"
    subprocess.run(_as_owner([str(folder / "pg_ctl"), "-D", str(data / "db"), "-o", options,
                              "-l", str(log), "-w", "-t", "120", "start"], owner),
                   check=True, stdout=subprocess.DEVNULL)
    try:
        subprocess.run(_as_owner([str(folder / "createdb"), "-h", "127.0.0.1", "-p", str(port),
                                  "-U", "bench", "bench"], owner), check=True)
        yield f"postgresql+psycopg://bench@127.0.0.1:{port}/bench"
    finally:
        subprocess.run(_as_owner([str(folder / "pg_ctl"), "-D", str(data / "db"), "-m", "fast",
                                  "-w", "stop"], owner), stdout=subprocess.DEVNULL)
        time.sleep(0.2)
        shutil.rmtree(data, ignore_errors=True)
