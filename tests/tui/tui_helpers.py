"""Helpers for the terminal game's tests: the text of the screen, and waiting until the
player is asked."""

from __future__ import annotations

import io
import time
from typing import Any

from rich.console import Console
from textual.app import App


def screen_text(app: App[Any]) -> str:
    """What the terminal shows now, as plain text (the same rendering as Textual's own
    screenshots)."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), record=True, color_system=None
    )
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.export_text()


async def until_asked(pilot: Any) -> None:
    """Wait until seat 0 is asked (or the game is over), then for the screen to settle (one
    refresh). The bots
    play before the player is asked, so the wait is by the clock: a count of pauses ran out
    on a busy machine and the screen was caught before the question."""
    app = pilot.app
    app.query_one("#entry").cursor_blink = False  # a blinking cursor is not the screen
    deadline = time.monotonic() + 60
    while app.asking != 0 and not app.session.state.is_over and time.monotonic() < deadline:
        await pilot.pause(0.02)
    await pilot.pause()
