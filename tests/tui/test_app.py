"""The terminal game driven through Textual's own test harness (``App.run_test`` and its
``Pilot``): keys, typed actions in players' words, help, quitting, hotseat hand-overs,
automatic answers and failed saves."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest
from textual.widgets import Static

import dragonlair
from dragonlair.core import Action, State
from dragonlair.tui.app import ConfirmQuit, HelpScreen, PassScreen, PlayApp
from dragonlair.tui.session import PlaySession, SeatConfig
from tests.tui.tui_helpers import screen_text


def session(game_id: str, seed: int, players: int | None = None, **kw: object) -> PlaySession:
    game = dragonlair.make(game_id, players=players)
    seats = [SeatConfig("You")] + [
        SeatConfig(f"Heuristic {i + 1}", "heuristic") for i in range(1, game.players)
    ]
    return PlaySession(game.new_game(seed=seed), seats, **kw)  # type: ignore[arg-type]


async def settle(pilot: object) -> None:
    """Let the app run until it waits for the human (or a screen), at most 100 turns of
    its event loop."""
    app = pilot.app  # type: ignore[attr-defined]
    for _ in range(100):
        await pilot.pause()  # type: ignore[attr-defined]
        if getattr(app, "asking", None) is not None and not app.pending:
            break
        if len(app.screen_stack) > 1:  # a hand-over, the help or the quit dialog
            break
        if app.session.state.is_over:
            break
    await pilot.pause()  # type: ignore[attr-defined]


def test_enter_takes_the_highlighted_choice_and_the_bots_answer() -> None:
    s = session("dragon-race", 3)

    async def run() -> None:
        app = PlayApp(s, fast=True)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            assert app.asking == 0
            moves = s.state.move
            first = app.shown[0]
            await pilot.press("enter")
            await settle(pilot)
            assert s.state.record.actions[moves] == (0, str(first))
            assert "▶" in screen_text(app)  # what changed since the move is marked

    asyncio.run(run())


def test_arrow_keys_move_over_the_choices() -> None:
    s = session("space-dragons", 3)

    async def run() -> None:
        app = PlayApp(s, fast=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            second = app.shown[1]
            await pilot.press("down", "enter")
            await settle(pilot)
            assert (0, str(second)) in s.state.record.actions

    asyncio.run(run())


def _dragon_race_at_own_turn() -> PlaySession:
    return session("dragon-race", 3)


def test_play_2_plays_your_2_in_the_great_dragon_race() -> None:
    s = _dragon_race_at_own_turn()

    async def run() -> None:
        app = PlayApp(s, fast=True)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            game = s.state.game
            hand = s.state.view(0)["hand"]
            twos = [
                c
                for c in hand
                if cast(Any, game).components.cards[c - 1].value == 2
                and cast(Any, game).components.cards[c - 1].kind == "number"
            ]
            assert twos, hand
            moves = s.state.move
            await pilot.press(*"play 2", "enter")
            await settle(pilot)
            actor, text = s.state.record.actions[moves]
            assert actor == 0 and text == f"play {twos[0]}"

    asyncio.run(run())


def test_a_bare_number_is_a_card_where_cards_carry_numbers() -> None:
    s = session("space-dragons", 3)

    async def run() -> None:
        app = PlayApp(s, fast=True)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            card = s.state.view(0)["hand"][-1]
            moves = s.state.move
            await pilot.press(*str(card), "enter")
            await settle(pilot)
            assert s.state.record.actions[moves] == (0, f"hire {card}")

    asyncio.run(run())


def test_bad_input_gets_a_message_and_changes_nothing() -> None:
    s = session("dragon-race", 3)

    async def run() -> None:
        app = PlayApp(s, fast=True)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            before = s.state.to_json()
            await pilot.press(*"fly away", "enter")
            await settle(pilot)
            assert "'fly away' is not one of your choices" in screen_text(app)
            await pilot.press(*"99", "enter")
            await settle(pilot)
            assert "you cannot play a 99 now" in screen_text(app)
            assert s.state.to_json() == before

    asyncio.run(run())


def test_help_shows_the_rules_and_closes() -> None:
    s = session("dragon-race", 3)

    async def run() -> None:
        app = PlayApp(s, fast=True)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            await pilot.press("question_mark")
            await settle(pilot)
            assert isinstance(app.screen, HelpScreen)
            assert "## Keys" in app.screen.markdown
            for _ in range(50):  # the Markdown widget renders in the background
                if "Your turn" in screen_text(app):
                    break
                await pilot.pause(0.05)
            assert "Your turn" in screen_text(app)
            await pilot.press("escape")
            await settle(pilot)
            assert not isinstance(app.screen, HelpScreen)

    asyncio.run(run())


def test_quitting_asks_and_offers_to_save(tmp_path: Path) -> None:
    s = session("dragon-race", 3)
    target = tmp_path / "later.json"

    async def run() -> None:
        app = PlayApp(s, fast=True)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            await pilot.press("ctrl+q")
            await settle(pilot)
            assert isinstance(app.screen, ConfirmQuit)
            assert "not saved" in screen_text(app)
            await pilot.press("escape")
            await settle(pilot)
            assert not isinstance(app.screen, ConfirmQuit)
            assert app.is_running
            await pilot.press("ctrl+q")
            await settle(pilot)
            field = app.screen.query_one("#save-to")
            field.value = str(target)
            await pilot.click("#save")
            await settle(pilot)
        assert app.return_code == 0

    asyncio.run(run())
    saved = json.loads(target.read_text())
    assert saved["format"] == "dragonlair.save/1"
    assert len(saved["state"]["actions"]) == len(s.state.record.actions)


def test_a_failed_save_is_shown(tmp_path: Path) -> None:
    s = session("dragon-race", 3, save_path=tmp_path / "gone" / "game.json")

    async def run() -> None:
        app = PlayApp(s, fast=True)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            await pilot.press("enter")
            await settle(pilot)
            assert "saving to" in screen_text(app) and "failed" in screen_text(app)
            assert not s.saved

    asyncio.run(run())


def _forced_state() -> tuple[State, int]:
    """A Great Dragon Race state where seat 0 is asked with only one answer (a HALT!
    window without a HALT! card)."""
    game = dragonlair.make("dragon-race", players=3)
    for seed in range(1, 60):
        state = game.new_game(seed=seed)
        for _ in range(200):
            if state.is_over:
                break
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            if seat == 0 and len(legal) == 1 and state.move > 0:
                return state, seed
            if seat == 0:
                state.apply(0, legal[0])
            else:
                state.apply(seat, legal[-1])
    raise AssertionError("no forced answer found")


def test_a_question_with_one_answer_is_answered_for_you_unless_turned_off() -> None:
    state, _ = _forced_state()
    seats = [SeatConfig("You"), SeatConfig("Random 2", "random"), SeatConfig("Random 3", "random")]
    forced = state.legal_actions(0)[0]

    async def run(auto: bool) -> tuple[int, list[tuple[int, str]]]:
        s = PlaySession(state.clone(), seats)
        app = PlayApp(s, fast=True)
        if not auto:
            # the answer waits (as it does for a person) while ctrl+t turns it off: in a
            # reaction window, as here, it waits the window's length (0 in a fast game, so
            # without this the answer raced the key press and won on a busy machine)
            app.answer_wait = lambda: 30.0
            app.window = 30.0
        moves = s.state.move
        async with app.run_test(size=(120, 40)) as pilot:
            if not auto:
                await pilot.press("ctrl+t")
                assert s.autoplay[0] is False
            await settle(pilot)
            await pilot.pause(0.1)
            await settle(pilot)
            return moves, list(s.state.record.actions)

    moves, actions = asyncio.run(run(True))
    assert actions[moves] == (0, str(forced))
    moves, actions = asyncio.run(run(False))
    assert len(actions) == moves  # still asked


def test_answers_given_for_you_leave_the_new_lines_marked() -> None:
    """A HALT! window answered for you is not your move: what happened since your own last
    move (here: the move that opened the window) stays marked new."""
    state, _ = _forced_state()
    seats = [SeatConfig("You"), SeatConfig("Random 2", "random"), SeatConfig("Random 3", "random")]
    mark = state.event_count - 1  # as if your own last move came just before the last line

    async def run() -> None:
        s = PlaySession(state.clone(), seats)
        s.last_move[0] = mark
        app = PlayApp(s, fast=True)
        moves = s.state.move
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            await pilot.pause(0.1)
            await settle(pilot)
            assert s.state.move > moves  # answered for you
            assert s.last_move[0] == mark
            marked = [ln for ln in s.logs[0] if ln.seq >= mark]
            assert marked and f"▶ {marked[0].text[:30]}" in screen_text(app)
            if app.asking == 0 and not s.state.is_over:
                await pilot.press("enter")  # your own move resets the mark
                await settle(pilot)
                assert s.last_move[0] > mark

    asyncio.run(run())


def test_hotseat_covers_the_screen_between_players() -> None:
    game = dragonlair.make("dragon-stripes", players=2)
    s = PlaySession(game.new_game(seed=5), [SeatConfig("Ann"), SeatConfig("Bob")])

    async def run() -> None:
        app = PlayApp(s, fast=True)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, PassScreen)
            text = screen_text(app)
            first = s.state.to_act[0]
            assert f"Pass the screen to {s.names[first]}" in text
            assert "gems (secret)" not in text
            await pilot.press("enter")
            await settle(pilot)
            assert app.viewer == first
            assert "Your gems (secret)" in screen_text(app)
            while s.state.to_act[0] == first and not s.state.is_over:
                await pilot.press("enter")
                await settle(pilot)
            assert isinstance(app.screen, PassScreen)
            assert "Your gems (secret)" not in screen_text(app)

    asyncio.run(run())


def near_the_end(game_id: str, seed: int, players: int, left: int) -> State:
    """The game dealt from ``seed``, played at random to ``left`` moves before its end (as
    a saved game resumed there is)."""
    game = dragonlair.make(game_id, players=players)
    state, rng = game.new_game(seed=seed), random.Random(seed)
    while not state.is_over:
        seat = rng.choice(state.to_act)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    again = game.new_game(seed=seed)
    for seat, action in state.record.actions[:-left]:
        again.apply(seat, action)
    return again


@pytest.mark.slow
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_last_moves_of_a_game_to_the_final_scores(size: tuple[int, int]) -> None:
    # the end of a game (the screen from the last turns to the final scores) at both sizes;
    # every question of whole games on the full screen is in tests/i18n/test_screen_german.py
    state = near_the_end("space-race", 4, 3, left=15)
    seats = [SeatConfig("You")] + [SeatConfig(f"Heuristic {i}", "heuristic") for i in (2, 3)]
    s = PlaySession(state, seats)

    async def run() -> None:
        app = PlayApp(s, fast=True)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            for _ in range(500):
                if s.state.is_over:
                    break
                await pilot.press("enter")
                await settle(pilot)
            assert s.state.is_over
            await settle(pilot)
            text = screen_text(app)
            assert "Final scores" in text and "Game over" in text

    asyncio.run(run())


def _race_state(found: Callable[[State, int, list[Action]], bool], what: str) -> State:
    """The first Great Dragon Race state (3 players, seeded random play) where ``found``
    holds for the seat asked first and its legal actions."""
    game = dragonlair.make("dragon-race", players=3)
    for seed in range(1, 300):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(300):
            if state.is_over:
                break
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            if found(state, seat, legal):
                return state
            state.apply(seat, rng.choice(legal))
    raise AssertionError(f"no {what} found")


def _window_state() -> State:
    """A Great Dragon Race state where seat 0 holds a HALT! card in another's window."""
    return _race_state(
        lambda state, seat, legal: (
            seat == 0 and "window" in state.view(0) and any(a.kind == "halt" for a in legal)
        ),
        "HALT! window",
    )


