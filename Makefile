# Two commands from a fresh clone:  make run   /   make test
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench screenshots clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m perceptron_gui $(ARGS)

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check perceptron_gui tests

bench: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python tests/benchmarks/run_all.py

screenshots: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m perceptron_gui.ui.screenshots tests/ui/_screenshots
	cp tests/ui/_screenshots/mid_run.png resources/screenshot.png

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
