"""The simulation tests use the example game with the small heuristic of the bots' tests,
named for each test only, so that tests elsewhere still see the example game without a
heuristic."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "bots"))

from pebble_heuristic import PebbleHeuristic

from dragonlair.bots import register_heuristic, unregister_heuristic


@pytest.fixture(autouse=True)
def pebble_heuristic() -> Iterator[None]:
    register_heuristic("pebble-auction", PebbleHeuristic)
    yield
    unregister_heuristic("pebble-auction")
