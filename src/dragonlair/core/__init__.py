"""The rules engine core: protocol, turns, simultaneous choices, windows, randomness,
views, events, records and the conformance suite. It knows no game."""

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
from .position import BadPosition, register_position, unregister_position
from .record import Record
from .registry import game_class, games, load, make, replay, spec
from .result import Result, competition_ranks, dense_ranks, final_rewards, make_result, reward
from .rng import Rng, derive_seed
from .spec import GameSpec, OptionSpec
from .state import State

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
    "register_position",
    "replay",
    "reward",
    "spec",
    "unregister",
    "unregister_position",
]
