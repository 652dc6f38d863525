"""Clocks and deadlines: a table's timers, on the event loop handed in.

- **Deadlines.** When a person must answer an offer or a reaction window (the state has a
  ``default_action`` for them), a timer of the table's ``deadline`` is armed; when it fires
  at the same move the default (pass, decline) is played for them like any other action.
  A table started from a shipped puzzle has none: its question waits for its player.
- **Away players: a time bank each.** Every person's seat has a time bank of ``away``
  seconds: the time they may be away, in all, while the game is played. It runs down only
  while they have no connection; when it is empty the table's ``takeover`` bot (the level
  its creator chose: the away policy) plays for them until they connect again, and what it
  played is kept for them (``Seat.played_for``) and shown when they are back. What is left
  of a bank stays left: a player who used it up is played for at once the next time they
  leave. A table whose ``takeover`` is None has no bank: its away players are waited for.
  A seat whose person has not yet opened their link waits for them (no takeover, no
  deadline) unless the table was created with ``wait_for_arrival`` false.
- **A table everyone has left is paused** (:meth:`Seats.paused`): no bank runs down, no
  deadline fires, no answer is given for anyone and no bot plays (the driver asks
  :meth:`~.seats.Seats.paused` too), until one of its people comes back.
- **Answers a seat does not have to give** (:mod:`dragonlair.core.autoplay`): a person's
  seat asked with one legal action, its ``autoplay`` preference on, is answered after
  :func:`~dragonlair.core.autoplay.answer_delay`; in a window, at the window's end
  (:mod:`.windows`), like every pass there.

Timers live in memory: a restarted server arms them again from the stored game. What is
left of a time bank is stored whenever it is charged (``bank_changed``), so a restart
does not fill it again (the time a bank was running when the server stopped is not
charged).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from ...core import State
from ...core.autoplay import answer_delay, forced_action
from ..protocol import ProtocolError, TableSettings
from .current import Current
from .seats import Seat, Seats
from .windows import Windows

log = logging.getLogger("dragonlair.web")


class Loop(Protocol):
    """The timers' clock (an asyncio event loop)."""

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> Any: ...

    def time(self) -> float: ...


