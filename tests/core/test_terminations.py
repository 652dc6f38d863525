"""Every game ends in a way it declares (``Result.termination``), and results saved
before terminations were declared still load."""

from __future__ import annotations

import json
import random
from typing import Any, get_args

import pytest

import dragonlair
from dragonlair.core.result import Result
from dragonlair.core.state import State

GAMES = ["space-dragons", "space-race", "dragon-stripes", "dragon-race"]


def finished(game_id: str, seed: int) -> State:
    state = dragonlair.make(game_id, players=3).new_game(seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_declares_its_terminations_and_ends_in_one(game_id: str) -> None:
    cls = dragonlair.core.game_class(game_id)
    module: Any = __import__(cls.__module__, fromlist=["TERMINATIONS"])
    assert cls.terminations == get_args(module.Termination) == tuple(module.TERMINATIONS)
    for seed in range(3):
        result = finished(game_id, seed).result
        assert result is not None
        assert result.termination in cls.terminations
        assert result.reason == module.TERMINATIONS[result.termination]


def test_dragon_stripes_names_how_it_ended() -> None:
    seen = {finished("dragon-stripes", seed).result.termination for seed in range(12)}  # type: ignore[union-attr]
    assert seen == {"head", "woke"}


@pytest.mark.parametrize("game_id", GAMES)
def test_a_result_saved_without_a_termination_still_loads(game_id: str) -> None:
    state = finished(game_id, 1)
    assert state.result is not None
    doc = json.loads(state.to_json())
    saved = doc["state"]["_result"]["r"]
    assert saved["termination"] == state.result.termination
    del saved["termination"]  # as saved before games declared their terminations
    loaded = dragonlair.load(json.dumps(doc))
    assert loaded.result == state.result
    assert loaded.to_json() == state.to_json()
    # a result that differs in anything else is still refused
    saved["points"] = [p + 1 for p in saved["points"]]
    with pytest.raises(dragonlair.BadRecord, match="does not match a replay"):
        dragonlair.load(json.dumps(doc))


def test_a_result_dict_without_a_termination_reads_as_none_named() -> None:
    old = {"points": [3, 1], "ranks": [1, 2], "winners": [0], "breakdown": [], "reason": ""}
    assert Result.from_dict(old).termination == ""
    assert Result.from_dict({**old, "termination": "head"}).to_dict()["termination"] == "head"
