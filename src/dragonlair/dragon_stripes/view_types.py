"""The declared shape of a view of Dragon Stripes (``Game.view_type``): what each key holds.

Apart from view.py, which the compiled build compiles, so that it stays interpreted (see
:mod:`dragonlair.core.view_types`). view.py says what each seat may see.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from dragonlair.core.view_types import BaseView


class LedgerEntry(TypedDict):
    """One seat's public ledger: pots banked, takeover prices received and paid, and
    penalties suffered (of which ``half_penalties`` at 1/2)."""

    banked: int
    received: int
    paid: int
    penalties: int
    half_penalties: int


class DragonStripesView(BaseView):
    """A view of Dragon Stripes (view.py says what is public)."""

    stripes: list[int]  # the gems each stripe shows, stripe 1 first
    head: int  # the knight's position at the dragon's head
    knight: int  # 0 is the tail
    pot: int
    price: int  # the takeover price of the pot
    turn: int
    starter: int  # the seat that started this turn
    holder: int  # the seat holding the knight
    must_draw: bool
    dangers: int  # Danger cards drawn
    dragon: str  # the dragon's phase
    reward_multiplier: int
    penalty: str  # "1/4" or "1/2"
    drawn: list[str]  # every card drawn, by name, in order
    deck_size: int
    deck_left: dict[str, int]  # the undrawn cards by name
    lair_empty: bool
    start_gems: int
    total_gems: int
    ledger: list[LedgerEntry]
    gems: int | None  # the seat's own gems (None: a spectator)
    all_gems: NotRequired[list[int]]  # with open holdings
    lair: NotRequired[int]  # with open holdings
