"""The outside game in Chromium: High Card (examples/high_card), installed with pip into a
folder of its own that only the server's process has on its path, is listed in the lobby,
drawn by the board its own package ships (with its own style sheet), and played to the
end by clicking the cards that board draws."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.browserkit import Server, create_in_lobby, play_to_end
from tests.core.outside_game import install

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


@pytest.fixture(scope="module")
def outside_server(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = install(tmp_path_factory.mktemp("high_card"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PYTHONPATH", env["PYTHONPATH"])  # the server's process only
        s = Server()
    yield s
    s.close()


def test_the_outside_game_is_played_on_its_own_board(
    outside_server: Server, new_page: Callable[..., Any], tmp_path: Path
) -> None:
    page = new_page()
    create_in_lobby(page, outside_server, "high-card", 2, seats=[("bot", "heuristic")])
    board = page.locator(".board .hc-board")
    board.wait_for()
    # its own style sheet, served from its package beside the board, is applied
    assert page.locator('link[href$="/static/games/high-card/board.css"]').count() == 1
    sheets = page.evaluate("() => [...document.styleSheets].map(s => new URL(s.href).pathname)")
    assert sheets == ["/static/app.css", "/static/games/high-card/board.css", "/static/app-end.css"]
    assert board.evaluate("e => getComputedStyle(e).display") == "grid"
    # the cards are the board's buttons: five in hand at the start
    assert page.locator(".hc-hand button[data-action^='lay ']").count() == 5
    clicks = play_to_end(page, random.Random(3))
    assert clicks == 5  # one card a round, five rounds
    result = page.locator(".result")
    result.wait_for()
    assert result.locator("tbody tr").count() == 2
    assert page.locator(".hc-score").inner_text().count(":") == 2
