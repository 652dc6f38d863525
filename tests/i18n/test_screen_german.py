"""The full-screen terminal game in German, driven by Textual's Pilot: a whole game of each
of the four games against bots, answered with Enter (the highlighted choice) and now and
then a typed action in the record's words, shows no English word on the screen at any
question, nor at the end, nor in the help."""

from __future__ import annotations

import asyncio

import pytest

import dragonlair
from dragonlair.i18n import using
from dragonlair.tui.app import HelpScreen, PlayApp
from dragonlair.tui.session import PlaySession, SeatConfig
from tests.i18n.english import english_words
from tests.tui.test_app import settle
from tests.tui.tui_helpers import screen_text

pytestmark = pytest.mark.slow

GAMES = {"space-dragons": 3, "space-race": 2, "dragon-stripes": 2, "dragon-race": 2}


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_german_game_on_the_full_screen_reads_german(game_id: str) -> None:
    found: dict[str, str] = {}

    async def run() -> None:
        game = dragonlair.make(game_id, players=GAMES[game_id])
        seats = [SeatConfig("Spieler 1")] + [
            SeatConfig(f"Heuristik {i + 1}", "heuristic") for i in range(1, game.players)
        ]
        session = PlaySession(game.new_game(seed=9), seats)
        app = PlayApp(session, fast=True)
        async with app.run_test(size=(120, 40)) as pilot:

            def look() -> None:
                typed = [app.session.words[0].typed(a, app.shown) for a in app.shown]
                for line in screen_text(app).splitlines():
                    for w in english_words(line, typed):
                        found.setdefault(w, line)

            await settle(pilot)
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            look()
            await pilot.press("escape")
            for _ in range(600):
                await settle(pilot)
                if session.state.is_over:
                    break
                look()
                await pilot.press("enter")
            assert session.state.is_over
            await settle(pilot)
            look()
            assert "Endwertung" in screen_text(app)

    with using("de"):
        asyncio.run(run())
    assert not found, found
