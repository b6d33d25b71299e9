# The two commands of the README: `make run` and `make test` (plus `make bench`).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
FLASK := $(VENV)/bin/flask --app app
PORT ?= 8000

.PHONY: run test test-unit test-pg test-e2e bench lint clean

$(VENV)/.runtime: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt
	touch $@

$(VENV)/.dev: requirements-dev.txt requirements.txt $(VENV)/.runtime
	$(PY) -m pip install -q -r requirements-dev.txt
	touch $@

run: $(VENV)/.runtime
	$(FLASK) db upgrade
	PORT=$(PORT) $(FLASK) demo
	PORT=$(PORT) $(VENV)/bin/gunicorn -c gunicorn.conf.py "app:create_app()"

test: $(VENV)/.dev
	$(PY) -m pytest tests/ -q
	@if [ -n "$$TEST_DATABASE_URL" ]; then \
		echo "== tests/ again on PostgreSQL ($$TEST_DATABASE_URL)"; \
		MAHJTABLE_TEST_BACKEND=postgres $(PY) -m pytest tests/ -q; \
	else echo "== TEST_DATABASE_URL not set: PostgreSQL leg skipped"; fi
	$(PY) -m pytest e2e/ -q

lint: $(VENV)/.dev
	$(VENV)/bin/ruff check .

bench: $(VENV)/.dev
	$(PY) -m bench $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache
