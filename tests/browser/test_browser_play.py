"""A person's whole visit, in a real headless Chromium against the real server: create a
table with bots in the lobby, play a whole game of each of the four games by clicking,
reload in the middle and carry on, keep playing through a dropped connection, use the
keyboard, read it on a phone, and two people at one table who never see each other's
hand. Screenshots land in out/screenshots/."""

from __future__ import annotations

import random
import signal
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.browser.browserkit import (
    GAMES,
    PHONE,
    Server,
    click_one,
    create_in_lobby,
    near_end,
    play_in_page,
    shot,
    table_state,
    wait_ready,
)
from tests.i18n.english import english_words

# A server of its own (tests/browser/conftest.py): a stranger joins the first open seat the lobby
# lists.
OWN_SERVER = True

# End to end: a real server and Chromium.
pytestmark = pytest.mark.slow


def log_lines(page: Any) -> int:
    return int(page.locator("#log li").count())


@pytest.mark.parametrize("game", list(GAMES))
def test_create_in_the_lobby_and_play_a_whole_game_by_clicking(
    server: Server, new_page: Callable[..., Any], game: str
) -> None:
    page = new_page()
    setup = GAMES[game]
    create_in_lobby(page, server, game, setup["players"], options=setup["options"])
    assert page.locator(".board").count() == 1
    seen: dict[str, Any] = {"reloaded": False, "deadlines": []}

    def every(n: int) -> None:
        if n == 1:
            # reload in the middle of the game: the same table, the same seat, the log again
            before = table_state(page)
            lines = log_lines(page)
            shot(page, f"{game}-desktop")
            page.reload()
            after = wait_ready(page)
            assert after["seat"] == before["seat"] and after["move"] >= before["move"]
            assert log_lines(page) >= min(lines, 1)
            seen["reloaded"] = True
        deadline = page.locator(".deadline")
        if deadline.count():
            seen["deadlines"].append(deadline.inner_text())

    # the first clicks are Playwright's (each button visible, still and free to click) with
    # a reload among them; the rest of the game is clicked inside the page
    rng = random.Random(game)
    clicks = 0
    for n in range(8):
        st = wait_ready(page)
        if st["status"] == "over":
            break
        every(n)
        if wait_ready(page)["status"] == "over":
            break
        click_one(page, rng)
        clicks += 1
    clicks += play_in_page(page, seed=clicks)
    assert clicks >= 2 and seen["reloaded"]
    result = page.locator(".result")
    result.wait_for()
    assert result.locator("tbody tr").count() == setup["players"]
    assert "win" in result.locator("h2").inner_text().lower()
    assert log_lines(page) > 5
    if game == "dragon-race":
        # asked HALT! or pass after a bot's play while holding a HALT! card, the person
        # sees a countdown (without one, the server answers for them: no countdown)
        assert all(" s " in d and "HALT" in d for d in seen["deadlines"])
    shot(page, f"{game}-over")


@pytest.mark.parametrize("game", ["space-dragons", "dragon-race"])
def test_a_table_reads_on_a_phone(server: Server, new_page: Callable[..., Any], game: str) -> None:
    setup = GAMES[game]
    seats = [{"type": "human", "name": "Ann"}] + [{"type": "bot", "level": "random"}] * (
        setup["players"] - 1
    )
    created = server.create(
        game=game, players=setup["players"], options=setup["options"], seats=seats, seed=11
    )
    page = new_page(PHONE)
    page.goto(server.url + created["seats"][0]["link"])
    wait_ready(page)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px screen"
    # the choices stay within reach and large enough to tap
    box = page.locator("button[data-action]").first.bounding_box()
    assert box is not None and box["height"] >= 34 and box["x"] >= 0
    shot(page, f"{game}-phone", full_page=False)
    lobby = new_page(PHONE)
    lobby.goto(server.url + "/")
    lobby.wait_for_selector("#create")
    assert lobby.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    shot(lobby, "lobby-phone", full_page=False)


