"""The fairness of the deal on the table page: the commitment during play, the check of the
revealed seed at the end (hashed in the browser), and a practice table's note."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any

from tests.browser.browserkit import Server, play_to_end, wait_ready

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
    play_to_end(page, random.Random(3))
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
    assert page.locator(".fairness .commitment").count() == 0
