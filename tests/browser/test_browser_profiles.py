"""Profiles and leaderboards in Chromium, as a player meets them: sign up, play a rated
game against a bot to the end in the page, find it on the player's public profile (with
the games stored before it: a history long enough to settle the rating), follow the
lobby's link to the game's leaderboard, page through it, and open a profile from it; in
English and German, at a desktop's and a phone's size. Nothing private shows: not the
session, not a game still being played."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import insert

from dragonlair.web.ratings import rate_finished, ratings_t
from dragonlair.web.store import Store
from tests.browser.browserkit import DESKTOP, PHONE, Server, play_to_end, shot, wait_ready
from tests.browser.conftest import Pages
from tests.browser.test_browser_accounts import sign_up
from tests.i18n.english import english_words
from tests.web.profilekit import add_account, streak

# A server of its own (tests/browser/conftest.py): a leaderboard of the whole server is counted,
# its database written.
OWN_SERVER = True

CREATE = """async (rated) => {
  const r = await fetch("/api/tables", {method: "POST",
    headers: {"content-type": "application/json"},
    body: JSON.stringify({game: "space-race", players: 2, rated,
      seats: [{type: "human", name: "Rae"}, {type: "bot", level: "random"}]})});
  return {status: r.status, body: await r.json()};
}"""

WINS = [True, True, False] * 24  # 72 rated games: enough to settle a rating


def seed(server: Server, account: str) -> None:
    """The account's older games, and 30 settled players and one provisional one beside
    it on Space Race's leaderboard (two pages of 25)."""
    store = Store(f"sqlite:///{server.dir / 'tables.sqlite3'}", on_finish=rate_finished)
    try:
        streak(store, account, WINS, prefix="rae")
        now = time.time()
        others = [add_account(store.engine, f"Player {i:02d}") for i in range(30)]
        fresh = add_account(store.engine, "Newcomer")
        rows = [
            {"player": f"a:{a}", "mu": 20.0 + i * 0.4, "sigma": 2.0, "games": 80}
            for i, a in enumerate(others)
        ]
        rows.append({"player": f"a:{fresh}", "mu": 40.0, "sigma": 7.0, "games": 1})
        with store.engine.begin() as conn:
            conn.execute(
                insert(ratings_t), [{**r, "game": "space-race", "updated": now} for r in rows]
            )
    finally:
        store.close()


