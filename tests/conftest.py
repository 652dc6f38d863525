"""Shared test set-up: the example game's manifest is registered for every test, and every
test leaves our logger as it found it."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from dragonlair.core import register
from tests.core.pebble_auction.manifest import MANIFEST

register(MANIFEST)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files holding end-to-end tests (any test marked slow) come first, each file's
    tests in their own order. `make test` hands out whole files in this order (``--dist
    loadfile --no-loadscope-reorder``): the long files start early, and the many short
    files of the fast tier fill in at the end, so neither worker waits long for the other.
    (xdist's own order, the files with the most tests first, left the single long tests,
    such as a cluster's faults or the light install, to the end, behind one worker.)"""
    slow = {item.path for item in items if item.get_closest_marker("slow") is not None}
    items.sort(key=lambda item: item.path not in slow)


@pytest.fixture(autouse=True)
def _dragonlair_logger_as_it_was() -> Iterator[None]:
    """A test that builds a uvicorn configuration in this process (``serve``'s own logging
    setup, through ``logging.config.dictConfig``) leaves the ``dragonlair`` logger as it
    found it: propagating to the root logger, where caplog listens, and with no handler on a
    stream the test's capture has closed."""
    log = logging.getLogger("dragonlair")
    handlers, propagate, level = list(log.handlers), log.propagate, log.level
    yield
    log.handlers[:] = handlers
    log.propagate, log.level = propagate, level
