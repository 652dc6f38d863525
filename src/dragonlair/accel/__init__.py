"""Batched engines on JAX: the games as pure functions that ``jax.jit`` compiles once and
``jax.vmap`` runs over thousands of tables (the optional ``accel`` extra; docs/accel.md).

:func:`make` returns a Pgx environment (:class:`pgx.Env`): ``init(key)`` deals a table,
``step(state, action, key)`` applies the current player's action, and the state holds
``observation`` (the Python layout's tensor, float for float), ``legal_action_mask``,
``rewards``, ``terminated`` and ``current_player``, all of fixed shapes. The Python engines
stay the specification; ``tests/accel`` holds each batched engine to its Python engine.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dragonlair.core import BadOptions, UnknownGame
from dragonlair.core.registry import make as make_game

from .common import AccelError
from .dragon_race import DragonRaceEnv
from .dragon_stripes import DragonStripesEnv
from .space_dragons import SpaceDragonsEnv
from .space_race import SpaceRaceEnv

Engine = DragonRaceEnv | DragonStripesEnv | SpaceDragonsEnv | SpaceRaceEnv

# The games that have a batched engine, by id, with the class that makes it.
ENGINES: dict[str, type[Engine]] = {
    "dragon-race": DragonRaceEnv,
    "dragon-stripes": DragonStripesEnv,
    "space-dragons": SpaceDragonsEnv,
    "space-race": SpaceRaceEnv,
}


def games() -> list[str]:
    """The ids of the games that have a batched engine."""
    return sorted(ENGINES)


def make(
    game_id: str, players: int | None = None, options: Mapping[str, Any] | None = None
) -> Engine:
    """The batched engine of ``game_id`` for ``players`` players (the game's default when
    None) with the game's ``options`` (its data file too): AccelError for a game without
    one, the Python engine's own errors for a bad player count or option."""
    cls = ENGINES.get(game_id)
    if cls is None:
        raise AccelError(
            f"no batched engine for {game_id!r}; there is one for: {', '.join(games())}"
        )
    try:
        game = make_game(game_id, players=players, options=dict(options or {}))
    except (BadOptions, UnknownGame) as e:
        raise AccelError(str(e)) from None
    return cls(game)


def cache_compilations(folder: str | os.PathLike[str] = "build/jax-cache") -> Path:
    """Keep JAX's compiled programs in ``folder`` (JAX's persistent compilation cache), so
    that a later process jits the same engine from disk instead of compiling it again."""
    import jax

    path = Path(folder).resolve()
    path.mkdir(parents=True, exist_ok=True)
    update: Any = jax.config.update  # not annotated in JAX
    update("jax_compilation_cache_dir", str(path))
    update("jax_persistent_cache_min_compile_time_secs", 0.0)
    update("jax_persistent_cache_min_entry_size_bytes", 0)
    return path


__all__ = [
    "AccelError",
    "DragonRaceEnv",
    "DragonStripesEnv",
    "Engine",
    "SpaceDragonsEnv",
    "SpaceRaceEnv",
    "cache_compilations",
    "games",
    "make",
]
