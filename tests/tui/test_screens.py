"""Screens are drawn from views only: the leak test at the level of what a player sees.

For every game, at sampled moments, what a seat sees must be identical when everything
that seat cannot see is redrawn by the game's hidden-state sampler: each pane's drawing
(board, players, hand, choices in players' words) at 80 and 120 columns, and the whole
screen of the running Textual app.
"""

from __future__ import annotations

import asyncio
import io
import random

import pytest
from rich.console import Console

import dragonlair
from dragonlair.core import State
from dragonlair.tui.app import PlayApp
from dragonlair.tui.render import board, hand, players, result_table
from dragonlair.tui.session import PlaySession, SeatConfig
from dragonlair.tui.words import Words
from tests.tui.tui_helpers import screen_text

GAMES = dragonlair.games()


def draw(state: State, seat: int, width: int) -> str:
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    game = state.game
    names = [f"P{i + 1}" for i in range(game.players)]
    view = state.view(seat)
    words = Words(game, names, seat)
    legal = state.legal_actions(seat)
    console.print(board(game, view, names, width))
    console.print(players(game, view, names, width))
    console.print(hand(game, view, names))
    for a in legal:
        console.print(f"{words.typed(a, legal)}  {words.label(a)}", markup=False)
    return console.export_text()


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_panes_show_nothing_a_seat_cannot_see(game_id: str) -> None:
    spec = dragonlair.spec(game_id)
    rng = random.Random(1)
    for n in (spec.min_players, spec.max_players):
        state = dragonlair.make(game_id, players=n).new_game(seed=n)
        step = 0
        while not state.is_over:
            if step % 7 == 0:
                seat = state.to_act[0]
                sampled = state.game.sample_state(state.view(seat), random.Random(step))
                for width in (80, 120):
                    assert draw(sampled, seat, width) == draw(state, seat, width)
            seat = rng.choice(state.to_act)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            step += 1
        console = Console(width=80, record=True, file=io.StringIO())
        console.print(result_table(state.game, state.result, [f"P{i + 1}" for i in range(n)]))  # type: ignore[arg-type]
        assert "Final scores" in console.export_text()


def _app_screen(state: State, size: tuple[int, int]) -> str:
    game = state.game
    seats = [SeatConfig("You")] + [
        SeatConfig(f"Random {i + 1}", "random") for i in range(1, game.players)
    ]
    session = PlaySession(state, seats)
    session.autoplay[0] = False
    session.seen[0] = state.event_count  # the logs start empty in both

    async def run() -> str:
        app = PlayApp(session, fast=True)
        async with app.run_test(size=size) as pilot:
            for _ in range(20):
                await pilot.pause()
                if app.asking == 0:
                    break
            assert app.asking == 0
            # the footer's key labels may land a refresh later on a loaded machine: read the
            # screen once it has stopped changing
            text = screen_text(app)
            for _ in range(50):
                await pilot.pause()
                again = screen_text(app)
                if again == text and "^q" in text:
                    break
                text = again
            return text

    return asyncio.run(run())


@pytest.mark.parametrize("game_id", [g for g in GAMES if g != "pebble-auction"])
def test_the_app_screen_shows_nothing_hidden(game_id: str) -> None:
    rng = random.Random(3)
    state = dragonlair.make(game_id).new_game(seed=4)
    checked = 0
    step = 0
    next_check = 4  # two checks at least 3 decisions apart, whenever seat 0 is asked
    while not state.is_over and checked < 2:
        if 0 in state.to_act and step >= next_check:
            next_check = step + 3
            sampled = state.game.sample_state(state.view(0), random.Random(step))
            assert sampled.to_json() != state.to_json()
            size = (80, 24) if checked == 0 else (120, 40)
            assert _app_screen(sampled, size) == _app_screen(state.clone(), size)
            checked += 1
        seat = rng.choice(state.to_act)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        step += 1
    assert checked == 2
