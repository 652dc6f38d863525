"""Snapshots of each game's screen at 80×24 and 120×40 (Textual's SVG snapshots, compared
with the accepted ones in ``__snapshots__``; ``pytest --snapshot-update`` after a change
that was looked at)."""

from __future__ import annotations

import time

import pytest

import dragonlair
from dragonlair.tui.app import PlayApp
from dragonlair.tui.session import PlaySession, SeatConfig
from tests.games import OWN_GAMES

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


async def _until_asked(pilot: object) -> None:
    app = pilot.app  # type: ignore[attr-defined]
    app.query_one("#entry").cursor_blink = False  # a blinking cursor is not the screen
    # the bots play before the player is asked: wait by the clock (a count of pauses ran
    # out on a busy machine, and the snapshot then caught the screen before the question)
    deadline = time.monotonic() + 60
    while app.asking != 0 and time.monotonic() < deadline:
        await pilot.pause(0.02)  # type: ignore[attr-defined]
    # the log scrolls to its end after a refresh, later on a busy machine (a log that
    # fits its pane never scrolls: at most two seconds' wait then)
    log = app.query_one("#log")
    for _ in range(40):
        if log.max_scroll_y > 0 and log.scroll_y >= log.max_scroll_y:
            break
        await pilot.pause(0.05)  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("game_id", GAMES)
def test_screen(game_id: str, size: tuple[int, int], snap_compare: object) -> None:
    assert snap_compare(app_for(game_id), terminal_size=size, run_before=_until_asked)  # type: ignore[operator]
