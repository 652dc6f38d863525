"""Snapshots of each game's screen at 80×24 and 120×40 (Textual's SVG snapshots, compared
with the accepted ones in ``__snapshots__``; ``pytest --snapshot-update`` after a change
that was looked at)."""

from __future__ import annotations

import pytest

import dragonlair
from dragonlair.tui.app import PlayApp
from dragonlair.tui.session import PlaySession, SeatConfig
from tests.games import OWN_GAMES
from tests.tui.tui_helpers import until_asked

# the accepted screens are of dragonlair's own games (an outside game has none to compare)
GAMES = list(OWN_GAMES)
SEEDS = {"dragon-race": 3, "dragon-stripes": 7, "space-dragons": 3, "space-race": 4}


def app_for(game_id: str) -> PlayApp:
    game = dragonlair.make(game_id)
    seats = [SeatConfig("You")] + [
        SeatConfig(f"Heuristic {i + 1}", "heuristic") for i in range(1, game.players)
    ]
    session = PlaySession(game.new_game(seed=SEEDS[game_id]), seats)
    session.autoplay[0] = False  # the screen waits for the player, whatever the timing
    return PlayApp(session, fast=True)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("game_id", GAMES)
def test_screen(game_id: str, size: tuple[int, int], snap_compare: object) -> None:
    assert snap_compare(app_for(game_id), terminal_size=size, run_before=until_asked)  # type: ignore[operator]
