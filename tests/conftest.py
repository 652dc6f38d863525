"""Shared test set-up: the example game's manifest is registered for every test, and every
test leaves our logger as it found it."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from dragonlair.core import register
from tests.core.pebble_auction.manifest import MANIFEST

register(MANIFEST)


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
