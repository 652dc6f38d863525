# Every target bootstraps .venv on its own, so a fresh clone needs nothing but Python 3.11+.
# pip installs with --no-compile: byte-compiling every installed module (most of them never
# imported) took 35 of a venv's 50 s of CPU; Python compiles what is imported when it is.
PY ?= python3

# Bytecode is cached, whatever the environment says: with PYTHONDONTWRITEBYTECODE set (as it
# is on the CI machines) and the venv installed with --no-compile, every Python process
# compiled every module it imported from source again, and a suite starts hundreds of them
# (xdist workers, each browser test's server, the terminal in a pseudo-terminal, the bots'
# worker processes, Ray's): importing the server, JAX, pandas, Textual and Playwright cost
# 8.8 to 9.2 s of CPU each time that way, 4.4 s with the cache (docs/benchmarks/2026-12-04-suite.md).
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
BIN := $(VENV)/bin
comma := ,
EXTRAS ?= dev,web,rl,sim,train,accel
STAMP := $(VENV)/.installed-$(subst $(comma),-,$(EXTRAS))

# The compiled build (mypyc, see setup.py) in a venv of its own, installed from this tree
# and rebuilt when a source file changes; `make test` runs the fast tier in it too.
CVENV := .venv-compiled
CBIN := $(CVENV)/bin
CSTAMP := $(CVENV)/.installed-$(subst $(comma),-,$(EXTRAS))
SOURCES := $(shell find src -name '*.py') setup.py build_backend/dragonlair_build.py

# The browser tests drive Debian's Chromium (Playwright's own browser download does not
# work on these machines); `make test` installs it with apt-get when it is missing.
CHROMIUM ?= /usr/bin/chromium
PORT ?= 8000

.PHONY: play test check services check-compiled compiled lint typecheck bench bench-quick differential clean venv chromium catalogs

venv: $(STAMP)

$(STAMP): pyproject.toml
	@$(PY) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "dragonlair needs Python 3.11 or newer")'
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q --no-compile -e '.[$(EXTRAS)]'
	rm -f $(VENV)/.installed-*
	touch $@ $(PLAY_STAMP)

# What playing needs, and no more: the base install and the server (the `web` extra), not
# the research, designer and developer tools. A full install (above) includes it, so after
# `make test` the first `make play` installs nothing; after a `make play`, `make test` adds
# the rest to the same .venv.
PLAY_STAMP := $(VENV)/.installed-play

$(PLAY_STAMP): pyproject.toml
	@$(PY) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "dragonlair needs Python 3.11 or newer")'
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q --no-compile -e '.[web]'
	touch $@

# mypyc's C goes to build/ and its type-check cache to build/mypyc-cache, apart from the
# development cache of `make typecheck`. Without build isolation the build uses the venv's
# own packages, so what a compiling build requires (build_backend/dragonlair_build.py:
# mypy, and NumPy, which the compiled observation layouts import) is installed first.
compiled: $(CSTAMP)

$(CSTAMP): pyproject.toml $(SOURCES)
	@$(PY) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "dragonlair needs Python 3.11 or newer")'
	test -x $(CBIN)/python || $(PY) -m venv $(CVENV)
	$(CBIN)/python -m pip install -q --upgrade pip setuptools mypy 'numpy>=1.26'
	DRAGONLAIR_COMPILE=1 MYPY_CACHE_DIR=build/mypyc-cache \
	  $(CBIN)/python -m pip install -q --no-compile --no-build-isolation '.[$(EXTRAS)]'
	rm -f $(CVENV)/.installed-*
	touch $@

# The server with its browser front end, on this machine only; PORT if free, else any free
# port. The terminal game is `.venv/bin/dragonlair play`.
play: $(PLAY_STAMP)
	@port=$$($(BIN)/python scripts/free_port.py $(PORT)) || exit 1; \
	echo; echo "  dragonlair is at  http://127.0.0.1:$$port/   (open it in your browser; Ctrl+C stops it)"; echo; \
	exec $(BIN)/dragonlair serve --host 127.0.0.1 --port $$port --log-level warning

# $(call apt_need,PATH,PACKAGES,WHAT): when PATH is empty or not executable, install
# Debian's PACKAGES with apt-get (as root), else warn that WHAT will be skipped.
define apt_need
if [ -z "$(1)" ] || [ ! -x "$(1)" ]; then \
  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
    echo "installing Debian's $(2) for $(3)"; \
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(2) >/dev/null; \
  else \
    echo "warning: $(2) is missing and this user cannot apt-get it; $(3) will be skipped" >&2; \
  fi; \
fi
endef

chromium:
	@$(call apt_need,$(CHROMIUM),chromium fonts-noto-color-emoji,the browser tests)

