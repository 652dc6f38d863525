"""The declared shape of a view of DragonRace (``Game.view_type``): what each key holds.

Apart from view.py, which the compiled build compiles, so that it stays interpreted (see
:mod:`dragonlair.core.view_types`). view.py says what each seat may see.
"""

from __future__ import annotations

from dragonlair.core.view_types import BaseView


class DragonRaceView(BaseView):
    """A view of The Great Dragon Race (view.py says what is public)."""

    turn: int
    active: int  # whose turn it is
    pawns: list[int]  # each seat's spot
    turn_start: list[int]  # the pawns when this turn began
    hand: list[int] | None  # the seat's own hand (None: a spectator)
    hand_sizes: list[int]
    draw_size: int
    discards: list[int]  # face up, oldest first
    extra_draw: list[bool]  # robbed since their last turn
    bonus: bool  # the active seat has earned another play
    robbed: list[int]  # seats robbed this turn
    last: str | None  # the play or steal the open window is about
    moved: list[int]  # seats whose pawns the latest play moved
    stolen: int | None  # the card being stolen, for the thief and the victim
