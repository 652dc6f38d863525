"""The terminal in German at 80×24: no English inside German lines, and dialogs whose text
wraps instead of being cut."""

from __future__ import annotations

import asyncio
import io

from rich.console import Console

import dragonlair
from dragonlair.i18n import using
from dragonlair.tui.app import ConfirmQuit, PlayApp
from dragonlair.tui.render import board
from dragonlair.tui.session import PlaySession, SeatConfig
from tests.tui.tui_helpers import screen_text


def test_dragon_stripes_deck_and_drawn_cards_in_german() -> None:
    game = dragonlair.make("dragon-stripes", players=3)
    state = game.new_game(seed=8)
    state.apply(state.to_act[0], state.game.parse_action("draw"))
    console = Console(width=80, record=True, color_system=None, file=io.StringIO())
    with using("de"):
        console.print(board(game, state.view(0), ["A", "B", "C"], 80))
    text = console.export_text()
    assert "Fußspur" in text and "Stapel" in text
    assert "footprint" not in text and "danger" not in text.lower().split()


def test_the_german_quit_dialog_shows_its_whole_reminder_at_80_columns() -> None:
    game = dragonlair.make("dragon-stripes", players=3)
    with using("de"):
        seats = [SeatConfig("Spieler 1")] + [
            SeatConfig(f"Bot {i + 1}", "random") for i in range(1, 3)
        ]
        s = PlaySession(game.new_game(seed=8), seats)

        async def run() -> str:
            app = PlayApp(s, fast=True)
            async with app.run_test(size=(80, 24)) as pilot:
                for _ in range(50):
                    await pilot.pause()
                    if app.asking is not None:
                        break
                await pilot.press("ctrl+q")
                for _ in range(20):
                    await pilot.pause()
                    if isinstance(app.screen, ConfirmQuit):
                        break
                await pilot.pause()
                return screen_text(app)

        text = " ".join(asyncio.run(run()).split())
    assert "Speichere es, um später mit" in text
    assert "--resume weiterzuspielen:" in text
