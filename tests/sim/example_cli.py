"""The ``dragonlair`` command with the example game and its test heuristic registered, for
tests that run the command in a process of its own (Ctrl-C)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "core"))
sys.path.insert(0, str(Path(__file__).parent.parent / "bots"))

from example_game import PebbleAuction
from pebble_heuristic import PebbleHeuristic

from dragonlair.bots import register_heuristic
from dragonlair.cli import main
from dragonlair.core import register

register(PebbleAuction)
register_heuristic("pebble-auction", PebbleHeuristic)

if __name__ == "__main__":
    main()
