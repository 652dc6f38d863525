# Every target bootstraps .venv on its own, so a fresh clone needs nothing but Python 3.11+.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
comma := ,
EXTRAS ?= dev,web,rl,sim
STAMP := $(VENV)/.installed-$(subst $(comma),-,$(EXTRAS))

.PHONY: play test lint typecheck bench bench-quick clean venv

venv: $(STAMP)

$(STAMP): pyproject.toml
	@$(PY) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "dragonlair needs Python 3.11 or newer")'
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[$(EXTRAS)]'
	rm -f $(VENV)/.installed-*
	touch $@

play: $(STAMP)
	$(BIN)/dragonlair play

test: lint typecheck
	$(BIN)/pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests

typecheck: $(STAMP)
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/dragonlair bench

bench-quick: $(STAMP)
	$(BIN)/dragonlair bench --quick

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
