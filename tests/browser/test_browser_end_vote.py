"""Ending a turn-based table by a vote, in a real Chromium: two friends in two browser
contexts and a spectator. One proposes, the other sees the proposal with its buttons and
agrees, and both see the table end as abandoned by their vote; the spectator sees the vote
but has no voice in it (dragonlair.web.table.votes)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dragonlair.web.table.deadlines import ManualClock
from tests.browser.browserkit import PHONE, shot
from tests.i18n.english import english_words
from tests.web.serverkit import LiveServer, config, create_table

DAY = 86400.0


@pytest.mark.timeout(180)
def test_two_friends_vote_to_end_a_turn_based_table(
    new_page: Callable[..., Any], own_server: Callable[[LiveServer], LiveServer], tmp_path: Path
) -> None:
    clock = ManualClock()
    server = own_server(
        LiveServer(
            config(f"sqlite:///{tmp_path / 'vote.sqlite3'}", clock=clock, deadline_sweep=0.1)
        )
    )
    created = create_table(
        server.http,
        game="dragon-race",
        players=2,
        seats=[{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}],
        pace=DAY,
    )
    tid = created["table"]["id"]
    play = [f"{server.http}/play/{tid}#{s['token']}" for s in created["seats"]]
    ann, bob, watcher = new_page(), new_page(), new_page()
    ann.goto(play[0])
    bob.goto(play[1])
    watcher.goto(f"{server.http}/watch/{tid}#{created['watch']['token']}")
    for page in (ann, bob):
        page.wait_for_selector("#propose-end")
    # when the table ends by itself if nobody moves, a week from now
    assert "the table ends as abandoned" in ann.locator("#idle-end").inner_text()
    assert watcher.locator("#propose-end").count() == 0  # a spectator has no vote

    ann.click("#propose-end")
    bob.wait_for_selector("#vote-yes")
    notice = bob.locator("#end-vote").inner_text()
    assert "Ann proposed to end this game" in notice and "Do you agree" in notice
    ann.wait_for_selector("#end-vote")
    mine = ann.locator("#end-vote").inner_text()
    assert "You proposed to end this game" in mine and "Waiting for: Bob" in mine
    assert ann.locator("#vote-yes").count() == 0  # she has agreed by proposing
    watcher.wait_for_selector("#end-vote")
    assert watcher.locator("#vote-yes").count() == 0
    shot(bob, "end-vote-proposed")
    # on a phone, in German
    phone = new_page(viewport=PHONE)
    phone.context.add_cookies([{"name": "lang", "value": "de", "url": server.http}])
    phone.goto(play[1])
    phone.wait_for_selector("#vote-yes")
    # in one step of the page's own script: the notice may be drawn again meanwhile
    phone.wait_for_function(
        "() => { const e = document.querySelector('#end-vote');"
        " if (e) e.scrollIntoView(); return !!e; }"
    )
    assert "Ann hat vorgeschlagen, diese Partie zu beenden" in phone.inner_text("#end-vote")
    assert english_words(phone.inner_text("#end-vote")) == []
    shot(phone, "end-vote-proposed-phone-de", full_page=False)
    phone.close()

    bob.click("#vote-yes")
    for page in (ann, bob, watcher):
        page.wait_for_selector("#abandoned[data-ended='vote']")
    assert "The players voted to end this game" in ann.locator("#abandoned").inner_text()
    assert ann.locator("#propose-end").count() == 0
    shot(ann, "end-vote-ended")
    info = server.hub.tables.get(tid) or server.hub.finished[tid]
    assert info.status == "abandoned" and info.result is None
