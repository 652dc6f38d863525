"""The typed view's attributes, which the heuristic reads instead of the keys, say what
the JSON view says."""

from __future__ import annotations

import random

import pytest

import dragonlair
from dragonlair.dragon_race.view import DragonRaceSeatView


@pytest.mark.parametrize("players", [2, 4])
def test_the_typed_views_attributes_are_its_keys(players: int) -> None:
    game = dragonlair.make("dragon-race", players=players)
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_game(seed=seed)
        while not state.is_over:
            for seat in [*range(players), None]:
                view = state.seat_view(seat)
                assert isinstance(view, DragonRaceSeatView)
                wire = state.view(seat)
                assert view.active == wire["active"]
                assert list(view.pawns) == wire["pawns"]
                assert list(view.turn_start) == wire["turn_start"]
                assert list(view.robbed) == wire["robbed"]
                checked += 1
            seat = rng.choice(state.to_act)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert checked > 100
