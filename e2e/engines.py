"""The browser engines other than Chromium, driven through WebDriver: WebKit (WebKitGTK's
WebKitWebDriver and its MiniBrowser, through Selenium, on a virtual X display) and
Firefox ESR (its own WebDriver BiDi: no geckodriver, which Debian does not package).

Each engine is the one Debian installs (`.ci/run` installs them); nothing is downloaded
when a test runs: Selenium is given the driver's path, so its selenium-manager never
looks for one. A missing engine skips its tests with the reason.

Both drivers offer the few verbs the table's round needs (open, click, read, wait, run a
script); a click is a real pointer click on the element's middle, as a finger's."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER = [Path("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"),
               Path("/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser")]
FIREFOX = "firefox-esr"
WAIT_SECONDS = 30


class EngineMissing(Exception):
    """The engine is not installed here: its tests skip with this reason."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Driver:
    """The verbs the tests use; `run` evaluates a JavaScript expression in the page."""

    name = ""

    def open(self, url: str) -> None:
        raise NotImplementedError

    def run(self, expression: str):
        raise NotImplementedError

    def click(self, css: str) -> None:
        raise NotImplementedError

    def quit(self) -> None:
        raise NotImplementedError

    def wait(self, expression: str, what: str, seconds: float = WAIT_SECONDS):
        """Waits until `expression` is truthy in the page; fails saying `what` was awaited
        and what the page showed."""
        end = time.monotonic() + seconds
        while True:
            try:
                value = self.run(expression)
            except Exception:  # a page between two loads answers nothing for a moment
                value = None
            if value:
                return value
            if time.monotonic() > end:
                shown = self.run("document.body ? document.body.innerText.slice(0, 1500) : ''")
                raise AssertionError(f"{self.name}: waited {seconds} s for {what}; "
                                     f"the page shows:\n{shown}")
            time.sleep(0.2)

    def wait_text(self, css: str, text: str, seconds: float = WAIT_SECONDS) -> None:
        self.wait(f"(function () {{ var e = document.querySelector({json.dumps(css)});"
                  f" return e && e.textContent.indexOf({json.dumps(text)}) !== -1; }})()",
                  f"{text!r} in {css}", seconds)

    def wait_shown(self, css: str) -> None:
        self.wait(f"(function () {{ var e = document.querySelector({json.dumps(css)});"
                  " return e && e.getClientRects().length > 0 &&"
                  " getComputedStyle(e).visibility !== 'hidden'; })()", f"{css} shown")

    def tap(self, css: str) -> None:
        """Waits for `css` to be shown, brings it into view, and clicks it. A page the
        poll re-drew between the scroll and the click (the target moved out of view) is
        scrolled again, as a finger aims again."""
        self.wait_shown(css)
        for attempt in range(3):
            self.run(f"document.querySelector({json.dumps(css)})"
                     ".scrollIntoView({block: 'center'})")
            try:
                self.click(css)
                return
            except RuntimeError as error:
                if "out of bounds" not in str(error) or attempt == 2:
                    raise
                time.sleep(0.2)


def start_display() -> tuple[subprocess.Popen, str]:
    """An Xvfb display of its own (WebKitGTK draws on X even when nobody looks)."""
    if not shutil.which("Xvfb"):
        raise EngineMissing("Xvfb is not installed (apt-get install xvfb)")
    read, write = os.pipe()
    process = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1024x900x24", "-nolisten", "tcp"],
        pass_fds=[write], stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as numbers:
        display = numbers.readline().strip()
    if not display:
        process.kill()
        raise EngineMissing("Xvfb did not start")
    return process, ":" + display


