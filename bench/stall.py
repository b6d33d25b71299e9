"""Connections that send part of a request and then nothing, held open against a server:
what a phone on bad Wi-Fi does by accident and an attacker does on purpose (slowloris).

Half of them stop inside the request's headers, half after the headers of a POST whose
body they never finish. A connection the server closes is opened again at once, so the
pressure lasts as long as the `with` block, past every timeout the server has. Used by
the fault test (tests/fault/test_slow_clients.py) and the benchmark's measured step
(bench/__main__.py, --stall). Loopback only; bounded by the block it runs in."""

from __future__ import annotations

import selectors
import socket
import threading
import time

# The start of a GET that never reaches its blank line: the server has the request line
# and a header, and waits for the rest.
PARTIAL_HEADERS = (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow phone\r\n"
                   b"Accept: text/html\r\nX-Waiting: ")
# A whole header block announcing a body of 1,000 bytes, then ten of them.
PARTIAL_BODY = (b"POST /auth/sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/x-www-form-urlencoded\r\n"
                b"Content-Length: 1000\r\n\r\nemail=slow")


class HalfSent:
    """`headers` connections stuck in their headers and `bodies` stuck in their body,
    against 127.0.0.1:port, until the block ends. `reopened` counts the connections the
    server closed (and that were opened again)."""

    def __init__(self, port: int, headers: int = 200, bodies: int = 200,
                 host: str = "127.0.0.1"):
        self.address = (host, port)
        self.wanted = [PARTIAL_HEADERS] * headers + [PARTIAL_BODY] * bodies
        self.reopened = 0
        self.failed_opens = 0
        self._selector = selectors.DefaultSelector()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._hold, name="half-sent", daemon=True)

    def _open(self, data: bytes) -> None:
        try:
            connection = socket.create_connection(self.address, timeout=5)
            connection.sendall(data)
        except OSError:
            self.failed_opens += 1
            return
        connection.setblocking(False)
        self._selector.register(connection, selectors.EVENT_READ, data)

    def __enter__(self) -> HalfSent:
        for data in self.wanted:
            self._open(data)
        self._thread.start()
        return self

    def _hold(self) -> None:
        # A connection turns readable when the server answers (a 408, say) or closes it:
        # either way it no longer holds anything there, so a fresh one takes its place.
        while not self._stop.is_set():
            for key, _ in self._selector.select(timeout=0.2):
                connection = key.fileobj
                try:
                    answer = connection.recv(4096)
                except OSError:
                    answer = b""
                if answer and not self._stop.is_set():
                    continue  # part of an answer; the close follows
                self._selector.unregister(connection)
                connection.close()
                if not self._stop.is_set():
                    self.reopened += 1
                    self._open(key.data)
            if self.failed_opens:
                time.sleep(0.05)  # the server's queue is full: do not spin

    @property
    def held(self) -> int:
        return len(self._selector.get_map())

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(10)
        for key in list(self._selector.get_map().values()):
            key.fileobj.close()
        self._selector.close()
