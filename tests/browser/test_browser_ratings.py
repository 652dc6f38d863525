"""Ratings in Chromium, as a player meets them: sign up, play a rated table against a bot
to the end in the page, and find the rating on the account page changed from none to a
provisional one; at a desktop's and a phone's size."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.browserkit import PHONE, Server, play_to_end, shot, wait_ready
from tests.browser.test_browser_accounts import sign_up

CREATE_RATED = """async () => {
  const r = await fetch("/api/tables", {method: "POST",
    headers: {"content-type": "application/json"},
    body: JSON.stringify({game: "space-race", players: 2, rated: true,
      seats: [{type: "human", name: "Rae"}, {type: "bot", level: "random"}]})});
  return {status: r.status, body: await r.json()};
}"""


@pytest.mark.timeout(600)
def test_a_rated_game_against_a_bot_changes_the_rating_on_the_account_page(
    server: Server, new_page: Callable[..., Any]
) -> None:
    page = new_page()
    sign_up(page, server, "Rae Stone")
    page.wait_for_selector("#account-ratings-list >> text=No ratings yet")
    made = page.evaluate(CREATE_RATED)
    assert made["status"] == 201, made
    assert made["body"]["table"]["settings"]["rated"] is True
    page.goto(server.url + made["body"]["seats"][0]["link"])
    wait_ready(page)
    play_to_end(page, random.Random(5))
    page.goto(server.url + "/account")
    page.wait_for_selector(".account-ratings")
    text = page.inner_text("#account-ratings")
    assert "Space Race" in text and "1 rated game" in text and "provisional" in text
    assert "Rating " in text and "±" in text
    shot(page, "ratings-account-desktop")
    page.set_viewport_size(PHONE)
    page.reload()
    page.wait_for_selector(".account-ratings")
    shot(page, "ratings-account-phone")
