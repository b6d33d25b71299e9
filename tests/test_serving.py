"""serving.ReadWhole, what gunicorn's gevent workers put around the app: the body read
whole within a deadline before the app runs, then one request in the app at a time."""

from __future__ import annotations

import io

import gevent

from serving import ReadWhole


class Recorder:
    """A WSGI app that notes the body it was given and how many requests were in it."""

    def __init__(self, pause: float = 0.0):
        self.bodies: list[bytes] = []
        self.inside = self.most_inside = 0
        self.pause = pause

    def __call__(self, environ, start_response):
        self.inside += 1
        self.most_inside = max(self.most_inside, self.inside)
        try:
            if self.pause:
                gevent.sleep(self.pause)  # a wait on PostgreSQL, say
            length = int(environ.get("CONTENT_LENGTH") or 0)
            self.bodies.append(environ["wsgi.input"].read(length) if length else b"")
        finally:
            self.inside -= 1
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]


class Trickle(io.RawIOBase):
    """A socket's body stream: `data`, then nothing ever again (a phone gone quiet)."""

    def __init__(self, data: bytes):
        self.data = data

    def read(self, size=-1):
        if self.data:
            chunk, self.data = self.data[:10], self.data[10:]
            return chunk
        gevent.sleep(3600)
        return b""


def call(app, body=b"", environ=None):
    seen = {}

    def start_response(status, headers):
        seen["status"], seen["headers"] = status, dict(headers)

    environ = {"REQUEST_METHOD": "POST", "CONTENT_LENGTH": str(len(body)),
               "wsgi.input": io.BytesIO(body), **(environ or {})}
    seen["body"] = b"".join(app(environ, start_response))
    return seen


def test_the_app_gets_the_whole_body_from_memory():
    inner = Recorder()
    answer = call(ReadWhole(inner, limit=1000), b"email=a%40b.example&password=x")
    assert answer["status"] == "200 OK"
    assert inner.bodies == [b"email=a%40b.example&password=x"]


def test_a_chunked_body_is_read_to_its_end_and_its_length_given():
    inner = Recorder()
    call(ReadWhole(inner, limit=1000), environ={
        "CONTENT_LENGTH": "", "HTTP_TRANSFER_ENCODING": "chunked",
        "wsgi.input": io.BytesIO(b"reason=ruling")})
    assert inner.bodies == [b"reason=ruling"]


def test_a_body_that_stops_halfway_gets_a_408_and_never_reaches_the_app():
    inner = Recorder()
    wrapped = ReadWhole(inner, limit=1000, seconds=0.2)
    answer = call(wrapped, environ={"CONTENT_LENGTH": "1000",
                                    "wsgi.input": Trickle(b"email=slow")})
    assert answer["status"].startswith("408")
    assert answer["headers"]["Connection"] == "close"
    assert inner.bodies == []


def test_a_chunked_body_over_the_limit_gets_a_413_without_the_app():
    inner = Recorder()
    answer = call(ReadWhole(inner, limit=10), environ={
        "CONTENT_LENGTH": "", "HTTP_TRANSFER_ENCODING": "chunked",
        "wsgi.input": io.BytesIO(b"x" * 11)})
    assert answer["status"].startswith("413")
    assert inner.bodies == []


def test_a_body_declared_over_the_limit_is_left_for_the_app_to_refuse():
    # Flask answers 413 from the Content-Length alone, without reading the body.
    class Unread(io.RawIOBase):
        def read(self, size=-1):
            raise AssertionError("read a body declared too large")

    called = []

    def app(environ, start_response):
        called.append(environ["CONTENT_LENGTH"])
        start_response("413 Request Entity Too Large", [])
        return [b""]

    answer = call(ReadWhole(app, limit=10), environ={"CONTENT_LENGTH": "11",
                                                     "wsgi.input": Unread()})
    assert answer["status"].startswith("413") and called == ["11"]


def test_one_request_in_the_app_at_a_time():
    inner = Recorder(pause=0.05)
    wrapped = ReadWhole(inner, limit=1000)
    greenlets = [gevent.spawn(call, wrapped, b"n=%d" % n) for n in range(5)]
    gevent.joinall(greenlets, raise_error=True)
    assert sorted(inner.bodies) == [b"n=%d" % n for n in range(5)]
    assert inner.most_inside == 1


def test_gunicorns_gevent_workers_wrap_the_app_and_others_do_not(monkeypatch):
    import gc
    import runpy
    from pathlib import Path

    from flask import Flask
    from gunicorn.workers.ggevent import GeventWorker
    from gunicorn.workers.sync import SyncWorker

    hook = runpy.run_path(str(Path(__file__).resolve().parent.parent / "gunicorn.conf.py"))[
        "post_worker_init"]
    monkeypatch.setattr(gc, "freeze", lambda: None)  # not done to this process
    app = Flask("bare")
    app.config["MAX_CONTENT_LENGTH"] = 1234
    for kind, wrapped in ((GeventWorker, True), (SyncWorker, False)):
        worker = kind.__new__(kind)  # the hook reads only .wsgi
        worker.wsgi = app
        hook(worker)
        assert isinstance(worker.wsgi, ReadWhole) is wrapped
        if wrapped:
            assert worker.wsgi.app is app and worker.wsgi.limit == 1234


def test_every_connection_is_closed_after_its_answer():
    # No kept-alive connection for a phone's next request to race the server's close on.
    import runpy
    from pathlib import Path
    from types import SimpleNamespace

    hook = runpy.run_path(str(Path(__file__).resolve().parent.parent / "gunicorn.conf.py"))[
        "pre_request"]
    request = SimpleNamespace(must_close=False)
    hook(None, request)
    assert request.must_close


def test_waitress_keeps_its_queue_depth_warnings_out_of_the_directors_window(monkeypatch):
    """A request waiting for a free thread is routine at a round's end; waitress's
    warning for each would fill the console the director watches."""
    import gc
    import logging

    from serving import waitress_server

    monkeypatch.setattr(gc, "freeze", lambda: None)  # not this test process's objects
    queue = logging.getLogger("waitress.queue")
    monkeypatch.setattr(queue, "level", logging.NOTSET)
    server = waitress_server(lambda environ, start_response: [], "127.0.0.1", 0)
    try:
        assert not queue.isEnabledFor(logging.WARNING)
        assert queue.isEnabledFor(logging.ERROR)
    finally:
        server.close()
