"""The away policy in a real Chromium, two friends in two browser contexts: the policy
chosen in the lobby and stated before anyone joins, a friend away past their time bank
played for by the chosen bot (and told what it played when back), both friends leaving
(the table pauses: no bot plays it out), and the table ending abandoned."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.browserkit import PHONE, Server, click_one, shot, table_state, wait_ready

HAND_OVER = ("hold", "decline")


def hand_over(page: Any, actions: list[str], rng: random.Random) -> str:
    """Dragon Stripes: end the turn (hold, or decline an offer) when that is a choice."""
    for a in HAND_OVER:
        if a in actions:
            return a
    return rng.choice(actions)


@pytest.mark.timeout(600)
def test_a_friend_away_past_their_bank_then_both_leave(
    browser: Any, new_page: Callable[..., Any], own_server: Callable[[Server], Server]
) -> None:
    own = own_server(Server(away="600", deadline="30", abandon_after="12"))
    # (the deal is the server's, at random: one may wake the dragon with its third Danger
    # within the first turns, and the game is over before the bot plays for Bob; the
    # test then deals another table)
    for _attempt in range(3):
        ann = new_page()
        ann.goto(own.url + "/")
        ann.fill("#my-name", "Ann")
        ann.check("#game-dragon-stripes")
        ann.select_option("#players", "2")
        ann.select_option("#seat-1-type", "human")
        # the away policy: the heuristic bot (the default), after a 3-second time bank
        assert ann.locator("#takeover").input_value() == "heuristic"
        ann.fill("#time-bank", "0.05")
        ann.locator("fieldset.away-policy").scroll_into_view_if_needed()
        shot(ann, "away-policy-lobby-form", full_page=False)
        ann.click("#create")
        ann.wait_for_selector("#go-to-table")
        bob_link = ann.locator("#created input.link").first.input_value()
        watch_link = ann.locator("#created input.link").nth(1).input_value()
        ann.click("#go-to-table")
        ann.wait_for_url("**/play/**")
        terms = ann.locator("#table-terms").inner_text()
        assert "heuristic bot once their 3 s time bank runs out" in terms, terms

        # Bob arrives, sees the same policy, and leaves
        bob = new_page()
        bob.goto(bob_link)
        bob.wait_for_selector(".table-page[data-seat='1']")
        assert "heuristic bot once their 3 s time bank" in bob.locator("#table-terms").inner_text()
        bob.close()
        chip = ann.locator(".seat-chip[data-seat='1']")
        ann.wait_for_function(
            "() => document.querySelector(\".seat-chip[data-seat='1']\")"
            ".innerText.includes('away: the heuristic bot plays')",
            timeout=60_000,
        )
        # Ann plays on until she hands the knight over: Bob's seat is asked (take it or
        # decline) and the bot answers for him; then it is her turn again
        rng = random.Random(5)
        for _ in range(60):
            if wait_ready(ann)["status"] == "over" or click_one(ann, rng, hand_over) in HAND_OVER:
                break
        if wait_ready(ann)["status"] == "playing":
            break
        ann.close()
    else:
        raise AssertionError("three deals in a row ended before the bot played")
    assert "away: the heuristic bot plays" in chip.inner_text()

    # Bob is back: what was played in his name is listed, marked as the bot's
    bob = new_page()
    bob.goto(bob_link)
    bob.wait_for_selector("#played-for-you")
    report = bob.locator("#played-for-you").inner_text()
    assert "While you were away, the heuristic bot played for you" in report
    assert bob.locator("#played-for-you li").count() >= 1
    ann.wait_for_function(
        "() => !document.querySelector(\".seat-chip[data-seat='1']\")"
        ".innerText.includes('bot plays')"
    )
    shot(bob, "away-played-for-you-desktop", full_page=False)
    # (told once: the same page on a phone's screen)
    bob.set_viewport_size(PHONE)
    bob.wait_for_selector("#played-for-you")
    shot(bob, "away-played-for-you-phone", full_page=False)
    bob.click("#played-for-ok")
    assert bob.locator("#played-for-you").count() == 0

    # both leave: a spectator sees the table paused, and nothing is played
    bob.close()
    ann.close()
    watcher = new_page()
    watcher.goto(watch_link)
    watcher.wait_for_selector("#paused")
    assert re.search(r"ends as abandoned on", watcher.locator("#paused").inner_text())
    moves = table_state(watcher)["move"]
    shot(watcher, "away-paused-spectator", full_page=False)
    watcher.wait_for_timeout(4000)  # past both time banks
    assert table_state(watcher)["move"] == moves

    # nobody came back: the table ends abandoned, without a result
    watcher.wait_for_selector("#abandoned", timeout=60_000)
    assert watcher.locator("#result").count() == 0
    shot(watcher, "away-abandoned-spectator", full_page=False)
