"""Rich per-game data: what each game declares about a finished game beyond its result.

A game package may have a ``features`` module (``dragonlair/<game>/features.py``) with:

- ``features(state) -> dict``: read from the finished state's events and public view,
  ``{"start_seat": int | None, "length": {unit: int}, "seats": [{name: value}, ...]}``;
  values are numbers, or strings of space-separated ids for lists (cards played);
- ``LENGTH`` and ``SEAT``: the names it always gives (so every row has the same columns);
- ``standing(view) -> list[float]``: each seat's public score in the spectator's view of a
  position, for snapshots of the score during the game.

:func:`features_module` is the one place that finds a game's module. :func:`game_data`
turns a finished game into flat columns for the results table:

- ``start_seat``; ``position_s``, seat ``s``'s place in turn order after the start
  player (0 = the start player);
- ``len_<unit>``: the length in the game's own units (rounds, turns);
- ``score_<label>_s``: the result's full scoring breakdown;
- ``<feature>_s``: the game's per-seat features;
- ``snap25_s``, ``snap50_s``, ``snap75_s``: the public standing after 25, 50 and 75% of the
  decisions; ``leader25``, ``leader50``, ``leader75``: the seat leading alone there
  (-1 on a tie for the lead); ``lead_changes``: how often the sole leader changed over
  checkpoints every 5% of the game.

Snapshots replay the game's actions from its seed (nothing a bot did is played again), so
they cost about as much as the rules' part of the game.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import itertools
import re
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from ..core import Action, Game, State, game_class

SNAPSHOTS = (25, 50, 75)
CHECKPOINTS = 20  # lead changes are counted over the standings every 5% of the game


def features_module(game_id: str) -> ModuleType | None:
    """The ``features`` module of ``game_id``'s package, or None if it declares none."""
    return _module_of(game_class(game_id).__module__)


@functools.cache
def _module_of(module: str) -> ModuleType | None:
    package = module.rpartition(".")[0]
    if not package:
        return None
    name = f"{package}.features"
    if importlib.util.find_spec(name) is None:
        return None
    return importlib.import_module(name)


def column_name(label: str) -> str:
    """A breakdown label as a column name: ``"crew points"`` -> ``crew_points``."""
    return re.sub(r"[^0-9a-z]+", "_", label.lower()).strip("_")


def sole_leader(standing: Sequence[float]) -> int:
    """The seat with the most, or -1 when several share the most."""
    top = max(standing)
    leaders = [s for s, v in enumerate(standing) if v == top]
    return leaders[0] if len(leaders) == 1 else -1


def game_data(
    game: Game, state: State, actions: Sequence[tuple[int, Action]], module: ModuleType | None
) -> dict[str, Any]:
    """The flat per-game columns of a finished ``state`` (see the module's docstring)."""
    result = state.result
    assert result is not None
    n = game.players
    out: dict[str, Any] = {}
    if module is not None:
        f = module.features(state)
        start = f["start_seat"]
        out["start_seat"] = -1 if start is None else start
        for s in range(n):
            out[f"position_{s}"] = -1 if start is None else (s - start) % n
        for unit in module.LENGTH:
            out[f"len_{unit}"] = f["length"][unit]
    for s, b in enumerate(result.breakdown):
        for label, points in b.items():
            out[f"score_{column_name(label)}_{s}"] = points
    if module is not None:
        for s in range(n):
            seat = f["seats"][s]
            for name in module.SEAT:
                out[f"{name}_{s}"] = seat[name]
        standing = getattr(module, "standing", None)
        if standing is not None:
            out.update(_snapshots(game, state, actions, standing))
    return out


def _snapshots(
    game: Game, state: State, actions: Sequence[tuple[int, Action]], standing: Any
) -> dict[str, Any]:
    """Standings at fixed fractions of the game, from a replay of its actions."""
    n = game.players
    total = len(actions)
    marks = {round(total * k / CHECKPOINTS): k for k in range(1, CHECKPOINTS)}
    wanted = {round(total * p / 100): p for p in SNAPSHOTS}
    replay = game.new_game(seed=state.seed)
    leaders: list[int] = []
    out: dict[str, Any] = {}
    for move in range(total + 1):
        if move in marks or move in wanted:
            now = standing(replay.view(None))
            if move in marks:
                leaders.append(sole_leader(now))
            if move in wanted:
                p = wanted[move]
                for s in range(n):
                    out[f"snap{p}_{s}"] = now[s]
                out[f"leader{p}"] = sole_leader(now)
        if move < total:
            seat, action = actions[move]
            replay.apply(seat, action)
    final = list(state.result.points) if state.result is not None else []
    leaders.append(sole_leader(final))
    sole = [x for x in leaders if x >= 0]
    out["lead_changes"] = sum(1 for a, b in itertools.pairwise(sole) if a != b)
    return out
