"""The practice services of a table created with them: hints and undo.

- **Hints** are worked out in the bot pool handed in, from the asking seat's view only,
  one at a time per seat and within the server's hint rate.
- **Undo** takes back a seat's decision while it is held for confirmation
  (:mod:`dragonlair.core.confirm`; the holding is the table's): nothing to work out, since
  nobody else was told anything of it. This part says whether the table allows it and
  what each seat is offered.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

from ...core import State
from ...core.rng import derive_seed
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
        self._warming = False  # the pool was asked to get ready for hints

    def _warm(self) -> None:
        """A table with hints: the bots' pool gets ready for them (its workers' imports)
        while its player looks at the table, once."""
        if self.settings.hints and not self._warming:
            self._warming = True
            self._spawn(self._warm_pool())

    async def _warm_pool(self) -> None:
        try:
            await self.pool.warm_hints()
        except Exception:  # the first hint will warm it, or say why it cannot
            log.warning("table %s: the bots' pool could not get ready for hints", self.table_id)

    # ------------------------------------------------------------------ offers

    def offers(self, seat: int, held: bool = False) -> dict[str, Any]:
        """What ``seat`` may ask for now: whether the table allows hints and undo, whether
        a hint may be asked now, and whether an undo would work (``held``: the seat holds
        a decision in its confirmation window), with the reason when not."""
        st = self.current.playing()
        self._warm()
        hint = self.settings.hints and st is not None and seat in st.to_act
        why: str | None = None
        if not self.settings.undo:
            why = N_("this table was created without undo")
        elif st is None:
            why = N_("undo is only while the game is being played")
        elif not held:
            why = N_("a decision can be taken back only until it is confirmed")
        return {
            "hints": self.settings.hints,
            "hint": hint,
            "undo": self.settings.undo,
            "can_undo": held,
            "undo_reason": why,
            "confirm": self.settings.confirm,
            "confirm_turn": self.settings.confirm_turn,
        }

    # ------------------------------------------------------------------ undo

    def check_undo_allowed(self) -> None:
        """ProtocolError where an undo is not allowed at this table now."""
        if not self.settings.undo:
            raise ProtocolError(
                "undo_not_allowed",
                "this table was created without undo: nobody may take a move back here",
            )
        if self.current.playing() is None:
            raise ProtocolError("not_playing", "undo is only while the game is being played")

    # ------------------------------------------------------------------ hints

    def hinting(self, seat: int) -> bool:
        """Whether ``seat``'s last hint is still being worked out."""
        return seat in self._hinting

    async def hint(self, seat: int, move: int, conn: Peer, held: State | None = None) -> None:
        """Work out a hint for ``seat``'s decision (from its view only, in the bots' pool)
        and send it to ``conn``; ProtocolError where a hint is not allowed. ``held``: the
        game as the seat sees it with the decisions it holds for confirmation."""
        if not self.settings.hints:
            raise ProtocolError(
                "hints_not_allowed",
                "this table was created without hints: nobody may ask the bots for advice here",
            )
        st = self.current.playing()
        if st is None:
            raise ProtocolError("not_playing", "hints are only while the game is being played")
        if held is not None:
            st = held
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
            budget=config.hint_seconds,
            max_playouts=config.hint_max_playouts,
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
