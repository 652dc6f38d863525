"""Reaction windows and offers: how long each seat asked in one takes, whatever it holds.

A window (a HALT! after a play in The Great Dragon Race, a knight offered in Dragon
Stripes) asks the other seats one at a time, and every seat is asked, whether or not it
could do anything but pass (RULINGS.md). What a seat sees of another seat's answer is what
it answered and when. When a seat that cannot act otherwise was answered for at once (or
after a short random delay) and a bot's pass came the moment it was asked, a window that
stayed open longer told everyone that the seat asked held something to think about.

So a window has one length for everyone (:class:`Windows`, ``length`` seconds from the
moment the seat was asked): a pass, whether typed, answered for the seat
(:mod:`dragonlair.core.autoplay`) or a bot's, and any bot's answer, is applied when that
length has passed and not before. Only a person's own non-default answer (a HALT! played,
a knight taken) is applied the moment it is made: it shows what they held anyway. A person
who thinks longer than the window's length is seen to, as at a real table; so is a bot that
thinks longer (the operator keeps bots' budgets under the length to avoid it).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Protocol

from ...core import Action


class Asking(Protocol):
    """What :class:`Windows` reads of a state (a :class:`~dragonlair.core.State`)."""

    @property
    def move(self) -> int: ...

    @property
    def to_act(self) -> tuple[int, ...]: ...

    def default_action(self, seat: object) -> Action | None: ...


class Windows:
    """When each seat asked in a window now was asked, and when its answer may end it."""

    def __init__(self, length: float, now: Callable[[], float] = time.monotonic) -> None:
        self.length = length
        self._now = now
        # (seat, move) -> when the seat was asked, and its pass (the window's default)
        self._opened: dict[tuple[int, int], tuple[float, Action]] = {}
        self._typed: set[tuple[int, int]] = set()  # a person's own answer is waiting

    def update(self, st: Asking) -> None:
        """The game is at ``st``: note when each seat newly asked in a window was asked."""
        now = self._now()
        keep = {}
        for s in st.to_act:
            default = st.default_action(s)
            if default is not None:
                key = (s, st.move)
                keep[key] = self._opened.get(key, (now, default))
        self._opened = keep
        self._typed &= keep.keys()

    def is_open(self, seat: int, move: int) -> bool:
        """Whether ``seat`` is asked in a window at ``move``."""
        return (seat, move) in self._opened

    def release_at(self, seat: int, move: int) -> float | None:
        """When an answer of ``seat`` in the window at ``move`` may be applied (None: the
        seat is not asked in a window then)."""
        opened = self._opened.get((seat, move))
        return None if opened is None else opened[0] + self.length

    def holds(self, seat: int, move: int, action: Action, by: str) -> bool:
        """Whether this answer waits for the window's end: a pass (whoever gives it) or
        anything a bot or the server answers; a person's own other answer does not."""
        opened = self._opened.get((seat, move))
        if opened is None:
            return False
        return by != "player" or action == opened[1]

    def wait_time(self, seat: int, move: int) -> float:
        """Seconds until an answer of ``seat`` at ``move`` may end its window (0: now)."""
        release = self.release_at(seat, move)
        return 0.0 if release is None else max(0.0, release - self._now())

    def typed(self, seat: int, move: int) -> bool:
        """Whether the seat's person has answered this window themselves (their answer
        waits for its end): nothing is then answered for them."""
        return (seat, move) in self._typed

    async def hold(self, seat: int, move: int, by: str = "player") -> None:
        """Wait until an answer of ``seat`` at ``move`` may end its window (a person's
        own answer is noted, so that none is given for them meanwhile)."""
        if by == "player" and self.is_open(seat, move):
            self._typed.add((seat, move))
        wait = self.wait_time(seat, move)
        if wait > 0:
            await asyncio.sleep(wait)
