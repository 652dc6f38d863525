"""The simulation tests use the example game with the small heuristic of the bots' tests,
registered for each test only, so that tests elsewhere still see the example game without
a heuristic."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.core.pebble_auction.manifest import WITH_HEURISTIC, registered


@pytest.fixture(autouse=True)
def pebble_heuristic() -> Iterator[None]:
    with registered(WITH_HEURISTIC):
        yield
