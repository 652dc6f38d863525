"""A game at the terminal: humans at prompts, bots at a readable pace, hotseat hand-overs,
saving and resuming.

The session only ever shows a human seat its own ``view`` and its own ``events_since``:
the renderer never receives a state, so nothing hidden from that seat can reach the
screen. With several humans at one screen (hotseat), a "pass to the next player" screen
clears the terminal before anyone else's hand is shown.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

import dragonlair

from ..bots import make_bot
from ..core import Action, DragonlairError, State, derive_seed
from ..core.bot import Bot
from .render import render_result, render_screen, rules_summary

SAVE_FORMAT = "dragonlair.save/1"


@dataclass(frozen=True)
class SeatConfig:
    """Who sits at a seat: a human (by name) or a bot (by level)."""

    name: str
    bot: str | None = None

    @property
    def human(self) -> bool:
        return self.bot is None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot}

    @classmethod
    def from_dict(cls, d: Any) -> SeatConfig:
        if not isinstance(d, dict) or not isinstance(d.get("name"), str):
            raise DragonlairError(f"a saved seat should be {{name, bot}}, not {d!r}")
        bot = d.get("bot")
        if bot is not None and not isinstance(bot, str):
            raise DragonlairError(f"a saved seat's bot should be a level name, not {bot!r}")
        return cls(d["name"], bot)


class Quit(Exception):
    """The player asked to stop (or input ended)."""


class PlaySession:
    """Runs one game at the terminal until it ends or the player quits."""

    def __init__(
        self,
        state: State,
        seats: Sequence[SeatConfig],
        *,
        console: Console | None = None,
        delay: float = 0.6,
        save_path: Path | None = None,
        read: Callable[[str], str] | None = None,
    ) -> None:
        game = state.game
        if len(seats) != game.players:
            raise DragonlairError(f"{len(seats)} seats for {game.players} players")
        if not any(s.human for s in seats):
            raise DragonlairError("at least one seat must be a human to play")
        self.state = state
        self.seats = list(seats)
        self.console = console or Console(highlight=False)
        self.delay = delay
        self.save_path = save_path
        self.read = read or self._read
        self.bots: dict[int, Bot] = {
            i: make_bot(s.bot, game) for i, s in enumerate(seats) if s.bot is not None
        }
        self.names = [s.name for s in seats]
        self.humans = [i for i, s in enumerate(seats) if s.human]
        self.hotseat = len(self.humans) > 1
        self.seen = dict.fromkeys(self.humans, 0)
        self.logs: dict[int, deque[str]] = {i: deque(maxlen=12) for i in self.humans}
        self.viewer: int | None = None if self.hotseat else self.humans[0]
        self.message = ""

    # ------------------------------------------------------------------ the loop

    def run(self) -> int:
        """Play to the end; 0 when the game finished, 1 when the player quit."""
        self._autosave()
        try:
            while not self.state.is_over:
                self.step()
        except Quit:
            self.console.print(
                "\nStopped." + (f" Saved to {self.save_path}." if self.save_path else "")
            )
            return 1
        self._catch_up_logs()
        for seat in self.humans if not self.hotseat else [None]:
            self.console.rule("[bold]Game over")
            if seat is not None:
                self.console.print(self._log_panel(seat))
        self.console.print(render_result(self.state, self.names))
        return 0

    def step(self) -> None:
        state = self.state
        bots = [s for s in state.to_act if s in self.bots]
        if bots:
            self._bot_move(bots[0])
            return
        seat = state.to_act[0]
        if self.hotseat and self.viewer != seat:
            self._pass_screen(seat)
        self.viewer = seat
        self._human_move(seat)

    def _bot_move(self, seat: int) -> None:
        state = self.state
        rng = random.Random(derive_seed(state.seed or 0, 7919, seat, state.move))
        action = self.bots[seat].choose(state.view(seat), state.legal_actions(seat), rng)
        state.apply(seat, action)
        self._autosave()
        if not self.hotseat and self.viewer is not None:
            new = self._new_events(self.viewer)
            for line in new:
                self.console.print(f"  {escape(line)}")
            if new and self.delay:
                time.sleep(self.delay)

    def _human_move(self, seat: int) -> None:
        state = self.state
        self._new_events(seat)
        legal = state.legal_actions(seat)
        self.console.print(
            render_screen(state.game, state.view(seat), self.names, list(self.logs[seat]), legal)
        )
        if self.message:
            self.console.print(self.message)
            self.message = ""
        while True:
            text = self.read(f"{self.names[seat]}, your choice [1-{len(legal)}, text, ?]: ")
            action = self._interpret(seat, text.strip(), legal)
            if action is None:
                continue
            try:
                state.apply(seat, action)
            except DragonlairError as e:  # a race cannot happen here, but never crash
                self.console.print(f"[red]{escape(str(e))}[/red]")
                continue
            self._autosave()
            return

    # ------------------------------------------------------------------ input

    def _interpret(self, seat: int, text: str, legal: list[Action]) -> Action | None:
        game = self.state.game
        low = text.lower()
        if low in ("?", "help", "h"):
            self.console.print(rules_summary(game, legal))
            return None
        if low in ("q", "quit", "exit"):
            raise Quit
        if low == "log":
            self.console.print(self._log_panel(seat, full=True))
            return None
        if low == "save" or low.startswith("save "):
            target = text[4:].strip() or (str(self.save_path) if self.save_path else "")
            if not target:
                self.console.print("[yellow]Say where: save FILE[/yellow]")
                return None
            try:
                self.save(Path(target))
            except OSError as e:
                self.console.print(f"[red]Cannot save to {escape(target)}: {escape(str(e))}[/red]")
                return None
            self.console.print(f"[green]Saved to {escape(target)}.[/green]")
            return None
        if not text:
            self.console.print(
                f"[yellow]Type a number from 1 to {len(legal)}, an action, "
                "? for help, save FILE or quit.[/yellow]"
            )
            return None
        if text.isdigit():
            n = int(text)
            if 1 <= n <= len(legal):
                return legal[n - 1]
            self.console.print(f"[red]There is no choice {n}: pick 1 to {len(legal)}.[/red]")
            return None
        try:
            action = game.parse_action(text)
        except DragonlairError as e:
            self.console.print(f"[red]{escape(str(e))}[/red]")
            return None
        if action not in legal:
            self.console.print(f"[red]{escape(str(action))} is not one of your choices now.[/red]")
            return None
        return action

    def _read(self, prompt: str) -> str:
        try:
            return self.console.input(prompt)
        except EOFError:
            raise Quit from None

    # ------------------------------------------------------------------ screens

    def _pass_screen(self, seat: int) -> None:
        self.console.clear()
        self.console.print(
            Panel(
                f"Pass the screen to [bold]{escape(self.names[seat])}[/bold].\n"
                "Everyone else, look away.",
                title="Next player",
                expand=False,
            )
        )
        self.read(f"{self.names[seat]}, press Enter when you are ready: ")
        self.console.clear()

    def _new_events(self, seat: int) -> list[str]:
        state = self.state
        lines = [
            state.game.event_text(e, self.names) for e in state.events_since(self.seen[seat], seat)
        ]
        self.seen[seat] = state.event_count
        self.logs[seat].extend(lines)
        return lines

    def _catch_up_logs(self) -> None:
        for seat in self.humans:
            self._new_events(seat)

    def _log_panel(self, seat: int, full: bool = False) -> Panel:
        if full:
            lines = [
                self.state.game.event_text(e, self.names) for e in self.state.events_since(0, seat)
            ]
        else:
            lines = list(self.logs[seat])
        table = Table.grid()
        for line in lines or ["(nothing yet)"]:
            table.add_row(escape(line))
        return Panel(table, title="log", expand=False)

    # ------------------------------------------------------------------ saving

    def to_save(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "seats": [s.to_dict() for s in self.seats],
            "state": json.loads(self.state.to_json()),
        }

    def save(self, path: Path) -> None:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_save()))
        tmp.replace(path)

    def _autosave(self) -> None:
        if self.save_path is not None:
            try:
                self.save(self.save_path)
            except OSError as e:
                self.message = f"[red]Autosave to {self.save_path} failed: {escape(str(e))}[/red]"


def load_save(path: Path) -> tuple[State, list[SeatConfig]]:
    """A saved session: the state (checked against its record) and who sits where."""
    try:
        doc = json.loads(path.read_text())
    except OSError as e:
        raise DragonlairError(f"cannot read {path}: {e.strerror or e}") from None
    except ValueError as e:
        raise DragonlairError(f"{path} is not a saved game: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != SAVE_FORMAT:
        raise DragonlairError(f"{path} is not a dragonlair save file ({SAVE_FORMAT})")
    state = dragonlair.load(json.dumps(doc.get("state")))
    seats = [SeatConfig.from_dict(s) for s in doc.get("seats") or []]
    if len(seats) != state.game.players:
        raise DragonlairError(f"{path} has {len(seats)} seats for {state.game.players} players")
    return state, seats


def stdin_is_interactive() -> bool:
    return sys.stdin.isatty()
