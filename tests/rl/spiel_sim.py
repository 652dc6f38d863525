"""Run ``pyspiel.random_sim_test`` on our OpenSpiel games, in a process of its own (the test
prints from C++). Usage: ``python spiel_sim.py NAME:PLAYERS ...``; prints ``ok NAME PLAYERS``
or ``FAIL NAME PLAYERS: error`` per game and exits 1 if any failed.

Serialization of the game object is off: OpenSpiel serializes a sampled-stochastic game
with its generator's state, which it does not let a Python game provide. States serialize
exactly (``state.serialize()``, ``game.deserialize_state``); test_rl_openspiel checks it."""

from __future__ import annotations

import sys
from pathlib import Path

here = Path(__file__).parent
sys.path.insert(0, str(here.resolve().parents[1]))  # the checkout, for tests.*

import pyspiel  # noqa: E402

from dragonlair.core import register  # noqa: E402
from dragonlair.rl import openspiel  # noqa: E402
from tests.core.pebble_auction.manifest import MANIFEST  # noqa: E402

register(MANIFEST)
openspiel.register("pebble-auction")


def main(args: list[str]) -> int:
    failed = 0
    for arg in args:
        name, players = arg.rsplit(":", 1)
        try:
            game = pyspiel.load_game(name, {"players": int(players), "seed": 7})
            pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
        except Exception as e:  # report every game, not just the first failure
            print(f"FAIL {name} {players}: {type(e).__name__}: {e}", flush=True)
            failed += 1
        else:
            print(f"ok {name} {players}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