def test_the_lobby_offers_each_games_styles_of_play(
    server: Server, new_page: Callable[..., Any]
) -> None:
    page = new_page()
    page.goto(server.url + "/")
    page.fill("#my-name", "Ann")
    page.check("#game-space-race")
    page.select_option("#players", "3")
    level = page.locator("#seat-1-level")
    assert level.locator(":scope > option").all_inner_texts() == [
        "random",
        "heuristic",
        "ismcts",
        "trained",
    ]
    assert level.locator("optgroup").get_attribute("label") == (
        "Styles of play (the heuristic, leaning one way)"
    )
    styles = ["fuel-heavy", "robot-heavy", "crystal-heavy"]
    assert level.locator("optgroup option").all_inner_texts() == styles
    help_text = page.locator(".seat-row[data-seat='1'] .seat-help")
    assert help_text.inner_text() == "heuristic: plays sensibly"  # the default level
    level.select_option("fuel-heavy")
    assert help_text.inner_text() == (
        "fuel-heavy: keeps cards face down as Fuel: Flights won and the 5 VP for the most Fuel left"
    )
    page.select_option("#seat-2-level", "robot-heavy")
    shot(page, "lobby-styles-of-play", full_page=False)
    page.select_option("#seat-1-type", "human")
    assert not help_text.is_visible() and not level.is_visible()
    page.select_option("#seat-1-type", "bot")
    assert level.input_value() == "fuel-heavy" and help_text.is_visible()
    page.click("#create")
    page.wait_for_url("**/play/**")
    wait_ready(page)
    table = page.url.split("/play/")[1].split("#")[0]
    info = httpx.get(f"{server.url}/api/tables/{table}").json()
    assert [s["level"] for s in info["seats"]] == [None, "fuel-heavy", "robot-heavy"]
    # a German browser reads the styles and what they do in German
    german = new_page()
    german.context.add_cookies([{"name": "lang", "value": "de", "url": server.url}])
    german.goto(server.url + "/")
    german.check("#game-space-race")
    german.select_option("#seat-1-level", "fuel-heavy")
    assert "Treibstoffsparer" in german.locator("#seat-1-level optgroup").inner_text()
    said = german.locator(".seat-row[data-seat='1'] .seat-help").inner_text()
    assert said.startswith("Treibstoffsparer: legt Karten verdeckt als Treibstoff ab")
    assert not english_words(said)


def wait_for_a_choice(page: Any) -> dict[str, Any]:
    """Wait until this page's seat has two choices or more (or the game is over): a single
    choice is played for the seat a moment later (autoplay), which would change the
    buttons between a test reading them and pressing a key."""
    wait_ready(page)
    page.wait_for_function(
        """() => {
          const t = document.querySelector('.table-page');
          return t.dataset.status === 'over'
                 || (Number(t.dataset.legal) >= 2 && t.dataset.pending === '0');
        }""",
        timeout=60_000,
    )
    return table_state(page)


def test_the_keyboard_plays_and_focus_is_visible(
    server: Server, new_page: Callable[..., Any]
) -> None:
    created = server.create(
        game="dragon-stripes",
        players=2,
        seats=[{"type": "human", "name": "Ann"}, {"type": "bot", "level": "random"}],
        seed=4,
    )
    page = new_page()
    # the action each key press clicks (a key that clicks nothing leaves the seat to its
    # deadline, which would move the game on too)
    page.context.add_init_script(
        "document.addEventListener('click', (e) => { const a = e.target.closest"
        "('button[data-action]'); if (a) window.__clicked = a.dataset.action; }, true)"
    )
    page.goto(server.url + created["seats"][0]["link"])
    st = wait_for_a_choice(page)
    # a button's letter presses it ("take" for T, "draw" for D)
    button = page.locator("button[data-action][data-letter]:not([data-letter=''])").first
    action, letter = button.get_attribute("data-action"), button.get_attribute("data-letter")
    assert letter
    # only the click the key makes counts (the page may have clicked before it was read)
    page.evaluate("() => { window.__clicked = null; }")
    page.keyboard.press(letter)
    page.wait_for_function("() => !!window.__clicked")
    assert page.evaluate("() => window.__clicked") == action
    page.wait_for_function(
        "m => Number(document.querySelector('.table-page').dataset.move) > m", arg=st["move"]
    )
    st = wait_for_a_choice(page)
    if st["status"] != "over":
        # Tab reaches the actions, and the focused one shows a ring
        page.locator("button[data-action]").first.focus()
        outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
        assert outline not in ("", "none")
        first = page.locator("button[data-action][data-key='1']").first.get_attribute("data-action")
        page.evaluate("() => { window.__clicked = null; }")
        page.keyboard.press("1")
        page.wait_for_function("() => !!window.__clicked")
        assert page.evaluate("() => window.__clicked") == first
        page.wait_for_function(
            "m => Number(document.querySelector('.table-page').dataset.move) > m",
            arg=st["move"],
        )
    # ? opens the rules for players, Escape closes them
    page.keyboard.press("?")
    dialog = page.locator("dialog#rules")
    dialog.locator("h2").wait_for()
    text = dialog.inner_text()
    assert "how to play dragon stripes" in text.lower()
    assert "draw" in text.lower() and "seat 0" not in text and "``" not in text
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('dialog#rules').open")


