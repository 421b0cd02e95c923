# Two commands for a new user: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
CORPUS ?= ../shared/corpus

.PHONY: install run test lint conformance bench bench-2017 bench-web bench-event bench-burst loadtest clean

install: $(VENV)/.installed

$(VENV)/.installed: requirements.txt requirements-dev.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@

# The demo runs with DEBUG on (development server, a known key); production sets DEBUG=0.
run: export DEBUG = 1
run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

test: install
	$(BIN)/python -m pytest

# ruff; mypy --strict on the engine; the import contracts (all in pyproject.toml).
lint: install
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports

conformance: install
	$(BIN)/python -m tools.conformance --jobs 2 $(wildcard $(CORPUS)/dutch-2026) $(wildcard $(CORPUS)/dutch-2017) \
		$(wildcard $(CORPUS)/unpairable-2026) $(wildcard $(CORPUS)/unpairable-2017) \
		$(wildcard $(CORPUS)/clock) $(wildcard $(CORPUS)/clock/unpairable) \
		$(wildcard $(CORPUS)/double-swiss) $(wildcard $(CORPUS)/double-swiss/unpairable)

bench-2017: install
	nice -n 10 $(BIN)/python -m tools.bench_2017 --sizes 100,200,400

bench: install
	$(BIN)/python -m tools.bench $(CORPUS)/dutch-2026 --double-swiss 200 --synthetic 5000

bench-web: install
	$(BIN)/python tools/bench_upload.py --players 1000 5000

# A big event through the web app with production settings (issue 26): import, pair (job),
# publish, the round's results by form posts, finish, public pages, export; PostgreSQL at
# 127.0.0.1:5432, database BENCH_DATABASE_URL (dropped and made again).
PLAYERS ?= 1000
BENCH_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/swiss_bench
bench-event: install
	BENCH_DATABASE_URL=$(BENCH_DATABASE_URL) nice -n 10 $(BIN)/python -m tools.bench_event --players $(PLAYERS)

# A burst of 100 results in a minute with 20 spectators following the live stream (issue 26):
# how many times the standings and pages are computed; PostgreSQL database BENCH_DATABASE_URL
# (used as it is: tournaments are added).
bench-burst: install
	DATABASE_URL=$(BENCH_DATABASE_URL) nice -n 10 $(BIN)/python tools/bench_burst.py --players $(PLAYERS)

# Spectators of a 1000-player event at concurrency 10 and 50 (issue 16): PostgreSQL at
# 127.0.0.1:5432, wrk from Debian's packages, loopback only, about a minute.
loadtest: install
	command -v wrk >/dev/null || (apt-get update -qq && apt-get install -y -qq wrk >/dev/null)
	$(BIN)/python -m tools.loadtest --trf $(CORPUS)/dutch-2026/big_p1000_r09_s1001.trf

clean:
	rm -rf $(VENV) .pytest_cache db.sqlite3 staticfiles
