"""A table's session: seats, the serialized action path, deadlines, away timers and bots.

One :class:`Table` per game, all in one asyncio event loop, kept by the lobby service
(:class:`~dragonlair.web.lobby.Hub`). The rules that matter:

- **One writer per table.** ``Table.submit`` holds the table's lock from the check of the
  move number to the broadcast, and stores each action under the move it is applied at, so
  nothing is applied twice (storage's primary key on the move number would refuse it
  anyway). An action made at an earlier move is applied only while it is still the seat's
  own decision (:mod:`dragonlair.web.table.decisions`: during a sealed choice, the others'
  picks do not change it); otherwise it is refused with ``stale_move`` and a reason.
- **Committed before heard.** An action is applied to a clone of the state; the clone
  replaces the table's state only after storage has committed the action. Everything that
  reads a table (new connections, the lobby) therefore sees only committed moves, and a
  failed commit leaves the table exactly as it was.
- **Each seat sees only its own door.** Messages are built by
  :func:`~dragonlair.web.protocol.state_message` per seat (``view(seat)``,
  ``legal_actions(seat)``, ``events_since(cursor, seat)``); spectators get ``view(None)``.
  Every connection (:mod:`dragonlair.web.connection`) has its own outgoing queue and
  sender task, so a slow client never holds up a table.
- **Deadlines.** When a person must answer an offer or a reaction window (the state has a
  ``default_action`` for them), the table arms a timer of its ``deadline``; when it fires at
  the same move the default (pass, decline) is submitted for them like any other action.
- **Away players.** A person's seat with no connection for ``away`` seconds is played by a
  bot of the table's ``takeover`` level until they connect again. A seat whose person has
  not yet opened their link at all waits for them (no takeover, no deadline) unless the
  table was created with ``wait_for_arrival`` false.
- **Answers a seat does not have to give** (:mod:`dragonlair.core.autoplay`). When a
  person's seat is asked and has only one legal action, and the seat's ``autoplay``
  preference is on (the default), that action is applied for it after
  :func:`~dragonlair.core.autoplay.answer_delay`, a delay drawn from the same distribution
  for every seat, from a generator that is not the game's. It is an ordinary action: the
  messages every other seat receives are the same as if it had been typed.
- **Windows have one length.** In a reaction window or an offer, a pass (typed, answered
  for the seat, or a bot's) and any bot's answer is applied when the window's length
  (``ServerConfig.window``) has passed since the seat was asked, so how long a window
  stays open does not tell whether the seat asked held anything
  (:mod:`dragonlair.web.table.windows`).
- **Bots** play their seats one decision at a time per table, off the event loop (see
  :mod:`dragonlair.web.bots`), seeded from the table's seed, the seat and the move.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import random
import time
from typing import Any

from ..bots import UnknownBot, reads_view
from ..core import Game, IllegalAction, State, UnknownAction
from ..core.autoplay import answer_delay, forced_action
from ..core.rng import derive_seed
from ..core.state import UNDO_TEXT
from ..core.undo import effective_actions
from ..i18n import N_
from .bots import BotJob, BotTimeout, HintJob
from .protocol import (
    Fairness,
    ProtocolError,
    Revealed,
    SeatInfo,
    TableInfo,
    TableSettings,
    encode,
    state_message,
)
from .security import TokenBucket, digest, match, new_token, parse_rate
from .store import StoredSeat, StoredTable
from .table.decisions import Decisions
from .table.ports import Host, Peer
from .table.windows import Windows

log = logging.getLogger("dragonlair.web")

BOT_STREAM = 0xB07
HINT_STREAM = 0x417
_WATCH = "watch"


class Seat:
    """One seat: who plays it, its token's digest, and its live connections."""

    def __init__(self, s: StoredSeat) -> None:
        self.index = s.seat
        self.kind = s.kind
        self.name = s.name
        self.level = s.level
        self.budget = dict(s.budget or {})
        self.token_hash = s.token_hash
        self.conns: set[Peer] = set()
        self.bot_playing = False
        self.away_timer: asyncio.TimerHandle | None = None
        # a person's seat: whether its person has connected since the server started
        self.arrived = False
        self.autoplay = True

    @property
    def is_bot(self) -> bool:
        """Whether a bot plays this seat now (a bot seat, or an away player's)."""
        return self.kind == "bot" or self.bot_playing

    def info(self) -> SeatInfo:
        """The seat as everyone may see it."""
        return SeatInfo(
            seat=self.index,
            kind=self.kind,  # type: ignore[arg-type]
            name=self.name,
            level=self.level,
            connected=bool(self.conns),
            connections=len(self.conns),
            bot_playing=self.bot_playing,
            arrived=self.arrived,
        )

    def prefs(self) -> dict[str, Any]:
        """The seat's preferences, as its own connections are told them."""
        return {"autoplay": self.autoplay}


