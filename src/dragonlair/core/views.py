"""The declared shape of a view: the part every game's view shares.

A view is a plain JSON-ready dict (that is what goes over the wire, into golden
transcripts and RL layouts), and each game declares its whole shape as a ``TypedDict``
that extends :class:`BaseView` (``Game.view_type``, in the game's ``view`` module). Bots,
layouts and boards read views through that type, so ``mypy --strict`` checks every key
they read; the conformance suite checks at run time that every view a game builds
matches its declared type, key for key and value for value (``check_view``), so the
declaration cannot drift from the code that builds the view.

``TypedDict`` rather than a frozen view object: bots read views on every decision, and a
dict costs nothing to build or read beyond what the JSON form needs anyway.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


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


def seat_of(view: BaseView) -> int:
    """The seat a view is for; ``ValueError`` for a spectator's view (a bot always plays
    a seat, so its view has one)."""
    seat = view["seat"]
    if seat is None:
        raise ValueError("a spectator's view has no seat to play")
    return seat


def check_view(view: object, view_type: Any) -> None:
    """Raise ``TypeError`` saying what is wrong if ``view`` does not match ``view_type``
    (a ``TypedDict``): a key missing or not declared, or a value of another type, checked
    through every list and dict. Used by the conformance suite (it needs ``typeguard``,
    which the test dependencies install)."""
    from typeguard import CollectionCheckStrategy, TypeCheckError, check_type

    try:
        check_type(view, view_type, collection_check_strategy=CollectionCheckStrategy.ALL_ITEMS)
    except TypeCheckError as e:
        raise TypeError(f"the view does not match {view_type.__name__}: {e}") from None
