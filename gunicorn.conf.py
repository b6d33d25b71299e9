"""gunicorn settings for `make run`, the Procfile and the benchmark.

Threads serve the many idle polls cheaply; several workers use both cores. Nothing is
kept in a worker between requests, so any number of workers (or hosts) is safe."""

import multiprocessing
import os

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", min(4, multiprocessing.cpu_count() * 2)))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
timeout = 30
graceful_timeout = 10
keepalive = 5
accesslog = os.environ.get("ACCESS_LOG") or None
# %(U)s is the path without its query string: table links carry their secret token in ?k=.
access_log_format = '%(h)s %(t)s "%(m)s %(U)s" %(s)s %(b)s %(M)sms'

errorlog = "-"