@pytest.mark.timeout(900)
def test_a_players_profile_and_the_leaderboard_in_english_and_german(
    server: Server, pages: Pages, new_page: Callable[..., Any]
) -> None:
    page = new_page()
    sign_up(page, server, "Rae Stone")
    me = page.evaluate("() => fetch('/api/account').then((r) => r.json())")["account"]
    # a rated game played in the page, to the end
    made = page.evaluate(CREATE, True)
    assert made["status"] == 201, made
    played = made["body"]["table"]["id"]
    page.goto(server.url + made["body"]["seats"][0]["link"])
    wait_ready(page)
    play_to_end(page, random.Random(8))
    # a game still being played: it shows nowhere on the profile
    running = page.evaluate(CREATE, False)
    assert running["status"] == 201, running
    unfinished = running["body"]["table"]["id"]
    page.goto(server.url + running["body"]["seats"][0]["link"])
    wait_ready(page)
    seed(server, me["id"])
    # the account page leads to the player's own public profile
    page.goto(server.url + "/account")
    page.click("#public-profile")
    page.wait_for_selector(".profile-game")
    assert page.url.endswith("/players/Rae%20Stone")

    # the lobby links to each game's leaderboard
    page.goto(server.url + "/")
    page.click("#leaderboards >> text=Space Race")
    page.wait_for_selector("table.leaderboard")
    assert page.url.endswith("/leaderboard/space-race")
    note = page.inner_text("#provisional-note")
    # the newcomer, and the random bot with its one game
    assert "2 players with a provisional rating are not listed" in note
    rows = page.locator("table.leaderboard tbody tr")
    assert rows.count() == 25
    text = page.inner_text("table.leaderboard")
    assert "Newcomer" not in text and "bot (random)" not in text  # provisional: not listed
    bots = page.locator("tr.is-bot").count()
    shot(page, "leaderboard-desktop")
    page.click(".pager >> text=Next")
    page.wait_for_selector(".pager >> text=Page 2 of 2")
    rest = page.inner_text("table.leaderboard")
    assert "Rae Stone" in text + rest
    assert "Newcomer" not in rest and "bot (random)" not in rest
    # the heuristic bot, settled by its games against Rae, is listed once, marked a bot
    bots += page.locator("tr.is-bot").count()
    assert bots == 1 and "bot (heuristic)" in text + rest
    # ranks go on from the first page
    assert page.locator("table.leaderboard tbody tr td").first.inner_text() == "26"

    # from the leaderboard to a profile
    page.goto(server.url + "/leaderboard/space-race")
    page.wait_for_selector("table.leaderboard")
    if not page.locator("table.leaderboard >> text=Rae Stone").count():
        page.click(".pager >> text=Next")
        page.wait_for_selector(".pager >> text=Page 2 of 2")
    page.click("table.leaderboard >> text=Rae Stone")
    page.wait_for_selector(".profile-game")
    assert page.url.endswith("/players/Rae%20Stone")
    head = page.inner_text(".profile-head")
    assert "Rae Stone" in head and "Member since" in head
    game = page.inner_text(".profile-game[data-game=space-race]")
    assert "Rating " in game and "±" in game and "provisional" not in game
    assert f"{len(WINS) + 1} rated games" in game and f"{len(WINS) + 1} games played" in game
    chart = page.locator(".profile-game[data-game=space-race] svg.rating-chart")
    assert chart.count() == 1
    assert len(chart.locator("polyline").get_attribute("points").split()) == len(WINS) + 2
    recent = page.locator(".recent-game")
    assert recent.count() == 10
    assert page.locator(f".recent-game[data-table='{played}']").count() == 1
    # each game links to its own page
    link = page.locator(f".recent-game[data-table='{played}'] a.game-link")
    assert link.get_attribute("href") == f"/games/{played}"
    html = page.content()
    assert unfinished not in html
    session = next(c["value"] for c in page.context.cookies() if c["name"] == "dl_session")
    assert session not in html
    shot(page, "profile-desktop")
    page.set_viewport_size(PHONE)
    page.reload()
    page.wait_for_selector(".profile-game")
    shot(page, "profile-phone")
    page.goto(server.url + "/leaderboard/space-race")
    page.wait_for_selector("table.leaderboard")
    shot(page, "leaderboard-phone")

    # German, as a German reader opens them
    de = new_page(viewport=DESKTOP)
    de.context.add_cookies([{"name": "lang", "value": "de", "url": server.url}])
    de.goto(server.url + "/players/rae%20stone")  # names compare case-folded
    de.wait_for_selector(".profile-game")
    head = de.inner_text(".profile-head")
    assert "Rae Stone" in head and "Mitglied seit" in head
    assert "Letzte Partien" in de.inner_text("#recent")
    assert english_words(de.inner_text("body")) == []
    shot(de, "profile-desktop-de")
    de.goto(server.url + "/leaderboard/space-race")
    de.wait_for_selector("table.leaderboard")
    assert "vorläufig" in de.inner_text("#provisional-note")
    assert english_words(de.inner_text("body")) == []
    shot(de, "leaderboard-desktop-de")
    de.set_viewport_size(PHONE)
    de.reload()
    de.wait_for_selector("table.leaderboard")
    shot(de, "leaderboard-phone-de")
    de.goto(server.url + "/players/Rae%20Stone")
    de.wait_for_selector(".profile-game")
    shot(de, "profile-phone-de")

    # no such player: said, nothing else shown (the one refusal the page meets)
    assert not pages.errors
    de.goto(server.url + "/players/Nobody%20Here")
    de.wait_for_selector(".profile-page .form-error")
    assert "keinen Spieler dieses Namens" in de.inner_text(".profile-page")
    assert de.locator(".profile-game, .recent-game").count() == 0
    assert len(pages.errors) == 1 and "404" in pages.errors[0]
    pages.errors.clear()
