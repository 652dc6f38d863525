"""A practice table in a real Chromium: start one from a shipped puzzle in the lobby, ask
for a hint, take a decision back within its confirmation window, confirm one; a bad
pasted position is refused on the page, naming its field. Screenshots land in
out/screenshots/."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from importlib import resources
from typing import Any

import pytest

from tests.browser.browserkit import DESKTOP, PHONE, Server, shot, table_state, wait_ready

pytestmark = pytest.mark.slow

PUZZLE = "dragon-stripes/offered-for-forty"  # seat 2 (index 1) takes the knight or declines


@pytest.fixture(scope="module")
def server(browser: Any) -> Iterator[Server]:
    """The server's own default confirmation window (the kit's is a short one), so that the
    held decision can be seen, taken back and confirmed by hand."""
    s = Server(confirm="5")
    yield s
    s.close()


def test_a_puzzle_with_a_hint_and_an_undo(new_page: Callable[..., Any], server: Server) -> None:
    page = new_page()
    page.goto(server.url + "/")
    page.fill("#my-name", "Ann")
    page.click("#start-from-box summary")
    page.select_option("#start-from", f"puzzle:{PUZZLE}")
    # the puzzle sets the game, the players and my seat; the others are bots
    assert page.is_checked("#game-dragon-stripes")
    assert page.input_value("#players") == "3" and page.input_value("#my-seat") == "1"
    assert "Take over the knight" in page.inner_text("#puzzle-notes")
    assert page.is_checked("#hints") and page.is_checked("#undo")
    assert not page.is_visible("#position")  # the box for a position of one's own
    shot(page, "practice-lobby-puzzle")
    page.click("#create")
    page.wait_for_url("**/play/**")
    st = wait_ready(page)
    assert st["seat"] == "1" and st["legal"] == 2
    assert "started from Offered for forty" in page.inner_text("#table-terms")
    assert "hints allowed" in page.inner_text("#table-terms")
    # nothing to take back yet: the button says why
    page.wait_for_selector("#undo-reason")
    assert page.is_disabled("#undo-button")
    # the hint: a win chance for each choice, the bot's pick marked among the buttons
    page.click("#hint-button")
    page.wait_for_selector("#hint li.pick", timeout=60_000)
    pick = page.get_attribute("#hint li.pick", "data-hinted")
    assert pick in ("take", "decline")
    assert page.locator(f'.actionbar button.hint-pick[data-action="{pick}"]').count() == 1
    assert "%" in page.inner_text("#hint")
    shot(page, "practice-hint")
    # my decision is held for its confirmation window: I see it, nobody else does, and
    # Undo takes it back
    page.click('.actionbar button[data-action="decline"]')
    page.wait_for_selector("#held-note")
    assert not page.is_disabled("#undo-button") and page.is_visible("#confirm-button")
    assert "Nobody sees your decision yet" in page.inner_text("#held-note")
    assert page.locator("#hint").count() == 0  # the hint was for the decision before
    shot(page, "practice-held")
    page.click("#undo-button")
    page.wait_for_function("() => !document.getElementById('held-note')")
    st = wait_ready(page)
    assert st["legal"] == 2  # take or decline again
    assert page.is_disabled("#undo-button")
    # decided again and confirmed: the bots answer, and it cannot be taken back any more
    before = table_state(page)["move"]
    page.click('.actionbar button[data-action="take"]')
    page.wait_for_selector("#confirm-button")
    page.click("#confirm-button")
    page.wait_for_function(
        "m => Number(document.querySelector('.table-page')?.dataset.move) > m"
        " && !document.getElementById('held-note')",
        arg=before,
        timeout=60_000,
    )
    assert page.locator("#confirm-button").count() == 0
    assert page.locator("#undo-button").count() == 0 or page.is_disabled("#undo-button")
    shot(page, "practice-after-confirm")


def test_a_confirm_at_the_end_of_the_turn(new_page: Callable[..., Any], server: Server) -> None:
    # a table created with "Confirm each turn": my decisions wait for my Confirm, however
    # long I look at them, and Undo takes each back until then
    page = new_page(viewport=PHONE)
    page.goto(server.url + "/")
    page.fill("#my-name", "Ann")
    page.click("#start-from-box summary")
    page.select_option("#start-from", f"puzzle:{PUZZLE}")
    page.click("summary:has-text('Table settings')")
    assert page.is_checked("#undo") and not page.is_checked("#confirm-turn")
    page.uncheck("#undo")
    assert page.is_disabled("#confirm-turn")  # a Confirm is for a table with undo
    page.check("#undo")
    page.check("#confirm-turn")
    shot(page, "practice-confirm-turn-lobby-phone")
    page.click("#create")
    page.wait_for_url("**/play/**")
    st = wait_ready(page)
    assert "Confirm at the end of each turn" in page.inner_text("#table-terms")
    # taking the knight is held and shown; its draw would show me a card, so it waits
    # unseen for my Confirm; both are taken back, one by one
    page.click('.actionbar button[data-action="take"]')
    page.wait_for_selector("#held-note")
    assert "press Confirm to play them" in page.inner_text("#held-note")
    page.wait_for_selector('.actionbar button[data-action="draw"]:not([disabled])')
    page.click('.actionbar button[data-action="draw"]')
    page.wait_for_function(
        "() => document.getElementById('held-note')?.textContent.includes('waits for your Confirm')"
    )
    assert table_state(page)["legal"] == 0 and not page.is_disabled("#undo-button")
    shot(page, "practice-confirm-turn-held-phone")
    page.click("#undo-button")
    page.wait_for_selector('.actionbar button[data-action="draw"]:not([disabled])')
    page.click("#undo-button")
    page.wait_for_function("() => !document.getElementById('held-note')")
    st = wait_ready(page)
    assert st["legal"] == 2 and page.is_disabled("#undo-button")
    # decided again and confirmed: played, and nothing can be taken back any more
    page.set_viewport_size(DESKTOP)
    page.click('.actionbar button[data-action="decline"]')
    page.wait_for_selector("#confirm-button")
    shot(page, "practice-confirm-turn-held")
    page.click("#confirm-button")
    page.wait_for_function(
        "m => Number(document.querySelector('.table-page')?.dataset.move) > m"
        " && !document.getElementById('held-note')",
        arg=st["move"],
        timeout=60_000,
    )
    assert page.locator("#undo-button").count() == 0 or page.is_disabled("#undo-button")
    shot(page, "practice-confirm-turn-after")


def test_a_bad_position_is_refused_on_the_page(pages: Any, server: Server) -> None:
    page = pages.new()
    page.goto(server.url + "/")
    page.check("#game-dragon-stripes")
    page.select_option("#players", "3")
    page.click("#start-from-box summary")
    page.select_option("#start-from", "own")
    folder = resources.files("dragonlair.dragon_stripes") / "data" / "puzzles"
    text = (folder / "half-awake.toml").read_text()
    page.fill("#position", text.replace('phase = "draw"', 'phase = "bidding"'))
    page.click("#create")
    page.wait_for_function("() => document.querySelector('#create-problem')?.textContent")
    problem = page.inner_text("#create-problem")
    assert "position field 'phase'" in problem, problem
    assert "/play/" not in page.url
    shot(page, "practice-bad-position")
    # the refused request itself is the one thing the browser reports
    pages.errors[:] = [e for e in pages.errors if "status of 400" not in e]
