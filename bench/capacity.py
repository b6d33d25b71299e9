"""The capacity search: the round end at increasing table counts, each on a fresh
database, and the largest count that holds (no failed request, no lost or doubled sheet,
save and submit p95 under the target), with an SVG chart of save p95 and errors against
table count. `python -m bench --capacity 250,500,1000 --spread 600 --slice 60` (see
bench/__main__.py)."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

from bench.flows import onlookers

TARGET_MS = 150


@dataclass
class Step:
    tables: int
    save_p95_ms: float
    errors: int
    database_ok: bool
    server_cpu: float
    generator_cpu: float
    wall: float
    examples: dict[str, str]
    database_cpu: float | None = None
    entering: int = 0      # tables whose East entered and submitted in the window
    saves: int = 0         # save and submit requests behind the p95
    requests: int = 0
    polls: int = 0

    @property
    def holds(self) -> bool:
        """This trial's own verdict (a count's, over its trials: count_holds)."""
        return count_holds([self])


def by_count(steps: list[Step]) -> dict[int, list[Step]]:
    """The trials of each table count, in the order the counts were first run."""
    counts: dict[int, list[Step]] = {}
    for s in steps:
        counts.setdefault(s.tables, []).append(s)
    return counts


def median_p95(trials: list[Step]) -> float:
    return statistics.median(s.save_p95_ms for s in trials)


def count_holds(trials: list[Step]) -> bool:
    """A count's verdict over its trials (--trials): no trial with a failed request or a
    lost or doubled sheet, and the trials' median p95 under the target. On a shared
    machine one trial's p95 says as much about the neighbours' minute as about the app."""
    return (all(s.errors == 0 and s.database_ok for s in trials)
            and median_p95(trials) < TARGET_MS)


async def step(tables: int, args, run_env) -> Step:
    """One round end at `tables` tables. `run_env(tables)` is an async context manager
    (bench/__main__.py) giving ([(url, server pid)], seed, database url) on a fresh
    database."""
    from bench import flows, wrk
    from bench.__main__ import Client, Stats, _port, pct

    async with run_env(tables) as (running, seed, database_url):
        stats = Stats()
        pg_port = _port(database_url)

        def server_cpu_now():
            return sum(wrk.tree_cpu(pid) for _, pid in running)

        before = {}

        def window_opens():
            before.update(generator=wrk.self_cpu(), server=server_cpu_now(),
                          database=wrk.postgres_cpu(pg_port))

        acting = await flows.round_end([url for url, _ in running], seed, stats, args, Client,
                                       on_start=window_opens)
        stats.ended = time.monotonic()
        server_cpu = server_cpu_now() - before["server"]
        generator_cpu = wrk.self_cpu() - before["generator"]
        pg_before, pg_after = before["database"], wrk.postgres_cpu(pg_port)
    save = sorted(stats.samples.get("save game", []) + stats.samples.get("submit", []))
    verdict = flows.check_database(database_url, seed, acting)
    polls = len(stats.samples.get("live poll", []))
    return Step(tables, pct(save, 95), sum(stats.errors.values()),
                any("**PASS**" in line for line in verdict), server_cpu, generator_cpu,
                stats.ended - stats.started, dict(stats.error_examples),
                database_cpu=(pg_after - pg_before if pg_before is not None
                              and pg_after is not None else None),
                entering=len(acting), saves=len(save), requests=sum(
                    len(v) for v in stats.samples.values()), polls=polls)


def report(steps: list[Step], args) -> list[str]:
    from bench.__main__ import pace

    counts = by_count(steps)
    held = [tables for tables, trials in counts.items() if count_holds(trials)]
    trials = max(len(t) for t in counts.values()) if counts else 1
    verdict = ("" if trials == 1 else
               f" Each count ran {trials} times on a fresh database; it holds when no trial "
               "failed a request or lost or doubled a sheet and the trials' median p95 is "
               f"under {TARGET_MS} ms (`holds` below is each trial's own).")
    rows = ["## Capacity search", "",
            f"Round end at each count on a fresh database: {pace(args)}; four phones per "
            f"table polling every {args.poll} s (each table's page loaded before the window), "
            "two big screens polling, 10% of the entering tables calling the director, three "
            f"directors on the queue, {onlookers(args)} with the standings open (their poll, "
            "and a reload about once a minute). The counts run in "
            "order until one does not hold, then once halfway back. `req/s` is every "
            "request of the window; `generator CPU` is the one Python process simulating "
            "all of them (one core at most: near 100% of the window, it, not the server, "
            "would be the limit)." + verdict, "",
            "| tables | players | entering | save/submit p95 ms | saves | errors | database "
            "check | req/s | server CPU s | database CPU s | generator CPU s (% of window) "
            "| window s | holds |",
            "|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---|"]
    for s in steps:
        wall = max(s.wall, 1e-9)
        rows.append(f"| {s.tables} | {s.tables * 4} | {s.entering} | {s.save_p95_ms:.0f} | "
                    f"{s.saves} | {s.errors} | {'PASS' if s.database_ok else 'FAIL'} | "
                    f"{s.requests / wall:.0f} | {s.server_cpu:.1f} | "
                    f"{'-' if s.database_cpu is None else f'{s.database_cpu:.1f}'} | "
                    f"{s.generator_cpu:.1f} ({s.generator_cpu / wall:.0%}) | {s.wall:.0f} | "
                    f"{'yes' if s.holds else 'no'} |")
    for s in steps:
        rows += [f"- errors at {s.tables} tables (first of each): {label}: `{text[:120]}`"
                 for label, text in s.examples.items()]
    if trials > 1:
        rows += [""] + [f"- {tables} tables: median p95 {median_p95(t):.0f} ms over "
                        f"{len(t)} trials: {'holds' if count_holds(t) else 'does not hold'}"
                        for tables, t in counts.items()]
    rows += ["", f"Largest count that holds (0 errors, 0 lost or doubled sheets, p95 < "
             f"{TARGET_MS} ms{'' if trials == 1 else ', median of the trials'}): "
             f"**{max(held) if held else 'none'}**", ""]
    return rows


def chart(steps: list[Step], width: int = 560, height: int = 300) -> str:
    """Save/submit p95 (a dot per trial, the line through each count's median) and errors
    (red bars) against table count, as SVG."""
    left, right, top, bottom = 56, 56, 24, 40
    xs = [s.tables for s in steps] or [1]
    x_max = max(xs)
    y_max = max([TARGET_MS * 2, *(s.save_p95_ms for s in steps)]) * 1.1
    e_max = max([1, *(s.errors for s in steps)])
    plot_w, plot_h = width - left - right, height - top - bottom

    def x(value):
        return left + plot_w * value / x_max

    def y(value):
        return top + plot_h * (1 - value / y_max)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11" '
             'role="img" aria-labelledby="t">',
             '<title id="t">Save and submit p95 and errors against table count</title>',
             f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="#fff" '
             'stroke="#999"/>',
             f'<line x1="{left}" x2="{left + plot_w}" y1="{y(TARGET_MS):.1f}" '
             f'y2="{y(TARGET_MS):.1f}" stroke="#b45309" stroke-dasharray="4 3"/>',
             f'<text x="{left + plot_w - 4}" y="{y(TARGET_MS) - 4:.1f}" text-anchor="end" '
             f'fill="#b45309">target {TARGET_MS} ms</text>']
    for s in steps:
        bar = plot_h * 0.5 * s.errors / e_max
        if s.errors:
            parts.append(f'<rect x="{x(s.tables) - 5:.1f}" y="{top + plot_h - bar:.1f}" '
                         f'width="10" height="{bar:.1f}" fill="#dc2626" opacity="0.6"/>')
    for tables in by_count(steps):
        parts.append(f'<text x="{x(tables):.1f}" y="{height - bottom + 14}" '
                     f'text-anchor="middle">{tables}</text>')
    points = " ".join(f"{x(tables):.1f},{y(median_p95(trials)):.1f}"
                      for tables, trials in sorted(by_count(steps).items()))
    parts.append(f'<polyline points="{points}" fill="none" stroke="#1d4ed8" '
                 'stroke-width="2"/>')
    for s in steps:
        parts.append(f'<circle cx="{x(s.tables):.1f}" cy="{y(s.save_p95_ms):.1f}" r="3" '
                     'fill="#1d4ed8"/>')
    for tick in range(0, int(y_max) + 1, max(50, int(y_max / 5) // 50 * 50)):
        parts.append(f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">'
                     f'{tick}</text>')
    parts += [f'<text x="{left + plot_w / 2}" y="{height - 6}" text-anchor="middle">'
              'tables</text>',
              f'<text x="14" y="{top + plot_h / 2}" transform="rotate(-90 14 '
              f'{top + plot_h / 2})" text-anchor="middle" fill="#1d4ed8">save/submit p95 ms'
              '</text>',
              f'<text x="{width - 14}" y="{top + plot_h / 2}" transform="rotate(90 '
              f'{width - 14} {top + plot_h / 2})" text-anchor="middle" fill="#dc2626">'
              f'errors (bars, max {e_max})</text>',
              '</svg>']
    return "\n".join(parts) + "\n"
