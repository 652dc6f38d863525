"""The games behind the standard research interfaces: OpenSpiel, PettingZoo, Gymnasium.

This layer is the only part of dragonlair that imports pyspiel, pettingzoo, gymnasium or
numpy (the ``rl`` extra). It sits above the games and sees them only through the public
surface: states, legal action ids, views, results. Its pieces:

- :mod:`.layout`: observation layouts, a list of named features per game computed from a
  seat's view, which give both the tensors and the tables in ``docs/rl.md``;
  :mod:`.layouts` holds the layouts of the four games;
- :mod:`.openspiel`: ``python_<game>`` OpenSpiel games (simultaneous choices as
  simultaneous nodes, with a turn-based twin for search; sampled chance; information
  states from views and memory; ISMCTS resampling through the engine's sampler);
- :mod:`.pettingzoo_env`: an AEC environment per game, a Parallel one, and a vector one
  stepping many tables per call;
- :mod:`.gymnasium_env`: one seat against bots, registered as ``dragonlair/<Game>-v0``,
  and its ``gymnasium.vector`` environment of many tables;
- :mod:`.common`: what they share (the utility: a share of the win; the ``wait`` action).

Importing this package imports only the layouts (and numpy); each adapter registers its
games when its own module is imported. The design and its choices are in ``docs/rl.md``.
"""

from .common import win_shares
from .layout import (
    Context,
    Encoder,
    Feature,
    Layout,
    LayoutError,
    NoLayout,
    encoder_for,
    layout_for,
    layout_ids,
)

__all__ = [
    "Context",
    "Encoder",
    "Feature",
    "Layout",
    "LayoutError",
    "NoLayout",
    "encoder_for",
    "layout_for",
    "layout_ids",
    "win_shares",
]
