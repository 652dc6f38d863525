"""Trained policies as bots: a network exported to ONNX, run with ONNX Runtime.

A policy file is an ONNX model with one input, a batch of observation tensors (float32,
``(batch, encoder.size)``, the game's layout as in ``docs/rl.md``), and one output, a batch
of action scores (``(batch, game.num_actions)``, logits or any scores whose largest legal
entry is the move). Its metadata (ONNX ``metadata_props``) says what it was trained for:

- ``dragonlair.game``: the game id;
- ``dragonlair.layout``: :func:`layout_signature` of the game's layout (the names and
  sizes of its features and the number of actions), so a policy is never fed a tensor of
  another layout;
- ``dragonlair.players`` (the player count it was trained at) and ``dragonlair.trained``
  (how: a line of text), for reading.

:class:`PolicyBot` is the ``trained`` bot level (``dragonlair.bots.make_bot("trained",
game)``, ``--bots trained``): from the seat's view (encoded by the layout) and its legal
actions only, it plays the legal action with the highest score (``sample=True``: draws
one from the softmax of the legal scores). Without a ``policy`` parameter it loads the
game's shipped policy, ``dragonlair/rl/policies/<game>.onnx``; ``trained:policy=PATH``
plays any policy file. Only ONNX Runtime (the ``rl`` extra) is needed to play, no training
framework: it runs the small networks on the CPU in tens of microseconds a move.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core import Action, Game
from ..core.bot import Bot
from ..core.views import view_class
from .layout import Encoder, encoder_for
from .versions import signature_text

POLICY_DIR = "policies"
META_GAME = "dragonlair.game"
META_LAYOUT = "dragonlair.layout"
META_PLAYERS = "dragonlair.players"
META_TRAINED = "dragonlair.trained"


class PolicyError(ValueError):
    """A policy file that cannot be played: missing, not ONNX, or made for another game
    or layout."""


def layout_signature(encoder: Encoder) -> str:
    """A short digest of what a policy's input and output mean: the layout's feature
    names and sizes in order, and the number of actions."""
    return hashlib.blake2b(signature_text(encoder).encode(), digest_size=8).hexdigest()


def shipped_policy(game_id: str) -> Path | None:
    """The policy shipped for ``game_id`` (package data), or None if there is none."""
    found = resources.files("dragonlair.rl").joinpath(POLICY_DIR, f"{game_id}.onnx")
    return Path(str(found)) if found.is_file() else None


def shipped_games() -> list[str]:
    """The games a policy is shipped for."""
    folder = resources.files("dragonlair.rl").joinpath(POLICY_DIR)
    if not folder.is_dir():
        return []
    return sorted(p.name[: -len(".onnx")] for p in folder.iterdir() if p.name.endswith(".onnx"))


@cache
def _session(path: str) -> tuple[Any, dict[str, str], str, str]:
    """ONNX Runtime's session of a policy file, loaded once per process and shared by
    every bot playing it; with the file's metadata and its input and output names."""
    try:
        import onnxruntime as ort
    except ImportError:
        raise PolicyError(
            "playing a trained policy needs ONNX Runtime: pip install 'dragonlair[rl]'"
        ) from None
    if not Path(path).is_file():
        raise PolicyError(f"no policy file {path!r}")
    options = ort.SessionOptions()
    # one thread: a bot moves one seat at a time, and the machines it plays on are shared
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    try:
        session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    except Exception as e:  # ONNX Runtime's errors have no common base class
        raise PolicyError(f"{path} is not an ONNX model that ONNX Runtime can run: {e}") from None
    meta = dict(session.get_modelmeta().custom_metadata_map)
    inputs, outputs = session.get_inputs(), session.get_outputs()
    if len(inputs) != 1 or not outputs:
        raise PolicyError(f"{path}: expected one input (observations) and an output of scores")
    return session, meta, inputs[0].name, outputs[0].name


class Policy:
    """An ONNX policy for one game: scores for batches of observation tensors, and the
    best legal action of each."""

    def __init__(self, path: str | Path, game: Game) -> None:
        self.path = Path(path).expanduser().resolve()
        self.session, self.meta, self.input, self.output = _session(str(self.path))
        self.encoder: Encoder = encoder_for(game)
        self.game = game
        want = {META_GAME: game.spec.id, META_LAYOUT: layout_signature(self.encoder)}
        for key, value in want.items():
            got = self.meta.get(key)
            if got != value:
                raise PolicyError(
                    f"{self.path} was made for {key}={got!r}, not {value!r} "
                    f"({game.spec.name} and its current layout): retrain or re-export it"
                )

    def scores(self, obs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The action scores of a batch of observation tensors ``(batch, size)``."""
        out = self.session.run([self.output], {self.input: obs})[0]
        return np.asarray(out, dtype=np.float32).reshape(obs.shape[0], -1)

    def act(self, obs: npt.NDArray[np.float32], masks: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
        """The best legal action of each row (``masks``: nonzero where legal)."""
        s = np.where(masks.astype(bool), self.scores(obs), -np.inf)
        best: npt.NDArray[np.int64] = np.argmax(s, axis=1).astype(np.int64)
        return best


class PolicyBot(Bot):
    """The ``trained`` level: a policy's choice from the seat's view and legal actions."""

    level = "trained"

    def __init__(self, game: Game, policy: str | None = None, sample: bool = False) -> None:
        super().__init__(game)
        if policy is None:
            found = shipped_policy(game.spec.id)
            if found is None:
                raise PolicyError(
                    f"no trained policy is shipped for {game.spec.name}; "
                    f"give one with trained:policy=PATH"
                )
            path = found
        elif isinstance(policy, str) and policy:
            path = Path(policy).expanduser()
        else:
            raise PolicyError(f"policy is the path of an ONNX file, not {policy!r}")
        if not isinstance(sample, bool):
            raise PolicyError(f"sample is true or false, not {sample!r}")
        self.policy = Policy(path, game)
        self.sample = sample
        self._obs = np.zeros((1, self.policy.encoder.size), dtype=np.float32)

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """The legal action the policy scores highest (or one drawn by its softmax)."""
        game = self.game
        typed = view_class(game)
        if typed is not None and not isinstance(view, typed):
            # a view in its JSON form (the terminal and the server hand bots those): the
            # typed view of a state drawn consistent with it, which shows the seat exactly
            # the same, so its tensor is the same
            seat = view.get("seat")
            view = game.sample_state(view, random.Random(0)).seat_view(seat)
        self.policy.encoder.encode(view, self._obs[0])
        scores = self.policy.scores(self._obs)[0]
        ids = [game.action_id(a) for a in legal]
        legal_scores = [float(scores[i]) for i in ids]
        if not self.sample:
            best = max(range(len(ids)), key=legal_scores.__getitem__)
            return legal[best]
        top = max(legal_scores)
        weights = [math.exp(s - top) for s in legal_scores]
        return rng.choices(legal, weights=weights)[0]


def trained_bot(game: Game, params: Mapping[str, Any]) -> Bot:
    """The ``trained`` level's factory, which the package declares under the entry-point
    group ``dragonlair.bots`` (so :func:`dragonlair.bots.make_bot` finds it by name without
    importing this package): a :class:`PolicyBot` with ``params``, or a clear
    :class:`~dragonlair.bots.UnknownBot`."""
    from ..bots import UnknownBot, construct

    try:
        return construct(PolicyBot.level, PolicyBot, game, params)
    except PolicyError as e:
        raise UnknownBot(str(e)) from None
