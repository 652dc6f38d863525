"""The bot driver: plays a table's bot seats (and away players' seats taken over by a
bot), one decision at a time per table, in the bot pool handed in.

A bot decides from exactly what a client of its seat gets (its view, its legal actions as
text) with a seed derived from the table's seed, the seat and the move, so a table's bots
play the same way every time its history is the same (a lesson's bots are seeded by the move
at which a simultaneous choice opened, so that they do not depend on when the learner
chose: dragonlair.tutorial). A decision cut for time plays the
seat's default answer (or a seeded random action); a bot that fails plays a seeded random
action. The decision goes through the same move pipeline as a person's. No bot plays at
a table every person has left (:meth:`~.seats.Seats.paused`): it waits for them.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from ...bots import UnknownBot, make_bot, reads_view
from ...bots.base import table_bot_seed
from ...core import Game, State
from ..bots import BotJob, BotTimeout
from ..concede import STAND_INS
from ..protocol import ProtocolError
from .current import Current
from .ports import BotPool
from .seats import Seats

log = logging.getLogger("dragonlair.web")


@dataclass(frozen=True)
class Player:
    """The bot that plays a seat now: its level and budget."""

    level: str
    budget: dict[str, Any]


class BotDriver:
    """Runs a table's bots while a bot's seat is asked."""

    def __init__(
        self,
        table_id: str,
        game: Game | None,
        game_id: str,
        players: int,
        options: dict[str, Any],
        seed: int,
        pool: BotPool,
        time_limit: float,
        current: Current,
        seats: Seats,
        takeover: str | None,
        act: Callable[[int, int, str], Awaitable[None]],
        spawn: Callable[[Any], asyncio.Task[Any]],
        seed_of: Callable[[State, int], int] | None = None,
    ) -> None:
        # takeover: the level that plays an away person's seat; act(seat, move, text): the
        # move pipeline (ProtocolError when refused); spawn: the table's own tasks;
        # seed_of(state, seat): a bot's seed where the table's move is not it (a lesson's
        # bots, dragonlair.tutorial.Tutorial.bot_seed)
        self.table_id = table_id
        self.game = game
        self.game_id = game_id
        self.players = players
        self.options_json = json.dumps(options, sort_keys=True)
        self.seed = seed
        self.pool = pool
        self.time_limit = time_limit
        self.current = current
        self.seats = seats
        self.takeover = takeover
        self._act = act
        self._spawn = spawn
        self._seed_of = seed_of
        self._task: asyncio.Task[None] | None = None
        self._stand_in: str | None = None

    def _bot_for(self, seat: int) -> Player | None:
        """The bot playing ``seat`` now (its own, or the takeover bot of an away player)."""
        s = self.seats[seat]
        if s.kind == "bot":
            return Player(str(s.level), s.budget)
        if s.conceded is not None:
            return Player(self.stand_in(), {})
        if s.bot_playing:
            return Player(str(self.takeover), {})
        return None

    def stand_in(self) -> str:
        """The bot that plays a seat whose player conceded: the table's takeover bot, else
        the first of :data:`~dragonlair.web.concede.STAND_INS` the game has."""
        if self.takeover is not None or self.game is None:
            return str(self.takeover or STAND_INS[-1])
        if self._stand_in is None:
            self._stand_in = STAND_INS[-1]
            for level in STAND_INS:
                try:
                    make_bot(level, self.game)
                except UnknownBot:
                    continue
                self._stand_in = level
                break
        return self._stand_in

    def kick(self) -> None:
        """Start playing if a bot's seat is asked and the bots are not already at it."""
        st = self.current.playing()
        if st is None or (self._task is not None and not self._task.done()):
            return
        if self.seats.paused():
            return
        if any(self._bot_for(s) is not None for s in st.to_act):
            self._task = self._spawn(self._play())

    async def _play(self) -> None:
        while (st := self.current.playing()) is not None and not self.seats.paused():
            found = next(((s, p) for s in st.to_act if (p := self._bot_for(s)) is not None), None)
            if found is None:
                return
            seat, player = found
            move = st.move
            text = await self._decide(st, seat, player)
            if self.seats.paused():
                # everyone left while the bot thought: a paused table is not played on (the
                # bot is asked again when a person comes back)
                return
            try:
                await self._act(seat, move, text)
            except ProtocolError as e:
                if e.code == "storage_error":
                    await asyncio.sleep(1.0)
                elif e.code != "stale_move":
                    log.error("table %s: bot action %r refused: %s", self.table_id, text, e)
                    return

    async def decide(self, st: State, seat: int, level: str) -> str:
        """What the ``level`` bot plays for ``seat`` in ``st`` (a turn-based table's
        missed move), decided like any bot's move."""
        return await self._decide(st, seat, Player(level, {}))

    async def _decide(self, st: State, seat: int, player: Player) -> str:
        """The bot's decision; cut for time: the default answer, else a seeded random
        action; failed: a seeded random action."""
        job = self.job(st, seat, player)
        try:
            text = await self.pool.decide(job, self.table_id)
        except BotTimeout as e:
            default = st.default_action(seat)
            log.warning(
                "table %s: the bot for seat %d was cut (%s); it plays %s",
                self.table_id,
                seat,
                e,
                "the default" if default is not None else "at random",
            )
            if default is not None:
                text = str(default)
            else:
                text = job.legal[random.Random(job.seed).randrange(len(job.legal))]
        except Exception:
            log.exception(
                "table %s: the bot for seat %d failed; moving at random", self.table_id, seat
            )
            text = job.legal[random.Random(job.seed).randrange(len(job.legal))]
        return text

    def job(self, st: State, seat: int, player: Player) -> BotJob:
        """One decision for the pool: the seat's view (when the level reads it), its legal
        actions as text, and the seed for this seat and move."""
        return BotJob(
            game=self.game_id,
            players=self.players,
            options_json=self.options_json,
            level=player.level,
            budget_json=json.dumps(player.budget, sort_keys=True),
            view=st.view(seat) if self._reads_view(player.level) else {},
            legal=tuple(str(a) for a in st.legal_actions(seat)),
            seed=(
                table_bot_seed(self.seed, seat, st.move)
                if self._seed_of is None
                else self._seed_of(st, seat)
            ),
            time_limit=self.time_limit,
        )

    def _reads_view(self, level: str) -> bool:
        try:
            return self.game is None or reads_view(level, self.game)
        except UnknownBot:
            return True  # the runner reports the unknown level
