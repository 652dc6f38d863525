"""Bots only ever receive views: with the true state poisoned and decoys in the view they
still play legally, and a bot that peeks is caught."""

from __future__ import annotations

import inspect
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import dragonlair
from dragonlair.bots import Bot
from dragonlair.bots.checks import BotCheckError, PeekedAtState, PoisonedView, check_bot
from dragonlair.core import Action
from tests.core.pebble_auction.manifest import heuristic

GAME = "pebble-auction"


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize(
    ("level", "params"),
    [
        ("random", {}),
        ("heuristic", {}),
        ("ismcts", {"iterations": 25}),
        ("ismcts", {"iterations": 25, "rollout": "random"}),
    ],
)
def test_bots_play_legally_from_views_alone(
    level: str, params: dict[str, Any], players: int
) -> None:
    assert check_bot(GAME, level, players=players, games=2, **params) > 0


class FramePeeker(Bot):
    """Cheats by finding the true state in its caller's frame."""

    level = "heuristic"

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        for frame in inspect.stack():
            state = frame.frame.f_locals.get("state")
            if isinstance(state, dragonlair.State):
                state.hands  # type: ignore[attr-defined]
        return legal[0]


class DecoyReader(Bot):
    """Cheats by looking for other hands in the view."""

    level = "heuristic"

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        return legal[len(view.get("hands", ())) % len(legal)]


class Wanderer(Bot):
    """Returns an action that is not legal."""

    level = "heuristic"

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        return Action("take") if view["phase"] == "bid" else legal[0]


@pytest.mark.parametrize(
    ("cheat", "message"),
    [
        (FramePeeker, r"read the true state \(PoisonedPebbleState.hands\)"),
        (DecoyReader, r"used view\['hands'\], which is not part of any view"),
        (Wanderer, "Action\\('take'\\) is not among the legal actions"),
    ],
)
def test_a_bot_that_peeks_or_wanders_is_caught(cheat: type[Bot], message: str) -> None:
    with heuristic(GAME, cheat), pytest.raises(BotCheckError, match=message):
        check_bot(GAME, "heuristic", players=3, games=1)


def test_the_poisoned_view_keeps_the_real_view_and_refuses_the_rest() -> None:
    view = dragonlair.make(GAME, players=3).new_game(seed=1).view(0)
    poisoned = PoisonedView(view)
    assert all(poisoned[k] == v for k, v in view.items())
    assert "hand" in poisoned and "hands" in poisoned
    with pytest.raises(PeekedAtState):
        len(poisoned["deck"])
    with pytest.raises(KeyError):
        poisoned["nothing"]
    with pytest.raises(TypeError):
        poisoned["hand"] = []  # type: ignore[index]
