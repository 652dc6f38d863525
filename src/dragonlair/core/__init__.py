"""The rules engine core: protocol, turns, simultaneous choices, windows, randomness,
views, events, records and the conformance suite. It knows no game.

It is in two layers (docs/architecture.md, "Layers"; the contracts in .importlinter): the
kernel (state, actions, rng, events, record, result, spec, errors, clones, view_types),
which imports nothing above it, and the services built on it (views, bot, manifest,
position, undo, registry, puzzles, transcript, conformance). Two services are installed
into the kernel when imported (``state.SERVICES``: undo and the position format, for
``State.undo`` and ``State.to_position``), which is why this package imports them.
"""

from .actions import Action, ActionKind, ActionTable
from .bot import Bot, RandomBot
from .errors import (
    BadDataFile,
    BadOptions,
    BadRecord,
    BadSeat,
    DragonlairError,
    IllegalAction,
    UnknownAction,
    UnknownGame,
)
from .events import EventSpec
from .game import Game
from .manifest import GameManifest, manifest, manifests, register, unregister
from .position import BadPosition
from .record import Record
from .registry import game_class, games, load, make, replay, spec
from .result import Result, competition_ranks, dense_ranks, final_rewards, make_result, reward
from .rng import Rng, derive_seed
from .spec import GameSpec, OptionSpec
from .state import State
from .undo import undo as _undo  # installs State.undo and State.can_undo  # noqa: F401

__all__ = [
    "Action",
    "ActionKind",
    "ActionTable",
    "BadDataFile",
    "BadOptions",
    "BadPosition",
    "BadRecord",
    "BadSeat",
    "Bot",
    "DragonlairError",
    "EventSpec",
    "Game",
    "GameManifest",
    "GameSpec",
    "IllegalAction",
    "OptionSpec",
    "RandomBot",
    "Record",
    "Result",
    "Rng",
    "State",
    "UnknownAction",
    "UnknownGame",
    "competition_ranks",
    "dense_ranks",
    "derive_seed",
    "final_rewards",
    "game_class",
    "games",
    "load",
    "make",
    "make_result",
    "manifest",
    "manifests",
    "register",
    "replay",
    "reward",
    "spec",
    "unregister",
]
