"""The lobby service: every table of the server, creating and joining tables, the
listing, loading finished tables on demand, and recovery at start-up.

The routes (:mod:`dragonlair.web.routes`) are thin: they validate a request and call the
:class:`Hub` kept on the application's state.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from ..bots import UnknownBot, make_bot
from ..core import (
    BadOptions,
    BadPosition,
    DragonlairError,
    Game,
    Record,
    UnknownGame,
    make,
    replay,
)
from ..core import spec as game_spec
from ..core.position import build
from ..core.puzzles import puzzle as find_puzzle
from ..tutorial import BadTutorial, has_tutorial, tutorial
from .bots import BotRunner
from .config import ServerConfig
from .listing import listed_rows, stored_info
from .logs import storage_outage
from .protocol import (
    MAX_NAME,
    MAX_POSITION,
    Created,
    Joined,
    JoinRequest,
    ProtocolError,
    SeatPass,
    SeatRequest,
    TableInfo,
    TableRequest,
    WatchPass,
)
from .security import (
    commitment,
    deal_source,
    digest,
    new_salt,
    new_seed,
    new_table_id,
    new_token,
    read_position,
)
from .session import Table
from .store import DAMAGED_SETTINGS, Store, StoredSeat, StoredTable, TooManyWaiting
from .table.ports import Timings

log = logging.getLogger("dragonlair.web")

FINISHED_CACHE = 64
# the bot that plays for an away player unless the table's creator chose another level
# (or none): it plays sensibly, as a friend would want (never a random bot unless chosen)
DEFAULT_TAKEOVER = "heuristic"


def _is_path_option(game_id: str, name: str) -> bool:
    """Whether ``name`` is an option of ``game_id`` that names a file (a ``data`` file):
    letting a remote player set one would let them make the server read any path."""
    try:
        return game_spec(game_id).option(name).kind == "path"
    except (UnknownGame, BadOptions):
        return False  # make() reports the unknown game or option precisely


@dataclasses.dataclass(slots=True)
class Parked:
    """A turn-based table at rest, dropped from memory (:meth:`Hub.park_idle`): its
    description when the lobby lists it (None: unlisted), and what its bot played for its
    people not yet shown (seat -> moves)."""

    info: TableInfo | None
    played_for: dict[int, list[dict[str, Any]]] | None


class Hub:
    """Every table of the server, the lobby's operations, and recovery at start-up."""

    def __init__(self, config: ServerConfig, store: Store, bots: BotRunner) -> None:
        self.config = config
        self.store = store
        self.bots = bots
        self.tables: dict[str, Table] = {}
        self.finished: OrderedDict[str, Table] = OrderedDict()
        self._loading: dict[str, asyncio.Future[Table]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._deadlines: asyncio.Task[None] | None = None
        self.actions = 0
        # where tables report their actions' timings (the server hands its metrics in)
        self.timings = Timings()
        self._rematch_lock = asyncio.Lock()
        # what a table calls when it wrote a "your turn" e-mail (the server's sender, at
        # once rather than at its next look; dragonlair.web.mail)
        self.on_mail: Callable[[], None] | None = None
        # waiting tables in memory found with nobody connected at the last sweep
        self._quiet: set[str] = set()
        # turn-based tables in play kept only as their description while they wait for
        # their people (see park_idle); read again from storage when opened or due
        self.parked: dict[str, Parked] = {}

    # ------------------------------------------------------------------ finding tables

    async def get(self, table_id: str) -> Table:
        """The table with this id, loading a finished one from storage if needed."""
        t = self.tables.get(table_id) or self.finished.get(table_id)
        if t is not None:
            t.touched = time.monotonic()
            return t
        if not _plausible_id(table_id):
            raise ProtocolError("not_found", f"there is no table {table_id!r}", 404)
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[Table] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            stored = await asyncio.to_thread(self.store.load, table_id)
            if stored is None:
                raise ProtocolError("not_found", f"there is no table {table_id!r}", 404)
            t = self.tables.get(table_id) or self._build(stored)
            if t.status in ("over", "broken", "expired", "abandoned"):
                self._remember(t)
            elif t.id not in self.tables:
                self.tables[t.id] = t
                parked = self.parked.pop(t.id, None)
                if parked is not None:  # what the bot played for its people, not yet shown
                    for seat, moves in (parked.played_for or {}).items():
                        t.seats[seat].played_for = moves
                if t.status == "playing":
                    t.start()
            self.parked.pop(t.id, None)
            t.touched = time.monotonic()
            fut.set_result(t)
            return t
        except BaseException as e:
            fut.set_exception(e)
            fut.exception()  # retrieved: waiters re-raise it themselves
            raise
        finally:
            del self._loading[table_id]

    def wake_mail(self) -> None:
        """A table wrote e-mail to send: the sender looks now."""
        if self.on_mail is not None:
            self.on_mail()

    def retire(self, table: Table) -> None:
        """A finished table nobody watches leaves the active set (its record stays)."""
        if self.config.evict_finished and self.tables.get(table.id) is table:
            del self.tables[table.id]
            self._remember(table)

    def _remember(self, table: Table) -> None:
        self.finished[table.id] = table
        self.finished.move_to_end(table.id)
        while len(self.finished) > FINISHED_CACHE:
            self.finished.popitem(last=False)

    async def listing(
        self, status: str | None, game: str | None, limit: int, offset: int = 0
    ) -> tuple[list[TableInfo], int]:
        """One page of the tables shown in the lobby (listed ones, waiting or in play, in
        the order they were created) and how many there are in all, from the database:
        tables waiting for players that nobody came to yet are not in memory
        (:mod:`dragonlair.web.listing`)."""
        rows, total, seats, moves = await asyncio.to_thread(
            listed_rows, self.store, status, game, limit, offset
        )
        out = []
        for r in rows:
            local = self.tables.get(r["id"])
            out.append(
                local.info()
                if local is not None
                else stored_info(r, seats.get(r["id"], []), moves.get(r["id"], 0), self.config)
            )
        return out, total

    async def claim(self, table_id: str) -> None:
        """Take ownership of a new table before it is stored (several processes only)."""

    def owned(self) -> list[str]:
        """The tables this process serves (plays, or waits for players at)."""
        return sorted(self.tables)

    def _build(self, stored: StoredTable) -> Table:
        """A table from storage, its state rebuilt by replaying its actions; a table that
        cannot be rebuilt, whatever the reason, is broken (never an exception)."""
        if stored.problem is not None:
            return Table(self, stored, None, None, problem=stored.problem)
        try:
            record = Record(
                game=stored.game,
                rules_version=stored.rules_version,
                players=stored.players,
                options=stored.options,
                seed=stored.seed,
                actions=tuple(stored.actions),
                position=stored.settings.get("position"),
            )
            state = replay(record)
            t = Table(self, stored, state.game, state)
        except Exception as e:
            problem = str(e) if isinstance(e, DragonlairError) else f"{type(e).__name__}: {e}"
            log.error("table %s cannot be resumed: %s", stored.id, problem)
            damaged = dataclasses.replace(stored, settings=dict(DAMAGED_SETTINGS))
            return Table(self, damaged, None, None, problem=problem)
        if state.is_over:
            t.status = "over"
        return t

    async def recover(self) -> int:
        """Resume every unfinished table from storage (a damaged one is kept as broken,
        one that waited too long for players expires); the number resumed."""
        # tables waiting for players stay in storage until someone comes to one
        stored = await asyncio.to_thread(self.store.load_active, ("playing",))
        n = 0
        for s in stored:
            t = self._build(s)
            n += 1
            if self._parks() and t.at_rest():  # nothing to run: not kept in memory
                self._park(t)
                continue
            self.tables[t.id] = t
            if t.status == "playing":
                t.start()
        with contextlib.suppress(ProtocolError):  # storage is down: the sweep tries again
            await self._expire_stored()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        self._deadlines = asyncio.get_running_loop().create_task(self._sweep_deadlines())
        return n

    async def _sweep_deadlines(self) -> None:
        """Now and then, ask storage for the turn-based tables whose move deadline has
        passed, and have those this process serves act (:mod:`.table.deadlines`)."""
        while True:
            await asyncio.sleep(self.config.deadline_sweep)
            try:
                await self.deadlines_due()
            except Exception as e:  # storage is away: look again at the next sweep
                log.warning("the sweep for passed move deadlines failed: %s", e)
            self.park_idle()

    async def deadlines_due(self) -> int:
        """One sweep: the moves played for seats whose deadline had passed (and the
        turn-based tables nobody moved at for long ended as abandoned)."""
        await self.idle_ended()
        due = await asyncio.to_thread(self.store.due_tables, self.config.clock())
        played = 0
        for table_id, _ in due:
            t = self.tables.get(table_id)
            if t is None and not getattr(self, "shared", False):
                with contextlib.suppress(ProtocolError):
                    t = await self.get(table_id)
            if t is not None and t.status == "playing":
                played += await t.deadline_passed()
        return played

    def _parks(self) -> bool:
        """Whether this process drops resting tables from memory (one process only: with
        several, a table's owner keeps it; dragonlair.web.ownership)."""
        return self.config.park_after is not None and not getattr(self, "shared", False)

    def _park(self, t: Table) -> None:
        """Keep only ``t``'s description (for the lobby) and what its bot played for its
        people not yet shown (kept in memory only, as at a table in memory)."""
        self.tables.pop(t.id, None)
        played = {s.index: s.played_for for s in t.seats if s.played_for}
        self.parked[t.id] = Parked(t.info() if t.settings.listed else None, played or None)
        t.close()

    def park_idle(self) -> int:
        """Drop from memory the turn-based tables at rest that nobody opened for
        ``park_after`` seconds: an idle table costs a short description, not its game;
        it is read again from storage when someone opens it or its deadline or idle end
        comes (both found by a query). How many were dropped."""
        after = self.config.park_after
        if not self._parks() or after is None:
            return 0
        now = time.monotonic()
        resting = [t for t in self.tables.values() if now - t.touched >= after and t.at_rest()]
        for t in resting:
            self._park(t)
        return len(resting)

    async def idle_ended(self) -> list[str]:
        """End as abandoned the turn-based tables this process serves that nobody moved
        at for long (one query over ``dl_tables_abandons``; :mod:`.table.votes`)."""
        ids = await asyncio.to_thread(self.store.idle_tables, self.config.clock())
        ended = []
        for table_id in ids:
            t = self.tables.get(table_id)
            if t is None and not getattr(self, "shared", False):
                with contextlib.suppress(ProtocolError):
                    t = await self.get(table_id)
            if t is None or t.status != "playing":
                continue
            try:
                if await t.idle_timeout():
                    ended.append(table_id)
            except ProtocolError as e:  # storage is away: the next sweep tries again
                log.warning("table %s: could not end it as abandoned: %s", table_id, e)
        return ended

    async def _sweep(self) -> None:
        """Expire waiting tables whose time is up, and abandon tables every person left
        long ago, now and then while the server runs."""
        every = min(60.0, max(0.05, self.config.waiting_ttl / 4))
        if self.config.abandon_after is not None:
            every = min(every, max(0.05, self.config.abandon_after / 4))
        while True:
            await asyncio.sleep(every)
            now = time.time()
            stale = [
                t.id for t in self.tables.values() if t.status == "waiting" and now >= t.expires
            ]
            if stale:
                with contextlib.suppress(ProtocolError):  # storage is down: try again later
                    await self._expire(stale)
            with contextlib.suppress(ProtocolError):
                await self._expire_stored()
            self._put_to_sleep()
            gone = self.abandoned(now)
            if gone:
                with contextlib.suppress(ProtocolError):
                    await self._abandon(gone)

    async def _expire(self, ids: list[str]) -> None:
        def gone() -> None:
            for i in ids:
                t = self.tables.pop(i, None)
                if t is not None:
                    t.status = "expired"
                    t.broadcast()  # whoever waits at the table sees it expire
                    self._remember(t)

        await self.write(lambda: self.store.expire(ids), gone)
        log.info("%d tables waited too long for players and expired", len(ids))

    async def _expire_stored(self) -> None:
        """Expire the tables that waited too long for players and are not in memory."""
        before = time.time() - self.config.waiting_ttl
        await self.write(lambda: self.store.expire_waiting(before, self._unheld()))
        if self.store.expired:
            log.info("%d tables waited too long for players and expired", self.store.expired)

    def _unheld(self) -> Any:
        """The SQL condition for a stored table no process holds in memory (one process:
        None, any table it does not hold; its own expire first, telling their clients)."""
        return None

    def _put_to_sleep(self) -> None:
        """Tables waiting for players that nobody has been connected to since the last
        sweep leave memory (their rows hold everything; the next request reads them)."""
        quiet = {
            t.id
            for t in self.tables.values()
            if t.status == "waiting" and not t.connections() and not t.lock.locked()
        }
        for table_id in quiet & self._quiet:
            t = self.tables.pop(table_id)
            self._asleep(t)
        self._quiet = quiet - self._quiet

    def _asleep(self, t: Table) -> None:
        """A waiting table left memory (several processes: it is let go)."""
        t.close()

    async def _abandon(self, ids: list[str]) -> None:
        def gone() -> None:
            for i in ids:
                t = self.tables.pop(i, None)
                if t is not None:
                    t.status = "abandoned"
                    t.clocks.cancel()
                    t.broadcast()  # a spectator still watching sees it end
                    self._remember(t)

        await self.write(lambda: self.store.abandon(ids), gone)
        log.info("%d tables every player had left were abandoned", len(ids))

    def abandoned(self, now: float) -> list[str]:
        """The tables in play whose people have all been gone ``abandon_after`` seconds."""
        return [
            t.id
            for t in self.tables.values()
            if t.status == "playing"
            and not t.turns.turn_based  # (they end by .table.votes, on the server's clock)
            and (a := t.abandons) is not None
            and now >= a
        ]

    # ------------------------------------------------------------------ lobby

    def link(self, kind: str, table_id: str, token: str) -> str:
        """A link for a player or spectator: the token rides after ``#``."""
        return f"{self.config.public_url}/{kind}/{table_id}#{token}"

    async def create(
        self,
        req: TableRequest,
        account: str | None = None,
        accounts: dict[int, str | None] | None = None,
        doc: dict[str, Any] | None = None,
        address: str | None = None,
        names: dict[str, str | None] | None = None,
    ) -> Created:
        """A new table from a lobby request; ProtocolError says what was wrong. The first
        person's seat is ``account``'s (its creator signed in), or each seat is that of
        ``accounts`` (a rematch), and a rematch starts from the position ``doc`` already
        read.

        A table that will wait for players counts against ``address`` (the creating
        client's, None: not counted, a rematch) and against every table waiting: beyond
        ``max_waiting_per_address`` or ``max_waiting`` it is refused (``too_many_waiting``,
        429; ``lobby_full``, 503). It is stored and not kept in memory: a waiting table
        costs a row until someone comes to it (a request for it, a WebSocket, a join), and
        goes back to its row after a sweep with nobody connected. ``names``: the accounts'
        names (their profiles' addresses) by id."""
        if req.tutorial:
            req, doc = self._tutorial(req)
        doc = self._position(req) if doc is None else doc
        game = self._game(req, doc)
        specs = self._seat_requests(game, req)
        takeover = self._takeover(game, req)
        if req.pace is not None and req.away is not None:
            raise ProtocolError(
                "bad_pace",
                "a turn-based table has no time bank: each move has its deadline (pace) "
                "instead; leave away out, or leave pace out for a real-time table",
            )
        seed, chosen_seed = self._seed(req, specs)
        hints, undo = self._practice(req, specs, doc)
        if req.rated:
            hints, undo = self._rated(req, specs, doc, account)
        try:
            start = game.new_game(seed) if doc is None else build(game, doc, seed)
        except BadPosition as e:
            raise ProtocolError("bad_position", str(e)) from None
        table_id = new_table_id()
        await self.claim(table_id)
        seats, tokens = self._seats(specs, table_id)
        _give_seats(seats, account, accounts or {}, names or {})
        watch = new_token()
        status = "waiting" if any(s.kind == "open" for s in seats) else "playing"
        creator = None
        if status == "waiting" and address is not None:
            creator = self.store.sealer.tag(f"address:{address}")
            await self._check_lobby_full()
        stored = StoredTable(
            id=table_id,
            game=game.spec.id,
            rules_version=game.spec.rules_version,
            players=game.players,
            options=dict(game.options),
            seed=seed,
            settings=self._settings(req, takeover, hints, undo, chosen_seed, doc),
            watch_hash=digest(watch),
            status=status,
            created=time.time(),
            seats=seats,
            creator=creator,
        )
        await self._store_new(stored)
        t = Table(self, stored, game, start)
        if status == "playing":
            self.tables[table_id] = t
            t.start()
        else:
            t.close()  # its row is enough until someone comes to it
        return Created(
            table=t.info(),
            seats=tokens,
            watch=WatchPass(token=watch, link=self.link("watch", table_id, watch)),
        )

    def _settings(
        self,
        req: TableRequest,
        takeover: str | None,
        hints: bool,
        undo: bool,
        chosen_seed: bool,
        doc: dict[str, Any] | None,
    ) -> dict[str, Any]:
        """What a new table stores of its settings: the request's, the server's defaults
        where it chose none, and what was worked out of it (who plays for an away person,
        the practice services, whether its seed was chosen, the position and puzzle)."""
        return {
            "deadline": req.deadline if req.deadline is not None else self.config.deadline,
            "away": None
            if req.pace is not None
            else (req.away if req.away is not None else self.config.away),
            **({"pace": req.pace} if req.pace is not None else {}),
            "takeover": takeover,
            "listed": req.listed,
            "wait_for_arrival": req.wait_for_arrival,
            "hints": hints,
            "undo": undo,
            "confirm": (req.confirm or self.config.confirm)
            if undo and not req.confirm_turn
            else 0.0,
            **({"confirm_turn": True} if req.confirm_turn else {}),
            **({"rated": True} if req.rated else {}),
            "chat_apart": req.chat_apart,
            **({"tutorial": True} if req.tutorial else {}),
            **({} if doc is None else {"position": doc, "title": _title(doc)}),
            **({} if req.puzzle is None else {"puzzle": find_puzzle(req.puzzle).name}),
            **({"chosen_seed": True} if chosen_seed else {}),
        }

    async def _store_new(self, stored: StoredTable) -> None:
        """Commit to a new table's deal (a chosen one with what it was made from), then
        store the table. ProtocolError ``too_many_waiting`` (nothing stored) when it would
        wait for players and its creator's address has as many waiting tables as one may
        have: counted by the store, in the insert's transaction."""
        stored.salt = new_salt()
        stored.commitment = commitment(stored.seed, stored.salt, deal_source(stored.settings))
        cap = self.config.max_waiting_per_address
        try:
            await self.write(lambda: self.store.create_table(stored, cap))
        except TooManyWaiting as e:
            raise ProtocolError(
                "too_many_waiting",
                f"{e.count} tables you created are waiting for players, the most one address "
                f"may have (at most {cap}); play at one, or let one expire, before you open "
                "another",
                429,
            ) from None

    async def _check_lobby_full(self) -> None:
        """Refuse a new waiting table when ``max_waiting`` tables wait (counted on the
        partial index of unfinished tables). The per-address cap is counted by the store,
        in the transaction of the insert (Store.create_table), so it holds across
        processes; this one is a ceiling on the whole database, read just before."""
        try:
            total = await asyncio.to_thread(self.store.waiting_total)
        except Exception as e:
            storage_outage.failed("counting waiting tables", e)
            raise ProtocolError(
                "storage_error", "the server could not reach the database; try again", 503
            ) from None
        if total >= self.config.max_waiting:
            raise ProtocolError(
                "lobby_full",
                f"{total} tables are waiting for players, the most this server keeps (at most "
                f"{self.config.max_waiting}); join one of them, or try again later",
                503,
            )

    @staticmethod
    def _game(req: TableRequest, doc: dict[str, Any] | None) -> Game:
        """The game a request asks for, with its players and options (a position's own,
        which the request may repeat or add to)."""
        players, options = req.players, dict(req.options)
        if doc is not None:
            if players is None and isinstance(doc.get("players"), int):
                players = doc["players"]
            if isinstance(doc.get("options"), dict):
                options = {**doc["options"], **options}
        for name in options:
            if _is_path_option(req.game, name):
                raise ProtocolError(
                    "bad_options",
                    f"option {name!r} names a file on the server and cannot be set from the "
                    "lobby; tables use the games' built-in data",
                )
        try:
            return make(req.game, players=players, options=options)
        except UnknownGame as e:
            raise ProtocolError("unknown_game", str(e)) from None
        except BadOptions as e:
            raise ProtocolError("bad_options", str(e)) from None

    def _seat_requests(self, game: Game, req: TableRequest) -> list[SeatRequest]:
        """One request per seat (default: the creator, then open seats), each checked."""
        n = game.players
        specs = req.seats
        if specs is None:
            specs = [SeatRequest.model_validate({"type": "human"})] + [
                SeatRequest.model_validate({"type": "open"})
            ] * (n - 1)
        if len(specs) != n:
            raise ProtocolError(
                "bad_seats", f"a table of {n} players needs {n} seats, not {len(specs)}"
            )
        for i, spec in enumerate(specs):
            if spec.type == "bot":
                self._check_bot(game, spec.level, spec.budget, f"seat {i}")
            elif spec.level is not None or spec.budget:
                raise ProtocolError(
                    "bad_seats", f"seat {i} is {spec.type}: only bot seats take a level or budget"
                )
        return specs

    def _takeover(self, game: Game, req: TableRequest) -> str | None:
        """The table's away policy: the level asked for (checked), else the heuristic bot
        where the game has one, else nobody (the table waits for an away player)."""
        if "takeover" in req.model_fields_set:
            if req.takeover is not None:
                self._check_bot(game, req.takeover, {}, "takeover")
            return req.takeover
        try:
            make_bot(DEFAULT_TAKEOVER, game)
        except UnknownBot:
            return None
        return DEFAULT_TAKEOVER

    @staticmethod
    def _seed(req: TableRequest, specs: list[SeatRequest]) -> tuple[int, bool]:
        """The deal's seed, and whether the creator chose it."""
        if req.seed is None:
            return new_seed(), False
        # only seats whose tokens go to the creator, or bots: anyone else at the table must
        # not face a deal the creator knows
        if any(sp.type not in ("human", "bot") for sp in specs):
            raise ProtocolError(
                "seed_not_allowed",
                "a table takes a chosen seed only when every seat is yours or a bot's "
                "(practice, puzzles, bug reports): at a table with open seats the server "
                "draws the seed, so that nobody knows the deal in advance",
            )
        return req.seed, True

    @staticmethod
    def _practice(
        req: TableRequest, specs: list[SeatRequest], doc: dict[str, Any] | None
    ) -> tuple[bool, bool]:
        """Whether the table offers hints and undo (by default: a practice table, where one
        person plays against bots); a position or undo at a table with open seats is
        refused."""
        people = sum(1 for sp in specs if sp.type != "bot")
        practice = people == 1 and all(sp.type in ("human", "bot") for sp in specs)
        if doc is not None and any(sp.type == "open" for sp in specs):
            raise ProtocolError(
                "position_not_allowed",
                "a table starts from a position only when every seat is yours or a bot's "
                "(a practice table): at a table with open seats nobody may know the deal",
            )
        hints = practice if req.hints is None else req.hints
        undo = practice if req.undo is None else req.undo
        if undo and any(sp.type == "open" for sp in specs):
            raise ProtocolError(
                "undo_not_allowed",
                "undo is only for tables whose every seat is yours or a bot's: at a table "
                "with open seats nobody may take a move back",
            )
        if req.confirm is not None and not undo:
            raise ProtocolError(
                "bad_request",
                "a confirmation window is for a table with undo: ask for undo too, or leave "
                "confirm out",
            )
        if req.confirm_turn and not undo:
            raise ProtocolError(
                "bad_request",
                "a Confirm at the end of a turn is for a table with undo: ask for undo too, "
                "or leave confirm_turn out",
            )
        if req.confirm_turn and req.confirm is not None:
            raise ProtocolError(
                "bad_request",
                "a table confirms either at the end of a window (confirm) or when its "
                "player presses Confirm (confirm_turn), not both: leave one out",
            )
        return hints, undo

    @staticmethod
    def _rated(
        req: TableRequest,
        specs: list[SeatRequest],
        doc: dict[str, Any] | None,
        account: str | None,
    ) -> tuple[bool, bool]:
        """Check that a rated table can be one (:mod:`dragonlair.web.ratings`): its
        creator signed in with one seat, the others open or bots, a drawn deal; it offers
        neither hints nor undo."""
        if account is None:
            raise ProtocolError("rated_needs_account", "sign in to create a rated table", 403)
        if sum(1 for sp in specs if sp.type == "human") != 1:
            raise ProtocolError(
                "rated_seats",
                "a rated table has one seat for you; the others are open (for signed-in "
                "players) or bots",
            )
        if doc is not None or req.seed is not None:
            raise ProtocolError(
                "rated_deal", "a rated table is dealt by the server: no position, puzzle or seed"
            )
        if req.hints or req.undo or req.confirm_turn:
            raise ProtocolError("rated_practice", "a rated table offers neither hints nor undo")
        return False, False

    def _seats(
        self, specs: list[SeatRequest], table_id: str
    ) -> tuple[list[StoredSeat], list[SeatPass]]:
        """The seats to store, and the passes (token and link) of the creator's seats."""
        tokens: list[SeatPass] = []
        seats: list[StoredSeat] = []
        for i, spec in enumerate(specs):
            if spec.type == "bot":
                name = _clean_name(spec.name) or f"{str(spec.level).capitalize()} bot {i + 1}"
                seats.append(StoredSeat(i, "bot", name, spec.level, dict(spec.budget)))
            elif spec.type == "human":
                token = new_token()
                tokens.append(
                    SeatPass(seat=i, token=token, link=self.link("play", table_id, token))
                )
                name = _clean_name(spec.name) or f"Player {i + 1}"
                seats.append(StoredSeat(i, "human", name, token_hash=digest(token)))
            else:
                seats.append(StoredSeat(i, "open", ""))
        return seats, tokens

    @staticmethod
    def _tutorial(req: TableRequest) -> tuple[TableRequest, dict[str, Any]]:
        """The request of a tutorial table: the learner's seat, the tutorial's bots and
        seed, no hints, no undo, not listed, nobody playing for the learner; and its deal.
        ProtocolError where the request asks for anything else, or the game has no
        tutorial."""
        extra = sorted(req.model_fields_set - {"game", "tutorial"})
        if extra:
            raise ProtocolError(
                "bad_request",
                f"a tutorial table is set up by its tutorial: give only the game, not "
                f"{', '.join(extra)}",
            )
        try:
            if not has_tutorial(req.game):
                raise ProtocolError("no_tutorial", f"{req.game} has no tutorial", 404)
            tut = tutorial(req.game)
        except UnknownGame as e:
            raise ProtocolError("unknown_game", str(e)) from None
        except BadTutorial as e:
            log.error("the %s tutorial cannot be used: %s", req.game, e)
            raise ProtocolError("no_tutorial", str(e), 500) from None
        levels = tut.bot_levels()
        seats = [
            SeatRequest.model_validate(
                {"type": "human"} if s == tut.seat else {"type": "bot", "level": levels[s]}
            )
            for s in range(len(levels) + 1)
        ]
        made = req.model_copy(
            update={
                "seats": seats,
                "seed": tut.seed,
                "hints": False,
                "undo": False,
                "listed": False,
                "takeover": None,
            }
        )
        made.model_fields_set.add("takeover")
        return made, dict(tut.position)

    @staticmethod
    def _position(req: TableRequest) -> dict[str, Any] | None:
        """The position document a new table starts from (None: a new deal)."""
        if req.position is None and req.puzzle is None:
            return None
        if req.position is not None and req.puzzle is not None:
            raise ProtocolError("bad_position", "give a position or a puzzle, not both")
        try:
            if req.puzzle is not None:
                return dict(find_puzzle(req.puzzle).doc)
            return read_position(req.position or "", MAX_POSITION)
        except DragonlairError as e:  # BadPosition, or no such puzzle
            raise ProtocolError("bad_position", str(e)) from None

    async def join(
        self,
        table_id: str,
        req: JoinRequest,
        account: str | None = None,
        account_name: str | None = None,
    ) -> Joined:
        """Take an open seat (``account``'s, named ``account_name``, signed in);
        ProtocolError if there is none (or not that one)."""
        t = await self.get(table_id)
        async with t.lock:
            if t.status != "waiting":
                raise ProtocolError("no_open_seat", f"table {table_id} has no open seat", 409)
            if t.settings.rated and account is None:
                raise ProtocolError(
                    "rated_needs_account", "this table is rated: sign in to join it", 403
                )
            if t.settings.rated and any(s.account == account for s in t.seats):
                raise ProtocolError(
                    "rated_one_seat", "at a rated table an account plays one seat only", 409
                )
            free = [s.index for s in t.seats if s.kind == "open"]
            if req.seat is None:
                i = free[0]
            elif not 0 <= req.seat < t.players:
                raise ProtocolError(
                    "bad_seat", f"seat {req.seat} is not at this table: expected 0..{t.players - 1}"
                )
            elif req.seat not in free:
                raise ProtocolError(
                    "seat_taken",
                    f"seat {req.seat} is taken; open seats: {', '.join(map(str, free))}",
                    409,
                )
            else:
                i = req.seat
            token = new_token()
            name = _clean_name(req.name) or f"Player {i + 1}"
            status = "playing" if len(free) == 1 else "waiting"
            h = digest(token)
            seat = t.seats[i]

            def taken() -> None:
                seat.kind, seat.name, seat.token_hash = "human", name, h
                seat.account = account
                seat.profile = account_name if account is not None else None
                if status == "playing":
                    t.start()
                else:
                    t.broadcast_seats()

            await self.write(
                lambda: self.store.seat_taken(t.id, i, name, h, status, account), taken
            )
        return Joined(
            table=t.info(),
            seat=SeatPass(seat=i, token=token, link=self.link("play", t.id, token)),
        )

    async def rename(self, t: Table, seat: int, name: str) -> None:
        """A person names their own seat (an invited friend's "Player 2" becomes theirs)."""
        clean = _clean_name(name)
        if not clean:
            raise ProtocolError("bad_name", "a name needs at least one printable character")
        s = t.seats[seat]
        if s.kind != "human":
            raise ProtocolError("bad_name", "only a person's seat has a name to set")

        def renamed() -> None:
            s.name = clean
            t.broadcast_seats()

        await self.write(lambda: self.store.rename_seat(t.id, seat, clean), renamed)

    async def rematch(self, t: Table, seat: int) -> None:
        """A new table for a finished one: the same game, options, settings and seats (the
        same bots, the same people by name, each with a new token), a new deal. Each
        person's seat is told its own new link; asking again gives the same table."""
        async with self._rematch_lock:
            if t.status != "over":
                raise ProtocolError("not_over", "a rematch is for a finished game", 409)
            if not t.rematch.made:
                seats = []
                for s in t.seats:
                    spec: dict[str, Any] = {"type": s.kind, "name": s.name}
                    if s.kind == "bot":
                        spec.update(level=s.level, budget=s.budget)
                    seats.append(SeatRequest.model_validate(spec))
                st = t.settings
                # a lesson's rematch is the lesson again, from its own deal
                lesson = TableRequest.model_validate({"game": t.game_id, "tutorial": True})
                created = await self.create(
                    accounts={s.index: s.account for s in t.seats},
                    names={s.account: s.profile for s in t.seats if s.account is not None},
                    req=lesson
                    if st.tutorial
                    else TableRequest.model_validate(
                        {
                            "game": t.game_id,
                            "players": t.players,
                            "options": {
                                k: v
                                for k, v in t.options.items()
                                if not _is_path_option(t.game_id, k)
                            },
                            "seats": seats,
                            "deadline": st.deadline,
                            "away": None if st.pace is not None else st.away,
                            "takeover": st.takeover,
                            "listed": st.listed,
                            "wait_for_arrival": st.wait_for_arrival,
                            "hints": st.hints,
                            "undo": st.undo,
                            "confirm": st.confirm or None,
                            "confirm_turn": st.confirm_turn,
                            "chat_apart": st.chat_apart,
                            "pace": st.pace,
                            "puzzle": st.puzzle,
                        }
                    ),
                    # a game from a position is played again from the same position, as it
                    # was read (not written out again: as text it may pass the size limit)
                    doc=None if st.tutorial else t.position,
                )
                where = t.rematch.record(
                    created.table.id,
                    seat,
                    {p.seat: p.link for p in created.seats},
                    # the new table: once a seat's person has opened it, an old link of the
                    # seat no longer receives the new one (see Rematch.send)
                    self.tables.get(created.table.id),
                )
                # stored, so that a process reading this table back tells its seats too
                try:
                    await self.write(lambda: self.store.set_rematch(t.id, where))
                except Exception as e:  # this process still tells them
                    log.warning("table %s: its rematch could not be stored: %s", t.id, e)
        t.rematch.tell(t.connections())

    async def write(
        self, submit: Callable[[], Any], then: Callable[[], None] | None = None
    ) -> None:
        """Store something and wait for the commit; ``then`` runs once it is committed,
        even if this waiter is cancelled meanwhile (so memory follows storage)."""
        write = asyncio.wrap_future(submit())
        try:
            await asyncio.shield(write)
        except asyncio.CancelledError:
            if then is not None:
                write.add_done_callback(
                    lambda f: then() if not f.cancelled() and f.exception() is None else None
                )
            raise
        except TooManyWaiting:
            raise  # a refusal, not an outage (see create)
        except Exception as e:
            storage_outage.failed("a lobby write", e)
            raise ProtocolError(
                "storage_error", "the server could not store that; nothing changed", 503
            ) from None
        if then is not None:
            then()

    def _check_bot(self, game: Game, level: str | None, budget: dict[str, Any], where: str) -> None:
        c = self.config
        check_bot(game, level, budget, where, c.bot_max_iterations, c.bot_max_seconds)

    def close(self) -> None:
        """Stop every table's timers and bots (server shutdown)."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._deadlines is not None:
            self._deadlines.cancel()
        for t in [*self.tables.values(), *self.finished.values()]:
            t.close()


def check_bot(
    game: Game,
    level: str | None,
    budget: dict[str, Any],
    where: str,
    max_iterations: int,
    max_seconds: float,
) -> None:
    """Refuse a bot that does not exist for ``game`` (``unknown_bot``) or a budget it does
    not take or that is beyond this server's bounds (``bad_budget``)."""
    if level is None:
        raise ProtocolError(
            "unknown_bot", f"{where}: a bot needs a level (random, heuristic, ismcts)"
        )
    iterations, seconds = budget.get("iterations"), budget.get("time")
    if (isinstance(iterations, int | float) and iterations > max_iterations) or (
        isinstance(seconds, int | float) and seconds > max_seconds
    ):
        raise ProtocolError(
            "bad_budget",
            f"{where}: this server allows bots at most {max_iterations} iterations and "
            f"{max_seconds:g} seconds per decision, not {budget}",
        )
    try:
        make_bot(level, game, **budget)
    except UnknownBot as e:
        raise ProtocolError("unknown_bot", f"{where}: {e}") from None
    except (TypeError, ValueError) as e:
        raise ProtocolError(
            "bad_budget", f"{where}: bot {level!r} refuses budget {budget}: {e}"
        ) from None


def _give_seats(
    seats: list[StoredSeat],
    account: str | None,
    accounts: dict[int, str | None],
    names: dict[str, str | None],
) -> None:
    """Give a new table's seats to their accounts: each seat to its account of
    ``accounts`` (a rematch), the first person's seat to ``account`` (its creator, signed
    in); each with its account's name (its profile's address) of ``names``."""
    for s in seats:
        s.account = accounts.get(s.seat)
    if account is not None:
        first = next((s for s in seats if s.kind == "human"), None)
        if first is not None:
            first.account = account
    for s in seats:
        s.profile = None if s.account is None else names.get(s.account)


def _title(doc: dict[str, Any]) -> str:
    """How the table's description names the position it started from."""
    title = doc.get("title")
    return title[:80] if isinstance(title, str) and title.strip() else "a position"


def _clean_name(name: str | None) -> str:
    if not name:
        return ""
    return "".join(ch for ch in name if ch.isprintable()).strip()[:MAX_NAME]


def _plausible_id(table_id: str) -> bool:
    return 0 < len(table_id) <= 32 and all(ch.isalnum() or ch in "-_" for ch in table_id)
