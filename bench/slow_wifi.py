"""The table page's first visit on slow venue Wi-Fi: Chromium at phone size, its network
held to 400 ms latency and 400 kbit/s each way (Chrome DevTools' own emulation), against
the app under gunicorn with gunicorn.conf.py on a fresh SQLite database.

    python -m bench.slow_wifi [--root DIR] [--screenshots DIR]

--root runs another checkout of the app (to compare a branch with main); --screenshots
keeps phone-size pictures of the table page and the director's console. Prints the load
time (navigation to the load event), the requests and the bytes on the wire."""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

LATENCY_MS, KBPS = 400, 400
PHONE = {"width": 390, "height": 844}
SEED = """
import json, sys
from bench.flows import DIRECTOR, seed
s = seed(sys.argv[1], 4)
print(json.dumps({"code": s.code, "token": s.tables[1], "id": s.tournament_id,
                  "email": DIRECTOR[0], "password": DIRECTOR[1]}))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(root: Path, workdir: Path):
    database = f"sqlite:///{workdir / 'wifi.db'}"
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database, "SECRET_KEY": "slow-wifi",
           "BASE_URL": f"http://127.0.0.1:{port}", "PORT": str(port), "HOST": "127.0.0.1",
           "WEB_CONCURRENCY": "2", "PYTHONPATH": str(root)}
    subprocess.run([sys.executable, "-m", "flask", "--app", "app", "db", "upgrade"],
                   cwd=root, env=env, check=True, capture_output=True)
    seeded = json.loads(subprocess.run([sys.executable, "-c", SEED, database], cwd=root,
                                       env=env, check=True, capture_output=True,
                                       text=True).stdout.strip().splitlines()[-1])
    log = open(workdir / "gunicorn.log", "w")  # noqa: SIM115 (closed with the server)
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py",
                               "app:create_app()"], cwd=root, env=env, stdout=log,
                              stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(url + "/", timeout=2)
            break
        except OSError:
            time.sleep(0.2)
    return server, log, url, seeded


def first_visit(browser, url: str) -> dict:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": False})
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": LATENCY_MS,
        "downloadThroughput": KBPS * 1000 / 8, "uploadThroughput": KBPS * 1000 / 8})
    sizes: dict[str, int] = {}
    urls: dict[str, str] = {}
    cdp.on("Network.requestWillBeSent",
           lambda e: urls.__setitem__(e["requestId"], e["request"]["url"]))
    cdp.on("Network.loadingFinished",
           lambda e: sizes.__setitem__(e["requestId"], int(e["encodedDataLength"])))
    page.goto(url, wait_until="load")
    timing = page.evaluate("JSON.stringify(performance.getEntriesByType('navigation')[0])")
    load_ms = json.loads(timing)["loadEventEnd"] or json.loads(timing)["duration"]
    page.wait_for_timeout(300)  # the favicon is asked for after the load event
    requests = [(urls.get(rid, "?").split("?")[0].rsplit("/", 1)[-1], size)
                for rid, size in sizes.items()]
    return {"page": page, "context": context, "load_ms": round(load_ms),
            "requests": requests, "bytes": sum(size for _, size in requests)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--screenshots", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from e2e.conftest import CHROMIUM_FLAGS, chromium_executable

    with tempfile.TemporaryDirectory() as work:
        server, log, url, seeded = serve(args.root.resolve(), Path(work))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium_executable(),
                                            args=CHROMIUM_FLAGS)
                table_url = f"{url}/t/{seeded['code']}/1?k={seeded['token']}"
                runs = []
                for _ in range(args.runs):
                    visit = first_visit(browser, table_url)
                    runs.append(visit)
                    if args.screenshots and visit is runs[0]:
                        args.screenshots.mkdir(parents=True, exist_ok=True)
                        visit["page"].screenshot(
                            path=str(args.screenshots / "table-page.png"), full_page=True)
                    visit["context"].close()
                best = sorted(runs, key=lambda r: r["load_ms"])[len(runs) // 2]
                print(f"table page, first visit at {LATENCY_MS} ms / {KBPS} kbit/s, phone "
                      f"size: load {best['load_ms']} ms (median of {len(runs)}: "
                      f"{[r['load_ms'] for r in runs]}), {len(best['requests'])} requests, "
                      f"{best['bytes'] / 1024:.1f} KB on the wire")
                for name, size in best["requests"]:
                    print(f"  {size:>7} B  {name}")
                if args.screenshots:
                    context = browser.new_context(viewport=PHONE, device_scale_factor=2)
                    page = context.new_page()
                    page.goto(f"{url}/auth/sign-in")
                    page.fill("input[name=email]", seeded["email"])
                    page.fill("input[name=password]", seeded["password"])
                    page.click("button[type=submit], input[type=submit]")
                    page.wait_for_load_state()
                    page.goto(f"{url}/clock/director/{seeded['id']}")
                    page.screenshot(path=str(args.screenshots / "console.png"), full_page=True)
                    page.goto(f"{url}/director/t/{seeded['id']}")
                    page.screenshot(path=str(args.screenshots / "director.png"),
                                    full_page=True)
                    context.close()
                browser.close()
        finally:
            server.terminate()
            server.wait(10)
            log.close()


if __name__ == "__main__":
    main()
