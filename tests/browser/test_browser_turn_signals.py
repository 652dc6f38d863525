"""Knowing it is your turn when you are not looking, in a real Chromium: the lobby lists
the games waiting for you first ("Your turn in 2 games"), and a seat whose tab is in the
background gets a notification (the Notifications API) when its turn comes, once it
asked for them; never while the tab is in view."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.browserkit import Server, click_one, shot, wait_ready
from tests.browser.test_browser_away import HAND_OVER, hand_over

PRACTICE = {
    "game": "dragon-stripes",
    "players": 2,
    "seats": [{"type": "human", "name": "Ann"}, {"type": "bot", "level": "heuristic"}],
}

# the page's notifications, counted: the browser's own Notification, wrapped, and the
# tab's visibility as the test sets it
WATCH_NOTIFICATIONS = """
window.__notes = [];
window.__hidden = false;
const Real = window.Notification;
window.Notification = class extends Real {
  constructor(title, options) {
    super(title, options);
    window.__notes.push({ title, body: options && options.body });
  }
};
Object.defineProperty(Document.prototype, "hidden", {
  get() { return window.__hidden; }, configurable: true,
});
"""


def test_the_lobby_lists_the_games_waiting_for_you_first(
    new_page: Callable[..., Any], server: Server
) -> None:
    ann = new_page()
    waiting = server.create(
        game="dragon-stripes", players=2, seats=[{"type": "human"}, {"type": "open"}]
    )["seats"][0]["link"]
    for seed in (1, 2):
        ann.goto(server.url + server.create(**PRACTICE, seed=seed)["seats"][0]["link"])
        wait_ready(ann)  # her turn (after the bot's, if it began): she leaves it waiting
    ann.goto(server.url + waiting)  # the newest: listed first by date
    ann.wait_for_selector(".table-page")
    ann.goto(server.url + "/")
    ann.wait_for_selector("#your-turn-count")
    assert ann.locator("#your-turn-count").inner_text() == "Your turn in 2 games"
    rows = ann.locator("#my-games li.table-row")
    assert rows.count() == 3
    assert [("your-turn" in (rows.nth(i).get_attribute("class") or "")) for i in range(3)] == [
        True,
        True,
        False,
    ]
    assert ann.title().startswith("(2) ")
    shot(ann, "your-turn-lobby", full_page=False)


@pytest.mark.timeout(300)
def test_a_hidden_tab_is_notified_of_its_turn(browser: Any, pages: Any, server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    pages.contexts.append(ctx)
    ctx.grant_permissions(["notifications"], origin=server.url)
    ctx.add_init_script("localStorage.setItem('dragonlair:pace', '0')")
    ctx.add_init_script(WATCH_NOTIFICATIONS)
    ann = ctx.new_page()
    ann.goto(server.url + server.create(**PRACTICE, seed=3)["seats"][0]["link"])
    wait_ready(ann)
    ann.click("details.settings summary")
    ann.check("#pref-notify")
    ann.wait_for_function("() => localStorage.getItem('dragonlair:notify') === '1'")
    rng = random.Random(2)
    # in view: the turns come and go without a notification
    for _ in range(40):
        if wait_ready(ann)["status"] == "over" or click_one(ann, rng, hand_over) in HAND_OVER:
            break
    wait_ready(ann)
    assert ann.evaluate("window.__notes.length") == 0
    # in the background: the next time her turn comes, a notification says so
    ann.evaluate("window.__hidden = true; document.dispatchEvent(new Event('visibilitychange'))")
    for _ in range(40):
        if wait_ready(ann)["status"] == "over" or click_one(ann, rng, hand_over) in HAND_OVER:
            break
    assert wait_ready(ann)["status"] == "playing", "the game ended before the bot played"
    ann.wait_for_function("() => window.__notes.length > 0")
    note = ann.evaluate("window.__notes[0]")
    assert note["title"].startswith("Your turn:") and "Dragon Stripes" in note["body"]
