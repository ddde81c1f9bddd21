# Two commands from a fresh clone:  make run   /   make test
# They install the versions CI passed with (CONSTRAINTS, `make constraints` writes
# it); `make test CONSTRAINTS=` installs the newest that pyproject.toml allows.
# The suite runs on JOBS workers (pytest-xdist; JOBS=0: one process) in a
# random order, its seed printed after the results (replay it with
# PYTEST_ARGS=--randomly-seed=N; PYTEST_ARGS="-p no:randomly": file order).
PYTHON      ?= python3
VENV        := .venv
BIN         := $(VENV)/bin
CONSTRAINTS ?= .ci/constraints.txt
JOBS        ?= auto
STAMP       := $(VENV)/.installed$(if $(CONSTRAINTS),-pinned,-newest)
PINS        := $(if $(CONSTRAINTS),-c $(CONSTRAINTS),--upgrade --upgrade-strategy eager)

.PHONY: run test lint bench screenshots constraints clean

$(STAMP): pyproject.toml $(CONSTRAINTS)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet $(PINS) -e '.[test]'
	rm -f $(VENV)/.installed*
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m perceptron_gui $(ARGS)

# Python caches compiled modules (__pycache__) even where the environment says not
# to (PYTHONDONTWRITEBYTECODE): without it every test process and every app the tests
# start compiles the whole package from source again.
PY_ENV      := env -u PYTHONDONTWRITEBYTECODE QT_QPA_PLATFORM=offscreen

# A worker that runs out of tests takes over half of another's queue (worksteal).
# Tests marked `serial` (timing-sensitive) run alone after the parallel part;
# pytest's exit 5 (nothing selected, as when PYTEST_ARGS names one file) is no failure.
test: $(STAMP)
	$(PY_ENV) $(BIN)/python -m pytest -q -n $(JOBS) --dist worksteal -m "not serial" \
		$(PYTEST_ARGS) || test $$? -eq 5
	$(PY_ENV) $(BIN)/python -m pytest -q -p no:xdist -m serial \
		$(PYTEST_ARGS) || test $$? -eq 5

lint: $(STAMP)
	$(BIN)/ruff check perceptron_gui tests

bench: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python tests/benchmarks/run_all.py

screenshots: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m perceptron_gui.ui.screenshots tests/ui/_screenshots
	cp tests/ui/_screenshots/mid_run.png resources/screenshot.png

# After `make test CONSTRAINTS=` passed: pin what it installed.
constraints: $(STAMP)
	$(BIN)/python .ci/freeze.py > .ci/constraints.txt.new
	mv .ci/constraints.txt.new .ci/constraints.txt

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
