"""The observation tables in ``docs/rl.md``, made from the layouts themselves.

Each table sits between ``<!-- layout:GAME -->`` and ``<!-- /layout -->`` in the page;
this module rewrites (or checks) the block of each of the four games that is installed,
from the game's layout bound to the built-in data at its largest player count::

    python -m dragonlair.rl.docs docs/rl.md           # check: exit 1 if a table is stale
    python -m dragonlair.rl.docs --write docs/rl.md   # rewrite the tables

A test runs the check, so the documentation cannot drift from the code.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from ..core import make, spec
from ..core.manifest import installed_ids
from .layout import encoder_for, layout_ids

BLOCK = re.compile(r"(<!-- layout:(?P<game>[a-z0-9-]+) -->\n)(?P<body>.*?)(<!-- /layout -->)", re.S)


def table(game_id: str) -> str:
    """The markdown table of ``game_id``'s layout (built-in data, most players)."""
    game = make(game_id, players=spec(game_id).max_players)
    return encoder_for(game).markdown() + "\n"


def _documented() -> set[str]:
    """The installed games (entry points, not those registered at run time) that have a
    layout: the ones the page documents."""
    return set(layout_ids()) & set(installed_ids())


def refresh(text: str) -> str:
    """``text`` with every installed game's table block regenerated."""
    installed = _documented()

    def replace(m: re.Match[str]) -> str:
        """One block, regenerated if its game is installed."""
        gid = m.group("game")
        if gid not in installed:
            return m.group(0)
        return m.group(1) + table(gid) + m.group(4)

    return BLOCK.sub(replace, text)


def stale(text: str) -> list[str]:
    """The installed games whose table in ``text`` differs from the code (or is missing)."""
    found = {m.group("game"): m.group("body") for m in BLOCK.finditer(text)}
    installed = sorted(_documented())
    return [g for g in installed if found.get(g) != table(g)]


def main(argv: Sequence[str] | None = None) -> int:
    """Check or rewrite the tables of a page; prints what is stale."""
    parser = argparse.ArgumentParser(description="Check or rewrite the layout tables.")
    parser.add_argument("page", type=Path, help="the markdown page (docs/rl.md)")
    parser.add_argument("--write", action="store_true", help="rewrite the tables in place")
    args = parser.parse_args(argv)
    try:
        text = args.page.read_text(encoding="utf-8")
    except OSError as e:
        print(f"cannot read {args.page}: {e.strerror}", file=sys.stderr)
        return 2
    if args.write:
        args.page.write_text(refresh(text), encoding="utf-8")
        text = args.page.read_text(encoding="utf-8")
    bad = stale(text)
    for gid in bad:
        print(f"{args.page}: the table for {gid} is missing or out of date", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
