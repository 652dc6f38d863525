"""The lessons at the terminal, 80x24, in English and German, driven through Textual's
Pilot as a player types: each step's text is on the screen in the player's language, a
choice the step does not teach is refused on the status line and changes nothing, and the
lesson ends with its summary."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Input, OptionList

from dragonlair.core import manifests
from dragonlair.i18n import set_language, translations
from dragonlair.tui.app import PlayApp
from dragonlair.tui.session import PlaySession, SeatConfig
from dragonlair.tutorial import Tutorial, tutorial
from tests.tui.test_app import settle
from tests.tui.tui_helpers import screen_text

SHIPPED = [m.id for m in manifests() if m.tutorial is not None]


def lesson(tut: Tutorial) -> PlaySession:
    levels = tut.bot_levels()
    seats = [
        SeatConfig("You") if s == tut.seat else SeatConfig(f"Bot {s + 1}", levels[s])
        for s in range(len(levels) + 1)
    ]
    return PlaySession(tut.start(), seats, tutorial=tut)


async def pick(pilot: object, app: PlayApp, action: str) -> None:
    """Choose ``action`` as a player does: highlight it in the choices, press Enter."""
    app.query_one("#entry", Input).value = ""
    shown = [str(a) for a in app.shown]
    app.query_one("#choices", OptionList).highlighted = shown.index(action)
    await pilot.press("enter")  # type: ignore[attr-defined]


def flat(text: str) -> str:
    """The screen's words in one line (a lesson's text wraps inside its frame)."""
    return " ".join(w for w in text.replace("│", " ").split())


@pytest.mark.timeout(120)
@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game_id", SHIPPED)
def test_each_lesson_at_80x24(game_id: str, lang: str) -> None:
    tut = tutorial(game_id)
    words = translations(lang).gettext
    refused = False

    async def run() -> None:
        nonlocal refused
        s = lesson(tut)
        app = PlayApp(s, fast=True)
        async with app.run_test(size=(80, 24)) as pilot:
            for k, step in enumerate(tut.steps, 1):
                await settle(pilot)
                assert app.asking == tut.seat, f"step {k}"
                screen = flat(screen_text(app))
                head = words("{title} · step {n} of {total}").format(
                    title=words(tut.title), n=k, total=len(tut.steps)
                )
                assert head in screen, f"step {k}: {screen[:300]}"
                assert " ".join(words(step.text).split()[:6]) in screen, f"step {k}"
                legal = [str(a) for a in s.state.legal_actions(tut.seat)]
                wrong = [a for a in legal if step.allow is not None and a not in step.allow]
                if wrong and not refused:
                    move = s.state.move
                    await pick(pilot, app, wrong[0])
                    await pilot.pause()
                    assert s.state.move == move and app.asking == tut.seat
                    refusal = words(
                        "This step of the lesson teaches another choice: read the lesson's text."
                    )
                    assert refusal in flat(screen_text(app))
                    refused = True
                await pick(pilot, app, step.allow[0] if step.allow else legal[0])
            await settle(pilot)
            assert s.tutorial is not None and s.tutorial.step(s.state) is None
            await pilot.pause()
            screen = flat(screen_text(app))
            done = words("{title} · lesson complete").format(title=words(tut.title))
            assert done in screen
            assert " ".join(words(tut.summary).split()[:6]) in screen

    set_language(lang)
    try:
        asyncio.run(run())
    finally:
        set_language("en")
    assert refused, "no step restricted a legal choice"