def test_the_page_reconnects_when_the_server_comes_back(
    browser: Any, new_page: Callable[..., Any], pages: Any, own_server: Callable[[Server], Server]
) -> None:
    own = own_server(Server())
    # a few choices before the end: the game goes on to its end after the reconnection
    created = own.create(
        game="dragon-stripes",
        players=2,
        seats=[{"type": "human", "name": "Ann"}, {"type": "bot", "level": "random"}],
        seed=21,
        position=near_end("dragon-stripes", 2, seed=21, choices=5),
    )
    page = new_page()
    page.goto(own.url + created["seats"][0]["link"])
    rng = random.Random(2)
    wait_ready(page)
    click_one(page, rng)
    st = wait_ready(page)
    own.stop()  # the connection drops
    conn_state = "document.getElementById('conn').dataset.state"
    page.wait_for_function(f"() => ['offline', 'reconnecting'].includes({conn_state})")
    shot(page, "reconnecting", full_page=False)
    own.start()  # same port, same storage: the table is resumed
    page.wait_for_function("() => document.getElementById('conn').dataset.state === 'connected'")
    again = wait_ready(page)
    # (the same move, or later if it was a forced one the server answered)
    assert again["move"] >= st["move"] and again["seat"] == "0"
    play_in_page(page, seed=2)
    assert page.locator(".result").count() == 1
    # the browser reports each refused connection attempt; those are expected here
    pages.errors[:] = [e for e in pages.errors if "WebSocket" not in e]


def test_the_page_reconnects_when_the_server_falls_silent(
    browser: Any, new_page: Callable[..., Any], pages: Any, own_server: Callable[[Server], Server]
) -> None:
    """A server that stops answering without closing anything (a hung process: the kernel
    keeps its sockets open) is noticed by the page's heartbeat while it is still stopped,
    not when the socket finally ends; and the page plays on once it answers again."""
    own = own_server(Server())
    created = own.create(
        game="dragon-stripes",
        players=2,
        seats=[{"type": "human", "name": "Ann"}, {"type": "bot", "level": "random"}],
        seed=22,
    )
    page = new_page()
    page.goto(own.url + created["seats"][0]["link"])
    st = wait_ready(page)
    conn_state = "document.getElementById('conn').dataset.state"
    assert own.proc is not None
    own.proc.send_signal(signal.SIGSTOP)
    try:
        # seconds with the heartbeat; the page used to wait 30 s of silence and then a
        # closing handshake that a stopped server never answers
        page.wait_for_function(
            f"() => ['offline', 'reconnecting'].includes({conn_state})", timeout=20_000
        )
    finally:
        own.proc.send_signal(signal.SIGCONT)
    page.wait_for_function(f"() => {conn_state} === 'connected'")
    again = wait_ready(page)
    assert again["move"] >= st["move"] and again["seat"] == "0"
    click_one(page, random.Random(3))
    page.wait_for_function(
        "m => Number(document.querySelector('.table-page').dataset.move) > m",
        arg=again["move"],
    )
    pages.errors[:] = [e for e in pages.errors if "WebSocket" not in e]


def hidden_cards(page: Any) -> list[int]:
    """The cards in this page's hand (its own seat's secret)."""
    hand: list[int] = page.evaluate("() => window.dragonlair.msg.view.hand || []")
    return hand


def leaks(page: Any, cards: list[int], labels: dict[int, str]) -> list[str]:
    """Any trace of ``cards`` in the page's DOM: a drawn card, its label, an action on it."""
    html: str = page.content()
    found = []
    for c in cards:
        for trace in (f'data-card="{c}"', labels[c], f'"hire {c}"', f'"play {c}"'):
            if trace in html:
                found.append(f"card {c}: {trace}")
    return found