def test_enter_takes_the_stated_default_of_a_window() -> None:
    state = _window_state()
    default = state.view(0)["window"]["default"]
    seats = [SeatConfig("You"), SeatConfig("Random 2", "random"), SeatConfig("Random 3", "random")]
    s = PlaySession(state, seats)

    async def run() -> None:
        app = PlayApp(s, fast=True)
        moves = s.state.move
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            assert app.asking == 0
            assert "(Enter)" in screen_text(app)
            await pilot.press("enter")
            await settle(pilot)
            assert s.state.record.actions[moves] == (0, default)

    asyncio.run(run())


def test_a_click_takes_a_choice() -> None:
    s = _dragon_race_at_own_turn()

    async def run() -> None:
        app = PlayApp(s, fast=True)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            moves = s.state.move
            first = app.shown[0]
            await pilot.click("#choices", offset=(3, 1))
            await settle(pilot)
            assert s.state.record.actions[moves] == (0, str(first))

    asyncio.run(run())


def test_a_hotseat_game_ends_on_the_table_as_everyone_may_see_it() -> None:
    game = dragonlair.make("dragon-stripes", players=2)
    s = PlaySession(game.new_game(seed=4), [SeatConfig("Ann"), SeatConfig("Bob")])

    async def run() -> None:
        app = PlayApp(s, fast=True)
        app.answer_wait = lambda: 0.0  # the pause of an automatic answer, not under test here
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(3000):
                if s.state.is_over:
                    break
                await pilot.press("enter")
                await settle(pilot)
            assert s.state.is_over
            await settle(pilot)
            text = screen_text(app)
            assert "Final scores" in text
            assert "Your gems (secret)" not in text and "you are" not in text

    asyncio.run(run())


