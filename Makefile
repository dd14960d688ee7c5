# Two commands (README): `make run` and `make test`. Both need nothing but Python 3.11+.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Re-install whenever pyproject.toml changes.
STAMP := $(VENV)/.installed-stamp

.PHONY: run test lint install

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

# The demo: SQLite, turns processed in process; DEBUG so that runserver serves the admin's static files.
# `make run PORT=8001` serves on another port. The logins come last, where they are seen.
PORT ?= 8000
run: export DJANGO_DEBUG ?= true
run: $(STAMP)
	$(BIN)/python manage.py migrate --no-input -v 0
	$(BIN)/python manage.py load_demo
	@echo "Serving http://127.0.0.1:$(PORT)/ (admin: http://127.0.0.1:$(PORT)/admin/); Ctrl-C stops."
	@echo "Start the demo over: $(BIN)/python manage.py load_demo --reset"
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# The layers first (.importlinter): a service that imports a page fails here, in seconds. Then the suite on
# every core (pytest-xdist, a test database each), but for the tests that own a queue or servers of their
# own: they run after it, alone. Both parts always run; either failing fails `make test`. Not one run with
# `--dist loadgroup`: its scheduler keys tests by node id, and schemathesis gives all of one test's
# operations the same id under pytest 9, so it would run one operation of each and drop the rest unsaid.
SERIAL := celery_worker or faults
test: $(STAMP)
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -n auto -m "not ($(SERIAL))"; parallel=$$?; \
	$(BIN)/python -m pytest -m "$(SERIAL)"; serial=$$?; \
	test $$parallel -eq 0 && test $$serial -eq 0

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
