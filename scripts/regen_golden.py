"""Regenerate golden transcripts from the parameters on their first lines.

    python scripts/regen_golden.py                 # every tests/**/golden/*.txt
    python scripts/regen_golden.py PATH [PATH...]  # just these
    python scripts/regen_golden.py --new space-dragons 4 1 tests/space_dragons/golden/4p.txt \
        [key=value ...]   # game options

Review the diff by eye before committing: a change here is a change in behaviour.
"""

from __future__ import annotations

import sys
from pathlib import Path

from dragonlair.core.transcript import regenerate, write

ROOT = Path(__file__).resolve().parent.parent

# The core's example game lives in the tests; make it available for its transcripts.
sys.path.insert(0, str(ROOT))
try:
    from tests.core.pebble_auction.manifest import MANIFEST

    from dragonlair.core import register

    register(MANIFEST)
except ImportError:  # pragma: no cover - a checkout without tests
    pass


def main(argv: list[str]) -> int:
    if argv[:1] == ["--new"]:
        game, players, seed, path = argv[1], int(argv[2]), int(argv[3]), Path(argv[4])
        options = dict(item.split("=", 1) for item in argv[5:])
        write(path, game, players, seed, options)
        print(f"wrote {path}")
        return 0
    paths = [Path(a) for a in argv] or sorted(ROOT.glob("tests/**/golden/*.txt"))
    for p in paths:
        text = regenerate(p)
        if p.read_text() != text:
            p.write_text(text)
            print(f"updated {p}")
        else:
            print(f"unchanged {p}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