def test_going_over_the_choices_marks_their_cards_in_the_hand() -> None:
    s = _dragon_race_at_own_turn()

    async def run() -> None:
        app = PlayApp(s, fast=True)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            words = s.words[0]
            for step in range(len(app.shown)):
                if step:
                    await pilot.press("down")
                    await pilot.pause()
                action = app.shown[step]
                assert app.lit == words.cards_of(action) and app.lit
                marked = screen_text(app).count("▸[")
                assert marked == len(app.lit)

    asyncio.run(run())


def test_a_big_event_since_your_move_is_repeated_when_you_are_asked() -> None:
    """'your turn is cancelled' and the like must not vanish in a short log: when you are
    asked next, the status line repeats it (and the log marks it)."""
    game = dragonlair.make("dragon-race", players=3)
    rng = random.Random(4)
    state = game.new_game(seed=4)
    halted = None
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        if halted is not None and seat == 0 and len(legal) > 1:
            break
        state.apply(seat, rng.choice(legal))
        for e in state.events_since(state.event_count - 3, None):
            if e["type"] == "halted" and halted is None:
                halted = e
    assert halted is not None and not state.is_over
    seats = [SeatConfig("You"), SeatConfig("Random 2", "random"), SeatConfig("Random 3", "random")]
    s = PlaySession(state, seats)
    s.last_move[0] = halted["seq"]

    async def run() -> str:
        app = PlayApp(s, fast=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert app.asking == 0
            return str(app.query_one("#status", Static).content)

    status = asyncio.run(run())
    assert "calls HALT! with" in status and "turn is cancelled" in status
    assert any(ln.big and "calls HALT!" in ln.text for ln in s.logs[0])


def test_again_at_the_end_starts_a_new_game_with_the_same_players() -> None:
    game = dragonlair.make("dragon-stripes", players=3)
    state = game.new_game(seed=2)
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[0])
    seats = [SeatConfig("Ann"), SeatConfig("Bob", "random"), SeatConfig("Cy", "random")]
    s = PlaySession(state, seats)

    async def run() -> PlaySession:
        app = PlayApp(s, fast=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert "type again and Enter for a new game" in " ".join(screen_text(app).split())
            await pilot.press("a", "g", "a", "i", "n", "enter")
            await settle(pilot)
            assert app.is_running
            return app.session

    new = asyncio.run(run())
    assert new is not s and not new.state.is_over
    assert new.names == s.names and new.state.game.players == 3


def _bot_in_window(holds_halt: bool) -> State:
    """A Great Dragon Race state where seat 1 (a bot below) is asked in a HALT! window,
    holding a HALT! card it could call or not."""
    return _race_state(
        lambda state, seat, legal: (
            seat == 1
            and state.default_action(1) is not None
            and any(a.kind == "halt" for a in legal) == holds_halt
        ),
        "such HALT! window",
    )


@pytest.mark.parametrize("holds_halt", [True, False], ids=["holds-halt", "no-halt"])
def test_a_bots_answer_in_a_window_waits_for_the_windows_end_whatever_it_holds(
    holds_halt: bool,
) -> None:
    """How long a window stays open must not tell whether the bot asked holds a HALT!: its
    pass (or any answer) is held until the window's length has passed, either way."""
    seats = [SeatConfig("You"), SeatConfig("Bot 2", "heuristic"), SeatConfig("Bot 3", "random")]
    state = _bot_in_window(holds_halt)

    async def run(window: float) -> int:
        s = PlaySession(state.clone(), seats)
        app = PlayApp(s, fast=True)
        app.window = window
        moves = s.state.move
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            await pilot.pause(0.2)
            await settle(pilot)
            return s.state.move - moves

    assert asyncio.run(run(30.0)) == 0  # held: the window is open for its whole length
    assert asyncio.run(run(0.0)) > 0  # without a window length the bot answers at once