class Clocks:
    """A table's deadline, away timers and answers given for seats."""

    def __init__(
        self,
        table_id: str,
        settings: TableSettings,
        seats: Seats,
        windows: Windows,
        current: Current,
        act: Callable[[int, int, str, str], Awaitable[None]],
        spawn: Callable[[Any], asyncio.Task[Any]],
        taken_over: Callable[[Seat], None],
        loop: Callable[[], Loop] = asyncio.get_running_loop,
        bank_changed: Callable[[Seat], None] | None = None,
    ) -> None:
        # act(seat, move, text, by): the move pipeline; taken_over(seat): a bot now plays
        # an away seat
        self.table_id = table_id
        self.settings = settings
        self.seats = seats
        self.windows = windows
        self.current = current
        self._act = act
        self._spawn = spawn
        self._taken_over = taken_over
        self._loop = loop
        self._bank_changed = bank_changed  # store what is left of a seat's bank
        self.deadline_at: int | None = None  # Unix ms, as clients are told it
        self._deadline: tuple[int, int] | None = None  # (seat, move) the timer is for
        self._deadline_handle: Any = None
        self._auto: dict[tuple[int, int], Any] = {}  # (seat, move) -> timer
        self._away: dict[int, Any] = {}  # seat -> timer
        self._away_since: dict[int, float] = {}  # seat -> when its bank began to run (loop time)
        self.fill_banks()

    def fill_banks(self) -> None:
        """Give every person's seat without one a full time bank (a table with a takeover
        bot; at the start, and for a seat taken in the lobby)."""
        if self.settings.takeover is None or self.settings.away is None:
            return
        for seat in self.seats:
            if seat.kind == "human" and seat.bank is None:
                seat.bank = self.settings.away

    def pending(self) -> list[str]:
        """What is due to happen by itself, in words (empty: nothing will happen until
        someone acts)."""
        out = []
        if self._deadline_handle is not None:
            out.append(f"the deadline of seat {self._deadline[0] if self._deadline else '?'}")
        out += [f"an answer for seat {s} at move {m}" for s, m in self._auto]
        out += [f"the away timer of seat {s}" for s in self._away]
        return out

    def changed(self, st: State) -> None:
        """The game moved to ``st`` (still being played): arm what it needs."""
        self.windows.update(st)
        self.arm_deadline()
        self.arm_auto()

    # ------------------------------------------------------------------ deadlines

    def arm_deadline(self) -> bool:
        """(Re)start the deadline timer if a person must answer now; whether it changed."""
        st = self.current.playing()
        if st is None or self.settings.pace is not None:
            return False  # a turn-based table: the move's deadline covers offers and windows
        # a puzzle is there to be thought about, and a tutorial's learner takes all the time
        # they want: nobody's answer is given for them
        quiet = self.seats.paused() or self.settings.puzzle or self.settings.tutorial
        timed = set() if quiet else self.seats.timed()
        target = None
        for s in st.to_act:
            if s in timed and st.default_action(s) is not None:
                target = (s, st.move)
                break
        if target == self._deadline:
            return False
        if self._deadline_handle is not None:
            self._deadline_handle.cancel()
            self._deadline_handle = None
        self._deadline = target
        self.deadline_at = None
        if target is None:
            return True
        delay = self.settings.deadline
        self.deadline_at = int((time.time() + delay) * 1000)
        self._deadline_handle = self._loop().call_later(delay, self._deadline_passed, *target)
        return True

    def _deadline_passed(self, seat: int, move: int) -> None:
        self._deadline_handle = None
        st = self.current.playing()
        default = None if st is None else st.default_action(seat)
        if st is None or st.move != move or default is None:
            return
        self._spawn(self._answer(seat, move, str(default), "deadline"))

    async def _answer(self, seat: int, move: int, text: str, by: str) -> None:
        try:
            await self._act(seat, move, text, by)
        except ProtocolError as e:
            if e.code != "stale_move":
                log.warning(
                    "table %s: %s action for seat %d refused: %s", self.table_id, by, seat, e
                )
            if (
                e.code == "storage_error"
                and by == "deadline"
                and self.current.playing() is not None
            ):
                # storage is busy or down: the deadline has passed, so try again shortly
                self._deadline_handle = self._loop().call_later(
                    1.0, self._deadline_passed, seat, move
                )

    # ------------------------------------------------------------------ away

    def arm_away(self, seat: Seat) -> None:
        """A person's seat has no connection: its time bank runs down, and a bot takes
        the seat over when it is empty."""
        if (
            seat.kind != "human"
            or not self.seats.present(seat)
            or self.current.playing() is None
            or self.settings.away is None
            or self.settings.takeover is None
            or seat.index in self._away
            or seat.bot_playing
            or seat.conns
            or self.seats.paused()
        ):
            return
        if seat.bank is None:
            self.fill_banks()
        left = max(0.0, seat.bank or 0.0)
        self._away_since[seat.index] = self._loop().time()
        self._away[seat.index] = self._loop().call_later(left, self._away_passed, seat)

    def _stop_bank(self, seat: Seat) -> None:
        """Stop ``seat``'s bank running down, charging it the time it ran."""
        handle = self._away.pop(seat.index, None)
        if handle is not None:
            handle.cancel()
        since = self._away_since.pop(seat.index, None)
        if since is not None and seat.bank is not None:
            seat.bank = max(0.0, seat.bank - (self._loop().time() - since))
            if self._bank_changed is not None:
                self._bank_changed(seat)

    def back(self, seat: Seat) -> None:
        """A connection of ``seat`` arrived: its bank stops running down."""
        self._stop_bank(seat)

    def _away_passed(self, seat: Seat) -> None:
        self._away.pop(seat.index, None)
        self._away_since.pop(seat.index, None)
        if seat.conns or self.current.playing() is None or self.seats.paused():
            return
        seat.bank = 0.0
        if self._bank_changed is not None:
            self._bank_changed(seat)
        seat.bot_playing = True
        log.info(
            "table %s: seat %d's time bank ran out; the %s bot plays for it",
            self.table_id,
            seat.index,
            self.settings.takeover,
        )
        self.arm_deadline()
        self._taken_over(seat)

    def pause(self) -> None:
        """Every person has left: stop every bank, deadline and answer until one is back
        (bots taking a seat over keep it: they do not play while the table is paused)."""
        for s in self.seats:
            self._stop_bank(s)
        self._stop_answers()
        if self._deadline_handle is not None:
            self._deadline_handle.cancel()
        self._deadline_handle = None
        self._deadline = None
        self.deadline_at = None

    def resume(self) -> None:
        """A person came back to a paused table: the others' banks run again, and what is
        due is armed again."""
        for s in self.seats:
            if not s.conns:
                self.arm_away(s)
        st = self.current.playing()
        if st is not None:
            self.changed(st)

    # ------------------------------------------------------------------ answers for a seat

    def arm_auto(self) -> None:
        """Schedule the forced answer of every person's seat asked now that has only one
        legal action and the preference on; the delay never depends on the hand."""
        st = self.current.playing()
        if st is None or self.seats.paused() or self.settings.tutorial:
            return  # a tutorial's learner makes every decision the lesson shows
        for key in [k for k in self._auto if k[1] != st.move]:
            self._auto.pop(key).cancel()
        for s in st.to_act:
            seat = self.seats[s]
            key = (s, st.move)
            if seat.is_bot or not seat.autoplay or key in self._auto:
                continue
            if forced_action(st, s) is None:
                continue
            # in a window the answer comes at the window's end (whoever holds what);
            # elsewhere after a delay drawn the same way for every seat
            if self.windows.is_open(s, st.move):
                delay = self.windows.wait_time(s, st.move)
            else:
                delay = answer_delay()
            self._auto[key] = self._loop().call_later(delay, self._auto_answer, s, st.move)

    def _auto_answer(self, seat: int, move: int) -> None:
        self._auto.pop((seat, move), None)
        st = self.current.playing()
        if st is None or st.move != move or self.seats.paused():
            return
        if self.seats[seat].is_bot or not self.seats[seat].autoplay:
            return
        if self.windows.typed(seat, move):
            return  # the person answered this window themselves; it waits for its end
        action = forced_action(st, seat)
        if action is not None:
            self._spawn(self._answer(seat, move, str(action), "auto"))

    def autoplay_changed(self, seat: int) -> None:
        """A seat's autoplay preference changed: arm or drop its answers."""
        if self.seats[seat].autoplay:
            self.arm_auto()
        else:
            for key in [k for k in self._auto if k[0] == seat]:
                self._auto.pop(key).cancel()

    def _stop_answers(self) -> None:
        for handle in self._auto.values():
            handle.cancel()
        self._auto.clear()

    def cancel(self) -> None:
        """Stop every timer (the game is over, or the server stops)."""
        self._stop_answers()
        if self._deadline_handle is not None:
            self._deadline_handle.cancel()
        self._deadline_handle = None
        self._deadline = None
        self.deadline_at = None
        for handle in self._away.values():
            handle.cancel()
        self._away.clear()
        self._away_since.clear()
