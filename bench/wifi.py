"""A first visit over the venue's slow Wi-Fi: Chromium (through Playwright, as the end-to-end
tests drive it) with an empty cache and the network throttled by the DevTools protocol to a
round trip of --wifi-latency ms and --wifi-kbps kilobits per second each way. Reports the
time to the page's load event, its requests and the bytes on the wire (headers included,
compressed as the server sent them)."""

from __future__ import annotations

import os
import shutil
import statistics
import time

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
TARGET_S, TARGET_KB = 1.5, 30


def chromium() -> str | None:
    for candidate in (os.environ.get("CHROMIUM_PATH"), "/usr/bin/chromium",
                      shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None  # Playwright's own, if installed


async def first_visits(base: str, pages: dict[str, str], latency_ms: float, kbps: float,
                       runs: int = 3) -> list[str]:
    from playwright.async_api import async_playwright

    rows = [f"Chromium, empty cache, {latency_ms:.0f} ms round trip, {kbps:.0f} kbps each way "
            f"(DevTools network emulation); median of {runs} first visits. Target: the table "
            f"page loaded in < {TARGET_S} s, <= {TARGET_KB} KB.", "",
            "| page | load s (median) | min | max | requests | KB on the wire | what it loaded |",
            "|---|---:|---:|---:|---:|---:|---|"]
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=chromium(), args=FLAGS,
                                                   headless=True)
        try:
            for name, path in pages.items():
                times, sizes, names = [], [], []
                for _ in range(runs):
                    context = await browser.new_context()  # a fresh cache: a first visit
                    try:
                        page = await context.new_page()
                        cdp = await context.new_cdp_session(page)
                        await cdp.send("Network.enable")
                        await cdp.send("Network.emulateNetworkConditions", {
                            "offline": False, "latency": latency_ms,
                            "downloadThroughput": kbps * 1000 / 8,
                            "uploadThroughput": kbps * 1000 / 8})
                        wire, seen = [0], []
                        cdp.on("Network.loadingFinished",
                               lambda event, wire=wire: wire.__setitem__(
                                   0, wire[0] + event["encodedDataLength"]))
                        page.on("request", lambda request, seen=seen: seen.append(
                            request.url.split("?")[0].rsplit("/", 1)[-1] or "/"))
                        start = time.monotonic()
                        await page.goto(base + path, wait_until="load", timeout=60_000)
                        times.append(time.monotonic() - start)
                        sizes.append(wire[0])
                        names = seen
                    finally:
                        await context.close()
                rows.append(f"| {name} | {statistics.median(times):.2f} | {min(times):.2f} | "
                            f"{max(times):.2f} | {len(names)} | "
                            f"{statistics.median(sizes) / 1024:.1f} | {', '.join(names)} |")
        finally:
            await browser.close()
    return rows
