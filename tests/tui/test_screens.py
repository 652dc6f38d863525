"""Screens are drawn from views only: the leak test at the level of what a player sees.

For every game, at sampled moments, the screen a seat sees must be identical when
everything that seat cannot see is redrawn by the game's hidden-state sampler.
"""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

import dragonlair
from dragonlair.core import State
from dragonlair.tui.render import render_result, render_screen

GAMES = dragonlair.games()


def draw(state: State, seat: int) -> str:
    console = Console(width=140, record=True, color_system=None, file=io.StringIO())
    names = [f"P{i}" for i in range(state.game.players)]
    console.print(
        render_screen(state.game, state.view(seat), names, ["log line"], state.legal_actions(seat))
    )
    return console.export_text()


@pytest.mark.parametrize("game_id", GAMES)
def test_screens_show_nothing_a_seat_cannot_see(game_id: str) -> None:
    spec = dragonlair.spec(game_id)
    rng = random.Random(1)
    for players in (spec.min_players, spec.max_players):
        state = dragonlair.make(game_id, players=players).new_game(seed=players)
        step = 0
        while not state.is_over:
            if step % 7 == 0:
                seat = state.to_act[0]
                sampled = state.game.sample_state(state.view(seat), random.Random(step))
                assert draw(sampled, seat) == draw(state, seat)
            seat = rng.choice(state.to_act)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            step += 1
        console = Console(width=140, record=True, file=io.StringIO())
        console.print(render_result(state, [f"P{i}" for i in range(players)]))
        assert "Final scores" in console.export_text()
