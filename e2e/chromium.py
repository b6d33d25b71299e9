"""Find the Chromium the end-to-end tests drive, and install one when there is none.

`python -m e2e.chromium` (run by `make test` and `make test-e2e` before the tests) prints
the Chromium it found, or installs Playwright's own (`python -m playwright install
chromium`) and, where that download is unreachable, the distribution's package through
apt-get when this machine has apt-get and may use it. It exits non-zero, saying what to
install, only when all of that fails: the tests themselves never skip for want of a
browser."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from e2e.conftest import chromium_executable


def playwright_chromium() -> str | None:
    """Playwright's own downloaded Chromium, when `playwright install` has put it there."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        path = playwright.chromium.executable_path
    return path if path and os.path.exists(path) else None


def found() -> str | None:
    return chromium_executable() or playwright_chromium()


def run(command: list[str]) -> bool:
    print("==", " ".join(command), flush=True)
    try:
        return subprocess.run(command, timeout=900).returncode == 0
    except (OSError, subprocess.TimeoutExpired) as error:
        print(f"   failed: {error}", flush=True)
        return False


def install_with_apt() -> bool:
    apt = shutil.which("apt-get")
    if not apt:
        return False
    prefix = [] if os.geteuid() == 0 else ["sudo", "-n"]
    if prefix and not shutil.which("sudo"):
        return False
    env_prefix = [*prefix, "env", "DEBIAN_FRONTEND=noninteractive"]
    return (run([*env_prefix, apt, "update", "-qq"])
            and run([*env_prefix, apt, "install", "-y", "-qq", "chromium"]))


def main() -> int:
    path = found()
    if path:
        print(f"Chromium for the end-to-end tests: {path}")
        return 0
    print("No Chromium found for the end-to-end tests: installing one.", flush=True)
    if run([sys.executable, "-m", "playwright", "install", "chromium"]) and found():
        return 0
    print("Playwright's download did not work; trying the distribution's chromium.",
          flush=True)
    if install_with_apt() and found():
        return 0
    print("Could not install a Chromium. Install one and run `make test` again: Debian "
          "and Ubuntu `apt-get install chromium`, or set CHROMIUM_PATH to a Chromium or "
          "Chrome, or run `.venv/bin/python -m playwright install chromium` where its "
          "download is reachable.", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
