"""The engine's conformance suite for Space Dragons: every player count, a spread of
options (including a user's data file), the leak test through the sampler."""

from __future__ import annotations

import pytest

from dragonlair.core.conformance import check_game
from tests.space_dragons.sd_helpers import BUILTIN, GAME

OPTION_SETS: list[dict[str, object]] = [
    {},
    {"variant": True},
    {"science": "b", "mood": "b", "crime": "b"},
    {"science": "random", "mood": "random", "crime": "a", "b_sides": "bonus"},
    {"shield": 2, "damage": -1, "data": str(BUILTIN)},
]


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5])
def test_conformance(players: int) -> None:
    report = check_game(GAME, players=[players], options=OPTION_SETS, games=2, seed=players)
    assert report.games == 2 * len(OPTION_SETS)
    assert report.leak_samples > 0


@pytest.mark.slow
def test_conformance_many_default_games() -> None:
    report = check_game(GAME, options=({},), games=4, seed=11, every=9)
    assert report.games == 12
