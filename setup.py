"""The optional compiled build: with ``DRAGONLAIR_COMPILE=1`` in the environment at build
time, the engine core, the four games and their observation layouts are compiled with
mypyc from the same typed source (``DRAGONLAIR_COMPILE=1 pip wheel .``; ``make
compiled``). Without it, which is the default for ``pip install .`` and editable installs,
the package is pure Python and needs no compiler. docs/engine.md, "The compiled build",
lists what is compiled and why."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

from setuptools import setup

# The modules compiled: the core's hot path (the state and the game, the action table, the
# generator) and what of each game runs per decision: its vocabulary, rules and heuristic.
# The typed views too (core/views.py and each game's view.py): a bot reading its view is
# handed one for every decision, and interpreted, making it cost as much as the
# heuristic's own choice. Their declared shapes (the TypedDicts, view_types.py) stay
# interpreted: a compiled TypedDict loses its NotRequired keys and item types, which the
# conformance suite checks every view against. Results and event tables (frozen
# dataclasses, which a compiled build cannot unpickle) and components (cards.py, board.py:
# loaded once per game) stay interpreted, as do the surfaces, the tools and the manifests.
# (Game is defined in core/state.py, next to State; core/game.py only gives the name. The
# state's chains of actions and events and their JSON form, core/chains.py, and the views
# it looks up for its class, core/game_views.py, are compiled with it.)
CORE = ["actions", "rng", "state", "chains", "game_views", "views"]
GAMES = ["space_dragons", "space_race", "dragon_stripes", "dragon_race"]
GAME_MODULES = ["kinds", "rules", "heuristic", "view"]
# Space Race's scoring too: its rules score every ship at the end of each game, and its
# heuristic adds up running totals for every decision. Space Race's and Space Dragons'
# JSON views (json_view.py: build_view and the figures the typed view shares):
# interpreted, a seat's view took as long as its encoding in an RL step (docs/rl.md,
# "Speed"). And the observation layouts (the encoder and each game's features): encoding a
# seat's view is most of a step of the RL environments, and a compiled encoding takes 40
# to 65% of the time of an interpreted one (docs/rl.md, "Speed"). With them the vector
# environment's loops over its tables (rl/vector.py; the environments' classes, which
# extend PettingZoo's and Gymnasium's, stay interpreted). Their frozen dataclasses
# pickle as their arguments (a compiled one cannot be unpickled field by field). layout.py
# imports NumPy, so a compiling build needs it (build_backend/dragonlair_build.py).
ALSO = [
    "src/dragonlair/space_race/scoring.py",
    "src/dragonlair/space_race/json_view.py",
    "src/dragonlair/space_dragons/json_view.py",
    "src/dragonlair/rl/layout.py",
    "src/dragonlair/rl/layouts/space_dragons.py",
    "src/dragonlair/rl/layouts/space_race.py",
    "src/dragonlair/rl/layouts/dragon_stripes.py",
    "src/dragonlair/rl/layouts/dragon_race.py",
    "src/dragonlair/rl/vector.py",
]


def compiled_modules() -> list[str]:
    paths = [f"src/dragonlair/core/{m}.py" for m in CORE]
    for game in GAMES:
        paths += [f"src/dragonlair/{game}/{m}.py" for m in GAME_MODULES]
    return paths + ALSO


# Asking for metadata or a source distribution compiles nothing (mypyc would type-check and
# translate everything on each of pip's calls); only building does.
NOT_BUILDING = {"egg_info", "dist_info", "sdist", "--version", "--name"}

# mypy's options for the compile, on top of the project's strict ones: a build environment
# has only setuptools, mypy and NumPy, so the libraries the package imports elsewhere
# (typeguard and tomli-w, which the core imports lazily; those of the surfaces, which mypy
# follows imports into) are missing there, which `make typecheck` has checked already.
MYPY_ARGS = ["--ignore-missing-imports", "--no-warn-return-any", "--no-warn-unused-ignores"]


# The C compiler's optimisation and debug-information levels. mypyc's C is mostly calls
# into CPython's API, which -O3 cannot speed up: -O1 ran 1% more instructions than mypyc's
# default -O3 with debug lines (-g1) on the bench's raw loop and 3% more on clones, the
# same time within the bench's noise, and compiling the one C file took 24 s of CPU
# instead of 62 s (docs/engine.md, "The compiled build").
OPT_LEVEL = "1"
DEBUG_LEVEL = "0"


# The clones of the compiled state classes: pure Python derives each one from its class
# when the class is made, which a compiled class does not allow (docs/engine.md), so the
# build generates the same functions' source from the declarations in the games' source
# (by the rule of core/clones.py) into this module, compiles it with the classes, and
# removes the source again: it is part of the compiled build only.
CLONES = Path("src/dragonlair/_clones.py")


def _load(path: str) -> ModuleType:
    """A module of the source tree loaded from its path, without importing the package
    (whose dependencies a build environment does not have)."""
    spec = importlib.util.spec_from_file_location(Path(path).stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def clones_source() -> str:
    clones = _load("src/dragonlair/core/clones.py")
    state = Path("src/dragonlair/core/state.py").read_text()
    base = [name for name, _ in clones.declared_fields(state, "State")]
    classes = []
    for game in GAMES:
        source = Path(f"src/dragonlair/{game}/rules.py").read_text()
        for name in clones.state_classes(source):
            classes.append((f"dragonlair.{game}.rules", name, source))
    return str(clones.compiled_clones(base, classes))


def ext_modules() -> list[object]:
    if os.environ.get("DRAGONLAIR_COMPILE", "0") != "1" or NOT_BUILDING & set(sys.argv[1:]):
        return []
    from mypyc.build import mypycify

    CLONES.write_text(clones_source())
    try:
        paths = [*MYPY_ARGS, *compiled_modules(), str(CLONES)]
        return list(mypycify(paths, opt_level=OPT_LEVEL, debug_level=DEBUG_LEVEL))
    finally:
        CLONES.unlink()


setup(ext_modules=ext_modules())
