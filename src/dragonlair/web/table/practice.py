"""The practice services of a table created with them: hints and undo.

- **Hints** are worked out in the bot pool handed in, from the asking seat's view only,
  one at a time per seat and within the server's hint rate.
- **Undo** takes back a seat's last decision and everything after it, while nothing hidden
  has been revealed since (:mod:`dragonlair.core.undo`). Whether an undo would work is
  worked out off the loop after each move and sent to the seat's connections in an
  ``offers`` message. Storing an undo is the move pipeline's (the table's ``undo``); this
  part says which states it steps through.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

from ...core import State
from ...core.autoplay import forced_action
from ...core.rng import derive_seed
from ...core.undo import effective_actions
from ...i18n import N_
from ..bots import BotTimeout, HintJob
from ..config import ServerConfig
from ..protocol import ProtocolError, TableSettings, encode
from ..security import TokenBucket, parse_rate
from .current import Current
from .ports import BotPool, Peer
from .seats import Seats

log = logging.getLogger("dragonlair.web")

HINT_STREAM = 0x417


class Practice:
    """Hints and undo checks for one table."""

    def __init__(
        self,
        table_id: str,
        game_id: str,
        players: int,
        options: dict[str, Any],
        seed: int,
        settings: TableSettings,
        config: ServerConfig,
        seats: Seats,
        pool: BotPool,
        current: Current,
        spawn: Callable[[Any], asyncio.Task[Any]],
    ) -> None:
        self.table_id = table_id
        self.game_id = game_id
        self.players = players
        self.options_json = json.dumps(options, sort_keys=True)
        self.seed = seed
        self.settings = settings
        self.config = config
        self.seats = seats
        self.pool = pool
        self.current = current
        self._spawn = spawn
        self._hinting: set[int] = set()  # seats whose hint is being worked out
        self._hint_buckets: dict[int, TokenBucket] = {}
        self._undo_cache: dict[tuple[int, int], str | None] = {}  # (seat, move) -> why not
        self._undo_checking: set[tuple[int, int]] = set()

    # ------------------------------------------------------------------ offers

    def offers(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may ask for now: whether the table allows hints and undo, whether
        a hint may be asked now, and (once worked out, else None) whether an undo would
        work, with the reason when not (see :meth:`check_undos`)."""
        st = self.current.playing()
        hint = self.settings.hints and st is not None and seat in st.to_act
        can: bool | None = False
        why: str | None = None
        if not self.settings.undo:
            why = N_("this table was created without undo")
        elif st is None:
            why = N_("undo is only while the game is being played")
        else:
            key = (seat, st.move)
            if key in self._undo_cache:
                why = self._undo_cache[key]
                can = why is None
            else:
                can = None
        return {
            "hints": self.settings.hints,
            "hint": hint,
            "undo": self.settings.undo,
            "can_undo": can,
            "undo_reason": why,
        }

    def check_undos(self) -> None:
        """Work out, off the loop, whether each connected person's seat could undo now,
        and tell it (an ``offers`` message)."""
        st = self.current.playing()
        if not self.settings.undo or st is None:
            return
        for s in self.seats:
            key = (s.index, st.move)
            if s.kind != "human" or not s.conns:
                continue
            if key not in self._undo_cache and key not in self._undo_checking:
                self._undo_checking.add(key)
                self._spawn(self._check_undo(s.index, st))

    async def _check_undo(self, seat: int, st: State) -> None:
        key = (seat, st.move)
        try:
            if self.current.playing() is not st:
                return  # the game moved on before the check began
            why = await asyncio.to_thread(self.why_not_undo, st, seat)
        finally:
            self._undo_checking.discard(key)
        if len(self._undo_cache) > 64:
            self._undo_cache.clear()
        self._undo_cache[key] = why
        if self.current.playing() is not st:
            return  # the game moved on meanwhile: its own check follows
        text = encode({"type": "offers", "move": st.move, "offers": self.offers(seat)})
        for conn in self.seats[seat].conns:
            conn.send(text)

    # ------------------------------------------------------------------ undo

    def why_not_undo(self, st: State, seat: int) -> str | None:
        """Why ``seat`` cannot take back a decision at ``st`` (None: it can)."""
        if not any(p == seat for p, _ in effective_actions(st)):
            return N_("you have made no decision to take back yet")
        if not self.undo_steps(st, seat):
            return N_("something hidden has been revealed since your last decision")
        return None

    def undo_steps(self, st: State, seat: int) -> list[State]:
        """The states after each undo that taking back ``seat``'s last decision takes: one,
        or more when the decision reached was one it had no choice in and that would be
        answered for it again at once (then the decision before is taken back too). Empty
        when nothing can be taken back."""
        steps: list[State] = []
        s = st
        autoplay = self.seats[seat].autoplay
        while s.can_undo(seat):
            s = s.clone()
            s.undo(seat)
            steps.append(s)
            if not autoplay or forced_action(s, seat) is None:
                return steps
        return []  # only answers given for the seat could be taken back: no use

    def check_undo_allowed(self, move: int) -> State:
        """The state an undo asked at ``move`` starts from; ProtocolError where an undo is
        not allowed."""
        if not self.settings.undo:
            raise ProtocolError(
                "undo_not_allowed",
                "this table was created without undo: nobody may take a move back here",
            )
        st = self.current.playing()
        if st is None:
            raise ProtocolError("not_playing", "undo is only while the game is being played")
        if move != st.move:
            raise ProtocolError(
                "stale_move",
                f"that undo was asked at move {move}, but the game is at move {st.move}: "
                "look at the latest state and ask again",
                409,
            )
        return st

    # ------------------------------------------------------------------ hints

    def hinting(self, seat: int) -> bool:
        """Whether ``seat``'s last hint is still being worked out."""
        return seat in self._hinting

    async def hint(self, seat: int, move: int, conn: Peer) -> None:
        """Work out a hint for ``seat``'s decision (from its view only, in the bots' pool)
        and send it to ``conn``; ProtocolError where a hint is not allowed."""
        if not self.settings.hints:
            raise ProtocolError(
                "hints_not_allowed",
                "this table was created without hints: nobody may ask the bots for advice here",
            )
        st = self.current.playing()
        if st is None:
            raise ProtocolError("not_playing", "hints are only while the game is being played")
        if move != st.move:
            raise ProtocolError(
                "stale_move",
                f"that hint was asked at move {move}, but the game is at move {st.move}",
                409,
            )
        if seat not in st.to_act:
            raise ProtocolError(
                "not_asked", "a hint is for your own decision: you are not asked now"
            )
        if seat in self._hinting:
            raise ProtocolError("hint_busy", "your last hint is still being worked out")
        config = self.config
        bucket = self._hint_buckets.get(seat)
        if bucket is None:
            bucket = self._hint_buckets[seat] = TokenBucket(*parse_rate(config.hint_rate))
        if not bucket.allow():
            raise ProtocolError(
                "rate_limited", f"too many hints: at most {config.hint_rate} for a seat"
            )
        legal = st.legal_actions(seat)
        job = HintJob(
            game=self.game_id,
            players=self.players,
            options_json=self.options_json,
            view=st.view(seat),
            legal=tuple(str(a) for a in legal),
            seed=derive_seed(self.seed, HINT_STREAM, seat, st.move),
            samples=max(4, config.hint_playouts // len(legal)),
            iterations=config.hint_iterations,
            search_time=config.bot_max_seconds / 2,
            time_limit=config.bot_max_seconds,
        )
        self._hinting.add(seat)
        self._spawn(self._work_out_hint(seat, st.move, job, conn))

    async def _work_out_hint(self, seat: int, move: int, job: HintJob, conn: Peer) -> None:
        try:
            body = await self.pool.hint(job, self.table_id)
        except BotTimeout:
            conn.send(
                encode(
                    ProtocolError(
                        "hint_failed", "the hint took too long; try again later"
                    ).to_message(move)
                )
            )
            return
        except Exception:
            log.exception("table %s: the hint for seat %d failed", self.table_id, seat)
            conn.send(
                encode(
                    ProtocolError("hint_failed", "the hint could not be worked out").to_message(
                        move
                    )
                )
            )
            return
        finally:
            self._hinting.discard(seat)
        conn.send(encode({"type": "hint", "seat": seat, "move": move, **body}))
