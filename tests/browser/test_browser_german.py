"""The browser in German, in a real headless Chromium against the real server: a German
browser (Accept-Language: de) plays a whole Dragon Race, and the last moves of each other
game from a position near its end, and never shows an English sentence (a check over the
page's rendered text at every move and at the end, see :mod:`tests.i18n.english`); the
language switch on the page is remembered; two people at one table read it in two
languages."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.browserkit import DESKTOP, GAMES, Server, near_end, play_to_end, wait_ready
from tests.i18n.english import english_words

pytestmark = pytest.mark.slow


class Browsers:
    """Pages in fresh contexts with a browser language, recording script errors."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def page(self, locale: str) -> Any:
        ctx = self.browser.new_context(viewport=DESKTOP, locale=locale)
        ctx.add_init_script("localStorage.setItem('dragonlair:pace', '0')")
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(60_000)
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        return page


@pytest.fixture
def browsers(browser: Any) -> Iterator[Browsers]:
    b = Browsers(browser)
    yield b
    for ctx in b.contexts:
        ctx.close()
    assert not b.errors, "the page reported errors:\n" + "\n".join(b.errors)


def shown(page: Any) -> str:
    return str(page.evaluate("() => document.body.innerText"))


def tips(page: Any) -> str:
    """The texts the page's tooltips show (``data-info``), one a line."""
    return str(
        page.evaluate(
            "() => [...document.querySelectorAll('[data-info]')]"
            ".map((e) => e.dataset.info.replace(/\\n/g, ' ')).join('\\n')"
        )
    )


WHOLE = "dragon-race"  # the game played whole, from its deal


@pytest.mark.parametrize("game", list(GAMES))
def test_a_german_browser_plays_a_game_in_german(
    server: Server, browsers: Browsers, game: str
) -> None:
    setup = GAMES[game]
    seats = [{"type": "human", "name": "Ann"}] + [{"type": "bot", "level": "random"}] * (
        setup["players"] - 1
    )
    # one whole game; the others from a few choices before their end (the middle of a
    # game shows the same words as its start and its end)
    start = {}
    if game != WHOLE:
        start["position"] = near_end(game, setup["players"], setup["options"], seed=7)
    created = server.create(
        game=game,
        players=setup["players"],
        options=setup["options"],
        seats=seats,
        seed=7,
        **start,
    )
    page = browsers.page("de-DE")
    page.goto(server.url + created["seats"][0]["link"])
    wait_ready(page)
    assert page.evaluate("() => document.documentElement.lang") == "de"
    found: dict[str, str] = {}

    def check(n: int) -> None:
        for line in (shown(page) + "\n" + tips(page)).splitlines():
            for w in english_words(line):
                found.setdefault(w, line)

    play_to_end(page, random.Random(game), every=check)
    page.wait_for_selector("#result")
    check(-1)
    page.keyboard.press("?")
    page.wait_for_selector("#rules .rules-text")
    assert "So spielt man" in shown(page)
    check(-2)  # the player rules, in German
    assert not found, found


def test_the_language_switch_is_on_every_page_and_remembered(
    server: Server, browsers: Browsers
) -> None:
    page = browsers.page("en-US")
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    assert page.locator("#create").inner_text() == "Create table"
    page.select_option("#language", "de")
    page.wait_for_function("() => document.documentElement?.lang === 'de'")
    page.wait_for_selector("#create")
    assert page.locator("#create").inner_text() == "Tisch eröffnen"
    for box in page.locator("details.options-box").all():  # the options, open
        box.evaluate("(d) => { d.open = true; }")
    assert english_words(shown(page)) == [], shown(page)
    page.reload()
    page.wait_for_selector("#create")
    assert page.locator("#create").inner_text() == "Tisch eröffnen"
    created = server.create(
        game="dragon-stripes",
        players=2,
        seats=[{"type": "human", "name": "Ann"}, {"type": "bot", "level": "random"}],
        seed=3,
    )
    page.goto(server.url + created["seats"][0]["link"])
    wait_ready(page)
    assert page.locator("#language").input_value() == "de"
    assert "verbunden" in shown(page)


def test_two_players_at_one_table_read_two_languages(server: Server, browsers: Browsers) -> None:
    created = server.create(
        game="dragon-stripes",
        players=2,
        seats=[{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bo"}],
        seed=5,
    )
    ann = browsers.page("de-DE")
    bo = browsers.page("en-GB")
    ann.goto(server.url + created["seats"][0]["link"])
    bo.goto(server.url + created["seats"][1]["link"])
    wait_ready(ann)
    ann.locator('button[data-action="draw"]').first.click()
    for page, line in ((ann, "Ann zieht"), (bo, "Ann draws")):
        page.wait_for_function(
            "(line) => [...document.querySelectorAll('#log li')]"
            ".some((li) => li.innerText.includes(line))",
            arg=line,
        )
    assert "beginnt am Schwanz des Drachen" in ann.locator("#log").inner_text()
    assert "starts from the dragon's tail" in bo.locator("#log").inner_text()


def test_a_refusal_reads_german_on_a_german_page(server: Server, browsers: Browsers) -> None:
    page = browsers.page("de-DE")
    page.goto(server.url + "/play/nosuchtable#token")
    page.wait_for_selector(".panel .error")
    assert page.locator(".panel .error").inner_text() == "Diesen Tisch gibt es nicht."
    assert english_words(shown(page)) == [], shown(page)
