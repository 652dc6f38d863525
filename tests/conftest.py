"""Shared test set-up: the example game's manifest is registered for every test."""

from __future__ import annotations

from dragonlair.core import register
from tests.core.pebble_auction.manifest import MANIFEST

register(MANIFEST)
