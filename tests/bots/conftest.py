"""The bots' tests use the example game with a small heuristic of its own."""

from __future__ import annotations

from pebble_heuristic import PebbleHeuristic

from dragonlair.bots import register_heuristic

register_heuristic("pebble-auction", PebbleHeuristic)
