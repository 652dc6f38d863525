"""The games as single-agent Gymnasium environments: one seat is the learner, bots play
the others.

Importing this module registers ``dragonlair/<Game>-v0`` for every installed game that
has an observation layout (``dragonlair/DragonStripes-v0``, ``dragonlair/SpaceRace-v0``,
...)::

    import gymnasium as gym
    import dragonlair.rl.gymnasium_env

    env = gym.make("dragonlair/DragonStripes-v0", players=3, opponents="heuristic")
    envs = gym.make_vec("dragonlair/DragonStripes-v0", num_envs=16, players=3)

``gym.make_vec`` makes a :class:`DragonlairVectorEnv` (each id's vector entry point):
``num_envs`` tables of the environment below in one process, stepped with one call,
observations and masks in NumPy batches, next-step autoreset (see that class).

Keyword arguments: ``players``, ``options`` (the game's own, checked like everywhere
else), ``opponents`` (one bot for every other seat, or a list with one per other seat in
seat order, each written as on the command line: a level of the game, with parameters if
wanted, ``"ismcts:iterations=200"``, ``"heuristic"``, an archetype), ``bot_params``
(parameters for ``make_bot``: one mapping for every opponent, or a list with one mapping
per other seat; what an opponent's own text says takes precedence), ``seat`` (the
learner's seat; None: a random seat each episode; the list of opponents is always in
seat order of the seats other than the learner's), ``illegal_action`` and
``illegal_reward`` (below).

An episode is one game. ``reset`` deals it (the game's seed comes from the environment's
generator, so ``reset(seed=s)`` always deals the same game and the bots make the same
choices) and lets the bots play until the learner is asked; ``reset(options={"seat": k})``
picks the learner's seat for that episode. ``step`` applies the learner's action, then
lets the bots play until the learner is asked again or the game ends. A game that ends
before the learner is ever asked is dealt again.

Observation: the learner's view encoded by the game's layout (``Box(0, 1)``, float32;
``docs/rl.md``). Actions: ``Discrete(game.num_actions)``, the game's own ids. The legal
ones are in ``info["action_mask"]`` and ``env.action_masks()`` (the method sb3-contrib's
``MaskablePPO`` calls). Reward: at the end, the learner's share of the win (1, 1/k for a
k-way tie, or 0); 0 before.

An action outside the action space raises ValueError. An action in it that the rules do
not allow now is answered as ``illegal_action`` says: ``"lose"`` (the default) ends the
episode at once with ``illegal_reward`` (-1, below any real outcome) and
``info["illegal_action"]`` explaining what was legal, leaving the game itself unchanged;
``"raise"`` raises IllegalAction. Ending the episode is the usual answer for learners
that do not mask (and it is what Gymnasium's ``check_env``, which steps with unmasked
random actions, needs); a masked learner never sees it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ..core import Game, State, make
from .common import (
    TRAINING_SEEDS,
    Opponents,
    action_index,
    camel,
    check_render_mode,
    parse_opponents,
    refuse,
    win_shares,
)
from .layout import Encoder, encoder_for, layout_ids
from .vector import observe_tables
from .versions import version

ENTRY_POINT = "dragonlair.rl.gymnasium_env:DragonlairEnv"
VECTOR_ENTRY_POINT = "dragonlair.rl.gymnasium_env:DragonlairVectorEnv"
Obs = npt.NDArray[np.float32]


def env_id(game_id: str) -> str:
    """The Gymnasium id of a game: "dragon-stripes" -> "dragonlair/DragonStripes-v0" (the
    version: :mod:`.versions`)."""
    return f"dragonlair/{camel(game_id)}-v{version(game_id)}"


def register(game_id: str) -> str:
    """Register ``game_id`` with Gymnasium (idempotent); returns its id."""
    name = env_id(game_id)
    if name not in gym.registry:
        gym.register(
            id=name,
            entry_point=ENTRY_POINT,
            vector_entry_point=VECTOR_ENTRY_POINT,
            kwargs={"game": game_id},
        )
    return name


def register_all() -> list[str]:
    """Register every game whose manifest declares a layout; returns the Gymnasium ids."""
    return [register(g) for g in layout_ids()]


class DragonlairEnv(gym.Env[Obs, np.int64]):
    """One seat of a game against bots (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        game: str,
        players: int | None = None,
        options: Mapping[str, object] | None = None,
        opponents: str | Sequence[str] = "random",
        seat: int | None = 0,
        bot_params: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
        illegal_action: Literal["lose", "raise"] = "lose",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        check_render_mode(render_mode)
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', not {illegal_action!r}")
        self.game: Game = make(game, players=players, options=options)
        n = self.game.players
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n
        ):
            raise ValueError(
                f"seat must be None (random) or a seat from 0 to {n - 1}, not {seat!r}"
            )
        self.encoder: Encoder = encoder_for(self.game)
        self.seat_choice = seat
        self.levels = {  # the bots for each possible learner seat
            s: parse_opponents(self.game, opponents, [s], bot_params) for s in range(n)
        }
        self.opponents = {s: Opponents(self.game, specs) for s, specs in self.levels.items()}
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self._state: State | None = None
        self._done = True
        self.seat = seat if seat is not None else 0

    @property
    def state_now(self) -> State:
        """The engine's state of the current game (read it; act through ``step``)."""
        if self._state is None:
            raise RuntimeError("no game yet: call reset() first")
        return self._state

    def reset(
        self, *, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Deal a game and play the bots until the learner is asked."""
        self._start(seed, options)
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """Apply the learner's action, then play the bots until it is asked again."""
        reward, terminated, illegal = self._advance(action)
        info = self._info()
        if illegal is not None:
            info["illegal_action"] = illegal
        return self._observe(), reward, terminated, False, info

    def _start(self, seed: int | None, options: Mapping[str, Any] | None) -> None:
        """``reset`` without the observation: deal, and play the bots until the learner is
        asked."""
        super().reset(seed=seed)
        seat = self.seat_choice
        for key, value in (options or {}).items():
            if key != "seat":
                raise ValueError(f"unknown reset option {key!r}; the only one is 'seat'")
            n = self.game.players
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
                raise ValueError(
                    f"reset option seat must be a seat from 0 to {n - 1}, not {value!r}"
                )
            seat = value
        rng = self.np_random
        self.seat = int(rng.integers(self.game.players)) if seat is None else seat
        bots = self.opponents[self.seat]
        bots.seed(int(rng.integers(2**31)))
        while True:
            state = self._state = self.game.new_game(seed=int(rng.integers(TRAINING_SEEDS)))
            self._play_bots()
            if not state.is_over:
                break
        self._done = False

    def _advance(self, action: Any) -> tuple[float, bool, str | None]:
        """``step`` without the observation and info: the reward, whether the episode
        ended, and why the action was refused (None if it was legal)."""
        if self._done:
            raise RuntimeError("the episode is over: call reset() for a new game")
        state = self.state_now
        aid = action_index(action, self.game.num_actions, "action")
        if aid not in state.legal_action_ids(self.seat):
            error = refuse(state, self.seat, aid)
            if self.illegal_action == "raise":
                raise error
            self._done = True
            return self.illegal_reward, True, str(error)
        state.apply_id(self.seat, aid)
        self._play_bots()
        if state.is_over:
            self._done = True
            return win_shares(state.result, self.game.players)[self.seat], True, None
        return 0.0, False, None

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions as a boolean mask over the action space."""
        mask = np.zeros(self.game.num_actions, dtype=np.bool_)
        if self._state is not None:
            legal = self._state.legal_action_ids(self.seat)
            if legal:
                mask[legal] = True
        return mask

    def render(self) -> str | None:
        """The game in a few lines of text, as the learner sees it."""
        if self.render_mode != "ansi":
            return None
        if self._state is None:
            return "no game yet: call reset()"
        s = self._state
        lines = [f"{self.game.spec.name}, move {s.move}, phase {s.phase}; you are seat {self.seat}"]
        lines += [self.game.event_text(e) for e in s.events_since(0, self.seat)[-5:]]
        if s.result is not None:
            lines.append(f"winners: {list(s.result.winners)}; points: {list(s.result.points)}")
        return "\n".join(lines)

    # -------------------------------------------------------------- helpers

    def _play_bots(self) -> None:
        state = self.state_now
        bots = self.opponents[self.seat]
        while not state.is_over and self.seat not in state.to_act:
            seat = state.to_act[0]
            state.apply(seat, bots.choose(state, seat))

    def _observe(self, out: Obs | None = None) -> Obs:
        return self.encoder.encode(self.state_now.seat_view(self.seat), out)

    def _info(self) -> dict[str, Any]:
        mask = self.action_masks().astype(np.int8)
        return {"action_mask": mask, "seat": self.seat}


class DragonlairVectorEnv(gym.vector.VectorEnv[Obs, npt.NDArray[np.int64], Any]):
    """``num_envs`` tables of a game in one process, each one seat against bots, stepped
    together: ``step`` takes one action per table and returns batches (see
    ``docs/rl.md``). Each table is exactly a :class:`DragonlairEnv` with the same
    arguments, seeded the way Gymnasium's own ``SyncVectorEnv`` seeds its copies
    (``reset(seed=s)`` gives table ``i`` the seed ``s + i``), with next-step autoreset:
    the step after a table's episode ends resets that table, ignores its action and
    returns its first observation with reward 0 and neither flag set."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        game: str,
        num_envs: int,
        players: int | None = None,
        options: Mapping[str, object] | None = None,
        opponents: str | Sequence[str] = "random",
        seat: int | None = 0,
        bot_params: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
        illegal_action: Literal["lose", "raise"] = "lose",
        illegal_reward: float = -1.0,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, not {num_envs!r}")
        self.envs = [
            DragonlairEnv(
                game,
                players,
                options,
                opponents,
                seat,
                bot_params,
                illegal_action,
                illegal_reward,
            )
            for _ in range(num_envs)
        ]
        first = self.envs[0]
        self.num_envs = num_envs
        self.game: Game = first.game
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(first.observation_space, num_envs)
        self.action_space = batch_space(first.action_space, num_envs)
        self._obs = first.encoder.batch(num_envs)
        self._out = first.encoder.writable(self._obs)
        a = self.game.num_actions
        self._masks = np.zeros((num_envs, a), dtype=np.int8)
        self._seats = np.zeros(num_envs, dtype=np.int64)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terms = np.zeros(num_envs, dtype=np.bool_)
        self._truncs = np.zeros(num_envs, dtype=np.bool_)
        self._ended = np.zeros(num_envs, dtype=np.bool_)
        self._ready = False

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Obs, dict[str, Any]]:
        """Deal a game at every table (seeds ``seed + i``, or one per table from a list)."""
        if seed is None or isinstance(seed, int):
            seeds: list[int | None] = [
                None if seed is None else seed + i for i in range(self.num_envs)
            ]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(
                    f"expected {self.num_envs} seeds (one per table), got {len(seeds)}"
                )
        for env, s in zip(self.envs, seeds, strict=True):
            env._start(s, options)
        self._observe()
        self._ended[:] = False
        self._ready = True
        return self._obs.copy(), self._infos()

    def step(
        self, actions: Any
    ) -> tuple[
        Obs, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
    ]:
        """One action per table (an array or sequence of ``num_envs`` ids)."""
        if not self._ready:
            raise RuntimeError("no games yet: call reset() first")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,):
            raise ValueError(
                f"expected one action per table, an array of shape ({self.num_envs},); "
                f"got shape {acts.shape}"
            )
        # integer arrays as Python ints; anything else is checked id by id
        ids: list[Any] = acts.tolist() if acts.dtype.kind in "iu" else list(acts)
        limit = self.game.num_actions
        ended = self._ended.tolist()
        for i, env in enumerate(self.envs):  # check every table before stepping any
            if not ended[i]:
                aid = ids[i]
                if type(aid) is not int or not 0 <= aid < limit:
                    aid = ids[i] = action_index(aid, limit, f"table {i}'s action")
                state = env.state_now
                if env.illegal_action == "raise" and aid not in state.legal_action_ids(env.seat):
                    raise refuse(state, env.seat, aid)
        illegal: dict[int, str] = {}
        rewards = [0.0] * self.num_envs
        terms = [False] * self.num_envs
        for i, env in enumerate(self.envs):
            if ended[i]:
                env._start(None, None)
            else:
                rewards[i], terms[i], why = env._advance(ids[i])
                if why is not None:
                    illegal[i] = why
        self._observe()
        self._rewards[:] = rewards
        self._terms[:] = terms
        self._ended[:] = self._terms | self._truncs
        infos = self._infos()
        if illegal:
            text = np.full(self.num_envs, None, dtype=object)
            flags = np.zeros(self.num_envs, dtype=np.bool_)
            for i, why in illegal.items():
                text[i], flags[i] = why, True
            infos["illegal_action"], infos["_illegal_action"] = text, flags
        return (
            self._obs.copy(),
            self._rewards.copy(),
            self._terms.copy(),
            self._truncs.copy(),
            infos,
        )

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Each table's legal actions for its learner: a boolean array (num_envs, actions)."""
        return self._masks.astype(np.bool_)

    def _observe(self) -> None:
        """Encode every table's learner's view into its row of the batch, and set the
        masks of its legal actions."""
        seats = [env.seat for env in self.envs]
        states = [env.state_now for env in self.envs]
        observe_tables(states, seats, self.envs[0].encoder, self._out, self._masks)
        self._seats[:] = seats

    def _infos(self) -> dict[str, Any]:
        every = np.ones(self.num_envs, dtype=np.bool_)
        return {
            "action_mask": self._masks.copy(),
            "_action_mask": every,
            "seat": self._seats.copy(),
            "_seat": every.copy(),
        }


def make_vec(game: str, num_envs: int, **kwargs: Any) -> DragonlairVectorEnv:
    """The vector environment of ``game`` (a game id) with ``num_envs`` tables; the keyword
    arguments are :class:`DragonlairEnv`'s."""
    return DragonlairVectorEnv(game, num_envs, **kwargs)


register_all()