class WebKit(Driver):
    name = "WebKit"

    def __init__(self, width: int, height: int):
        browser = next((path for path in MINIBROWSER if path.exists()), None)
        if not os.path.exists(WEBKIT_DRIVER) or browser is None:
            raise EngineMissing("WebKitGTK's WebDriver is not installed "
                                "(apt-get install webkit2gtk-driver)")
        from selenium import webdriver
        from selenium.webdriver.common.by import By
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        self.by = By
        self.xvfb, display = start_display()
        options = Options()
        options.binary_location = str(browser)
        options.add_argument("--automation")
        service = Service(executable_path=WEBKIT_DRIVER, env={**os.environ, "DISPLAY": display})
        try:
            self.driver = webdriver.WebKitGTK(options=options, service=service)
        except Exception:
            self.xvfb.kill()
            raise
        self.driver.set_window_size(width, height)

    def open(self, url: str) -> None:
        self.driver.get(url)

    def run(self, expression: str):
        return self.driver.execute_script(f"return {expression};")

    def click(self, css: str) -> None:
        self.driver.find_element(self.by.CSS_SELECTOR, css).click()

    def quit(self) -> None:
        try:
            self.driver.quit()
        finally:
            self.xvfb.kill()
            self.xvfb.wait()


class Firefox(Driver):
    """Firefox ESR through WebDriver BiDi, which it serves itself: a websocket of JSON
    commands (https://w3c.github.io/webdriver-bidi/)."""

    name = "Firefox ESR"

    def __init__(self, width: int, height: int):
        binary = shutil.which(FIREFOX)
        if not binary:
            raise EngineMissing("Firefox ESR is not installed (apt-get install firefox-esr)")
        import websocket

        self.profile = tempfile.mkdtemp(prefix="mahjtable-firefox-")
        port = free_port()
        self.process = subprocess.Popen(
            [binary, "--headless", "--no-remote", "--profile", self.profile,
             f"--remote-debugging-port={port}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.socket = None
        end = time.monotonic() + 60
        while self.socket is None:
            try:
                # Firefox refuses a handshake that names an Origin (a web page's)
                self.socket = websocket.create_connection(
                    f"ws://127.0.0.1:{port}/session", timeout=WAIT_SECONDS,
                    suppress_origin=True)
            except OSError:
                if time.monotonic() > end or self.process.poll() is not None:
                    self.quit()
                    raise
                time.sleep(0.2)
            except websocket.WebSocketException:
                if time.monotonic() > end:
                    self.quit()
                    raise
                time.sleep(0.2)
        self.last = 0
        self.call("session.new", capabilities={})
        self.context = self.call("browsingContext.getTree")["contexts"][0]["context"]
        self.call("browsingContext.setViewport", context=self.context,
                  viewport={"width": width, "height": height})

    def call(self, method: str, **params) -> dict:
        self.last += 1
        self.socket.send(json.dumps({"id": self.last, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") != self.last:
                continue  # an event: none is subscribed to, but be safe
            if message.get("type") == "error":
                raise RuntimeError(f"{method}: {message.get('error')}: "
                                   f"{message.get('message')}")
            return message["result"]

    def evaluate(self, expression: str) -> dict:
        result = self.call("script.evaluate", expression=expression, awaitPromise=False,
                           target={"context": self.context})
        if result["type"] == "exception":
            raise RuntimeError(result["exceptionDetails"].get("text"))
        return result["result"]

    def open(self, url: str) -> None:
        self.call("browsingContext.navigate", context=self.context, url=url, wait="complete")

    def run(self, expression: str):
        value = self.evaluate(expression)
        return value.get("value") if value["type"] in (
            "string", "number", "boolean") else value["type"] not in ("null", "undefined")

    def click(self, css: str) -> None:
        node = self.evaluate(f"document.querySelector({json.dumps(css)})")
        if node["type"] != "node":
            raise AssertionError(f"{self.name}: no {css} to click")
        self.call("input.performActions", context=self.context, actions=[{
            "type": "pointer", "id": "finger", "parameters": {"pointerType": "mouse"},
            "actions": [
                {"type": "pointerMove", "x": 0, "y": 0,
                 "origin": {"type": "element", "element": {"sharedId": node["sharedId"]}}},
                {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]}])

    def quit(self) -> None:
        try:
            if self.socket is not None:
                with contextlib.suppress(Exception):  # a browser already gone
                    self.call("session.end")
                self.socket.close()
        finally:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
            shutil.rmtree(self.profile, ignore_errors=True)


ENGINES = {"webkit": WebKit, "firefox": Firefox}