# The server's tests start a throw-away PostgreSQL cluster (initdb, pg_ctl) and the hosting
# tests Debian's nginx on loopback ports; `make test` installs both when they are missing.
PG_INITDB := $(firstword $(shell command -v initdb 2>/dev/null) $(wildcard /usr/lib/postgresql/*/bin/initdb))
NGINX_BIN := $(firstword $(shell command -v nginx 2>/dev/null) $(wildcard /usr/sbin/nginx))
services:
	@$(call apt_need,$(PG_INITDB),postgresql,the server's tests on PostgreSQL)
	@$(call apt_need,$(NGINX_BIN),nginx,the hosting tests behind nginx)

# Everything, in both builds: lint and types, then the whole suite in the pure build (the
# fast tier and the end-to-end tests marked slow: the browser, the terminal in a
# pseudo-terminal, the server on PostgreSQL, long simulations), spread over the machine's
# cores with pytest-xdist a file at a time (a file's servers start once; the simulation
# tests' pools of workers start from a fork server inside an xdist worker, which runs
# threads), in collection order with the files holding end-to-end tests first
# (tests/conftest.py; xdist's own order, the files with the most tests first, left the long
# single tests to the end, one worker idle behind them), while the compiled build is made
# in the background at a lower priority from the start; then the fast tier again in the
# compiled build, in the folders that run compiled code (check-compiled, below). If lint
# or types fail, the build is stopped (every process of it); if the build fails, the end of
# its log is shown. The 10,000-game differential of the batched engine is `make
# differential`, not part of this.
COMPILED_LOG := build/compiled.log
# One worker more than the cores: the end-to-end tests spend much of their time waiting for
# servers, Chromium and clocks (two workers on two cores left them idle a third of the
# time), and a third worker fills that (docs/benchmarks/2026-12-05-suite.md).
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
test: $(STAMP) chromium services
	@mkdir -p build; \
	echo "building the compiled build in the background (log: $(COMPILED_LOG))"; \
	nice -n 10 $(MAKE) --no-print-directory compiled >$(COMPILED_LOG) 2>&1 & build=$$!; \
	tree() { echo $$1; for c in $$(pgrep -P $$1); do tree $$c; done; }; \
	start=$$(date +%s); \
	if ! $(MAKE) --no-print-directory lint typecheck; then \
	  kill $$(tree $$build) 2>/dev/null; wait $$build; \
	  echo "lint or types failed; the compiled build was stopped" >&2; exit 1; \
	fi; \
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=20; pure=$$?; \
	echo "lint, types and the whole suite took $$(( $$(date +%s) - start )) s; waiting for the compiled build"; \
	if ! wait $$build; then \
	  echo "the compiled build failed; the end of $(COMPILED_LOG):" >&2; \
	  tail -n 40 $(COMPILED_LOG) >&2; exit 1; \
	fi; \
	echo "the compiled build was ready $$(( $$(date +%s) - start )) s after the start"; \
	$(MAKE) --no-print-directory check-compiled || exit 1; \
	echo "make test took $$(( $$(date +%s) - start )) s after making .venv"; \
	exit $$pure

# The fast tier, for every change: lint, types and the tests not marked slow, spread over
# the machine's cores with pytest-xdist.
check: lint typecheck
	$(BIN)/pytest -m "not slow" -q -n auto

# The fast tier again in the compiled build (the tests of this tree, the package from the
# compiled venv's site-packages), in the folders whose tests run the compiled modules
# themselves (setup.py lists them): the core and the four games (rules, views, clones,
# pickling, the conformance suite), the bots (heuristics, typed views, search), the RL
# layouts and vector environments, the batched engines held to the compiled one, and the
# simulations (states crossing to worker processes). The server, the terminal game and the
# translations (tests/web, tests/tui, tests/i18n) are left to the pure build: they are
# interpreted, and reach the compiled modules only through the calls those folders test.
# Tracebacks are Python's own: pytest's re-reads the source of each frame, and for a
# compiled frame that once crashed a worker on CPython 3.11.
COMPILED_TESTS := tests/core tests/space_dragons tests/space_race tests/dragon_stripes \
  tests/dragon_race tests/bots tests/rl tests/accel tests/sim
check-compiled: $(CSTAMP)
	DRAGONLAIR_EXPECT_COMPILED=1 $(CBIN)/pytest -m "not slow" -q -n auto --tb=native $(COMPILED_TESTS)

lint: $(STAMP)
	$(BIN)/ruff check src tests examples/high_card
	$(BIN)/ruff format --check src tests examples/high_card
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

# German and English (docs/architecture.md, "Translating"): extract every marked string
# into the template, merge it into each language's .po (new strings arrive untranslated
# and make the catalog test fail until someone translates them), and compile the .mo files.
LOCALE := src/dragonlair/locale
BABEL_KEYWORDS := -k plural:1,2 -k t -k tn:1,2
catalogs: $(STAMP)
	$(BIN)/pybabel -q extract -F babel.cfg $(BABEL_KEYWORDS) --no-location --sort-output \
	  --project dragonlair --omit-header -o $(LOCALE)/dragonlair.pot .
	$(BIN)/pybabel -q update -D dragonlair -i $(LOCALE)/dragonlair.pot -d $(LOCALE) \
	  --no-fuzzy-matching --ignore-obsolete --width 100
	$(BIN)/pybabel -q compile -D dragonlair -d $(LOCALE)

# With a compiled venv (`make compiled`), both builds are measured in the same run.
OTHER_BUILD = $(if $(wildcard $(CBIN)/python),--other-build $(CBIN)/python)

bench: $(STAMP)
	$(BIN)/dragonlair bench --accel --throughput $(OTHER_BUILD)

bench-quick: $(STAMP)
	$(BIN)/dragonlair bench --quick --accel --throughput $(OTHER_BUILD)

# The batched engines held to the Python engines over 10,000 random games each: Dragon
# Stripes 2,000 at each table size, the other games about 3,333 at each (`make test` plays
# the fast tier's 10 to 60 at each, and skips these; docs/accel.md, "Held to the Python
# engine", "Space Dragons", "Space Race", "The Great Dragon Race").
differential: $(STAMP)
	DRAGONLAIR_DIFFERENTIAL_GAMES=10000 $(BIN)/pytest -q -n 0 --durations=4 \
	  tests/accel/test_accel_dragon_race.py tests/accel/test_accel_dragon_stripes.py \
	  tests/accel/test_accel_space_dragons.py tests/accel/test_accel_space_race.py \
	  -k many_random_games

clean:
	rm -rf $(VENV) $(CVENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
