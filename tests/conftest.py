"""Shared test set-up: the example game is registered for every test."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "core"))

from example_game import PebbleAuction

from dragonlair.core import register

register(PebbleAuction)
