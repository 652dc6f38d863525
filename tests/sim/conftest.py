"""The simulation tests use the example game with the small heuristic of the bots' tests."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "bots"))

from pebble_heuristic import PebbleHeuristic

from dragonlair.bots import register_heuristic

register_heuristic("pebble-auction", PebbleHeuristic)
