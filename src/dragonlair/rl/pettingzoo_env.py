"""The games as PettingZoo environments: an AEC environment for every game, a Parallel
environment (most useful for the games with simultaneous choices), and a vector
environment of many tables.

Agents are ``player_0`` ... ``player_{n-1}`` (agent ``player_k`` is seat k). Every
observation is a dict: ``"observation"``, the seat's view encoded by the game's layout
(``Box(0, 1)``, float32; the table is in ``docs/rl.md``), and ``"action_mask"``, an int8
vector with a 1 at each legal action id. Rewards come at the end: each seat's share of the
win (1/k to each of k tied winners, 0 to the others).

AEC (:func:`env`)
    One agent at a time: ``agent_selection`` is the seat the engine asks (the lowest one
    still to answer during a simultaneous choice: the engine lets a simultaneous choice
    be made one seat at a time, and nothing of a choice is shown to the others until all
    are in). The action space is ``Discrete(game.num_actions)``, the game's own ids.

Parallel (:func:`parallel_env`)
    Every live agent sends an action at every step, and one step is one decision of the
    engine: at a simultaneous choice every seat asked answers at once and the choices are
    revealed together; in the sequential phases (turns, offers, reaction windows) only the
    seat asked acts, and everyone else sends ``wait``. The action space is
    ``Discrete(game.num_actions + 1)``: the game's own ids, then ``wait``; the mask of a
    seat not asked allows only ``wait`` (a seat not asked may also leave its entry out).

Vector (:func:`vector_env`)
    PettingZoo has no vector API, so this one follows Gymnasium's: ``num_tables`` tables
    stepped with one call, every seat a learner. Each call takes one action per table,
    for the seat the engine asks there (as in AEC), and returns NumPy batches: the next
    observation and mask at each table with the seat they belong to, the rewards of
    every seat, terminations; a table whose game ended is dealt again at the next call.

Bad input raises and changes nothing: an unknown agent, an action that is not an id in
the action space (ValueError), an action the rules do not allow now, or anything but
``wait`` from a seat not asked (IllegalAction, listing what is legal). A learner that
should be penalised for illegal moves instead can wrap the AEC environment in PettingZoo's
``TerminateIllegalWrapper``, or make the Parallel environment with
``illegal_action="lose"``: then an action in the action space that the rules do not allow
ends the episode for every agent at once, the game itself unchanged; each agent that sent
one gets ``illegal_reward`` (-1, below any real outcome) and ``infos[agent]
["illegal_action"]`` saying what was legal, the others 0. That is what a learner or a test
that samples without the mask needs (PettingZoo's ``parallel_seed_test`` does).

Seeding: ``reset(seed=s)`` makes the game's seed from ``s`` (so the same ``s`` gives the
same deal); a reset without a seed deals the next game from the same generator.
PettingZoo's API test passes made-up ``options`` to ``reset`` to check that the argument
exists, so ``reset`` accepts and ignores them: the game's own options are fixed, and
checked, when the environment is made.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]

from ..core import Game, IllegalAction, State, make
from .common import (
    TRAINING_SEEDS,
    action_index,
    agent_name,
    check_render_mode,
    refuse,
    snake,
    wait_id,
    win_shares,
)
from .layout import Encoder, encoder_for
from .vector import apply_actions, checked_actions, observe_tables
from .versions import version

Obs = dict[str, npt.NDArray[Any]]


class _Table:
    """What both environments share: the game, its encoder, the agents and the dealing."""

    def __init__(
        self, game_id: str, players: int | None, options: Mapping[str, object] | None, extra: int
    ) -> None:
        self.game: Game = make(game_id, players=players, options=options)
        self.encoder: Encoder = encoder_for(self.game)
        self.n_actions = self.game.num_actions + extra
        self.agents = [agent_name(s) for s in range(self.game.players)]
        self.seats = {a: s for s, a in enumerate(self.agents)}
        self.rng = np.random.default_rng()

    def deal(self, seed: int | None) -> State:
        """A new game, its seed from the generator (reseeded from ``seed`` when given)."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        return self.game.new_game(seed=int(self.rng.integers(TRAINING_SEEDS)))

    def seat(self, agent: object) -> int:
        """The seat of an agent name; ValueError naming the agents for anything else."""
        found = self.seats.get(agent) if isinstance(agent, str) else None
        if found is None:
            raise ValueError(f"no agent {agent!r}; the agents are {', '.join(self.agents)}")
        return found

    def spaces(self) -> tuple[dict[str, spaces.Dict], dict[str, spaces.Discrete]]:
        """One observation space and one action space per agent, made once."""
        obs = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (self.n_actions,), np.int8),
                }
            )
            for a in self.agents
        }
        act = {a: spaces.Discrete(self.n_actions) for a in self.agents}
        return obs, act

    def observe(self, state: State, seat: int, wait: bool) -> Obs:
        """A seat's tensor and action mask (with ``wait`` for a seat not asked)."""
        # the mask set in a bytearray, which NumPy then uses as its memory: cheaper than
        # zeros and an index array for a list of a few ids
        hot = bytearray(self.n_actions)
        legal = state.legal_action_ids(seat)
        for aid in legal:
            hot[aid] = 1
        if wait and not legal and not state.is_over:
            hot[wait_id(self.game)] = 1
        tensor = np.empty(self.encoder.size, np.float32)
        self.encoder.encode_row(state.seat_view(seat), seat, self.encoder.writable(tensor), 0)
        return {"observation": tensor, "action_mask": np.frombuffer(hot, np.int8)}

    def render(self, state: State | None) -> str:
        """A few lines: the move, who acts, the latest public events, the result."""
        if state is None:
            return "no game yet: call reset()"
        view = state.view(None)
        who = ", ".join(agent_name(s) for s in state.to_act) or "nobody"
        lines = [f"{self.game.spec.name}, move {state.move}, phase {state.phase}; to act: {who}"]
        lines += [self.game.event_text(e) for e in state.events_since(0, None)[-5:]]
        if view.get("result"):
            lines.append(f"result: {view['result']}")
        return "\n".join(lines)


