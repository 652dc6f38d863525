"""A turn-based table in a real Chromium, two friends in two browser contexts, over
"days" of a clock the test moves (the server's ``ServerConfig.clock``; no waiting): the
pace chosen in the lobby and shown in the lobby's row and at the table, one friend moves,
days pass, the other's deadline passes, and the table's bot plays that move for them,
marked as played for them."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dragonlair.web.table.deadlines import ManualClock
from tests.browser.browserkit import PHONE, click_one, shot, table_state, wait_ready
from tests.web.serverkit import LiveServer, config

DAY = 86400.0
TERM = "turn-based, 1 day per move: the heuristic bot plays a move not made in time"


@pytest.mark.timeout(300)
def test_two_friends_over_days_and_a_missed_deadline(
    new_page: Callable[..., Any], own_server: Callable[[LiveServer], LiveServer], tmp_path: Path
) -> None:
    clock = ManualClock()
    server = own_server(
        LiveServer(
            config(f"sqlite:///{tmp_path / 'days.sqlite3'}", clock=clock, deadline_sweep=0.1)
        )
    )
    url = f"http://127.0.0.1:{server.port}"
    ann = new_page()
    ann.goto(url + "/")
    ann.fill("#my-name", "Ann")
    ann.check("#game-dragon-race")
    ann.select_option("#players", "2")
    ann.select_option("#seat-1-type", "human")
    ann.select_option("#table-pace", str(int(DAY)))
    assert ann.locator("#time-bank").is_disabled()  # no time bank at a turn-based table
    assert "the table never pauses" in ann.locator("#away-policy-help").inner_text()
    ann.locator("#table-pace").scroll_into_view_if_needed()
    shot(ann, "turn-based-lobby-form", full_page=False)
    ann.click("#create")
    ann.wait_for_selector("#go-to-table")
    bob_link = ann.locator("#created input.link").first.input_value()
    ann.click("#go-to-table")
    ann.wait_for_url("**/play/**")
    assert TERM in ann.locator("#table-terms").inner_text()

    # the lobby's row says the pace before anyone joins or watches
    look = new_page()
    look.goto(url + "/")
    row = look.locator(".table-terms").first
    row.wait_for()
    assert TERM in row.inner_text()
    shot(look, "turn-based-lobby-row", full_page=False)
    small = new_page(viewport=PHONE)
    small.goto(url + "/")
    small.locator(".table-terms").first.wait_for()
    small.locator(".table-terms").first.scroll_into_view_if_needed()
    shot(small, "turn-based-lobby-row-phone", full_page=False)
    small.close()

    bob = new_page()
    bob.goto(bob_link)
    bob.wait_for_selector(".table-page[data-seat='1']")
    assert TERM in bob.locator("#table-terms").inner_text()

    # Bob answers even a single choice himself (no autoplay), so his move waits for him
    bob.locator("summary", has_text="Settings").click()
    bob.uncheck("#pref-autoplay")
    # Ann moves until Bob is asked, with his move's deadline a day away
    assert wait_ready(ann)["seat"] == "0"
    rng = random.Random(3)
    for _ in range(40):
        if table_state(bob).get("legal"):
            break
        st = table_state(ann)
        if st.get("legal") and not st.get("pending"):
            click_one(ann, rng)
        else:
            time.sleep(0.2)
    assert table_state(bob).get("legal"), "Bob was never asked"
    bob.wait_for_selector("#move-due")
    shot(ann, "turn-based-table")
    phone = new_page(viewport=PHONE)
    phone.goto(bob_link)
    phone.wait_for_selector("#move-due")
    shot(phone, "turn-based-table-phone")
    phone.close()
    before = table_state(bob)["move"]

    # days pass on the server's clock: the deadline passes, the bot plays Bob's move
    clock.advance(DAY + 60)
    bob.wait_for_selector("#played-for-you", timeout=60_000)
    report = bob.locator("#played-for-you").inner_text()
    assert "Your move's deadline passed, so the heuristic bot played it for you" in report
    assert f"move {before}" in report
    shot(bob, "turn-based-played-for-you")
    ann.wait_for_function(
        "m => Number(document.querySelector('.table-page').dataset.move) > m", arg=before
    )
    info = server.hub.tables[ann.url.split("/play/")[1].split("#")[0]].info()
    assert info.due is None or info.due > clock.now
