"""At 80×24 a player sees, without scrolling, the leaders, their hand, the section of the
table in play and their choices; what does not fit is a key away (PgUp PgDn, shown in the
table's title), and keys that scroll never take the typing away from the entry line."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

import dragonlair
from dragonlair.core import State
from dragonlair.tui.app import HelpScreen, PlayApp
from dragonlair.tui.session import PlaySession, SeatConfig
from tests.tui.tui_helpers import screen_text, until_asked


def _reach(game_id: str, players: int, seed: int, wanted: Any) -> State:
    """A game played at random (seeded) until seat 0 is asked with ``wanted(view)``."""
    state = dragonlair.make(game_id, players=players).new_game(seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        if 0 in state.to_act and len(state.legal_actions(0)) > 1 and wanted(state.view(0)):
            return state
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    raise AssertionError("no such moment")


def race_past_40() -> State:
    return _reach("dragon-race", 4, 2, lambda v: max(v["pawns"]) > 40 and v["active"] == 0)


def hunt_trick() -> State:
    return _reach("space-dragons", 4, 3, lambda v: v["phase"] == "hunt" and v["this_round"])


def app_for(state: State) -> PlayApp:
    seats = [SeatConfig("You")] + [
        SeatConfig(f"Heuristic {i + 1}", "heuristic") for i in range(1, state.game.players)
    ]
    session = PlaySession(state, seats)
    session.autoplay[0] = False
    return PlayApp(session, fast=True)


def _screen(state: State, keys: tuple[str, ...] = ()) -> tuple[str, PlayApp]:
    app = app_for(state)

    async def run() -> str:
        async with app.run_test(size=(80, 24)) as pilot:
            await until_asked(pilot)
            for key in keys:
                await pilot.press(key)
                await pilot.pause()
            return screen_text(app)

    return asyncio.run(run()), app


def test_the_dragon_race_shows_the_leaders_and_the_section_in_play() -> None:
    state = race_past_40()
    view = state.view(0)
    text, _ = _screen(state)
    names = ["You", "Heuristic 2", "Heuristic 3", "Heuristic 4"]
    leader = max(range(4), key=lambda s: (view["pawns"][s], -s))
    assert f"leaders: P{leader + 1} {names[leader]} {view['pawns'][leader]}" in text
    row = view["pawns"][0] // 20 * 20
    assert " ".join(str(n) for n in range(row, row + 5)) in " ".join(text.split())
    assert "your hand" in text and "choices" in text and "PgUp PgDn" in text


def test_space_dragons_shows_the_trick_with_the_players() -> None:
    state = hunt_trick()
    view = state.view(0)
    text, _ = _screen(state)
    names = ["You", "Heuristic 2", "Heuristic 3", "Heuristic 4"]
    line = " ".join(next(ln for ln in text.splitlines() if ln.startswith("This round:")).split())
    for seat, card in view["this_round"]:
        assert f"{names[seat]} {card}" in line
    assert "points so far:" in text


@pytest.mark.parametrize("moment", [race_past_40, hunt_trick], ids=["race-past-40", "trick"])
def test_the_log_shows_its_newest_line_and_a_scroll_up_stays_up(moment: Any) -> None:
    """The log pane ends at the newest line, also when its scrollbar appearing narrows it
    and the lines wrap longer (it showed all but the last wrapped line); scrolled up by the
    player, it stays there until the next line comes."""
    app = app_for(moment())

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until_asked(pilot)
            log = app.query_one("#log")
            assert log.max_scroll_y > 0
            assert log.scroll_y == log.max_scroll_y
            await pilot.press("ctrl+up")
            await pilot.pause()
            assert log.scroll_y == log.max_scroll_y - 3
            await pilot.pause(0.1)
            assert log.scroll_y == log.max_scroll_y - 3

    asyncio.run(run())


def test_pagedown_scrolls_the_table_and_typing_still_reaches_the_entry() -> None:
    state = race_past_40()
    app = app_for(state)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until_asked(pilot)
            await pilot.press("question_mark")
            for _ in range(20):
                await pilot.pause()
                if isinstance(app.screen, HelpScreen):
                    break
            assert isinstance(app.screen, HelpScreen)
            assert "PgUp PgDn" in app.screen.markdown
            await pilot.press("escape")
            await pilot.pause()

            board = app.query_one("#board")
            assert board.scroll_y == 0
            await pilot.press("pagedown")
            await pilot.pause()
            assert board.scroll_y > 0
            await pilot.press("tab", "p", "l", "a", "y")  # no pane takes the focus
            assert app.query_one("#entry").value == "play"  # type: ignore[attr-defined]
            for _ in range(6):
                await pilot.press("pagedown")
                await pilot.pause()
            assert "player insignia spot cards" in " ".join(screen_text(app).split())
            assert app.query_one("#entry").value == "play"  # type: ignore[attr-defined]

    asyncio.run(run())


@pytest.mark.parametrize("moment", [race_past_40, hunt_trick], ids=["race-past-40", "trick"])
def test_screen_mid_game(moment: Any, snap_compare: Any) -> None:
    assert snap_compare(app_for(moment()), terminal_size=(80, 24), run_before=until_asked)


def test_at_200x50_the_hand_follows_the_board_without_a_hole() -> None:
    state = dragonlair.make("dragon-race", players=4).new_game(seed=21)
    app = app_for(state)

    async def run() -> str:
        async with app.run_test(size=(200, 50)) as pilot:
            await until_asked(pilot)
            return screen_text(app)

    lines = [ln[:118].rstrip() for ln in asyncio.run(run()).splitlines()]
    pile = next(i for i, ln in enumerate(lines) if ln.startswith("Draw pile"))
    hand = next(i for i, ln in enumerate(lines) if "your hand" in ln)
    assert 0 < hand - pile <= 2, "\n".join(lines)


def test_at_the_end_80x24_shows_the_winner_and_the_totals_first() -> None:
    state = dragonlair.make("space-race", players=4).new_game(seed=3)
    rng = random.Random(3)
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    text, _ = _screen(state)
    result = state.result
    assert result is not None
    board = text.split("your hand")[0]
    assert "★ Winner:" in board or "★ Shared win:" in board
    totals = next(ln for ln in board.splitlines() if ln.startswith("total"))
    assert totals.split()[1:] == [str(p) for p in result.points]
