"""The declared shape of the part every game's view shares (see :mod:`dragonlair.core.views`).

These ``TypedDict`` s live apart from ``core.views`` so that they stay interpreted: the
compiled build compiles ``core.views``, and a ``TypedDict`` compiled with mypyc keeps
neither its ``NotRequired`` keys nor its item types, which the conformance suite checks
every view against (docs/engine.md, "The compiled build").
"""

from __future__ import annotations

from typing import NotRequired, TypedDict


class WindowView(TypedDict):
    """An open offer or reaction window: the seats still to be asked after the one in
    ``to_act``, and the answer applied when time runs out."""

    next: list[int]
    default: str


class ResultView(TypedDict):
    """A finished game's result (``Result.to_dict()``)."""

    points: list[int]
    ranks: list[int]
    winners: list[int]
    breakdown: list[dict[str, int]]
    reason: str
    termination: str


class BaseView(TypedDict):
    """What every view carries, whatever the game: the table, the seat it is for (None: a
    spectator), the phase, the move number, who must act, and whether the game is over;
    during a simultaneous choice, who is still choosing and the seat's own choice; during
    a window, the window; at the end, the result."""

    game: str
    players: int
    seat: int | None
    phase: str
    move: int
    to_act: list[int]
    over: bool
    choosing: NotRequired[list[int]]
    my_choice: NotRequired[str]
    window: NotRequired[WindowView]
    result: NotRequired[ResultView]
