"""A puzzle at the table and a game's rules from the lobby, in a real Chromium, in English
and German, on a desktop and a phone: the puzzle's question and notes are shown at its
table, no countdown answers its decision for the player, and "Show the answer" says what
the hint's estimator found best and why; each game's rules at a glance open from the
lobby before any table exists. Screenshots land in out/screenshots/."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from dragonlair.core.puzzles import puzzle
from dragonlair.i18n import translations
from tests.browser.browserkit import DESKTOP, GAMES, PHONE, Server, shot, wait_ready

pytestmark = pytest.mark.slow

PUZZLE = "dragon-stripes/offered-for-forty"  # seat 2 (index 1): take over the knight or not
SIZES = {"desktop": DESKTOP, "phone": PHONE}


@pytest.fixture(scope="module")
def short_deadline() -> Iterator[Server]:
    """A server whose offers are declined for a person after 2 s: at a puzzle's table
    nothing may be."""
    s = Server(deadline="2")
    yield s
    s.close()


def page_in(browser: Any, lang: str, size: str = "desktop") -> tuple[Any, list[str]]:
    ctx = browser.new_context(viewport=SIZES[size], locale="de-DE" if lang == "de" else "en-GB")
    ctx.add_init_script("localStorage.setItem('dragonlair:pace', '0')")
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, errors


def words(lang: str, text: str) -> str:
    return translations(lang).gettext(text) if lang == "de" else text


def shots(page: Any, name: str) -> None:
    """Screenshots of the page as it is, on a desktop and on a phone (the page laid out
    again at each size), named ``{name}-{size}``; the page is left at the desktop's."""
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(viewport)
        page.wait_for_function(
            "w => document.documentElement.clientWidth === w", arg=viewport["width"]
        )
        shot(page, f"{name}-{size}")


@pytest.mark.timeout(300)
@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_puzzle_shows_its_question_waits_and_shows_the_answer(
    browser: Any, short_deadline: Server, lang: str
) -> None:
    p = puzzle(PUZZLE)
    created = short_deadline.create(
        game="dragon-stripes",
        puzzle=PUZZLE,
        seats=[
            {"type": "bot", "level": "heuristic"},
            {"type": "human", "name": "Ann"},
            {"type": "bot", "level": "heuristic"},
        ],
    )
    page, errors = page_in(browser, lang)
    try:
        page.goto(short_deadline.url + created["seats"][0]["link"])
        st = wait_ready(page)
        assert st["seat"] == "1" and st["legal"] == 2
        assert page.evaluate("() => document.documentElement.lang") == lang
        question = page.inner_text("#puzzle-question")
        assert question == words(lang, p.question)
        assert words(lang, p.notes) in page.inner_text("#puzzle-hint-text")
        # the offer is not answered for the player: past the table's 2 s deadline the
        # question is still asked (a wait on purpose: nothing may happen in it)
        time.sleep(3)
        st = wait_ready(page)
        assert st["move"] == 0 and st["legal"] == 2
        assert page.locator(".actionbar .deadline").count() == 0  # no countdown shown
        shots(page, f"puzzle-question-{lang}")
        page.click("#answer-button")
        page.wait_for_selector("#puzzle-answer", timeout=90_000)
        answer = page.inner_text("#puzzle-answer")
        pick = page.get_attribute("#hint li.pick", "data-hinted")
        assert pick in ("take", "decline")
        # the answer names the hint's best-ranked choice, which is the one outlined
        assert page.locator(f'button.hint-pick[data-action="{pick}"]').count() >= 1
        assert page.locator("#hint li").first.get_attribute("data-hinted") == pick
        assert words(lang, "The answer: {choice}").split("{")[0] in answer
        assert "%" in answer
        shots(page, f"puzzle-answer-{lang}")
        # played: the answer stays, the question is no longer open
        page.click(f'.actionbar button[data-action="{pick}"]')
        page.wait_for_function(
            "() => Number(document.querySelector('.table-page')?.dataset.move) > 0",
            timeout=60_000,
        )
        assert page.locator("#puzzle-answer").count() == 1
        assert page.locator("#answer-button").count() == 0
    finally:
        page.context.close()
    assert not errors, errors


@pytest.mark.timeout(300)
@pytest.mark.parametrize("lang", ["en", "de"])
def test_each_games_rules_open_from_the_lobby(
    browser: Any, short_deadline: Server, lang: str
) -> None:
    # (the puzzles' server: the lobby and the rules do not depend on its deadline)
    server = short_deadline
    page, errors = page_in(browser, lang)
    try:
        for game in GAMES:
            page.goto(server.url + "/")
            page.wait_for_selector(f"#rules-{game}")
            if game == next(iter(GAMES)):
                shots(page, f"lobby-rules-links-{lang}")
            page.click(f"#rules-{game}")
            page.wait_for_selector("#rules-page")
            assert page.url.endswith(f"/rules/{game}")
            text = page.inner_text("#rules-page")
            heading = page.inner_text("#rules-page h1")
            assert words(lang, "{game}: the rules at a glance").split("{game}")[1] in heading
            # the game's own players' rules, in the page's language: every section listed
            assert page.locator(".rules-contents li").count() >= 5
            assert (
                page.locator(".rules-part h2").count() == page.locator(".rules-contents li").count()
            )
            first = page.inner_text(".rules-contents li a >> nth=0")
            assert first in text
            if lang == "de":
                assert "Your turn" not in text and "Setup" not in text
            if game in ("dragon-stripes", "space-dragons"):  # their rules hold a table
                assert page.locator("#rules-page table.md-table th").count() >= 2
                assert "|---" not in text
            shots(page, f"rules-{game}-{lang}")
        # an unknown game is said to be unknown, with the way back
        page.goto(server.url + "/rules/no-such-game")
        page.wait_for_selector(".error")
        assert page.locator('a[href="/"]').count() >= 1
    finally:
        page.context.close()
    assert not errors, errors
