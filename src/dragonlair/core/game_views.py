"""A game's views as its view module gives them to the kernel: what a seat may see of a
state (the JSON view and the typed view) and how a state is redrawn from a view.

The rules never import their views; the views build on the rules. So a game's view
module installs them for the game's state class (:func:`install_views`) when imported,
which the game's package does, and a :class:`~dragonlair.core.state.State` finds them
for its class (:func:`views_of`) when asked for a view or a sample. This module imports
nothing of the engine, so the state imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Protocol


class ViewClass(Protocol):
    """What a state's ``_view_class`` is: a class (a :class:`~dragonlair.core.views.View`
    subclass, which the views module defines on top of this one) made from a state and a
    seat, whose objects are read-only mappings."""

    def __call__(self, state: Any, seat: int | None, /) -> object: ...


class GameViews:
    """A game's views, as its view module gives them to the kernel for the game's states
    (:func:`install_views`): the rules never import their views, the views build on the
    rules.

    - ``build(state, seat, out)``: add what ``seat`` (None: a spectator) may see to the
      JSON view ``out`` (``state.view(seat)``);
    - ``sample(state, view, rng)``: in a blank state made from ``view``, redraw everything
      its seat cannot see (``game.sample_state``);
    - ``seat_view``: the game's typed view class (a :class:`~dragonlair.core.views.View`
      subclass) that ``state.seat_view(seat)`` makes, or None: its JSON view then.
    """

    __slots__ = ("build", "sample", "seat_view")

    def __init__(
        self,
        build: Callable[[Any, int | None, dict[str, Any]], None],
        sample: Callable[[Any, dict[str, Any], Any], None],
        seat_view: ViewClass | None = None,
    ) -> None:
        self.build = build
        self.sample = sample
        self.seat_view = seat_view


# The views installed, by state class (a subclass of an installed class finds its base's).
_VIEWS: Final[dict[type, GameViews]] = {}


def install_views(state_class: type, views: GameViews) -> None:
    """Give ``state_class`` (and its subclasses) its game's views: called by the game's
    view module when imported, which the game's package imports."""
    for cls in [c for c in _VIEWS if issubclass(c, state_class)]:
        del _VIEWS[cls]  # subclasses that found an earlier install through their base
    _VIEWS[state_class] = views


def views_of(state_class: type) -> GameViews | None:
    """The views installed for ``state_class`` or the nearest of its bases; None if none."""
    found = _VIEWS.get(state_class)
    if found is None:
        for base in state_class.__mro__[1:]:
            found = _VIEWS.get(base)
            if found is not None:
                _VIEWS[state_class] = found
                break
    return found
