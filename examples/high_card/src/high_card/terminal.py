"""High Card at the terminal (needs dragonlair's terminal, hence Rich): the score, the
cards revealed last round and your hand. ``lay 7`` or just ``7`` lays your 7."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from dragonlair.core import Game
from dragonlair.tui.parts import TerminalParts


def board(game: Game, view: dict[str, Any], names: Sequence[str]) -> RenderableType:
    score = Text("Score: ")
    for s, name in enumerate(names):
        score.append(f"{name} {view['points'][s]}", style="bold" if s == view["seat"] else "")
        score.append("   ")
    last = view["last"]
    shown = "  ".join(f"{names[s]}: {c}" for s, c in enumerate(last)) if any(last) else "none yet"
    return Group(score, Text(f"Last round: {shown}"), Text(f"Cards left: {view['hand_sizes']}"))


def hand(
    game: Game, view: dict[str, Any], names: Sequence[str], lit: frozenset[int] = frozenset()
) -> RenderableType:
    out = Text("Your hand: ")
    for card in view["hand"] or ():
        out.append(f" {card} ", style="reverse" if card in lit else "bold")
    return out


TERMINAL = TerminalParts(
    board=board,
    hand=hand,
    cards_of=lambda game, action: (int(action.args[0]),),
    big_events=("won",),
    number_kinds=("lay",),
)
