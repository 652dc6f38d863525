"""Shared test set-up: the example game's manifest is registered for every test."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "core"))

from pebble_auction.manifest import MANIFEST

from dragonlair.core import register

register(MANIFEST)
