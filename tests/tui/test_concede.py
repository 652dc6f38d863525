"""Conceding at the terminal, at 80x24, as a player types it: ``concede`` asks first (Esc
or "Keep playing" changes nothing), then the player ranks last; with one player left the
game ends at once, else a bot plays their seat to the end (dragonlair.core.concede); in
English and German. A save keeps the concession."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from textual.widgets import Input

from dragonlair.core import DragonlairError
from dragonlair.i18n import set_language, translations
from dragonlair.tui.app import ConfirmConcede, PlayApp
from dragonlair.tui.session import PlaySession, SeatConfig, load_save
from tests.tui.test_app import session, settle
from tests.tui.tui_helpers import screen_text


def flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


async def type_in(pilot: object, app: PlayApp, text: str) -> None:
    app.query_one("#entry", Input).value = text
    await pilot.press("enter")  # type: ignore[attr-defined]
    await settle(pilot)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("lang", ["en", "de"])
def test_conceding_a_two_player_game_asks_first_then_ends_it(lang: str) -> None:
    words = translations(lang).gettext
    s = session("dragon-race", 3, players=2)

    async def run() -> None:
        app = PlayApp(s, fast=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert app.asking == 0
            move = s.state.move
            await type_in(pilot, app, "concede")
            assert isinstance(app.screen, ConfirmConcede)
            screen = flat(screen_text(app))
            assert words("Concede this game?") in screen
            warning = words(
                "You lose and rank last. A bot plays your seat to the end; with one player"
                " left, the game ends now."
            )
            assert " ".join(warning.split()[:6]) in screen
            await pilot.press("escape")  # Esc keeps playing: nothing changed
            await settle(pilot)
            assert not isinstance(app.screen, ConfirmConcede)
            assert s.conceded == {} and s.state.move == move and app.asking == 0
            await type_in(pilot, app, "concede")
            await pilot.click("#keep")
            await settle(pilot)
            assert s.conceded == {} and not s.over
            await type_in(pilot, app, "concede")
            await pilot.press("enter")  # "Keep playing" has the focus
            await settle(pilot)
            assert s.conceded == {} and not isinstance(app.screen, ConfirmConcede)
            await type_in(pilot, app, "concede")
            await pilot.click("#concede")
            await settle(pilot)
            # one player left: the game ends now, the other wins, no points counted
            assert s.conceded == {0: move} and s.over and not s.state.is_over
            result = s.result()
            assert result is not None
            assert result["winners"] == [1] and result["ranks"] == [2, 1]
            assert result["termination"] == "conceded" and result["conceded"] == [[0, move]]
            screen = flat(screen_text(app))
            assert words("Game over. Enter leaves; type again and Enter for a new game.") in screen
            assert app.query_one("#choices").option_count == 0  # nothing more to choose

    set_language(lang)
    try:
        asyncio.run(run())
    finally:
        set_language("en")


@pytest.mark.timeout(120)
def test_conceding_with_two_bots_left_lets_a_bot_play_the_seat_to_the_end(
    tmp_path: Path,
) -> None:
    s = session("dragon-race", 5, players=3, save_path=tmp_path / "game.json")

    async def run() -> None:
        app = PlayApp(s, fast=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            move = s.state.move
            await type_in(pilot, app, "concede")
            await pilot.click("#concede")
            for _ in range(50):  # the bots play the game out, the conceded seat too
                await settle(pilot)
                if s.state.is_over:
                    break
            assert s.state.is_over and s.conceded == {0: move}
            assert any(seat == 0 for seat, _ in s.state.record.actions[move:])
            result = s.result()
            assert result is not None and result["ranks"][0] == 3 and 0 not in result["winners"]
            assert result["conceded"] == [[0, move]]
            await settle(pilot)
            screen = flat(screen_text(app))
            assert "Game over" in screen
            # a new game at the same table: nobody has conceded it
            await type_in(pilot, app, "again")
            assert app.session is not s and app.session.conceded == {}
            assert app.session.seats[0] == SeatConfig("You")
            assert (app.delay, app.window) == app.pace[:2]

    asyncio.run(run())
    # the save file says who conceded, and a resumed game knows it
    saved = json.loads((tmp_path / "game.json").read_text())
    assert saved["seats"][0] == {"name": "You", "bot": None, "conceded": s.conceded[0]}
    state, seats = load_save(tmp_path / "game.json")
    again = PlaySession(state, seats)
    assert again.conceded == s.conceded and again.result() == s.result()


def test_bad_concessions_are_refused_and_change_nothing() -> None:
    s = session("dragon-race", 3, players=3)
    s.concede(0)
    with pytest.raises(DragonlairError, match="conceded already"):
        s.concede(0)
    assert list(s.conceded) == [0]
    for bad in ({"name": "X", "bot": "random", "conceded": 3}, {"name": "X", "conceded": -1}):
        with pytest.raises(DragonlairError, match="concession"):
            SeatConfig.from_dict(bad)
