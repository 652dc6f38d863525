"""What every batched engine shares: the refusal they raise, and the Pgx plumbing around
each game's own rules (Pgx's descriptive properties, a step without chance after the deal,
an illegal action ending the game, a position read through the Python engine's reader, the
jitted programs that make tables of positions)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pgx.core as pgx_core

from dragonlair.core import Game
from dragonlair.core.position import build, parse

Array = jax.Array


class AccelError(ValueError):
    """A request the batched engines cannot serve: an unknown game, a bad player count,
    a position they cannot hold, a layout that changed."""


class BatchedEnv(pgx_core.Env):  # type: ignore[misc]
    """A game's batched engine: subclasses set ``game``, ``players``, ``obs_size`` and
    ``_num_actions`` and write the rules (``_apply``), the observation (``observe_seat``),
    a Python state's arrays (``_fields``), the table made of them (``_from_arrays``, jitted
    here once for one table and once for a batch) and ``from_states``."""

    game: Game
    players: int
    obs_size: int
    _num_actions: int

    def __init__(self) -> None:
        super().__init__()
        # jit traces lazily: the subclass's tables are set by the time these first run
        self._from_arrays_one = jax.jit(self._from_arrays)
        self._from_arrays_batch = jax.jit(jax.vmap(self._from_arrays))

    # ------------------------------------------------------------------ Pgx's interface

    @property
    def id(self) -> str:
        game_id: str = self.game.spec.id
        return game_id

    @property
    def version(self) -> str:
        return f"rules{self.game.spec.rules_version}"

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def num_actions(self) -> int:
        return int(self._num_actions)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (self.obs_size,)

    # ------------------------------------------------------------------ the game's own

    def _from_arrays(self, *args: Any) -> Any:
        raise NotImplementedError

    def _fields(self, py_state: Any) -> dict[str, Any]:
        raise NotImplementedError

    def _apply(self, st: Any, action: Array) -> Any:
        raise NotImplementedError

    def observe_seat(self, st: Any, seat: Array) -> Array:
        raise NotImplementedError

    def from_states(self, py_states: Sequence[Any], batched: bool = True) -> Any:
        raise NotImplementedError

    def _step(self, state: Any, action: Array, key: Array | None) -> Any:
        del key  # nothing is left to chance after the deal
        return self._apply(state, jnp.int32(action))

    def _observe(self, state: Any, player_id: Array) -> Array:
        return self.observe_seat(state, player_id)

    def _step_with_illegal_action(self, state: Any, loser: Array) -> Any:
        """An illegal action ends the game: -1 to the seat that took it, and the other
        seats share the win (1/(n-1) each, on the scale of win shares)."""
        n = self.players
        rewards = jnp.where(jnp.arange(n) == loser, -1.0, 1.0 / (n - 1)).astype(jnp.float32)
        return state.replace(rewards=rewards, terminated=jnp.bool_(True))

    def _stacked(self, py_states: Sequence[Any], batched: bool) -> dict[str, np.ndarray]:
        """The arrays of Python states (``_fields``), stacked along a leading axis of
        tables when ``batched``, else those of the one state given."""
        fields = [self._fields(s) for s in py_states]
        if not fields:
            raise AccelError("no states given")
        stacked = {k: np.stack([f[k] for f in fields]) for k in fields[0]}
        return stacked if batched else {k: v[0] for k, v in stacked.items()}

    def from_position(self, source: str | bytes | Mapping[str, Any]) -> Any:
        """The table a position describes (``dragonlair.position``'s format, text or a
        dict), checked by the Python engine's own reader; hidden parts left out are dealt
        as that reader deals them (from its seed). BadPosition names a wrong field."""
        return self.from_state(build(self.game, parse(source), seed=0))

    def from_state(self, py_state: Any) -> Any:
        """The table of a Python engine's state, through its position (the public format)."""
        return self.from_states([py_state], batched=False)
