"""The games as OpenSpiel games, registered with ``pyspiel.register_game``.

Importing this module registers every installed game that has an observation layout;
:func:`register` adds another (the example game in our tests, a designer's variant).
Then ``pyspiel.load_game("python_dragon_stripes(players=3)")`` works like any OpenSpiel
game, and so do OpenSpiel's algorithms, bots and tests.

Names and parameters
    ``python_<game>`` with the id's dashes as underscores (``python_dragon_stripes``,
    ``python_space_race``). Parameters: ``players`` (default: 4 where allowed), ``seed``
    (see chance), and every option of the game under its own name (a path option takes
    ``""`` for the built-in data). A bad player count or option raises the engine's own
    ``BadOptions``, naming what was wrong and what is allowed.

Dynamics
    A game whose layout says it has simultaneous secret choices (Space Dragons' draft,
    Space Race's picks and bids) is registered the OpenSpiel way, as a ``SIMULTANEOUS``
    game: every decision node is a simultaneous node and ``apply_actions`` takes one
    action from every seat; the seats the engine asks choose (several at once where the
    rules have them choose in secret, one on a turn, an offer or a reaction window) and
    every other seat has the single legal action ``wait`` (id ``num_actions``, one past
    the game's own). That is what OpenSpiel's RL environment and its agents (DQN, NFSP,
    policy gradients) expect of a simultaneous game: at every step each agent reads its
    own legal actions and answers. OpenSpiel's
    search bots (MCTS, ISMCTS) need a turn-based game, so such a game is also registered as
    ``python_<game>_turns``: a ``SEQUENTIAL`` game in which the seats of a simultaneous
    choice answer one at a time, lowest seat first. The engine allows exactly this (a view
    never shows another seat's sealed choice, only that it has been made), so it is the
    same game. A game without simultaneous choices is registered once, as ``SEQUENTIAL``.

Chance
    ``SAMPLED_STOCHASTIC``. The engine draws its chance (shuffles, coin flips) inside the
    state from the state's own seeded generator, so there are no chance nodes: each
    ``new_initial_state()`` gets the next seed from the game's generator, seeded by the
    ``seed`` parameter (default 0; -1 takes a fresh seed from the operating system), so a
    run is reproducible while every new state is a new deal. A clone continues the same
    deal (the seed is part of the state), and ``str(state)`` is the seed and the actions
    so far, which determine the state exactly. OpenSpiel serializes a sampled-stochastic
    *game* together with its generator's state, which it does not let a Python game
    provide, so ``serialize_game_and_state`` is not available (and ``random_sim_test``
    runs with ``serialize=False``); states serialize exactly with ``state.serialize()``
    and ``game.deserialize_state()`` (as the engine's JSON).

Information
    ``IMPERFECT_INFORMATION``. Every string and tensor is made from the seat's view
    (``state.view(seat)``), the engine's single door for hidden information:

    - observation string: the seat's current view, as compact JSON with sorted keys;
    - observation tensor: the view encoded by the game's layout (``docs/rl.md``);
    - information-state string: ``<seat>:<move>:<digest>``, 37 to 40 characters
      (``p`` for the public observer), made once per state and seat. The digest is the
      blake2b hash (16 bytes, in hex) of the seat's information state in full, which
      ``state.information_state_text(seat)`` gives for reading: the seat's memory, one
      line each, then ``now`` and its current view as compact JSON. The memory is every
      event the seat was shown (``state.events_since(0, seat)``, as the seat sees them,
      without their sequence numbers, compact JSON) with the seat's own actions
      (``> <action>``) interleaved where it took them: the engine reports every change a
      seat can perceive as an event, so two histories give the same text exactly when
      the seat cannot tell them apart. The hash reads the memory as it grows (kept per
      seat, shared with clones), so each event is rendered and hashed once along a game;
    - no information-state tensor: a seat's whole memory has no fixed size, and our
      views already carry the public record a player uses (cards seen, ledgers, scores),
      so the observation tensor is the input for learning. Public observers (no private
      information) get the spectator's view (``view(None)``).

Utility
    ``CONSTANT_SUM`` with ``utility_sum`` 1: a share of the win (1/k to each of k tied
    winners), between 0 and 1; ``TERMINAL`` rewards. ``max_game_length`` is the engine's
    ``game.max_length`` and ``num_distinct_actions`` the game's own ``num_actions`` (plus
    ``wait`` for a simultaneous registration).

Search
    ``state.resample_from_infostate(player, sampler)`` (what OpenSpiel's ISMCTS calls) is
    the engine's hidden-state sampler, ``game.sample_state(view, rng)``: it keeps what the
    player can see and redraws everything else, future chance included, and the sampled
    state carries the player's memory so its information state is unchanged.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
import pyspiel

from ..core import Game, IllegalAction, State, load, make
from ..core import spec as game_spec
from ..core.rng import Rng
from ..core.spec import OptionSpec
from .common import WAIT_TEXT, refuse, snake, wait_id, win_shares
from .layout import Encoder, encoder_for, layout_for, layout_ids

_Dyn = pyspiel.GameType.Dynamics
_registered: dict[str, tuple[str, bool]] = {}  # OpenSpiel name -> (game id, simultaneous)
_classes: dict[str, type[SpielGame]] = {}

# An own-action chain node: (previous node, seat, events before it, action id).
ActNode = tuple[Any, int, int, int]


def game_name(game_id: str, turn_based: bool = False) -> str:
    """The OpenSpiel name of a game: ``python_<game>``, or its turn-based twin
    ``python_<game>_turns`` (the same name for a game without simultaneous choices)."""
    name = f"python_{snake(game_id)}"
    if turn_based and layout_for(game_id).simultaneous:
        return name + "_turns"
    return name


def register(game_id: str) -> list[str]:
    """Register ``game_id`` with OpenSpiel (idempotent); returns its OpenSpiel names."""
    spec = game_spec(game_id)
    layout = layout_for(game_id)
    names = [(game_name(game_id), layout.simultaneous)]
    if layout.simultaneous:
        names.append((game_name(game_id, turn_based=True), False))
    params = _parameters(spec.default_players, spec.options)
    for short, simultaneous in names:
        if short in _registered:
            continue
        kind = "simultaneous" if simultaneous else "turn-based"
        game_type = pyspiel.GameType(
            short_name=short,
            long_name=f"{spec.name} ({kind})",
            dynamics=_Dyn.SIMULTANEOUS if simultaneous else _Dyn.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.CONSTANT_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=spec.max_players,
            min_num_players=spec.min_players,
            provides_information_state_string=True,
            provides_information_state_tensor=False,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=params,
        )
        cls = type(
            f"SpielGame_{snake(short)}",
            (SpielGame,),
            {"game_id": game_id, "game_type": game_type, "simultaneous": simultaneous},
        )
        # A class, as OpenSpiel's own Python games register: OpenSpiel keeps the creator
        # until the interpreter has finalized, which a class survives and a closure not.
        pyspiel.register_game(game_type, cls)
        _registered[short] = (game_id, simultaneous)
        _classes[short] = cls
    return [n for n, _ in names]


def register_all() -> list[str]:
    """Register every game whose manifest declares a layout; returns the OpenSpiel names."""
    out: list[str] = []
    for gid in layout_ids():
        out += register(gid)
    return out


def registered() -> dict[str, str]:
    """The OpenSpiel names registered so far, with the game id of each."""
    return {name: gid for name, (gid, _) in _registered.items()}


def load_game(
    game_id: str, players: int | None = None, turn_based: bool = False, **params: Any
) -> Any:
    """``pyspiel.load_game`` for one of our games by its id (registering it if needed)."""
    register(game_id)
    full = dict(params)
    if players is not None:
        full["players"] = players
    return pyspiel.load_game(game_name(game_id, turn_based), full)


def _parameters(default_players: int, options: tuple[OptionSpec, ...]) -> dict[str, Any]:
    params: dict[str, Any] = {"players": default_players, "seed": 0}
    for o in options:
        if o.name in params:
            raise ValueError(f"option {o.name!r} clashes with an OpenSpiel parameter")
        params[o.name] = "" if o.default is None else o.default
    return params


class SpielGame(pyspiel.Game):  # type: ignore[misc]
    """One of our games, for a given number of players and options, as an OpenSpiel game.
    :func:`register` makes one subclass per OpenSpiel name, setting the class attributes."""

    game_id: ClassVar[str]
    game_type: ClassVar[Any]
    simultaneous: bool

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        game_id = self.game_id
        spec = game_spec(game_id)
        given = dict(params or {})
        players = given.pop("players", spec.default_players)
        seed = given.pop("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an integer, not {seed!r}")
        options = {
            k: (None if v == "" and spec.option(k).default is None else v) for k, v in given.items()
        }
        engine = make(game_id, players=players, options=options)
        self.engine = engine
        self.encoder: Encoder = encoder_for(engine)
        simultaneous = self.simultaneous
        self.wait = wait_id(engine) if simultaneous else -1
        self._seeds = Rng(seed if seed >= 0 else int.from_bytes(os.urandom(8), "big"))
        info = pyspiel.GameInfo(
            num_distinct_actions=engine.num_actions + (1 if simultaneous else 0),
            max_chance_outcomes=0,
            num_players=engine.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=engine.max_length,
        )
        super().__init__(self.game_type, info, dict(params or {}))

    def next_seed(self) -> int:
        """The seed of the next new state (from the game's own generator)."""
        return self._seeds.next64() >> 1

    def new_initial_state(self) -> SpielState:
        """A new deal (the next seed from the game's generator)."""
        return SpielState(self, _Core(self, self.next_seed()))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> Observer:
        """The observer OpenSpiel uses for strings and tensors (see the module docstring)."""
        return Observer(self, iig_obs_type, params)


class _Core:
    """Everything an OpenSpiel state holds, in one object that copies itself fast.

    OpenSpiel clones a Python state by deep-copying each attribute; the engine's own
    ``clone()`` is much faster than a deep copy and must not copy the game, so the state
    keeps one attribute, this, whose ``__deepcopy__`` is ``clone()``. It pickles as the
    engine's exact JSON (``state.to_json()``), which is how OpenSpiel serializes."""

    __slots__ = (
        "_state",
        "acts",
        "chains",
        "engine",
        "memo",
        "prefix",
        "seed",
        "spiel",
        "strings",
        "tensors",
    )

    def __init__(
        self,
        spiel: SpielGame | None,
        seed: int,
        state: State | None = None,
        acts: ActNode | None = None,
        prefix: dict[int | None, str] | None = None,
        memo: dict[int | None, tuple[int, str]] | None = None,
        chains: dict[int | None, tuple[int, Any]] | None = None,
    ) -> None:
        self.spiel = spiel
        self.engine: Game | None = spiel.engine if spiel is not None else None
        self.seed = seed
        self._state = state
        self.acts = acts
        self.prefix = prefix
        # Per seat, what its memory covers so far (events), then its text, or a hash
        # that has read that text. Both only grow, so clones share them (copy on write).
        self.memo: dict[int | None, tuple[int, str]] = {} if memo is None else memo
        self.chains: dict[int | None, tuple[int, Any]] = {} if chains is None else chains
        # The strings of this very state, by (kind, seat); cleared by every action.
        self.strings: dict[tuple[str, int | None], str] = {}
        self.tensors: dict[int, npt.NDArray[np.float32]] = {}

    @property
    def state(self) -> State:
        """The engine's state (dealt on first use)."""
        s = self._state
        if s is None:  # made on first use, so a clone never deals a game it throws away
            assert self.engine is not None
            s = self._state = self.engine.new_game(self.seed)
        return s

    def __deepcopy__(self, memo: Any) -> _Core:
        s = self._state
        core = _Core(
            self.spiel,
            self.seed,
            None if s is None else s.clone(),
            self.acts,
            self.prefix,
            self.memo,
            self.chains,
        )
        core.strings, core.tensors = self.strings, self.tensors  # until one of them acts
        return core

    def __reduce__(self) -> tuple[Any, ...]:
        acts = []
        node = self.acts
        while node is not None:
            acts.append(node[1:])
            node = node[0]
        acts.reverse()
        return (_restore_core, (self.state.to_json(), self.seed, acts, self.prefix))

    def apply(self, seat: int, aid: int) -> None:
        """Apply ``seat``'s action and remember it as that seat's own."""
        s = self.state
        before = s.event_count
        s.apply_id(seat, aid)
        self.acts = (self.acts, seat, before, aid)
        self.strings = {}
        self.tensors = {}

    def _lines(self, seat: int | None, start: int) -> tuple[list[str], list[str]]:
        """The lines of ``seat``'s memory from event ``start`` on: the events it was shown
        (compact JSON without their numbers) with its own actions (``> <action>``) where
        it took them; then, apart, its actions after the last event (more events may
        still come before them)."""
        s = self.state
        mine: list[tuple[int, int]] = []
        node = self.acts
        while node is not None and node[2] >= start:
            if node[1] == seat:
                mine.append((node[2], node[3]))
            node = node[0]
        mine.reverse()
        actions = s.game.table.actions
        lines: list[str] = []
        k = 0
        for e in s.events_since(start, seat):
            while k < len(mine) and mine[k][0] <= e["seq"]:
                lines.append(f"> {actions[mine[k][1]]}")
                k += 1
            del e["seq"]
            lines.append(_dumps(e))
        return lines, [f"> {actions[aid]}" for _, aid in mine[k:]]

    def memory(self, seat: int | None) -> str:
        """What ``seat`` (None: the public) remembers, in full: the events it was shown,
        with its own actions where it took them, after what it remembered before a
        resample; one line each.

        The text only ever grows, so it is kept per seat with the number of events it
        covers, and later calls render only the events and actions since (the cache is
        shared with clones, whose history has the same beginning)."""
        s = self.state
        memo = self.memo.get(seat)
        if memo is None:
            start = 0
            text = self.prefix[seat] if self.prefix is not None else ""
        else:
            start, text = memo
        lines, tail = self._lines(seat, start)
        text += "".join(line + "\n" for line in lines)
        self.memo = {**self.memo, seat: (s.event_count, text)}
        return text + "".join(line + "\n" for line in tail)

    def hasher(self, seat: int | None) -> Any:
        """A blake2b hash (16 bytes) that has read ``seat``'s whole :meth:`memory` text:
        kept per seat like the text, and extended by copying, so each line is rendered
        and hashed once along a game and its clones."""
        s = self.state
        got = self.chains.get(seat)
        if got is None:
            start = 0
            h = hashlib.blake2b(digest_size=16)
            if self.prefix is not None:
                h.update(self.prefix[seat].encode())
        else:
            start, h = got
            h = h.copy()
        lines, tail = self._lines(seat, start)
        if lines:
            h.update("".join(line + "\n" for line in lines).encode())
        self.chains = {**self.chains, seat: (s.event_count, h)}
        h = h.copy()
        if tail:
            h.update("".join(line + "\n" for line in tail).encode())
        return h

    def information_state(self, seat: int | None) -> str:
        """The compact information-state string of ``seat`` (see the module docstring),
        made once per state and seat: the hash of :meth:`SpielState.information_state_text`."""
        key = ("info", seat)
        text = self.strings.get(key)
        if text is None:
            h = self.hasher(seat)
            h.update(("now " + self.observation(seat)).encode())
            who = "p" if seat is None else str(seat)
            text = self.strings[key] = f"{who}:{self.state.move}:{h.hexdigest()}"
        return text

    def observation(self, seat: int | None) -> str:
        """``seat``'s current view as compact JSON with sorted keys, made once per state."""
        key = ("view", seat)
        text = self.strings.get(key)
        if text is None:
            text = self.strings[key] = _dumps(self.state.view(seat))
        return text

    def describe(self) -> str:
        """The state in text: a summary line, then the seed and the actions (seat:id)."""
        s = self.state
        if s.seed is None:
            return s.to_json()
        moves: list[str] = []
        node = self.acts
        while node is not None:
            moves.append(f"{node[1]}:{node[3]}")
            node = node[0]
        moves.reverse()
        head = (
            f"{s.game.spec.id} seed={s.seed} move={s.move} phase={s.phase} to_act={list(s.to_act)}"
        )
        return head + "\nactions " + " ".join(moves)


def _restore_core(text: str, seed: int, acts: list[Any], prefix: Any) -> _Core:
    state = load(text)
    node: ActNode | None = None
    for seat, nev, aid in acts:
        node = (node, seat, nev, aid)
    core = _Core(None, seed, state, node, prefix)
    core.engine = state.game
    return core


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


class SpielState(pyspiel.State):  # type: ignore[misc]
    """A game in progress, as an OpenSpiel state (see the module docstring)."""

    def __init__(self, game: SpielGame, core: _Core) -> None:
        super().__init__(game)
        self._core = core

    # -------------------------------------------------------------- helpers

    @property
    def engine_state(self) -> State:
        """The engine's state underneath (read it; apply actions through OpenSpiel)."""
        return self._core.state

    def _spiel(self) -> SpielGame:
        g = self._core.spiel
        if g is None:  # a deserialized state: bind it to its game once
            g = self._core.spiel = self.get_game()
        return g

    # -------------------------------------------------------------- the OpenSpiel API

    def current_player(self) -> int:
        """The seat to act, SIMULTANEOUS at a simultaneous node, TERMINAL when over."""
        s = self._core.state
        if s.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self._spiel().simultaneous:  # every decision node (see the module docstring)
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return s.to_act[0]

    def _legal_actions(self, player: int) -> list[int]:
        s = self._core.state
        if player in s.to_act:
            return sorted(s.legal_action_ids(player))
        if self._spiel().simultaneous and not s.is_over and 0 <= player < s.game.players:
            return [self._spiel().wait]
        return []

    def _apply_action(self, action: int) -> None:
        s = self._core.state
        if s.is_over:
            raise IllegalAction("the game is over; no action can be applied")
        self._core.apply(s.to_act[0], _action_id(action, s.game.num_actions))

    def _apply_actions(self, actions: list[int]) -> None:
        s = self._core.state
        n = s.game.players
        if len(actions) != n:
            raise ValueError(f"expected one action per seat ({n}), got {len(actions)}")
        wait = self._spiel().wait
        waiting = s.to_act
        for seat, a in enumerate(actions):  # check every seat before applying any
            if seat in waiting:
                aid = _action_id(a, s.game.num_actions)
                if aid not in s.legal_action_ids(seat):
                    raise refuse(s, seat, aid)
            elif a != wait:
                raise refuse(s, seat, int(a))
        for seat in waiting:
            self._core.apply(seat, int(actions[seat]))

    def _action_to_string(self, player: int, action: int) -> str:
        game = self._core.state.game
        if action == self._spiel().wait:
            return WAIT_TEXT
        return str(game.action_from_id(int(action)))

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self._core.state.is_over

    def returns(self) -> list[float]:
        """Each seat's share of the win at the end (0 for all before)."""
        s = self._core.state
        return win_shares(s.result, s.game.players)

    def __str__(self) -> str:
        """The seed and every action so far, which determine the state exactly (the whole
        engine JSON for a state sampled from a view, which has no seed)."""
        return self._core.describe()

    # -------------------------------------------------------------- search

    def resample_from_infostate(self, player: int, sampler: Any = None) -> SpielState:
        """A state ``player`` cannot tell from this one, the hidden rest redrawn by the
        engine's sampler; ``sampler`` (OpenSpiel's probability sampler) seeds the draw."""
        core = self._core
        s = core.state
        if (
            isinstance(player, bool)
            or not isinstance(player, int)
            or not 0 <= player < s.game.players
        ):
            raise ValueError(
                f"player must be a seat from 0 to {s.game.players - 1}, not {player!r}"
            )
        if callable(sampler):
            rng = random.Random(int(sampler() * 2**53))
        else:
            rng = random.Random(self._spiel().next_seed())
        sampled = s.game.sample_state(json.loads(json.dumps(s.view(player))), rng)
        public = core.memory(None)
        prefix: dict[int | None, str] = dict.fromkeys(range(s.game.players), public)
        prefix[None] = public
        prefix[player] = core.memory(player)
        spiel = self._spiel()
        return SpielState(spiel, _Core(spiel, core.seed, sampled, None, prefix))

    # -------------------------------------------------------------- strings for observers

    def observation_json(self, seat: int | None) -> str:
        """The seat's current view as compact JSON with sorted keys."""
        return self._core.observation(seat)

    def observation_array(self, seat: int) -> npt.NDArray[np.float32]:
        """The seat's observation tensor, encoded once per state (do not write to it)."""
        core = self._core
        t = core.tensors.get(seat)
        if t is None:
            t = core.tensors[seat] = self._spiel().encoder.encode(core.state.seat_view(seat))
        return t

    def information_state(self, seat: int | None) -> str:
        """The seat's compact information-state string (see the module docstring)."""
        return self._core.information_state(seat)

    def information_state_text(self, seat: int | None) -> str:
        """The seat's memory and current view in full, one line each, for reading: what
        the compact string is a digest of."""
        return self._core.memory(seat) + "now " + self.observation_json(seat)


def _action_id(action: object, limit: int) -> int:
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        raise ValueError(f"expected an action id from 0 to {limit - 1}, got {action!r}")
    aid = int(action)
    if not 0 <= aid < limit:
        raise IllegalAction(f"action id {aid} is out of range: expected 0 to {limit - 1}")
    return aid


class Observer:
    """OpenSpiel's observer interface (``tensor``, ``dict``, ``set_from``, ``string_from``)
    over our views: the seat's view, or the spectator's for a public observer; its memory
    too for a perfect-recall (information-state) observer."""

    def __init__(
        self, game: SpielGame, iig_obs_type: Any, params: Mapping[str, Any] | None
    ) -> None:
        if params:
            raise ValueError(
                f"{game.engine.spec.name} observers take no parameters, got {dict(params)}"
            )
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER
        public_info, perfect_recall = True, False
        if iig_obs_type is not None:
            private = iig_obs_type.private_info
            public_info = iig_obs_type.public_info
            perfect_recall = iig_obs_type.perfect_recall
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(
                "an observer of every seat's private information is not offered: views are "
                "per seat (observe each seat in turn)"
            )
        if not public_info:
            raise ValueError(
                "an observer without public information is not offered: a view mixes public "
                "and private information (use a single-player or a public observer)"
            )
        self.public = private == pyspiel.PrivateInfoType.NONE
        self.perfect_recall = perfect_recall
        self.encoder = game.encoder
        self.tensor: npt.NDArray[np.float32] | None = None
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        if not self.public and not perfect_recall:
            t = np.zeros(self.encoder.size, dtype=np.float32)
            self.tensor = t
            self.dict = {name: t[sl] for name, sl in self.encoder.slices().items()}

    def set_from(self, state: SpielState, player: int) -> None:
        """Write ``player``'s observation tensor into ``self.tensor`` (encoded once per
        state and seat)."""
        if self.tensor is not None:
            self.tensor[:] = state.observation_array(player)

    def string_from(self, state: SpielState, player: int) -> str:
        """``player``'s observation or information-state string."""
        seat = None if self.public else player
        if self.perfect_recall:
            return state.information_state(seat)
        return state.observation_json(seat)


register_all()
