"""The fast tier's conformance run: one seeded game of every installed game at its smallest
table. Each game's own tests run the whole suite (every player count, its options, more
seeds); those are marked slow."""

from __future__ import annotations

import pytest

import dragonlair
from dragonlair.core.conformance import check_game
from dragonlair.core.manifest import installed_ids


@pytest.mark.parametrize("game_id", installed_ids())
def test_one_game_at_the_smallest_table_conforms(game_id: str) -> None:
    players = dragonlair.spec(game_id).min_players
    report = check_game(game_id, players=[players], games=1, seed=5, every=25)
    assert report.games == 1 and report.leak_samples > 0
