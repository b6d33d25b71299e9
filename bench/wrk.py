"""Throughput with `wrk` (a load generator written in C), and CPU time read from /proc.

The benchmark's own asyncio clients cost more CPU per request than the server's fastest
answers: with them, a ratio to the floor measured the generator. wrk costs a few
microseconds per request, so on the same cores the server is what saturates. Each run is
short; the ratios that matter are between runs of the same invocation."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def available() -> bool:
    return shutil.which("wrk") is not None


@dataclass
class WrkResult:
    rps: float
    requests: int
    non_2xx: int
    errors: int           # socket errors (connect, read, write, timeout)
    p50_ms: float
    p99_ms: float
    generator_cpu: float  # CPU-seconds wrk itself used


def _ms(text: str) -> float:
    number, unit = re.match(r"([\d.]+)(us|ms|s)", text).groups()
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def run(url: str, seconds: float = 6, threads: int = 2, connections: int = 50,
        headers: dict[str, str] | None = None) -> WrkResult:
    # A long timeout: a request wrk gave up on still cost the server its CPU, and would
    # be missing from the count that CPU is divided by.
    command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds:g}s", "--latency",
               "--timeout", "30s"]
    for name, value in (headers or {}).items():
        command += ["-H", f"{name}: {value}"]
    process = subprocess.Popen([*command, url], stdout=subprocess.PIPE, text=True)
    out = process.stdout.read()
    _, _, usage = os.wait4(process.pid, 0)
    process.returncode = 0
    found = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if found is None:
        raise RuntimeError(f"wrk printed no rate for {url}:\n{out}")
    rps = float(found.group(1))
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)",
                       out)
    p50 = re.search(r"50%\s+([\d.]+\w+)", out)
    p99 = re.search(r"99%\s+([\d.]+\w+)", out)
    return WrkResult(
        rps=rps, requests=requests, non_2xx=int(non_2xx.group(1)) if non_2xx else 0,
        errors=sum(map(int, socket.groups())) if socket else 0,
        p50_ms=_ms(p50.group(1)) if p50 else 0.0, p99_ms=_ms(p99.group(1)) if p99 else 0.0,
        generator_cpu=usage.ru_utime + usage.ru_stime)


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU-seconds) of a live process."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / TICK


def tree_cpu(root: int) -> float:
    """CPU-seconds used so far by `root` and every live process below it (gunicorn's
    master and its workers)."""
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (found := _stat(int(entry))) is not None:
            stats[int(entry)] = found
    total, wanted, changed = 0.0, {root}, True
    while changed:
        changed = False
        for pid, (parent, _) in stats.items():
            if parent in wanted and pid not in wanted:
                wanted.add(pid)
                changed = True
    for pid in wanted:
        if pid in stats:
            total += stats[pid][1]
    return total


def self_cpu() -> float:
    """CPU-seconds this process (the Python generator) has used."""
    times = os.times()
    return times.user + times.system


def postgres_cpu(port: int | None) -> float | None:
    """CPU-seconds of the PostgreSQL server listening on `port` (its postmaster started
    with -p PORT, and every backend below it), or None when there is none: other
    PostgreSQL servers on a shared machine are not ours."""
    if not port:
        return None
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            name = Path(f"/proc/{entry}/comm").read_text().strip()
            command = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if name.startswith("postgres") and str(port).encode() in command:
            return tree_cpu(int(entry))
    return None
