# The two commands of the README: `make run` and `make test` (plus `make bench`).
# Everything is installed into .venv from the hashed lock files (requirements*.txt,
# compiled from requirements*.in by `make lock`).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
FLASK := $(VENV)/bin/flask --app app
PORT ?= 8000
# pytest-xdist workers. One more than the two cores of a small machine: the end-to-end
# and fault tests wait on a browser or a server part of the time, but a fourth worker (a
# fourth browser and server) cost more CPU than its waits gave back.
JOBS ?= 3
# The PostgreSQL leg runs no browser and its database server wants a core's share: two
# workers finished it in 1:14 where three took 1:41.
PG_JOBS ?= 2
PYTEST := $(PY) -m pytest -q
# xdist hands out one test at a time rather than a quarter of each worker's share at once:
# the long end-to-end and fault tests come first (tests/conftest.py) and would otherwise all
# go to the first worker.
XDIST := --maxschedchunk=1

.PHONY: run test test-fast test-pg test-e2e test-engines screenshots chromium python-ok bench lint \
	lock clean wheel exe

# Say plainly what is missing before `python -m venv` fails with a traceback.
python-ok:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || { \
		echo "MahjTable needs Python 3.11 or newer; '$(PYTHON)' is" \
		     "$$($(PYTHON) --version 2>/dev/null || echo 'not installed')." \
		     "Install one, or name it: make PYTHON=python3.12 ..." >&2; exit 1; }
	@test -x $(PY) || $(PYTHON) -c 'import venv, ensurepip' 2>/dev/null || { \
		echo "Python's venv module is missing, so .venv cannot be made." \
		     "On Debian or Ubuntu: apt-get install python3-venv (then run make again)." >&2; \
		exit 1; }

$(VENV)/.runtime: requirements.txt | python-ok
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --require-hashes -r requirements.txt
	touch $@

$(VENV)/.dev: requirements-dev.txt $(VENV)/.runtime
	$(PY) -m pip install -q --require-hashes -r requirements-dev.txt
	touch $@

# The phones talk to gunicorn directly, with no proxy in front: gunicorn.conf.py's gevent
# workers wait for each request to arrive whole before the app runs it, so a phone on bad
# Wi-Fi (or anyone) sending half a request holds up no other. HTTPS: add --certfile and
# --keyfile through GUNICORN_CMD_ARGS.
run: $(VENV)/.runtime
	$(FLASK) db upgrade
	PORT=$(PORT) $(FLASK) demo
	PORT=$(PORT) $(VENV)/bin/gunicorn -c gunicorn.conf.py "app:create_app()"

# The view, unit, fault and end-to-end tests on SQLite in one parallel run, then the view
# tests again on PostgreSQL when TEST_DATABASE_URL names one.
test: $(VENV)/.dev chromium
	$(PYTEST) -n $(JOBS) $(XDIST) tests/ e2e/
	@if [ -n "$$TEST_DATABASE_URL" ]; then $(MAKE) --no-print-directory test-pg; \
	else echo "== TEST_DATABASE_URL not set: PostgreSQL leg skipped"; fi

# Unit and view tests on SQLite, without the fault tests (which start servers): the quick
# loop while editing.
test-fast: $(VENV)/.dev
	$(PYTEST) -n 2 $(XDIST) -m "not fault" tests/

# The tests that touch the database, on the PostgreSQL named by TEST_DATABASE_URL (each
# xdist worker in its own schema). tournament/ is pure Python: a second database teaches
# it nothing.
test-pg: $(VENV)/.dev
	@test -n "$$TEST_DATABASE_URL" || { \
		echo "test-pg needs TEST_DATABASE_URL (e.g. postgresql+psycopg://u@host/db)" >&2; exit 1; }
	@echo "== tests/ on PostgreSQL ($$TEST_DATABASE_URL)"
	MAHJTABLE_TEST_BACKEND=postgres $(PYTEST) -n $(PG_JOBS) $(XDIST) --ignore=tests/tournament tests/

test-e2e: $(VENV)/.dev chromium
	$(PYTEST) -n $(JOBS) $(XDIST) e2e/

# The table's round in the other engines (WebKit, Firefox ESR) and in Chromium without the
# APIs newer than the browser floor: part of `make test`, here alone. WebKit and Firefox
# skip, saying so, until Debian's packages are installed:
# apt-get install webkit2gtk-driver xvfb firefox-esr (.ci/run does).
test-engines: $(VENV)/.dev chromium
	$(PYTEST) -n 2 $(XDIST) -rs e2e/test_other_engines.py e2e/test_older_apis.py

# The end-to-end tests, keeping a screenshot of each page they pass through in
# e2e/screenshots/ for people to look at, and the guides' pictures in docs/pictures/ (to
# commit). The other targets take none: no test needs them.
screenshots: $(VENV)/.dev chromium
	E2E_SCREENSHOTS=1 $(PYTEST) -n $(JOBS) $(XDIST) e2e/

# Finds a Chromium, or installs one (Playwright's, else the distribution's).
chromium: $(VENV)/.dev
	@$(PY) -m e2e.chromium

lint: $(VENV)/.dev
	$(VENV)/bin/ruff check .

bench: $(VENV)/.dev
	$(PY) -m bench $(BENCH_ARGS)

# Recompile the lock files after editing requirements*.in; versions already locked stay
# unless UPGRADE=1. pip-tools lives in its own venv so that it never enters the locks.
lock:
	test -x $(VENV)/lock-tools/bin/pip-compile || { $(PYTHON) -m venv $(VENV)/lock-tools \
		&& $(VENV)/lock-tools/bin/pip install -q pip-tools==7.6.2; }
	for name in requirements requirements-dev; do \
		$(VENV)/lock-tools/bin/pip-compile -q --generate-hashes --strip-extras \
			--no-emit-index-url --no-emit-find-links $(if $(UPGRADE),--upgrade) \
			--output-file $$name.txt $$name.in || exit 1; \
	done

# The wheel: `pip install dist/mahjtable-*.whl` gives the `mahjtable` command (launcher.py).
wheel: $(VENV)/.runtime
	$(PY) -m pip wheel -q --no-deps -w dist .
	rm -rf build/lib build/bdist.* *.egg-info

# The one-file `mahjtable` for a director's laptop, for the system it is built on:
# dist/mahjtable (dist/mahjtable.exe on Windows). docs/director-guide.md, "Your own laptop".
exe: $(VENV)/.dev
	$(PY) -m PyInstaller --noconfirm --clean --log-level WARN --distpath dist \
		--workpath build/pyinstaller tools/mahjtable.spec

clean:
	rm -rf $(VENV) .pytest_cache build dist