class Table:
    """A game being played (or waiting for players, or finished) and everyone at it."""

    def __init__(
        self,
        hub: Host,
        stored: StoredTable,
        game: Game | None,
        state: State | None,
        problem: str | None = None,
    ) -> None:
        self.hub = hub
        self.id = stored.id
        self.game = game
        self._state = state
        self.seed = stored.seed
        self.salt = stored.salt
        self.commitment = stored.commitment
        self.chosen_seed = stored.commitment is None and problem is None
        self.game_id = stored.game
        self.players = stored.players
        self.options = dict(stored.options)
        st = stored.settings
        self.settings = TableSettings(
            deadline=float(st["deadline"]),
            away=None if st.get("away") is None else float(st["away"]),
            takeover=st.get("takeover"),
            listed=bool(st.get("listed", True)),
            wait_for_arrival=bool(st.get("wait_for_arrival", True)),
            hints=bool(st.get("hints", False)),
            undo=bool(st.get("undo", False)),
            position=st.get("title") if st.get("position") is not None else None,
        )
        pos = st.get("position")
        # the position the game started from (it may hold hidden cards: never sent)
        self.position: dict[str, Any] | None = dict(pos) if isinstance(pos, dict) else None
        self.watch_hash = stored.watch_hash
        self.status = "broken" if problem else stored.status
        self.problem = problem
        self.created = stored.created
        self.seats = [Seat(s) for s in stored.seats]
        self.watchers: set[Peer] = set()
        self.lock = asyncio.Lock()
        self.deadline_at: int | None = None
        self._deadline: tuple[int, int] | None = None  # (seat, move) the timer is for
        self._deadline_handle: asyncio.TimerHandle | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._seats_pending = False
        self._sync_cache: dict[tuple[int | None, int], str] = {}
        self._sync_key: tuple[int, str, int | None] | None = None
        self._auto: dict[tuple[int, int], asyncio.TimerHandle] = {}  # (seat, move) -> timer
        self.rematch: dict[str, Any] | None = None  # {"by": seat, "links": {seat: link}}
        self._hinting: set[int] = set()  # seats whose hint is being worked out
        self._hint_buckets: dict[int, TokenBucket] = {}
        self._undo_cache: dict[tuple[int, int], str | None] = {}  # (seat, move) -> why not
        self._undo_checking: set[tuple[int, int]] = set()
        self.decisions = Decisions()
        self.windows = Windows(hub.config.window)
        if state is not None:
            self.decisions.reset(state)
            self.windows.update(state)

    # ------------------------------------------------------------------ reading

    @property
    def state(self) -> State:
        """The committed state of the game."""
        if self._state is None:
            raise ProtocolError("broken", f"table {self.id} cannot be played: {self.problem}", 409)
        return self._state

    def check_playable(self) -> None:
        """ProtocolError ``broken`` if the table cannot be played (nor watched)."""
        self.state  # noqa: B018

    @property
    def current_move(self) -> int | None:
        """The committed move number (None at a broken table)."""
        return None if self._state is None else self._state.move

    async def rename(self, seat: int, name: str) -> None:
        """A person names their own seat (stored, then everyone is told)."""
        await self.hub.rename(self, seat, name)

    async def ask_rematch(self, seat: int) -> None:
        """A seat asks for a rematch of this finished game."""
        await self.hub.rematch(self, seat)

    def initial_state(self) -> State:
        """The game as it began: dealt from the seed, or set up from its position."""
        assert self.game is not None
        if self.position is None:
            return self.game.new_game(self.seed)
        from ..core.position import build

        return build(self.game, self.position, self.seed)

    @property
    def result(self) -> dict[str, Any] | None:
        """The final result once the game is over, else None."""
        st = self._state
        return None if st is None or st.result is None else st.result.to_dict()

    def info(self) -> TableInfo:
        """What anyone may know of the table (no tokens, nothing hidden)."""
        st = self._state
        return TableInfo(
            id=self.id,
            game=self.game_id,
            name=self.game.spec.name if self.game is not None else self.game_id,
            players=self.players,
            options=self.options,
            status=self.status,  # type: ignore[arg-type]
            move=st.move if st is not None else 0,
            to_act=list(st.to_act) if st is not None and self.status == "playing" else [],
            seats=[s.info() for s in self.seats],
            settings=self.settings,
            created=self.created,
            result=self.result,
            fairness=Fairness(
                commitment=self.commitment,
                revealed=Revealed(seed=self.seed, salt=self.salt)
                if self.status == "over"
                else None,
                chosen_seed=self.chosen_seed,
            ),
            expires=self.expires if self.status == "waiting" else None,
            problem=self.problem,
        )

    @property
    def expires(self) -> float:
        """When the table expires if it is still waiting for players then (Unix time)."""
        return self.created + self.hub.config.waiting_ttl

    def timed_seats(self) -> set[int]:
        """Seats played by people now: their offers and windows have deadlines (not yet
        for a person who has never arrived, when the table waits for them)."""
        return {s.index for s in self.seats if not s.is_bot and self._present(s)}

    def _present(self, seat: Seat) -> bool:
        """Whether the table treats this person as having arrived."""
        return seat.arrived or not self.settings.wait_for_arrival

    def identify(self, token: str) -> int | None:
        """The seat a token belongs to, or None for the spectator token; ProtocolError if
        it is neither."""
        candidates: list[tuple[object, bytes | None]] = [
            (s.index, s.token_hash) for s in self.seats
        ]
        candidates.append((_WATCH, self.watch_hash))
        found = match(token, candidates)
        if found is None:
            raise ProtocolError(
                "unauthorized", "that token is not a seat or watch token of this table", 401
            )
        return None if found == _WATCH else int(found)  # type: ignore[call-overload]

    def admit_spectator(self) -> None:
        """Admit a spectator without a token: only at a listed table (ProtocolError else)."""
        if not self.settings.listed:
            raise ProtocolError(
                "unauthorized",
                "this table is not listed: watching it needs its watch link",
                401,
            )

    def message_for(self, conn: Peer) -> dict[str, Any]:
        """The state message for ``conn`` from its event cursor on (and moves the cursor)."""
        st = self.state
        msg = state_message(
            st,
            conn.seat,
            conn.cursor,
            table=self.id,
            status=self.status,
            timed_seats=self.timed_seats(),
            deadline_at=self.deadline_at,
        )
        if conn.seat is not None:
            msg["offers"] = self.offers(conn.seat)
        conn.cursor = st.event_count
        return msg

    def offers(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may ask for now: whether the table allows hints and undo, whether
        a hint may be asked now, and (once worked out, else None) whether an undo would
        work, with the reason when not. Working out the undo takes a moment, so it is done
        off the loop after each move and sent in an ``offers`` message (:meth:`_check_undo`)."""
        playing = self.status == "playing" and self._state is not None
        hint = self.settings.hints and playing and seat in self.state.to_act
        can: bool | None = False
        why: str | None = None
        if not self.settings.undo:
            why = N_("this table was created without undo")
        elif not playing:
            why = N_("undo is only while the game is being played")
        else:
            key = (seat, self.state.move)
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

    def _check_undos(self) -> None:
        """Work out, off the loop, whether each connected person's seat could undo now,
        and tell it (an ``offers`` message)."""
        if not self.settings.undo or self.status != "playing":
            return
        for s in self.seats:
            key = (s.index, self.state.move)
            if s.kind != "human" or not s.conns:
                continue
            if key not in self._undo_cache and key not in self._undo_checking:
                self._undo_checking.add(key)
                self._spawn(self._check_undo(s.index, self.state))

    async def _check_undo(self, seat: int, st: State) -> None:
        key = (seat, st.move)
        try:
            if self._state is not st:
                return  # the game moved on before the check began
            why = await asyncio.to_thread(self._why_not_undo, st, seat)
        finally:
            self._undo_checking.discard(key)
        if len(self._undo_cache) > 64:
            self._undo_cache.clear()
        self._undo_cache[key] = why
        if self._state is not st:
            return  # the game moved on meanwhile: its own check follows
        text = encode({"type": "offers", "move": st.move, "offers": self.offers(seat)})
        for conn in self.seats[seat].conns:
            conn.send(text)

    def sync_text(self, conn: Peer, since: int) -> str:
        """The encoded state message for a ``sync`` from ``since``: built once per seat,
        cursor and move, however many times connections ask for it."""
        st = self.state
        key = (st.move, self.status, self.deadline_at)
        if key != self._sync_key:
            self._sync_key = key
            self._sync_cache.clear()
        text = self._sync_cache.get((conn.seat, since))
        if text is None:
            conn.cursor = since
            text = encode(self.message_for(conn))
            if len(self._sync_cache) >= 64:
                self._sync_cache.clear()
            self._sync_cache[(conn.seat, since)] = text
        conn.cursor = st.event_count
        return text

    def connections(self) -> list[Peer]:
        """Every live connection: spectators and each seat's."""
        out = list(self.watchers)
        for s in self.seats:
            out.extend(s.conns)
        return out

    # ------------------------------------------------------------------ sending

    def broadcast(self, acting: Peer | None = None, ref: str | int | None = None) -> None:
        """Send every connection its own state message (the actor's carries ``ref``)."""
        if self._state is None:
            return
        cache: dict[tuple[int | None, int], tuple[dict[str, Any], str]] = {}
        for conn in self.connections():
            key = (conn.seat, conn.cursor)
            hit = cache.get(key)
            if hit is None:
                msg = self.message_for(conn)
                hit = (msg, encode(msg))
                cache[key] = hit
            else:
                conn.cursor = self.state.event_count
            if conn is acting and ref is not None:
                # the same message with the ref added, without encoding it all again
                conn.send(f'{hit[1][:-1]},"ref":{json.dumps(ref)}}}')
            else:
                conn.send(hit[1])

    def broadcast_seats(self) -> None:
        """Tell everyone who is connected (once per turn of the loop, however many changed)."""
        if not self._seats_pending:
            self._seats_pending = True
            asyncio.get_running_loop().call_soon(self._send_seats)

    def _send_seats(self) -> None:
        self._seats_pending = False
        text = encode({"type": "seats", "seats": [s.info().model_dump() for s in self.seats]})
        for conn in self.connections():
            conn.send(text)

    # ------------------------------------------------------------------ connections

    async def attach(self, conn: Peer) -> None:
        """A client identified itself: welcome it and send its current state."""
        self.check_playable()  # a broken table refuses connections
        back = False
        if conn.seat is None:
            self.watchers.add(conn)
        else:
            seat = self.seats[conn.seat]
            seat.conns.add(conn)
            if seat.away_timer is not None:
                seat.away_timer.cancel()
                seat.away_timer = None
            if not seat.arrived:
                seat.arrived = True
                back = self._arm_deadline()
            if seat.bot_playing:
                seat.bot_playing = False
                back = self._arm_deadline() or back
        welcome: dict[str, Any] = {
            "type": "welcome",
            "seat": conn.seat,
            "table": self.info().model_dump(),
        }
        if conn.seat is not None:
            welcome["prefs"] = self.seats[conn.seat].prefs()
        conn.send(encode(welcome))
        conn.send(encode(self.message_for(conn)))
        if conn.seat is not None:
            self.send_rematch(conn)
            self._check_undos()
        self.broadcast_seats()
        if back:  # the returning player has a window to answer: everyone sees its deadline
            self.broadcast()

    def detach(self, conn: Peer) -> None:
        """A client left."""
        if conn.seat is None:
            self.watchers.discard(conn)
        else:
            seat = self.seats[conn.seat]
            seat.conns.discard(conn)
            if not seat.conns:
                self._arm_away(seat)
        self.broadcast_seats()
        if self.status == "over" and not self.connections():
            self.hub.retire(self)

    async def rotate(self, conn: Peer) -> None:
        """Give ``conn``'s seat a new token: stored first, then sent to ``conn`` alone with
        its link; the seat's other connections are told and closed, and the old token
        opens nothing from then on. ProtocolError for a spectator."""
        if conn.seat is None:
            raise ProtocolError("spectator", "spectators have no seat token to rotate")
        seat = self.seats[conn.seat]
        token = new_token()
        h = digest(token)

        def rotated() -> None:
            seat.token_hash = h
            conn.send(
                encode(
                    {
                        "type": "rotated",
                        "seat": seat.index,
                        "token": token,
                        "link": self.hub.link("play", self.id, token),
                    }
                )
            )
            gone = ProtocolError(
                "token_rotated",
                "this seat's token was replaced from another connection; this link no "
                "longer opens the seat",
            )
            for other in list(seat.conns):
                if other is not conn:
                    other.send(encode(gone.to_message()))
                    other.close(4401)

        async with self.lock:
            await self.hub.write(lambda: self.hub.store.set_token(self.id, seat.index, h), rotated)
        log.info("table %s: seat %d has a new token", self.id, seat.index)

    # ------------------------------------------------------------------ acting

    async def submit(
        self,
        seat: int,
        move: int,
        text: str,
        *,
        by: str = "player",
        conn: Peer | None = None,
        ref: str | int | None = None,
    ) -> None:
        """Apply ``seat``'s action made at ``move``, store it, then tell everyone.
        ProtocolError (and nothing changed) if it cannot be applied. An answer in a
        reaction window or offer that must wait for the window's end waits first
        (:mod:`dragonlair.web.table.windows`)."""
        if self.windows.is_open(seat, move) and self.game is not None:
            try:
                answer = self.game.parse_action(text)
            except UnknownAction:
                pass  # refused below, like any unknown action
            else:
                if self.windows.holds(seat, move, answer, by):
                    await self.windows.hold(seat, move)
        async with self.lock:
            began = time.perf_counter()
            if self.status == "waiting":
                free = ", ".join(str(s.index) for s in self.seats if s.kind == "open")
                raise ProtocolError("not_started", f"the game starts when seats {free} are taken")
            if self.status == "over":
                raise ProtocolError("game_over", "the game is over; no more actions")
            if self.status == "expired":
                raise ProtocolError("expired", "this table waited too long for players and expired")
            st = self.state
            if by == "bot" and not self.seats[seat].is_bot:
                raise ProtocolError("stale_move", "the seat's player is back")
            if move != st.move and not self.decisions.current(seat, move, st.move):
                raise ProtocolError(
                    "stale_move", self.decisions.why_stale(seat, move, st.move), 409
                )
            assert self.game is not None
            try:
                action = self.game.parse_action(text)
            except UnknownAction as e:
                raise ProtocolError("unknown_action", str(e)) from None
            nxt = st.clone()
            try:
                nxt.apply(seat, action)
            except IllegalAction as e:
                raise ProtocolError("illegal_action", str(e)) from None
            result = nxt.result.to_dict() if nxt.result is not None else None
            reveal = (self.seed, self.salt) if result is not None else None
            write = asyncio.wrap_future(
                self.hub.store.append(self.id, st.move, seat, str(action), result, reveal)
            )
            try:
                # shielded: if this task is cancelled (shutdown), the write still lands,
                # and the table takes the new state when it does
                committing = time.perf_counter()
                await asyncio.shield(write)
                self.hub.timings.commit.observe(time.perf_counter() - committing)
            except asyncio.CancelledError:
                write.add_done_callback(lambda f: self._late_commit(f, nxt))
                raise
            except Exception as e:
                log.error("table %s: could not store move %d: %s", self.id, st.move, e)
                raise ProtocolError(
                    "storage_error",
                    "the server could not store that action, so it was not applied; try again",
                    503,
                ) from None
            self._state = nxt
            self.decisions.advance(nxt, seat)
            if result is not None:
                self.status = "over"
            self.hub.actions += 1
            self._after_change(conn, ref)
            self.hub.timings.action.observe(time.perf_counter() - began)

    # ------------------------------------------------------------------ undo

    def _why_not_undo(self, st: State, seat: int) -> str | None:
        if not any(p == seat for p, _ in effective_actions(st)):
            return N_("you have made no decision to take back yet")
        if not self._undo_steps(st, seat):
            return N_("something hidden has been revealed since your last decision")
        return None

    def _undo_steps(self, st: State, seat: int) -> list[State]:
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

    async def undo(self, seat: int, move: int, conn: Peer | None = None) -> None:
        """Take back ``seat``'s last decision (and everything played after it), stored
        like an action; ProtocolError (and nothing changed) where it is not allowed."""
        async with self.lock:
            if not self.settings.undo:
                raise ProtocolError(
                    "undo_not_allowed",
                    "this table was created without undo: nobody may take a move back here",
                )
            if self.status != "playing":
                raise ProtocolError("not_playing", "undo is only while the game is being played")
            st = self.state
            if move != st.move:
                raise ProtocolError(
                    "stale_move",
                    f"that undo was asked at move {move}, but the game is at move {st.move}: "
                    "look at the latest state and ask again",
                    409,
                )
            steps = await asyncio.to_thread(self._undo_steps, st, seat)
            if not steps:
                why = await asyncio.to_thread(self._why_not_undo, st, seat)
                why = why or "your last decisions were all answered for you"
                raise ProtocolError("cannot_undo", f"nothing to take back: {why}")
            done = False
            for nxt in steps:
                m = self.state.move
                write = asyncio.wrap_future(
                    self.hub.store.append(self.id, m, seat, UNDO_TEXT, None, None)
                )
                try:
                    await asyncio.shield(write)
                except asyncio.CancelledError:
                    write.add_done_callback(functools.partial(self._late_commit, nxt=nxt))
                    raise
                except Exception as e:
                    log.error("table %s: could not store the undo at move %d: %s", self.id, m, e)
                    if done:
                        break  # what was stored stands; the rest is not taken back
                    raise ProtocolError(
                        "storage_error",
                        "the server could not store the undo, so nothing was taken back; try again",
                        503,
                    ) from None
                self._state = nxt
                self.decisions.reset(nxt)
                done = True
            self.hub.actions += 1
            self._after_change(conn, "undo")

    # ------------------------------------------------------------------ hints

    async def hint(self, seat: int, move: int, conn: Peer) -> None:
        """Work out a hint for ``seat``'s decision (from its view only, in the bots' pool)
        and send it to ``conn``; ProtocolError where a hint is not allowed."""
        if not self.settings.hints:
            raise ProtocolError(
                "hints_not_allowed",
                "this table was created without hints: nobody may ask the bots for advice here",
            )
        if self.status != "playing":
            raise ProtocolError("not_playing", "hints are only while the game is being played")
        st = self.state
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
        config = self.hub.config
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
            options_json=json.dumps(self.options, sort_keys=True),
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
            body = await self.hub.bots.hint(job)
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
            log.exception("table %s: the hint for seat %d failed", self.id, seat)
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

    def _late_commit(self, write: asyncio.Future[None], nxt: State) -> None:
        if not write.cancelled() and write.exception() is None and nxt.move == self.state.move + 1:
            self._state = nxt
            self.decisions.reset(nxt)
            if nxt.is_over:
                self.status = "over"

    def _after_change(self, conn: Peer | None = None, ref: str | int | None = None) -> None:
        if self.status != "playing":
            self._cancel_timers()
        else:
            self.windows.update(self.state)
            self._arm_deadline()
            self._arm_auto()
        self.broadcast(conn, ref)
        self._check_undos()
        self._kick_bots()
        if self.status == "over" and not self.connections():
            self.hub.retire(self)

    def start(self) -> None:
        """Every seat is taken: the game begins (or resumes after a restart)."""
        self.status = "playing"
        for s in self.seats:
            if not s.conns:
                self._arm_away(s)
        self._after_change()

    # ------------------------------------------------------------------ deadlines and away

    def _arm_deadline(self) -> bool:
        """(Re)start the deadline timer if a person must answer now; whether it changed."""
        if self.status != "playing":
            return False
        st = self.state
        timed = self.timed_seats()
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
        loop = asyncio.get_running_loop()
        self._deadline_handle = loop.call_later(delay, self._deadline_passed, *target)
        return True

    def _deadline_passed(self, seat: int, move: int) -> None:
        self._deadline_handle = None
        st = self.state
        default = st.default_action(seat)
        if st.move != move or default is None:
            return
        self._spawn(self._submit_quietly(seat, move, str(default), "deadline"))

    async def _submit_quietly(self, seat: int, move: int, text: str, by: str) -> None:
        try:
            await self.submit(seat, move, text, by=by)
        except ProtocolError as e:
            if e.code != "stale_move":
                log.warning("table %s: %s action for seat %d refused: %s", self.id, by, seat, e)
            if e.code == "storage_error" and by == "deadline" and self.status == "playing":
                # storage is busy or down: the deadline has passed, so try again shortly
                loop = asyncio.get_running_loop()
                self._deadline_handle = loop.call_later(1.0, self._deadline_passed, seat, move)

    def _arm_away(self, seat: Seat) -> None:
        if (
            seat.kind != "human"
            or not self._present(seat)
            or self.status != "playing"
            or self.settings.away is None
            or self.settings.takeover is None
            or seat.away_timer is not None
            or seat.bot_playing
        ):
            return
        loop = asyncio.get_running_loop()
        seat.away_timer = loop.call_later(self.settings.away, self._away_passed, seat)

    def _away_passed(self, seat: Seat) -> None:
        seat.away_timer = None
        if seat.conns or self.status != "playing":
            return
        seat.bot_playing = True
        log.info("table %s: seat %d is away; a bot plays for it", self.id, seat.index)
        self.broadcast_seats()
        self._arm_deadline()
        self._kick_bots()

    # ------------------------------------------------------------------ answers for a seat

    def _arm_auto(self) -> None:
        """Schedule the forced answer of every person's seat asked now that has only one
        legal action and the preference on; the delay never depends on the hand."""
        if self.status != "playing":
            return
        st = self.state
        for key in [k for k in self._auto if k[1] != st.move]:
            self._auto.pop(key).cancel()
        loop = asyncio.get_running_loop()
        for s in st.to_act:
            seat = self.seats[s]
            key = (s, st.move)
            if seat.is_bot or not seat.autoplay or key in self._auto:
                continue
            if forced_action(st, s) is None:
                continue
            # in a window the answer waits for the window's end (whoever holds what);
            # elsewhere it comes after a delay drawn the same way for every seat
            delay = 0.0 if self.windows.is_open(s, st.move) else answer_delay()
            self._auto[key] = loop.call_later(delay, self._auto_answer, s, st.move)

    def _auto_answer(self, seat: int, move: int) -> None:
        self._auto.pop((seat, move), None)
        if self.status != "playing" or self._state is None or self._state.move != move:
            return
        if self.seats[seat].is_bot or not self.seats[seat].autoplay:
            return
        action = forced_action(self._state, seat)
        if action is not None:
            self._spawn(self._submit_quietly(seat, move, str(action), "auto"))

    def set_prefs(self, seat: int, autoplay: bool | None) -> None:
        """Change a seat's preferences and tell that seat's connections."""
        s = self.seats[seat]
        if autoplay is not None:
            s.autoplay = autoplay
            if autoplay:
                self._arm_auto()
            else:
                for key in [k for k in self._auto if k[0] == seat]:
                    self._auto.pop(key).cancel()
        text = encode({"type": "prefs", "prefs": s.prefs()})
        for conn in s.conns:
            conn.send(text)

    def send_rematch(self, conn: Peer) -> None:
        """Tell a seat's connection where the rematch is, once there is one (its own link
        only: each seat's token goes to that seat alone)."""
        if self.rematch is None or conn.seat is None:
            return
        link = self.rematch["links"].get(conn.seat)
        conn.send(
            encode(
                {
                    "type": "rematch",
                    "table": self.rematch["table"],
                    "by": self.rematch["by"],
                    "link": link,
                }
            )
        )

    def _cancel_timers(self) -> None:
        for handle in self._auto.values():
            handle.cancel()
        self._auto.clear()
        if self._deadline_handle is not None:
            self._deadline_handle.cancel()
        self._deadline_handle = None
        self._deadline = None
        self.deadline_at = None
        for s in self.seats:
            if s.away_timer is not None:
                s.away_timer.cancel()
                s.away_timer = None

    # ------------------------------------------------------------------ bots

    def _kick_bots(self) -> None:
        if self.status != "playing" or (self._bot_task is not None and not self._bot_task.done()):
            return
        if any(self.seats[s].is_bot for s in self.state.to_act):
            self._bot_task = self._spawn(self._play_bots())

    async def _play_bots(self) -> None:
        while self.status == "playing":
            st = self.state
            seat = next((s for s in st.to_act if self.seats[s].is_bot), None)
            if seat is None:
                return
            move = st.move
            job = self._job(st, seat)
            try:
                text = await self.hub.bots.decide(job)
            except BotTimeout as e:
                default = st.default_action(seat)
                log.warning(
                    "table %s: the bot for seat %d was cut (%s); it plays %s",
                    self.id,
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
                    "table %s: the bot for seat %d failed; moving at random", self.id, seat
                )
                text = job.legal[random.Random(job.seed).randrange(len(job.legal))]
            try:
                await self.submit(seat, move, text, by="bot")
            except ProtocolError as e:
                if e.code == "storage_error":
                    await asyncio.sleep(1.0)
                elif e.code != "stale_move":
                    log.error("table %s: bot action %r refused: %s", self.id, text, e)
                    return

    def _reads_view(self, level: str) -> bool:
        try:
            return self.game is None or reads_view(level, self.game)
        except UnknownBot:
            return True  # the runner reports the unknown level

    def _job(self, st: State, seat: int) -> BotJob:
        s = self.seats[seat]
        level = s.level if s.kind == "bot" else self.settings.takeover
        budget = s.budget if s.kind == "bot" else {}
        return BotJob(
            game=self.game_id,
            players=self.players,
            options_json=json.dumps(self.options, sort_keys=True),
            level=str(level),
            budget_json=json.dumps(budget, sort_keys=True),
            view=st.view(seat) if self._reads_view(str(level)) else {},
            legal=tuple(str(a) for a in st.legal_actions(seat)),
            seed=derive_seed(self.seed, BOT_STREAM, seat, st.move),
            time_limit=self.hub.config.bot_max_seconds,
        )

    # ------------------------------------------------------------------ housekeeping

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def close(self) -> None:
        """Stop timers and bots (server shutdown); connections are closed by the server."""
        self._cancel_timers()
        for t in list(self._tasks):
            t.cancel()
