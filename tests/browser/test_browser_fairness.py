"""The fairness of the deal on the table page: the commitment during play, the check of the
revealed seed at the end (hashed in the browser), and a deal the creator chose (a seed or
a position) said so in the lobby, on every seat's page and at the end, never "verified"."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import dragonlair
from dragonlair.core.position import to_toml
from tests.browser.browserkit import Server, near_end, play_in_page, wait_ready

# A server of its own (tests/browser/conftest.py): the lobby's row of a table is found by its
# players' names.
OWN_SERVER = True

SEATS = [{"type": "human", "name": "Ann"}, {"type": "bot", "level": "random"}]


def test_the_page_shows_the_commitment_and_checks_it_at_the_end(
    server: Server, new_page: Callable[..., Any]
) -> None:
    created = server.create(game="dragon-stripes", players=2, seats=SEATS)
    commitment = created["table"]["fairness"]["commitment"]
    page = new_page()
    page.goto(server.url + created["seats"][0]["link"])
    wait_ready(page)
    panel = page.locator(".fairness")
    assert panel.get_attribute("data-fairness") == "committed"
    assert page.locator(".fairness .commitment").text_content() == commitment
    page.click(".fairness summary")  # opened, it stays open while the game goes on
    play_in_page(page, seed=3)
    page.wait_for_selector('.fairness[data-fairness="verified"][open]')
    seed = page.locator(".fairness .seed").text_content()
    salt = page.locator(".fairness .salt").text_content()
    assert hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest() == commitment
    assert page.locator(".fairness .digest").text_content() == commitment
    # a player who opens the page after the end sees the same check
    late = new_page()
    late.goto(server.url + created["seats"][0]["link"])
    late.wait_for_selector('.fairness[data-fairness="verified"]')


def test_a_practice_table_says_its_seed_was_chosen(
    server: Server, new_page: Callable[..., Any]
) -> None:
    created = server.create(game="dragon-stripes", players=2, seats=SEATS, seed=11)
    assert created["table"]["fairness"]["chosen_seed"] is True
    page = new_page()
    page.goto(server.url + created["seats"][0]["link"])
    wait_ready(page)
    assert page.locator(".fairness").get_attribute("data-fairness") == "chosen"
    assert "the creator chose the seed" in page.locator(".fairness summary").inner_text()
    commitment = created["table"]["fairness"]["commitment"]
    assert page.locator(".fairness .commitment").text_content() == commitment


def test_a_deal_from_a_position_is_never_called_fair(
    server: Server, new_page: Callable[..., Any]
) -> None:
    """The stacked deck: a creator starts a table of two people from a position and hands
    the second link to a friend. The lobby, the friend's page (in German too) and the end
    of the game say the deal was chosen; the panel never says "verified"."""
    doc = dragonlair.make("dragon-stripes", players=2).new_game(12345).to_position()
    people = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
    friends = server.create(game="dragon-stripes", players=2, seats=people, position=to_toml(doc))
    lobby = new_page()
    lobby.goto(server.url + "/")
    row = lobby.locator(".table-row", has_text="Ann, Bob")
    row.wait_for()
    assert "deal chosen by the creator (not random)" in row.inner_text()
    friend = new_page()
    friend.goto(server.url + friends["seats"][1]["link"])
    wait_ready(friend)
    assert friend.locator(".fairness").get_attribute("data-fairness") == "chosen"
    summary = friend.locator(".fairness summary").inner_text()
    assert "Not a random deal" in summary and "position" in summary
    assert "deal chosen by the creator" in friend.locator("#table-terms").inner_text()
    german = new_page()
    german.context.add_cookies([{"name": "lang", "value": "de", "url": server.url}])
    german.goto(server.url + friends["seats"][1]["link"])
    wait_ready(german)
    assert "Kein zufälliges Mischen" in german.locator(".fairness summary").inner_text()
    assert "nicht zufällig" in german.locator("#table-terms").inner_text()
    # at the end: the chosen deal is checked against its commitment, never "verified"
    # (from a position a few choices before the end: the end is what matters here)
    position = near_end("dragon-stripes", 2, seed=12345)
    created = server.create(game="dragon-stripes", players=2, seats=SEATS, position=position)
    commitment = created["table"]["fairness"]["commitment"]
    page = new_page()
    page.goto(server.url + created["seats"][0]["link"])
    wait_ready(page)
    play_in_page(page, seed=5)
    page.wait_for_selector('.fairness[data-fairness="unchanged"]')
    page.click(".fairness summary")
    text = page.locator(".fairness").inner_text()
    assert "verified" not in text and "Not a random deal" in text
    assert "not changed during the game" in text
    seed = page.locator(".fairness .seed").text_content()
    salt = page.locator(".fairness .salt").text_content()
    source = page.locator(".fairness .source").text_content()
    assert source is not None and source.startswith("position:")
    assert hashlib.sha256(f"{seed}:{salt}:{source}".encode()).hexdigest() == commitment
    assert page.locator(".fairness .digest").text_content() == commitment
