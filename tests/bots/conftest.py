"""The bots' tests use the example game with a small heuristic of its own, named for each
test only, so that tests elsewhere still see the example game without a heuristic."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pebble_heuristic import PebbleHeuristic

from dragonlair.bots import register_heuristic, unregister_heuristic


@pytest.fixture(autouse=True)
def pebble_heuristic() -> Iterator[None]:
    register_heuristic("pebble-auction", PebbleHeuristic)
    yield
    unregister_heuristic("pebble-auction")