class _Shared:
    """What both environments expose the same way: the game, the engine's state and the
    spaces of each agent."""

    _t: _Table
    _state: State | None
    _obs_spaces: dict[str, spaces.Dict]
    _act_spaces: dict[str, spaces.Discrete]
    metadata: dict[str, Any]

    def _set_up(
        self,
        game: str,
        players: int | None,
        options: Mapping[str, object] | None,
        render_mode: str | None,
        extra: int,
        name: str,
    ) -> None:
        """The table, spaces and agents of a new environment named ``name`` (``extra``:
        the spaces' additional wait action, for the Parallel environment)."""
        check_render_mode(render_mode)
        self._t = _Table(game, players, options, extra=extra)
        self.metadata = {**type(self).metadata, "name": name.format(snake(game), version(game))}
        self.render_mode = render_mode
        self.possible_agents = list(self._t.agents)
        self._obs_spaces, self._act_spaces = self._t.spaces()
        self._state = None
        self.agents: list[str] = []

    @property
    def game(self) -> Game:
        """The game (rules, data, options) this environment plays."""
        return self._t.game

    @property
    def state_now(self) -> State:
        """The engine's state of the current game (read it; act through ``step``)."""
        if self._state is None:
            raise RuntimeError("no game yet: call reset() first")
        return self._state

    def observation_space(self, agent: str) -> spaces.Dict:
        """The observation space of ``agent`` (the same object every time)."""
        return self._obs_spaces[self._t.agents[self._t.seat(agent)]]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The action space of ``agent`` (the same object every time)."""
        return self._act_spaces[self._t.agents[self._t.seat(agent)]]


class DragonlairAEC(_Shared, AECEnv):  # type: ignore[misc]
    """A game as a PettingZoo AEC environment (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        game: str,
        players: int | None = None,
        options: Mapping[str, object] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self._set_up(game, players, options, render_mode, 0, "dragonlair_{}_v{}")
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        # each seat's observation of one state at one move, made when first asked for
        # (by ``last`` or ``observe``) and dropped once the state moves: one per seat
        self._seen: dict[int, Obs] = {}
        self._seen_at: tuple[State | None, int] = (None, -1)

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """Deal a new game (from ``seed`` when given); ``options`` are ignored (see above)."""
        state = self._state = self._t.deal(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = agent_name(state.to_act[0])

    def observe(self, agent: str) -> Obs:
        """``agent``'s observation and action mask (any agent, at any time): fresh arrays
        on every call, encoded once per state and seat."""
        seat = self._t.seat(agent)
        state = self.state_now
        held, move = self._seen_at
        if held is not state or move != state.move:
            self._seen.clear()
            self._seen_at = (state, state.move)
        got = self._seen.get(seat)
        if got is None:
            got = self._seen[seat] = self._t.observe(state, seat, wait=False)
        return {"observation": got["observation"].copy(), "action_mask": got["action_mask"].copy()}

    def step(self, action: Any) -> None:
        """Apply the selected agent's action (None for an agent whose game is over)."""
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        state = self.state_now
        seat = self._t.seat(agent)
        if type(action) is int and 0 <= action < self._t.n_actions:
            aid = action
        else:
            aid = action_index(action, self._t.n_actions, f"{agent}'s action")
        try:  # the engine checks the id against the legal ones it listed for the mask
            state.apply_id(seat, aid)
        except IllegalAction:  # and changes nothing: say what is legal
            raise refuse(state, seat, aid) from None
        self._cumulative_rewards[agent] = 0.0
        if state.is_over:
            shares = win_shares(state.result, self.game.players)
            self.rewards = {a: shares[self._t.seat(a)] for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        else:  # every reward is 0 until the end (as reset set them): nothing to add
            self.agent_selection = self._t.agents[state.to_act[0]]

    def render(self) -> str:
        """The game in a few lines of text: the move, who acts, the latest public events."""
        return self._t.render(self._state)

    def close(self) -> None:
        """Nothing to release."""


class DragonlairParallel(_Shared, ParallelEnv):  # type: ignore[misc]
    """A game as a PettingZoo Parallel environment (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: str,
        players: int | None = None,
        options: Mapping[str, object] | None = None,
        render_mode: str | None = None,
        illegal_action: Literal["raise", "lose"] = "raise",
        illegal_reward: float = -1.0,
    ) -> None:
        if illegal_action not in ("raise", "lose"):
            raise ValueError(f"illegal_action must be 'raise' or 'lose', not {illegal_action!r}")
        self._set_up(game, players, options, render_mode, 1, "dragonlair_{}_parallel_v{}")
        self.wait = wait_id(self._t.game)
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)

    def _observations(self, state: State) -> dict[str, Obs]:
        return {a: self._t.observe(state, self._t.seat(a), wait=True) for a in self.agents}

    def reset(
        self, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        """Deal a new game (from ``seed`` when given); ``options`` are ignored (see above)."""
        state = self._state = self._t.deal(seed)
        self.agents = list(self.possible_agents)
        return self._observations(state), {a: {} for a in self.agents}

    def step(
        self, actions: Mapping[str, Any]
    ) -> tuple[
        dict[str, Obs],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """One decision of the engine: the seats asked act, the others wait."""
        state = self.state_now
        if not self.agents:
            raise RuntimeError("the game is over: call reset() for a new one")
        if not isinstance(actions, Mapping):
            raise ValueError(f"expected a dict of actions by agent, not {type(actions).__name__}")
        chosen: dict[int, int] = {}
        refused: dict[str, IllegalAction] = {}
        for agent, action in actions.items():
            seat = self._t.seat(agent)
            aid = action_index(action, self._t.n_actions, f"{agent}'s action")
            if seat in state.to_act:
                if aid not in state.legal_action_ids(seat):
                    refused[agent] = refuse(state, seat, aid)
                chosen[seat] = aid
            elif aid != self.wait:
                refused[agent] = refuse(state, seat, aid)
        missing = [agent_name(s) for s in state.to_act if s not in chosen]
        if missing:
            raise ValueError(f"{', '.join(missing)} must act now; no action was given for them")
        if refused:
            if self.illegal_action == "raise":
                raise next(iter(refused.values()))
            return self._end_for_illegal(state, refused)
        for seat in sorted(chosen):
            state.apply_id(seat, chosen[seat])
        live = list(self.agents)
        obs = self._observations(state)
        if state.is_over:
            shares = win_shares(state.result, self.game.players)
            rewards = {a: shares[self._t.seat(a)] for a in live}
            terminations = dict.fromkeys(live, True)
            self.agents = []
        else:
            rewards = dict.fromkeys(live, 0.0)
            terminations = dict.fromkeys(live, False)
        return obs, rewards, terminations, dict.fromkeys(live, False), {a: {} for a in live}

    def _end_for_illegal(
        self, state: State, refused: Mapping[str, IllegalAction]
    ) -> tuple[
        dict[str, Obs],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """``illegal_action="lose"``: the episode ends for every agent, the game unchanged;
        each agent in ``refused`` gets ``illegal_reward`` and the reason in its info."""
        live = list(self.agents)
        obs = self._observations(state)
        self.agents = []
        rewards = {a: self.illegal_reward if a in refused else 0.0 for a in live}
        infos: dict[str, dict[str, Any]] = {
            a: {"illegal_action": str(refused[a])} if a in refused else {} for a in live
        }
        return obs, rewards, dict.fromkeys(live, True), dict.fromkeys(live, False), infos

    def render(self) -> str:
        """The game in a few lines of text: the move, who acts, the latest public events."""
        return self._t.render(self._state)

    def close(self) -> None:
        """Nothing to release."""


def env(
    game: str,
    players: int | None = None,
    options: Mapping[str, object] | None = None,
    render_mode: str | None = None,
) -> DragonlairAEC:
    """The AEC environment of ``game`` (a game id, e.g. "dragon-stripes")."""
    return DragonlairAEC(game, players, options, render_mode)


def parallel_env(
    game: str,
    players: int | None = None,
    options: Mapping[str, object] | None = None,
    render_mode: str | None = None,
    illegal_action: Literal["raise", "lose"] = "raise",
    illegal_reward: float = -1.0,
) -> DragonlairParallel:
    """The Parallel environment of ``game`` (every step, every seat answers or waits);
    ``illegal_action="lose"`` ends the episode on an illegal action instead of raising."""
    return DragonlairParallel(game, players, options, render_mode, illegal_action, illegal_reward)


class DragonlairVectorAEC:
    """``num_tables`` tables of a game, every seat a learner, stepped together: at each
    call, the seat the engine asks at each table acts (see the module docstring).

    Table ``i`` plays exactly the game :func:`env` plays after ``reset(seed=s + i)``,
    with the same actions; its reward row is that environment's ``rewards`` after the
    step, by seat. A table whose game ended is dealt again at the next call (its action
    then ignored), from its own generator: Gymnasium's next-step autoreset."""

    def __init__(
        self,
        game: str,
        num_tables: int,
        players: int | None = None,
        options: Mapping[str, object] | None = None,
    ) -> None:
        if isinstance(num_tables, bool) or not isinstance(num_tables, int) or num_tables < 1:
            raise ValueError(f"num_tables must be a positive int, not {num_tables!r}")
        self._t = _Table(game, players, options, extra=0)
        self.game: Game = self._t.game
        self.num_tables = num_tables
        self.possible_agents = list(self._t.agents)
        n, a = self._t.encoder.size, self._t.n_actions
        self.observation_space = spaces.Box(0.0, 1.0, (n,), np.float32)
        self.action_space = spaces.Discrete(a)
        self.states: list[State] = []
        self._rngs = [np.random.default_rng() for _ in range(num_tables)]
        # the batches every call writes into (returned as copies)
        self._obs = self._t.encoder.batch(num_tables)
        self._out = self._t.encoder.writable(self._obs)
        self._masks = np.zeros((num_tables, a), dtype=np.int8)
        self._seats = np.zeros(num_tables, dtype=np.int64)
        self._rewards = np.zeros((num_tables, self.game.players), dtype=np.float64)
        self._terms = np.zeros(num_tables, dtype=np.bool_)
        self._asked = [0] * num_tables  # the seat asked at each table, as a Python int
        self._ended = [False] * num_tables

    def reset(
        self, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, npt.NDArray[Any]]]:
        """Deal a game at every table (table ``i`` from ``seed + i`` when given);
        ``options`` are ignored, as by :func:`env`."""
        if seed is not None:
            self._rngs = [np.random.default_rng(seed + i) for i in range(self.num_tables)]
        self.states = [self._deal(i) for i in range(self.num_tables)]
        self._asked = [state.to_act[0] for state in self.states]
        observe_tables(self.states, self._asked, self._t.encoder, self._out, self._masks)
        self._seats[:] = self._asked
        self._rewards[:] = 0.0
        self._terms[:] = False
        self._ended = [False] * self.num_tables
        return self._obs.copy(), self._infos()

    def step(
        self, actions: Any
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, npt.NDArray[Any]],
    ]:
        """One action per table, by the seat asked there; returns the next observations,
        the rewards (tables x seats), terminations, truncations (never) and infos."""
        if not self.states:
            raise RuntimeError("no games yet: call reset() first")
        chosen = self._checked(actions)
        # the loops over the tables (apply, then encode each next seat's view into its
        # row and set its mask) are compiled in the compiled build
        states, asked = self.states, self._asked
        over = apply_actions(states, asked, chosen, self._deal)
        observe_tables(states, asked, self._t.encoder, self._out, self._masks)
        self._seats[:] = asked
        rewards, terms = self._rewards, self._terms
        rewards[:] = 0.0
        terms[:] = False
        ended = [False] * self.num_tables
        players = self.game.players
        for i in over:
            rewards[i] = win_shares(states[i].result, players)
            ended[i] = True
        terms[over] = True
        self._ended = ended
        return (
            self._obs.copy(),
            rewards.copy(),
            terms.copy(),
            np.zeros(self.num_tables, dtype=np.bool_),
            self._infos(),
        )

    def _checked(self, actions: Any) -> list[int]:
        """Every table's action id (-1 for a table to deal again), checked at every table
        before any moves: ValueError for a wrong shape or an id out of range,
        IllegalAction for one the rules do not allow now."""
        acts = np.asarray(actions)
        if acts.shape != (self.num_tables,):
            raise ValueError(
                f"expected one action per table, an array of shape ({self.num_tables},); "
                f"got shape {acts.shape}"
            )
        # integer arrays as Python ints; anything else is checked id by id
        ids: list[Any] = acts.tolist() if acts.dtype.kind in "iu" else list(acts)
        return checked_actions(self.states, self._asked, self._ended, ids, self._t.n_actions)

    def _deal(self, i: int) -> State:
        return self.game.new_game(seed=int(self._rngs[i].integers(TRAINING_SEEDS)))

    def _infos(self) -> dict[str, npt.NDArray[Any]]:
        return {"action_mask": self._masks.copy(), "seat": self._seats.copy()}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the seat asked at each table: booleans (tables, actions)."""
        return self._masks.astype(np.bool_)

    def close(self) -> None:
        """Nothing to release."""


def vector_env(
    game: str,
    num_tables: int,
    players: int | None = None,
    options: Mapping[str, object] | None = None,
) -> DragonlairVectorAEC:
    """``num_tables`` tables of ``game`` stepped together (see :class:`DragonlairVectorAEC`)."""
    return DragonlairVectorAEC(game, num_tables, players, options)
