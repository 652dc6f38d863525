"""No click is thrown away: during simultaneous picks a person who clicks the moment their
hand appears, while the bots' picks are still being shown at the table's pace, has every
click accepted (and would see any refusal: none may come)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.browserkit import Server

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

ENABLED = "button[data-action]:not([disabled])"


@pytest.mark.parametrize(
    ("game", "players", "clicks"), [("space-race", 2, 4), ("space-dragons", 3, 6)]
)
def test_every_click_made_as_soon_as_a_hand_appears_is_accepted(
    server: Server, new_page: Callable[..., Any], game: str, players: int, clicks: int
) -> None:
    seats = [{"type": "human", "name": "Ann"}] + [
        {"type": "bot", "level": "random"} for _ in range(players - 1)
    ]
    created = server.create(game=game, players=players, seats=seats)
    frames: list[dict[str, Any]] = []
    page = new_page(paced=True)  # the others' picks are shown at a person's pace

    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda f: frames.append(json.loads(f)))

    page.on("websocket", on_socket)
    page.goto(server.url + created["seats"][0]["link"])
    for n in range(clicks):
        # the moment a hand appears, click its first card
        page.wait_for_selector(ENABLED, timeout=60_000)
        page.locator(ENABLED).first.click(timeout=10_000)
        for _ in range(600):  # the answer to the click: its own update, or a refusal
            mine = [f for f in frames if f.get("type") == "state" and "ref" in f]
            refusals = [f for f in frames if f.get("type") == "error"]
            if len(mine) > n or refusals:
                break
            page.wait_for_timeout(50)
        assert not refusals, f"click {n + 1} of {game} was refused: {refusals}"
        assert len(mine) == n + 1, f"click {n + 1} of {game} got no answer"
        page.wait_for_function(
            "m => Number(document.querySelector('.table-page')?.dataset.move) >= m",
            arg=mine[-1]["move"],
        )
