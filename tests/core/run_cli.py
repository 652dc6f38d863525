"""The dragonlair command with the example game registered (for terminal tests)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout, for tests.*

from dragonlair.cli import main
from dragonlair.core import register
from tests.core.pebble_auction.manifest import MANIFEST

register(MANIFEST)
main()
