"""``dragonlair`` with the example game registered: how the tests start a real server in a
subprocess (``python tests/web/serve_example.py serve --port ...``)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout, for tests.*

from dragonlair.cli import main
from dragonlair.core import register
from tests.core.pebble_auction.manifest import MANIFEST

if __name__ == "__main__":
    register(MANIFEST)
    main()
