"""The benchmark's floor: a bare Flask endpoint, served by the same gunicorn config as the
app, so every endpoint's throughput can be read as a share of what the stack itself can do."""

from flask import Flask

app = Flask(__name__)


@app.get("/")
def floor():
    return "ok"
