"""Hint and undo in the terminal game, driven through Textual's Pilot: a hint marks the
choices from the seat's own view, undo takes back a decision and the bots' replies where
nothing hidden was revealed (and says why not otherwise), and a hotseat game has undo only
when every player agreed to it at the start."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from textual.widgets import Static

import dragonlair
from dragonlair.core.puzzles import puzzle
from dragonlair.i18n import set_language, translations
from dragonlair.tui.app import PlayApp, UndoConsent
from dragonlair.tui.session import PlaySession, SeatConfig
from tests.tui.test_app import settle
from tests.tui.tui_helpers import screen_text

PUZZLE = "dragon-stripes/offered-for-forty"  # seat 1 takes over the knight or declines


def practice(**kw: object) -> PlaySession:
    seats = [SeatConfig("Heuristic 1", "heuristic"), SeatConfig("You")]
    seats.append(SeatConfig("Heuristic 3", "heuristic"))
    return PlaySession(puzzle(PUZZLE).state(seed=5), seats, **kw)  # type: ignore[arg-type]


async def hinted(pilot: object, app: PlayApp) -> None:
    for _ in range(600):
        await pilot.pause(0.05)  # type: ignore[attr-defined]
        if app.hint is not None:
            return
    raise AssertionError("no hint came")


def test_the_hint_marks_the_choices_and_highlights_the_pick() -> None:
    s = practice()

    async def run() -> None:
        app = PlayApp(s, fast=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert app.asking == 1
            await pilot.press("f2")
            await hinted(pilot, app)
            await pilot.pause()
            (seat, move), advice = app.hint  # type: ignore[misc]
            assert (seat, move) == (1, s.state.move)
            assert {str(c.action) for c in advice.choices} == {"take", "decline"}
            text = screen_text(app)
            assert "★ best" in text and "%" in text
            # the sentence for what the playouts found (how many fit in the hint's time
            # depends on the machine: a clear best, or choices it cannot tell apart)
            words = " ".join(text.split())
            kind = advice.why()["kind"]
            assert "hint:" in words
            assert ("played out from here" if kind == "clear" else "cannot tell") in words
            choices = app.query_one("#choices")
            assert app.shown[choices.highlighted] == advice.pick  # type: ignore[attr-defined]

    asyncio.run(run())


def test_a_failed_hint_is_a_message_and_the_game_goes_on() -> None:
    """An install without the analysis' library (or any failure of the analysis): F2 says
    so on the status line, and the game is still there to play and save."""
    s = practice()

    def without_the_library(seat: int) -> Callable[[], object]:
        def job() -> object:
            raise ModuleNotFoundError("No module named 'statsmodels'", name="statsmodels")

        return job

    s.hint_job = without_the_library  # type: ignore[method-assign]

    async def run() -> None:
        app = PlayApp(s, fast=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert app.asking == 1
            await pilot.press("f2")
            for _ in range(100):
                await pilot.pause(0.02)
                if "no hint" in screen_text(app):
                    break
            assert app.is_running and app.hint is None and app.thinking is None
            assert "no hint: this install lacks statsmodels" in screen_text(app)
            moves = s.state.move
            await pilot.press("enter")  # the game goes on
            await settle(pilot)
            assert s.state.move > moves

    asyncio.run(run())


def test_undo_takes_back_the_decision_and_the_bots_reply() -> None:
    s = practice()
    s.autoplay[1] = False  # my one-choice answers are mine: the undo has something to do

    async def run() -> None:
        app = PlayApp(s, fast=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            start = s.state.view(1)
            # nothing to take back yet: the key says why
            await pilot.press("ctrl+z")
            await pilot.pause()
            assert "no undo: you have made no decision" in screen_text(app)
            for ch in "decline":
                await pilot.press(ch)
            await pilot.press("enter")
            await settle(pilot)
            # the bot in seat 2 declined too; I am to draw
            assert [str(a) for a in s.state.legal_actions(1)] == ["draw"]
            await pilot.press("ctrl+z")
            await settle(pilot)
            assert app.asking == 1
            assert sorted(str(a) for a in s.state.legal_actions(1)) == ["decline", "take"]
            view = s.state.view(1)
            assert {**view, "move": 0} == {**start, "move": 0}
            assert s.state.record.actions[-1] == (1, "undo")
            line = s.logs[1][-1].text
            assert line == "You take back your last decision (2 actions undone)"
            assert "You take back your last" in screen_text(app)  # the log shows it
            assert "you took back your last decision" in screen_text(app)
            assert dragonlair.replay(s.state.record).to_json() == s.state.to_json()

    asyncio.run(run())


def test_undo_is_refused_once_a_card_was_turned_over() -> None:
    s = practice()

    async def run() -> None:
        app = PlayApp(s, fast=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            for ch in "take":
                await pilot.press(ch)
            await pilot.press("enter")
            await settle(pilot)  # the draw that taking forces is answered for me
            if s.state.is_over or 1 not in s.state.to_act:
                return
            moves = s.state.move
            await pilot.press("ctrl+z")
            await pilot.pause()
            assert "something hidden has been revealed" in screen_text(app)
            assert s.state.move == moves

    asyncio.run(run())


def hotseat(undo: bool | None) -> PlaySession:
    game = dragonlair.make("dragon-stripes", players=2)
    return PlaySession(game.new_game(seed=5), [SeatConfig("Ann"), SeatConfig("Bob")], undo=undo)


def test_a_hotseat_game_has_undo_only_if_everyone_agrees() -> None:
    async def run(answers: str) -> PlaySession:
        s = hotseat(True)
        app = PlayApp(s, fast=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for key, name in zip(answers, ["Ann", "Bob"], strict=True):
                assert isinstance(app.screen, UndoConsent)
                assert f"{name}: press Y to agree" in screen_text(app)
                await pilot.press(key)
                await pilot.pause()
            assert not isinstance(app.screen, UndoConsent)
            await settle(pilot)
            assert s.undo_allowed == (answers == "yy")
            if answers != "yy":
                await pilot.press("enter")  # the hand-over
                await settle(pilot)
                assert app.check_action("undo", ()) is False
                for ch in "undo":
                    await pilot.press(ch)
                await pilot.press("enter")
                await pilot.pause()
                assert "played without undo" in screen_text(app)
        return s

    asyncio.run(run("yy"))
    asyncio.run(run("yn"))
    # without --undo nobody is asked, and there is none
    s = hotseat(None)
    assert not s.undo_wanted and not s.undo_allowed
    assert practice().undo_allowed  # alone with bots: always


@pytest.mark.timeout(120)
@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_puzzles_answer_at_80x24(lang: str) -> None:
    """F4 at the puzzle's question names the choice the analysis ranks best, and why, in
    the player's language; away from the question there is no answer to show."""
    s = practice()
    words = translations(lang).gettext

    async def run() -> None:
        app = PlayApp(s, fast=True)
        app.puzzle_at = (1, s.state.move)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert app.asking == 1 and app.check_action("answer", ()) is True
            await pilot.press("f4")
            await hinted(pilot, app)
            await pilot.pause()
            (_, _), advice = app.hint  # type: ignore[misc]
            # the status line: the answer, then why (the hint's sentence, in its words)
            status = str(app.query_one("#status", Static).render())
            answer = words("The answer: {choice}.").format(choice=str(advice.pick))
            assert status == app.answer_text(advice, s.words[1])
            assert (
                status.startswith(answer)
                and app.hint_reason(advice, s.words[1]).split(" ", 1)[1] in status
            )
            screen = " ".join(screen_text(app).split())
            assert answer in screen, screen
            # the answered puzzle is played on; its answer is for its own question only
            await pilot.press("enter")
            await settle(pilot)
            if app.asking is not None:
                assert app.check_action("answer", ()) is None
                for ch in "answer":
                    await pilot.press(ch)
                await pilot.press("enter")
                await pilot.pause()
                assert words("the answer is for the puzzle's own question") in screen_text(app)

    set_language(lang)
    try:
        asyncio.run(run())
    finally:
        set_language("en")
