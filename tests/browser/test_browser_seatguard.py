"""A seat open in two places: both pages say so, and the one that asks for a new link
keeps playing (after a reload too) while the other is cut off."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.browser.browserkit import Server, wait_ready

SEATS = [{"type": "human", "name": "Ann"}, {"type": "bot", "level": "random"}]


def test_a_seat_open_twice_gets_a_new_link(server: Server, new_page: Callable[..., Any]) -> None:
    created = server.create(game="dragon-stripes", players=2, seats=SEATS)
    link = server.url + created["seats"][0]["link"]
    old = created["seats"][0]["token"]
    mine, other = new_page(), new_page()
    mine.goto(link)
    wait_ready(mine)
    assert mine.locator(".seat-guard").count() == 0  # alone: nothing to say
    other.goto(link)
    wait_ready(other)
    for page in (mine, other):
        page.wait_for_selector('.seat-guard[data-connections="2"]')
    mine.click("#rotate-token")
    other.wait_for_selector("text=Cannot join this table")
    mine.wait_for_function(f"() => location.hash.length > 1 && location.hash !== '#{old}'")
    mine.wait_for_selector(".seat-guard", state="detached")
    new = mine.evaluate("() => location.hash.slice(1)")
    assert new != old
    mine.reload()
    wait_ready(mine)  # the new link opens the seat
    assert mine.locator(".seat-guard").count() == 0
    other.goto(link)  # the old one no longer does
    other.wait_for_selector("text=Cannot join this table")
