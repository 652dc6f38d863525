"""The batched engines' tests compile XLA's programs with LLVM's optimizations off
(``--xla_backend_optimization_level=0``): what a test here costs is compiling its programs,
not running them (an engine's first game compiles them; 60 more games take a tenth of its
CPU), and the level takes a third off the compiling. The programs are the same HLO, and the
tests hold their values to the Python engine's to the bit, as at the default level. `make
differential`, whose games do run long, keeps XLA's default, as `make bench` and the
engines' users do. XLA reads its flags once, when JAX starts its CPU backend, and importing
dragonlair.accel starts it: the flag is set here, before this folder imports anything of JAX
(tests/accel/__init__.py imports nothing, and the folder comes first in a whole run's
collection). A level given in XLA_FLAGS already is left as it is."""

from __future__ import annotations

import os

from tests.accel import GAMES_VARIABLE

LEVEL = "--xla_backend_optimization_level"

if GAMES_VARIABLE not in os.environ and LEVEL not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} {LEVEL}=0".strip()
