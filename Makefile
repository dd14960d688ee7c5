# Two commands (README): `make run` and `make test`. Both need nothing but Python 3.11+.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# What is installed, re-installed whenever pyproject.toml changes: `make run` installs what running needs
# and no more; `make test` (and `make install`, for developers) the test tools too.
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run test lint install bench-run

install: $(DEV_STAMP)

# The venv, with uv in it to install with (on a fresh machine it installs the demo's packages in a third of
# pip's time; `make bench-run` measures). The venv is made without pip, which takes seconds to set up and
# which uv does not need; where the machine's pip cannot fetch uv, the venv gets pip and pip installs.
$(BIN)/python:
	$(PYTHON) -m venv --without-pip $(VENV)
	$(PYTHON) -m pip --python $(BIN)/python install --quiet --disable-pip-version-check uv \
		|| $(BIN)/python -m ensurepip --default-pip

# $(call pip_install,REQUIREMENT): with the venv's uv where it has one, else with its pip.
pip_install = if test -x $(BIN)/uv; then $(BIN)/uv pip install --quiet --python $(BIN)/python $(1); \
	else $(BIN)/python -m pip install --quiet --disable-pip-version-check $(1); fi

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(call pip_install,-e .)
	touch $(RUN_STAMP)

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(call pip_install,-e '.[dev]')
	touch $(RUN_STAMP) $(DEV_STAMP)

# The demo: SQLite, turns processed in process; DEBUG so that runserver serves the admin's static files.
# `make run PORT=8001` serves on another port. The logins come last, where they are seen. Beside the
# server, what beat does every TICK seconds (`lifecycle_tick --every`): deadlines process their turns,
# reminders go out, with nothing else to start; it stops with the server (a background job of make's
# shell ignores Ctrl-C, hence the trap).
PORT ?= 8000
TICK ?= 60
# The reset as the console shows it, to copy: with the demo's settings, which `make run` gives its own
# commands (DEBUG: no DJANGO_SECRET_KEY needed), and nothing else to set (tests/campaign/test_make_run.py).
DEMO_RESET := DJANGO_DEBUG=true $(BIN)/python manage.py load_demo --reset
run: export DJANGO_DEBUG ?= true
run: $(RUN_STAMP)
	$(BIN)/python manage.py migrate --no-input -v 0
	$(BIN)/python manage.py load_demo
	@echo "Serving http://127.0.0.1:$(PORT)/ (admin: http://127.0.0.1:$(PORT)/admin/); Ctrl-C stops."
	@echo "Start the demo over (in another terminal, here): $(DEMO_RESET)"
	$(BIN)/python manage.py lifecycle_tick --every $(TICK) & ticker=$$!; \
	trap 'kill $$ticker 2>/dev/null' EXIT INT TERM; \
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# The layers first (.importlinter): a service that imports a page fails here, in seconds. Then the suite on
# every core (pytest-xdist, a test database each), but for the tests that own a queue or servers of their
# own: they run after it, alone. Both parts always run; either failing fails `make test`. Not one run with
# `--dist loadgroup`: its scheduler keys tests by node id, and schemathesis gives all of one test's
# operations the same id under pytest 9, so it would run one operation of each and drop the rest unsaid.
SERIAL := celery_worker or faults
test: $(DEV_STAMP)
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -n auto -m "not ($(SERIAL))"; parallel=$$?; \
	$(BIN)/python -m pytest -m "$(SERIAL)"; serial=$$?; \
	test $$parallel -eq 0 && test $$serial -eq 0

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# The first five minutes, timed: `make run` on a fresh clone of the last commit (no venv), until it answers.
bench-run:
	$(PYTHON) rules/bench/serve.py
