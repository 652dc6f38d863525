"""A refusal is never silent: whatever the server refuses of what a page sent (a choice
that arrived after the table had moved on, an action that is not a choice), the page says
so in words in its action bar and gives the choices back, so that the next click plays.

The page's own messages are rewritten on their way to the server (Playwright's WebSocket
routing), which makes the server refuse a real click the way it would refuse a late one."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.browserkit import Server, table_state, wait_ready

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]


class Spoiler:
    """Rewrites the page's next ``act`` message: ``stale`` sends it for another move than
    the table's (as a click made on a state the table has left behind arrives),
    ``unknown`` sends an action no game has. Everything else passes unchanged."""

    def __init__(self) -> None:
        self.mode: str | None = None
        self.spoilt = 0

    def route(self, ws: Any) -> None:
        server = ws.connect_to_server()

        def outgoing(message: str | bytes) -> None:
            if isinstance(message, str) and self.mode:
                m = json.loads(message)
                if m.get("type") == "act":
                    if self.mode == "stale":
                        m["move"] += 1
                    else:
                        m["action"] = "juggle 3"
                    self.mode = None
                    self.spoilt += 1
                    message = json.dumps(m)
            server.send(message)

        ws.on_message(outgoing)


def seat_page(server: Server, new_page: Callable[..., Any], spoiler: Spoiler) -> Any:
    created = server.create(
        game="dragon-race",
        players=2,
        seed=5,
        seats=[{"type": "human", "name": "Mia"}, {"type": "bot", "level": "random"}],
    )
    page = new_page()
    page.route_web_socket("**/ws/tables/**", spoiler.route)
    page.goto(server.url + created["seats"][0]["link"])
    return page


def click_first(page: Any) -> None:
    page.locator(
        ".actionbar button[data-action]:not([disabled]), .board button[data-action]:not([disabled])"
    ).first.click()


@pytest.mark.parametrize("mode", ["stale", "unknown"])
def test_a_refused_choice_is_said_and_the_choices_come_back(
    server: Server, new_page: Callable[..., Any], mode: str
) -> None:
    spoiler = Spoiler()
    page = seat_page(server, new_page, spoiler)
    before = wait_ready(page)
    assert before["status"] == "playing" and before["legal"] > 0
    spoiler.mode = mode
    click_first(page)
    refusal = page.locator(".actionbar .refusal")
    refusal.wait_for(timeout=20_000)
    assert spoiler.spoilt == 1
    text = refusal.inner_text()
    if mode == "stale":
        assert "choose again" in text and refusal.get_attribute("data-code") == "stale_move"
    else:
        assert refusal.get_attribute("data-code") == "unknown_action" and "juggle" in text
    # nothing was played, and the choices are back and pressable
    now = wait_ready(page, timeout=10_000)
    assert now["move"] == before["move"] and not now["pending"]
    assert page.locator("button[data-action]:not([disabled])").count() > 0
    # the next click plays, and the refusal goes away with it
    click_first(page)
    page.wait_for_function(
        "m => Number(document.querySelector('.table-page').dataset.move) > m", arg=before["move"]
    )
    assert page.locator(".refusal").count() == 0
    assert table_state(page)["move"] > before["move"]
