"""Decisions held for confirmation: the undo window of a table created with undo.

At such a table a person's decision is not final when it is made (:mod:`dragonlair.core.
confirm`): it is *held*, applied to a copy of the game only that seat is shown, and played
through the move pipeline (the ``play`` handed in) when its confirmation window ends or
the person confirms; until then the person may take it back, and nobody else was told
anything of it. :class:`Holds` keeps each seat's held decisions and the timer that
confirms them, and the part reads the committed state from :class:`~.current.Current`,
asks :class:`~.decisions.Decisions` whether an older move is still the seat's decision,
and sends a seat's connections their game through the ``message_for`` handed in (the
table builds the messages: a holder's shows its held decisions, :meth:`Holds.describe`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ...core import Game, IllegalAction, State, UnknownAction
from ...core.confirm import Hold, reveals_to_actor
from ..protocol import ProtocolError, TableSettings, encode
from .current import Current
from .decisions import Decisions
from .ports import Peer
from .seats import Seats

log = logging.getLogger("dragonlair.web")


class Holds:
    """Each seat's decisions held for confirmation at one table, and their timers."""

    def __init__(
        self,
        table_id: str,
        game: Game | None,
        settings: TableSettings,
        seats: Seats,
        decisions: Decisions,
        current: Current,
        lock: asyncio.Lock,
        *,
        play: Callable[[int, str], Awaitable[None]],
        message_for: Callable[[Peer], dict[str, Any]],
        check_undo: Callable[[], None],
        undone: Callable[[], None],
        spawn: Callable[[Any], asyncio.Task[Any]],
    ) -> None:
        """``lock``: the table's, held while the committed state is read and changed;
        ``play``: plays a held decision through the move pipeline at the committed move;
        ``message_for``: the state message for one connection; ``check_undo``: raises
        where the table allows no undo now; ``undone``: called after an undo (the seat's
        answers given for it may be due again)."""
        self.table_id = table_id
        self.game = game
        self.settings = settings
        self.seats = seats
        self.decisions = decisions
        self.current = current
        self.lock = lock
        self._play = play
        self._message_for = message_for
        self._check_undo = check_undo
        self._undone = undone
        self._spawn = spawn
        # seat -> its held decisions, and the timer that confirms them at the window's
        # end (Unix ms it ends at)
        self._holds: dict[int, Hold] = {}
        self._confirm_timers: dict[int, tuple[asyncio.TimerHandle, int]] = {}
        # seat -> the task playing its held decisions now (a reaction window's pass waits
        # for the window's end first): the seat's next decision waits for it
        self._confirming: dict[int, asyncio.Task[Any]] = {}
        # changes whenever what a holder is shown changes (the table's sync cache key)
        self.version = 0

    # ------------------------------------------------------------------ reading

    def __bool__(self) -> bool:
        return bool(self._holds)

    def __contains__(self, seat: object) -> bool:
        return seat in self._holds

    def get(self, seat: int | None) -> Hold | None:
        """``seat``'s held decisions (None: it holds none; a spectator holds none)."""
        return None if seat is None else self._holds.get(seat)

    def shown(self, seat: int | None) -> Hold | None:
        """``seat``'s held decisions while its own game shows them (None also once its
        last one is being played: the committed state shows it then)."""
        hold = self.get(seat)
        return None if hold is None or not hold else hold

    def describe(self, hold: Hold, committed: State) -> dict[str, Any]:
        """The ``held`` entry of the holder's state message."""
        timer = self._confirm_timers.get(hold.seat)
        return {
            "decisions": len(hold),
            # the decisions the view shows on top of the committed game: one taken off
            # to be played counts until it is stored, as its events are not sent before
            "shown": hold.state.move - committed.move,
            # a decision held unapplied, since it would show something hidden
            "waiting": None if hold.unseen is None else str(hold.unseen),
            "until": None if timer is None else timer[1],
            "seconds": self.settings.confirm,
            # held until the person presses Confirm (no window, no "until")
            "turn": self.settings.confirm_turn,
        }

    def _state(self) -> State:
        st = self.current.state
        assert st is not None  # a seat holds decisions only at a table being played
        return st

    # ------------------------------------------------------------------ holding

    def applies(self, seat: int) -> bool:
        """Whether ``seat``'s decisions are held for confirmation: a person's own, at a
        table with undo and a confirmation window or a Confirm at the end of a turn."""
        s = self.seats[seat]
        return (
            self.settings.undo
            and (self.settings.confirm > 0 or self.settings.confirm_turn)
            and s.kind == "human"
            and not s.is_bot
            and self.current.status == "playing"
        )

    async def hold(
        self, seat: int, move: int, text: str, conn: Peer | None, ref: str | int | None
    ) -> bool:
        """Hold ``seat``'s decision for confirmation: nothing stored, nobody else told. The
        seat is shown it applied to its own copy of the game, or, when that would show it
        something hidden, named as waiting (:mod:`dragonlair.core.confirm`). True when
        held; False when the move pipeline must answer it (it refuses it as stale)."""
        while True:
            playing = self._confirming.get(seat)
            if playing is not None and playing is not asyncio.current_task():
                # the seat's held decisions are being played (a pass in a reaction window
                # waits for the window's end): this decision follows them, on the state
                # they lead to, which is the one the seat was shown (how that play ended is
                # its own business: asyncio.wait neither raises its error nor cancels it)
                await asyncio.wait({playing})
            held = await self._hold_once(seat, move, text, conn, ref)
            if held is not None:
                return held

    async def _hold_once(
        self, seat: int, move: int, text: str, conn: Peer | None, ref: str | int | None
    ) -> bool | None:
        """:meth:`hold` on the table as it is now; None when the seat's held decisions
        began to be played while this one was looked at (it then follows them)."""
        async with self.lock:
            hold = self._holds.get(seat)
            if self.game is None or self.current.status != "playing":
                return False
            if hold is not None and (hold.confirming or hold.unseen is not None):
                raise ProtocolError(
                    "held",
                    "your last decision waits for its confirmation: confirm it, or take it "
                    "back, before deciding more",
                )
            base = self._state() if hold is None else hold.state
            if hold is not None and move != base.move:
                raise ProtocolError(
                    "stale_move",
                    f"that action was made at move {move}, but your game shows move "
                    f"{base.move} (with the decisions you hold): act again",
                    409,
                )
            if (
                hold is None
                and move != base.move
                and not self.decisions.current(seat, move, base.move)
            ):
                return False  # refused as stale by the pipeline
            if seat not in base.to_act:
                if hold is None:
                    return False
                raise ProtocolError("not_your_turn", "you are not asked anything now")
            try:
                action = self.game.parse_action(text)
            except UnknownAction as e:
                raise ProtocolError("unknown_action", str(e)) from None
            trial = base.clone()
            try:
                trial.apply(seat, action)
            except IllegalAction as e:
                raise ProtocolError("illegal_action", str(e)) from None
            shows = await asyncio.to_thread(reveals_to_actor, base, seat, action)
            if hold is not None and hold.confirming:
                # its window ended meanwhile: held on top, this decision would be played
                # with the others at once (no window of its own, no undo)
                return None
            if self._holds.get(seat) is not hold or (
                hold is None and self.current.state is not base
            ):
                # the held decisions were confirmed (or the game moved) meanwhile
                raise ProtocolError(
                    "stale_move",
                    "your held decisions were confirmed meanwhile: look at the latest "
                    "state and act again",
                    409,
                )
            if hold is None:
                hold = self._holds[seat] = Hold(seat, self._state())
            hold.push(action, shows)
            self._arm_confirm(seat)
            self._send_holder(seat, conn, ref)
            return True

    def _arm_confirm(self, seat: int) -> None:
        """(Re)start ``seat``'s confirmation window from now (none at a table that
        confirms at the end of a turn: the held decisions wait for the person's Confirm)."""
        old = self._confirm_timers.pop(seat, None)
        if old is not None:
            old[0].cancel()
        if self.settings.confirm_turn:
            self.version += 1
            return
        delay = self.settings.confirm
        handle = asyncio.get_running_loop().call_later(
            delay, lambda: self._spawn(self._confirm_held(seat))
        )
        self._confirm_timers[seat] = (handle, int((time.time() + delay) * 1000))
        self.version += 1

    def drop(self, seat: int) -> Hold | None:
        """Forget ``seat``'s held decisions (unplayed) and stop their timer."""
        timer = self._confirm_timers.pop(seat, None)
        if timer is not None:
            timer[0].cancel()
        self.version += 1
        return self._holds.pop(seat, None)

    def drop_all(self) -> None:
        """Forget every seat's held decisions (the table ended or closes)."""
        for seat in list(self._holds):
            self.drop(seat)

    def _send_holder(self, seat: int, conn: Peer | None, ref: str | int | None) -> None:
        """Send ``seat``'s connections (and only them) the game as the seat sees it now."""
        for c in list(self.seats[seat].conns):
            msg = self._message_for(c)
            if c is conn and ref is not None:
                msg["ref"] = ref
            c.send(encode(msg))

    # ------------------------------------------------------------------ confirming

    async def _confirm_held(self, seat: int) -> None:
        """The window ended (or the person confirmed): play the held decisions, in order,
        through the move pipeline, as if they had been made now."""
        hold = self._holds.get(seat)
        if hold is None or hold.confirming:
            return
        hold.confirming = True
        timer = self._confirm_timers.pop(seat, None)
        if timer is not None:
            timer[0].cancel()
        task = asyncio.current_task()
        if task is not None:
            self._confirming[seat] = task
        try:
            while (action := hold.take_first()) is not None:
                # taken off first: the table then applies the rest to the new committed
                # state (rebase), so the seat keeps seeing what it decided
                await self._play(seat, str(action))
        except ProtocolError as e:
            log.warning("table %s: a held decision of seat %d refused: %s", self.table_id, seat, e)
        finally:
            if self._confirming.get(seat) is task:
                del self._confirming[seat]
            if self._holds.get(seat) is hold:
                self.drop(seat)
                self._send_holder(seat, None, None)

    def rebase(self) -> None:
        """The committed state changed while a seat holds decisions (another seat's sealed
        choice, a game over): the held decisions are applied to it instead, or dropped
        (with a word to the seat) when they no longer fit."""
        for seat, hold in list(self._holds.items()):
            if hold.base is self._state():
                continue
            if hold.confirming and not hold:
                continue  # its last decision is played: the confirmation drops it
            if self.current.status == "playing" and hold.rebase(self._state()):
                self.version += 1
                continue  # the broadcast that follows shows it to the seat
            self.drop(seat)
            gone = ProtocolError(
                "hold_dropped",
                "the game moved on before your decision was confirmed, so it was not "
                "played: look at the latest state and choose again",
            )
            for c in list(self.seats[seat].conns):
                c.send(encode(gone.to_message(self._state().move)))

    async def undo(self, seat: int, move: int, conn: Peer | None = None) -> None:
        """Take back ``seat``'s last decision still held for confirmation; nobody else was
        told anything of it, so nothing else changes. ProtocolError (and nothing changed)
        where there is none."""
        async with self.lock:
            self._check_undo()
            hold = self._holds.get(seat)
            if hold is None or hold.confirming:
                raise ProtocolError(
                    "cannot_undo",
                    "nothing to take back: a decision is final once it is confirmed (by "
                    "you, or at its confirmation window's end), and you hold none now",
                )
            _check_shown(hold, move, "undo", "ask again")
            hold.pop()
            if hold:
                self._arm_confirm(seat)
            else:
                self.drop(seat)
            self._send_holder(seat, conn, "undo")
            self._undone()

    async def confirm(self, seat: int, move: int) -> None:
        """Confirm ``seat``'s held decisions now; ProtocolError when it holds none."""
        hold = self._holds.get(seat)
        if hold is None:
            raise ProtocolError("nothing_held", "you hold no decision to confirm")
        if hold.confirming:
            return
        _check_shown(hold, move, "confirmation", "confirm again")
        # in a task of its own, which the seat's next decision may wait for
        await asyncio.shield(self._spawn(self._confirm_held(seat)))


def _check_shown(hold: Hold, move: int, asked: str, again: str) -> None:
    """An undo or a confirmation answers the held decisions when it was asked at a move
    shown since the hold began (the others' sealed choices move the game on meanwhile,
    and only the seat's own decisions are held); else ProtocolError ``stale_move``."""
    if not hold.started <= move <= hold.state.move:
        raise ProtocolError(
            "stale_move",
            f"that {asked} was asked at move {move}, but your game shows move "
            f"{hold.state.move}: look at the latest state and {again}",
            409,
        )
