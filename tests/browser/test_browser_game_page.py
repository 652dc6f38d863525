"""A finished game's page and conceding, in Chromium as players meet them: play a short game
to its end by clicking, follow the result's link to the game's page and step its replay
(buttons, keys, another seat's view); and two friends in two browser contexts, one of whom
concedes after confirming, the other seeing the game end with their win. At a desktop's
and a phone's size, in English and German."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.browser.browserkit import PHONE, Server, play_to_end, shot, wait_ready
from tests.i18n.english import english_words

MARKUP = '<img src=x onerror="window.pwned=1"><a href="https://example.com">gg</a>'
INJECTED = "#replay-chat img, #replay-chat script, #replay-chat a"


def frame(page: Any) -> int:
    return int(page.get_attribute(".replay", "data-frame"))


@pytest.mark.timeout(600)
def test_play_to_the_end_then_step_through_the_replay(
    server: Server, new_page: Callable[..., Any]
) -> None:
    made = server.create(
        game="dragon-stripes",
        players=2,
        seats=[{"type": "human", "name": "Ann"}, {"type": "bot", "level": "random"}],
    )
    tid = made["table"]["id"]
    page = new_page()
    # before the end there is no page for the table
    assert httpx.get(f"{server.url}/games/{tid}").status_code == 404
    page.goto(server.url + made["seats"][0]["link"])
    wait_ready(page)
    play_to_end(page, random.Random(7))
    page.click("#game-page-link")
    page.wait_for_selector(".replay")
    assert page.url.endswith(f"/games/{tid}")
    record = httpx.get(f"{server.url}/api/tables/{tid}/record").json()
    moves = len(record["actions"])
    assert page.inner_text("#replay-position") == f"move 0 of {moves}"
    head = page.inner_text(".game-head")
    assert "Dragon Stripes" in head and f"{moves} moves" in head
    assert "random bot" in page.inner_text(".players")
    assert "wins!" in page.inner_text("#result")
    # forward, back, to the end and the start, by buttons and by keys
    page.click("#replay-forward")
    page.click("#replay-forward")
    assert frame(page) == 2 and page.get_attribute(".replay", "data-move") == "2"
    page.click("#replay-back")
    assert frame(page) == 1
    page.click("#replay-end")
    assert frame(page) == moves and page.is_disabled("#replay-forward")
    page.keyboard.press("Home")
    assert frame(page) == 0 and page.is_disabled("#replay-back")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert frame(page) == 3
    # the board is the game's own, drawn as the table draws it
    assert page.locator(".replay .board .stripe, .replay .board svg").count() > 0
    log_at_3 = page.locator("#log li").count()
    page.keyboard.press("ArrowRight")
    assert page.locator("#log li").count() >= log_at_3
    shot(page, "game-page-desktop")
    # Ann's own view of the same move
    page.select_option("#replay-seat", "0")
    page.wait_for_function("() => document.querySelector('.replay').dataset.seat === '0'")
    assert frame(page) == 4
    page.set_viewport_size(PHONE)
    page.keyboard.press("End")
    shot(page, "game-page-phone")
    # in German
    page.context.add_cookies([{"name": "lang", "value": "de", "url": server.url}])
    page.reload()
    page.wait_for_selector(".replay")
    assert "Zug 0 von" in page.inner_text("#replay-position")
    assert "beendete Partie" in page.inner_text(".game-head")
    assert english_words(page.inner_text("#app")) == []
    shot(page, "game-page-phone-de")


@pytest.mark.timeout(300)
def test_a_friend_concedes_and_the_other_wins(server: Server, new_page: Callable[..., Any]) -> None:
    made = server.create(
        game="space-race",
        players=2,
        seats=[{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bo"}],
    )
    tid = made["table"]["id"]
    ann, bo = new_page(), new_page()  # two browser contexts: two people
    ann.goto(server.url + made["seats"][0]["link"])
    bo.goto(server.url + made["seats"][1]["link"])
    for p in (ann, bo):
        p.wait_for_selector(".table-page[data-status='playing']")
    # they chat before the end; the game's page shows it in the replay, as text only
    ann.locator("#chat-input").wait_for()
    ann.fill("#chat-input", MARKUP)
    ann.click("#chat-send")
    bo.locator("#chat-input").wait_for()
    bo.click("[data-phrase=good_game]")
    ann.wait_for_function("() => document.querySelectorAll('#chat-log .chat-msg').length === 2")
    # Bo changes his mind once, then concedes
    bo.click("#concede")
    bo.wait_for_selector("#concede-confirm")
    assert "the other player wins" in bo.inner_text("#concede-confirm")
    shot(bo, "concede-confirm-desktop")
    bo.click("#concede-no")
    assert bo.locator("#concede-confirm").count() == 0
    assert httpx.get(f"{server.url}/api/tables/{tid}").json()["status"] == "playing"
    bo.click("#concede")
    bo.click("#concede-yes")
    for p in (ann, bo):
        p.wait_for_selector(".table-page[data-status='over'] #result")
    assert "Ann wins!" in bo.inner_text("#result")
    assert "You win!" in ann.inner_text(".prompt")
    shot(ann, "concede-winner-desktop")
    ann.set_viewport_size(PHONE)
    shot(ann, "concede-winner-phone")
    info = httpx.get(f"{server.url}/api/tables/{tid}").json()
    assert info["result"]["winners"] == [0] and info["seats"][1]["conceded"] is not None
    # the game's page says who conceded
    bo.click("#game-page-link")
    bo.wait_for_selector(".replay")
    assert "conceded at move" in bo.inner_text(".players")
    assert "no points were counted" in bo.inner_text("#result")
    chat = bo.locator("#replay-chat .said-text").all_text_contents()
    assert chat == [MARKUP, "Good game!"]
    assert bo.locator(INJECTED).count() == 0
    assert bo.evaluate("() => window.pwned") is None
    assert bo.locator("#replay-chat li").first.get_attribute("data-move") == "0"
    shot(bo, "concede-game-page-desktop")
    bo.set_viewport_size(PHONE)
    # in one step of the page's own script: the replay may draw the chat again meanwhile
    bo.wait_for_function(
        "() => { const e = document.querySelector('#replay-chat');"
        " if (e) e.scrollIntoView(); return !!e; }"
    )
    shot(bo, "concede-game-page-chat-phone", full_page=False)
