"""The dragonlair command with the example game registered (for terminal tests)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from example_game import PebbleAuction

from dragonlair.cli import main
from dragonlair.core import register

register(PebbleAuction)
main()