def test_two_people_at_one_table_never_see_each_others_hand(
    server: Server, new_page: Callable[..., Any]
) -> None:
    created = server.create(
        game="space-dragons",
        players=3,
        seats=[
            {"type": "human", "name": "Ann"},
            {"type": "human", "name": "Bo"},
            {"type": "bot", "level": "random"},
        ],
        seed=8,
    )
    catalog = server_get(server, f"/api/tables/{created['table']['id']}/catalog")
    labels = {c["number"]: c["label"] for c in catalog["components"]["crew"]}
    ann, bo = new_page(), new_page()
    ann.goto(server.url + created["seats"][0]["link"])
    bo.goto(server.url + created["seats"][1]["link"])
    wait_ready(ann)
    wait_ready(bo)
    rng = random.Random(5)
    saw_waiting = False
    for _ in range(200):
        states = {name: table_state(p) for name, p in (("ann", ann), ("bo", bo))}
        if all(s["status"] == "over" for s in states.values()):
            break
        for me, other in ((ann, bo), (bo, ann)):
            assert not leaks(me, hidden_cards(other), labels), leaks(
                me, hidden_cards(other), labels
            )
        acted = False
        for name, page in (("ann", ann), ("bo", bo)):
            st = states[name]
            if st["status"] != "over" and st["legal"] and not st["pending"]:
                click_one(page, rng)
                acted = True
                headline = page.locator(".actionbar").inner_text()
                if "still choosing: " + ("Bo" if name == "ann" else "Ann") in headline:
                    saw_waiting = True
        if not acted:
            ann.wait_for_timeout(50)
    else:
        raise AssertionError("the game did not end")
    assert saw_waiting, "a page should say who is still choosing a secret pick"
    for p in (ann, bo):
        p.locator(".result").wait_for()
    shot(ann, "two-people-ann")


def server_get(server: Server, path: str) -> dict[str, Any]:
    import httpx

    r = httpx.get(server.url + path, timeout=30)
    r.raise_for_status()
    out: dict[str, Any] = r.json()
    return out


def test_invite_a_friend_join_an_open_seat_and_watch_from_the_lobby(
    server: Server, new_page: Callable[..., Any]
) -> None:
    # Ann creates a table with a friend's seat and an open seat: the lobby hands out links
    ann = new_page()
    ann.goto(server.url + "/")
    ann.fill("#my-name", "Ann")
    ann.check("#game-dragon-stripes")
    ann.select_option("#players", "3")
    ann.select_option("#seat-1-type", "human")
    ann.select_option("#seat-2-type", "open")
    ann.click("#create")
    ann.wait_for_selector("#go-to-table")
    links = ann.eval_on_selector_all("#created input.link", "es => es.map(e => e.value)")
    assert len(links) == 2 and "/play/" in links[0] and "/watch/" in links[1]
    ann.click("#go-to-table")
    ann.wait_for_selector(".table-page[data-status='waiting']")
    assert "Waiting for players" in ann.locator(".actionbar").inner_text()
    # the friend opens their link; a stranger joins the open seat from the lobby
    friend = new_page()
    friend.goto(links[0])
    friend.wait_for_selector(".table-page[data-seat='1']")
    stranger = new_page()
    stranger.goto(server.url + "/")
    stranger.fill("#my-name", "Cy")
    join = stranger.locator("#open-tables button", has_text="Join")
    join.first.wait_for()
    join.first.click()
    stranger.wait_for_url("**/play/**")
    stranger.wait_for_selector(".table-page[data-seat='2'][data-status='playing']")
    # the game starts on every page (seat 0's first answer may be played for it at once)
    ann.wait_for_selector(".table-page[data-status='playing']")
    # anyone may watch a listed game from the lobby, and sees no hand and no choices
    watcher = new_page()
    watcher.goto(server.url + "/")
    watch = watcher.locator("#playing-tables a", has_text="Watch")
    watch.first.wait_for()
    watch.first.click()
    watcher.wait_for_selector(".table-page[data-seat='spectator']")
    assert watcher.locator("button[data-action]").count() == 0
    assert watcher.locator("#my-gems").count() == 0
    assert "spectator" in watcher.locator("#topbar-info").inner_text()
