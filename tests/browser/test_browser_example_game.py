"""A game no line of the server or the page names, played in Chromium: the example game,
Pebble Auction, registered through its manifest by the server's process
(tests/web/serve_example.py), is listed in the lobby, drawn by the generic board (its
manifest has no browser board), played to the end by clicking, and its rules for players
are what the Rules dialog shows."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.browserkit import Server, create_in_lobby, play_to_end

pytestmark = pytest.mark.slow

SERVE_EXAMPLE = Path(__file__).resolve().parents[1] / "web" / "serve_example.py"


@pytest.fixture(scope="module")
def example_server(browser: Any) -> Iterator[Server]:
    s = Server(script=SERVE_EXAMPLE)
    yield s
    s.close()


def test_the_example_game_is_played_in_the_browser(
    example_server: Server, new_page: Callable[..., Any]
) -> None:
    page = new_page()
    create_in_lobby(page, example_server, "pebble-auction", 2)
    # the generic board: the view's fields as a list
    assert page.locator(".board dl.generic").count() == 1
    assert "pot" in page.locator(".board dl.generic").inner_text()
    clicks = play_to_end(page, random.Random(5))
    assert clicks >= 3
    result = page.locator(".result")
    result.wait_for()
    assert result.locator("tbody tr").count() == 2
    page.keyboard.press("?")
    dialog = page.locator("dialog#rules")
    dialog.wait_for()
    page.wait_for_function(  # the rules arrive after the dialog opens
        "() => document.querySelector('dialog#rules').innerText.includes('Choices at the table')"
    )
    text = dialog.inner_text()
    assert "Pebble Auction" in text and "Choices at the table" in text


def test_a_game_with_its_own_board_module_loads_it(
    example_server: Server, new_page: Callable[..., Any]
) -> None:
    page = new_page()
    create_in_lobby(page, example_server, "dragon-stripes", 2)
    # the module the manifest names (dragon_stripes/web/board.js) draws the board, served
    # from the game's package as an outside game's is
    assert page.locator(".board").count() == 1
    assert page.locator(".board dl.generic").count() == 0
    loaded = page.evaluate(
        "() => performance.getEntriesByType('resource').map(e => e.name)"
        ".filter(n => n.includes('/static/games/'))"
    )
    assert any(n.endswith("/static/games/dragon-stripes/board.js") for n in loaded), loaded
