"""Pebble Auction's manifest, and the tests' ways of trying other parts in it."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from dragonlair.core import Game, UnknownGame
from dragonlair.core.bot import Bot
from dragonlair.core.manifest import GameManifest, manifest, register, unregister
from tests.core.example_game import CARDS, PebbleAuction

from .heuristic import PebbleHeuristic


def catalog(game: Game) -> dict[str, Any]:
    """The printed cards (just their numbers) and the hand size."""
    return {"cards": list(range(1, CARDS + 1)), "hand": 3}


# The example game as the tests see it by default: no heuristic (so the levels of a game
# without one are tested), the generic boards of the terminal and the browser.
MANIFEST = GameManifest(
    game=PebbleAuction,
    heuristic=None,
    ismcts={},
    layout="tests.core.pebble_auction.layout:LAYOUT",
    terminal=None,
    browser_board=None,
    catalog=catalog,
    package=__package__,
)

# ... and with its heuristic, as the bots' and the simulation tests use it.
WITH_HEURISTIC = dataclasses.replace(MANIFEST, heuristic=PebbleHeuristic)


@contextmanager
def registered(m: GameManifest) -> Iterator[GameManifest]:
    """``m`` registered for the duration, then the manifest there was before."""
    try:
        before: GameManifest | None = manifest(m.id)
    except UnknownGame:
        before = None
    register(m)
    try:
        yield m
    finally:
        if before is None:
            unregister(m.id)
        else:
            register(before)


@contextmanager
def replaced(game_id: str, **parts: Any) -> Iterator[GameManifest]:
    """``game_id``'s manifest with ``parts`` replaced, for the duration."""
    with registered(dataclasses.replace(manifest(game_id), **parts)) as m:
        yield m


def heuristic(game_id: str, factory: Callable[..., Bot] | None) -> Any:
    """``game_id`` played with ``factory`` as its heuristic, for the duration."""
    return replaced(game_id, heuristic=factory)
