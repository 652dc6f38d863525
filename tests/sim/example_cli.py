"""The ``dragonlair`` command with the example game and its test heuristic registered, for
tests that run the command in a process of its own (Ctrl-C)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout, for tests.*

from dragonlair.cli import main
from dragonlair.core import register
from tests.core.pebble_auction.manifest import WITH_HEURISTIC

register(WITH_HEURISTIC)

if __name__ == "__main__":
    main()
