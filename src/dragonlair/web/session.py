"""A table: its game, its status, the move pipeline, and what everyone at it is sent.

One :class:`Table` per game, all in one asyncio event loop, kept by the lobby service
through the :class:`~dragonlair.web.table.ports.Host` it hands in. The table composes its
parts (:mod:`dragonlair.web.table`), each with its dependencies handed in: seats and
presence (:mod:`~dragonlair.web.table.seats`), clocks and deadlines
(:mod:`~dragonlair.web.table.clocks`, :mod:`~dragonlair.web.table.windows`), the bot
driver (:mod:`~dragonlair.web.table.botseats`), the practice services
(:mod:`~dragonlair.web.table.practice`), which move a decision dates from
(:mod:`~dragonlair.web.table.decisions`), the decisions held for confirmation
(:mod:`~dragonlair.web.table.holds`), the chat (:mod:`~dragonlair.web.table.chatroom`)
and the rematch of a finished game (:mod:`~dragonlair.web.table.rematch`).
What stays here is what they all feed: the committed state, the move pipeline and the
messages. The rules that matter:

- **One writer per table.** ``Table.submit`` holds the table's lock from the check of the
  move number to the broadcast, and stores each action under the move it is applied at, so
  nothing is applied twice (storage's primary key on the move number would refuse it
  anyway). An action made at an earlier move is applied only while it is still the seat's
  own decision (during a sealed choice the others' picks do not change it); otherwise it
  is refused with ``stale_move`` and a reason.
- **Committed before heard.** An action is applied to a clone of the state; the clone
  replaces the table's state only after storage has committed the action. Everything that
  reads a table (new connections, the lobby) therefore sees only committed moves, and a
  failed commit leaves the table exactly as it was.
- **Each seat sees only its own door.** Messages are built by
  :func:`~dragonlair.web.protocol.state_message` per seat (``view(seat)``,
  ``legal_actions(seat)``, ``events_since(cursor, seat)``); spectators get ``view(None)``.
  Every connection (:mod:`dragonlair.web.connection`) has its own outgoing queue and
  sender task, so a slow client never holds up a table.
- **Answers given for a seat, deadlines and takeovers** are ordinary actions through the
  same pipeline (:mod:`~dragonlair.web.table.clocks`); in a reaction window or offer every
  pass waits for the window's length, so how long a window stays open does not tell what
  the seat asked holds (:mod:`~dragonlair.web.table.windows`).
- **The away policy.** What the takeover bot played for an away person is kept for them
  and sent (``played_for_you``) when they are back; a table every person has left is
  paused, and one left ``abandon_after`` seconds is ended as abandoned by the lobby, with
  no result (docs/server.md, "Away policy").
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from ..core import Action, DragonlairError, Game, IllegalAction, State, UnknownAction
from ..tutorial import Tutorial, tutorial
from . import concede as conceding
from .logs import storage_outage
from .protocol import (
    Fairness,
    ProtocolError,
    Revealed,
    TableInfo,
    encode,
    state_message,
    stored_settings,
)
from .security import deal_chosen, deal_source, digest, new_token
from .store import StoredTable
from .table.botseats import BotDriver
from .table.chatroom import ChatRoom
from .table.clocks import Clocks
from .table.current import Current
from .table.deadlines import Turns
from .table.decisions import Decisions
from .table.holds import Holds
from .table.ports import Host, Peer
from .table.practice import Practice
from .table.rematch import Rematch
from .table.seats import Seat, Seats
from .table.votes import Votes, ended_by_timeout, idle_after
from .table.windows import Windows

log = logging.getLogger("dragonlair.web")


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
        self.current = Current(state, "broken" if problem else stored.status)
        self.seed = stored.seed
        self.salt = stored.salt
        self.commitment = stored.commitment
        # what the creator chose of the deal (None: drawn), and what the commitment names
        self.chosen = deal_chosen(stored.settings, stored.commitment is not None)
        self.source = deal_source(stored.settings) if stored.commitment is not None else None
        self.chosen_seed = self.chosen == "seed" and problem is None
        self.game_id = stored.game
        self.players = stored.players
        self.options = dict(stored.options)
        self.settings = stored_settings(stored.settings)
        # the lesson of a tutorial table (read when the table is, from the game's package)
        self.tutorial = self._lesson() if self.settings.tutorial and problem is None else None
        pos = stored.settings.get("position")
        # the position the game started from (it may hold hidden cards: never sent)
        self.position: dict[str, Any] | None = dict(pos) if isinstance(pos, dict) else None
        self.problem = problem
        self.created = stored.created
        # the result of a game with concessions (dragonlair.web.concede): the game's own
        # result does not rank the conceding seats last, nor exist when it ended by one
        self.final: dict[str, Any] | None = (
            dict(stored.result) if stored.result and "conceded" in stored.result else None
        )
        self.lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[Any]] = set()
        # when the table was last opened (time.monotonic(); see Hub.park_idle), and -inf
        # for a table read at the server's start that nobody has opened yet
        self.touched = float("-inf")
        # since when no person has been connected (time.time()), None while one is
        self.empty_since: float | None = None
        self._seats_pending = False
        self._sync_cache: dict[tuple[int | None, int], str] = {}
        self._sync_key: tuple[int, str, int | None, int, float | None, int] | None = None
        self.rematch = Rematch(stored.rematch)
        self._compose(stored, state)

    def _lesson(self) -> Tutorial | None:
        """The lesson of this tutorial table, from the game's package; None (logged) when
        the game's tutorial changed into one that cannot be used: the table plays on."""
        try:
            return tutorial(self.game_id)
        except DragonlairError as e:
            log.error("table %s: its tutorial cannot be used, it plays on without: %s", self.id, e)
            return None

    def _compose(self, stored: StoredTable, state: State | None) -> None:
        """Make the table's parts (:mod:`dragonlair.web.table`), each handed what it
        needs: those of the play first, then the services around it."""
        self._compose_play(stored, state)
        self._compose_services(stored)

    def _compose_play(self, stored: StoredTable, state: State | None) -> None:
        """Seats, decisions and windows, clocks and the bot driver."""
        hub = self.hub
        self.seats = Seats(
            stored.seats,
            stored.watch_hash,
            self.settings.wait_for_arrival,
            turn_based=self.settings.pace is not None,
        )
        self.decisions = Decisions()
        self.windows = Windows(hub.config.window)
        if state is not None:
            self.decisions.reset(state)
            self.windows.update(state)
        self.clocks = Clocks(
            self.id,
            self.settings,
            self.seats,
            self.windows,
            current=self.current,
            act=self._answer_for,
            spawn=self._spawn,
            taken_over=self._taken_over,
            bank_changed=self._bank_changed,
        )
        self.bots = BotDriver(
            self.id,
            self.game,
            self.game_id,
            self.players,
            self.options,
            self.seed,
            hub.bots,
            hub.config.bot_max_seconds,
            self.current,
            self.seats,
            self.settings.takeover,
            act=self._bot_acts,
            spawn=self._spawn,
            seed_of=self.tutorial.bot_seed if self.tutorial is not None else None,
        )

    def _compose_services(self, stored: StoredTable) -> None:
        """A turn-based table's deadline and vote, the practice services, the decisions
        held for confirmation and the chat."""
        hub = self.hub
        # a turn-based table's move deadline (stored; see .table.deadlines)
        self.turns = Turns(
            self.settings.pace,
            self.settings.takeover,
            self.seats,
            self.current,
            hub.config.clock,
            stored.due,
            stored.abandons,
            idle_after(self.settings.pace, hub.config.abandon_after),
            hub.config.mail_remind,
        )
        # a turn-based table's vote to end it, or how it ended abandoned (.table.votes)
        self.votes = Votes(self.turns.turn_based, self.seats, stored.vote, hub.config.clock)
        self.practice = Practice(
            self.id,
            self.game_id,
            self.players,
            self.options,
            self.seed,
            self.settings,
            hub.config,
            self.seats,
            hub.bots,
            current=self.current,
            spawn=self._spawn,
        )
        # decisions held for confirmation at a table with undo (.table.holds)
        self.holds = Holds(
            self.id,
            self.game,
            self.settings,
            self.seats,
            self.decisions,
            self.current,
            self.lock,
            play=self._play_held,
            message_for=self.message_for,
            check_undo=self.practice.check_undo_allowed,
            undone=self.clocks.arm_auto,
            spawn=self._spawn,
        )
        # the table's chat, read from storage when the first client comes (.table.chatroom)
        self.chatroom = ChatRoom(
            self.id,
            self.settings.chat_apart,
            self.seats,
            hub.store,
            write=hub.write,
            connections=self.connections,
        )

    # ------------------------------------------------------------------ reading

    @property
    def status(self) -> str:
        """waiting, playing, over, broken, expired or abandoned."""
        return self.current.status

    @status.setter
    def status(self, value: str) -> None:
        self.current.status = value

    @property
    def _state(self) -> State | None:
        return self.current.state

    @_state.setter
    def _state(self, value: State | None) -> None:
        self.current.state = value

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
        if self.final is not None:
            return self.final
        st = self._state
        return None if st is None or st.result is None else st.result.to_dict()

    def conceded(self) -> dict[int, int]:
        """The seats whose players conceded, each with the move it conceded at."""
        return {s.index: s.conceded for s in self.seats if s.conceded is not None}

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
                revealed=Revealed(seed=self.seed, salt=self.salt, source=self.source)
                if self.status == "over"
                else None,
                chosen_seed=self.chosen_seed,
                chosen=self.chosen,
            ),
            expires=self.expires if self.status == "waiting" else None,
            problem=self.problem,
            paused=self.paused,
            abandons=self.abandons,
            due=self.turns.due if self.status == "playing" else None,
            vote=self.votes.public(),
        )

    def at_rest(self) -> bool:
        """A turn-based table in play that only waits for its people's moves: nobody
        connected, no bot to play, nothing running, its deadline and idle end stored, so
        dropping it from memory and reading it again from storage changes nothing."""
        st = self._state
        return (
            st is not None
            and self.status == "playing"
            and self.turns.turn_based
            and not st.is_over
            and all(self.seats[s].kind == "human" and not self.seats[s].is_bot for s in st.to_act)
            and not self.connections()
            and not self.holds
            and not self._tasks
            and not self.lock.locked()
            and not self.turns.firing
            and self.turns.missing() is None
            and self.turns.abandons_missing() is None
            and (self.turns.due is None or self.turns.clock() < self.turns.due)
            and not self.turns.idle_over()
        )

    @property
    def paused(self) -> bool:
        """In play, but every person has left: nothing is played until one comes back."""
        return self.status == "playing" and self.seats.paused()

    @property
    def abandons(self) -> float | None:
        """When the table ends as abandoned if no person comes back (Unix time); at a
        turn-based table, if no person moves (on the server's clock; .table.votes)."""
        if self.status != "playing":
            return None
        if self.turns.turn_based:  # played over days: everyone away is how it is played
            return self.turns.abandons
        after = self.hub.config.abandon_after
        if self.empty_since is None or after is None:
            return None
        return self.empty_since + after

    @property
    def expires(self) -> float:
        """When the table expires if it is still waiting for players then (Unix time)."""
        return self.created + self.hub.config.waiting_ttl

    @property
    def deadline_at(self) -> int | None:
        """When the person asked in a window must have answered (Unix ms), else None."""
        return self.clocks.deadline_at

    def timed_seats(self) -> set[int]:
        """Seats played by people now: their offers and windows have deadlines."""
        return self.seats.timed()

    def identify(self, token: str) -> int | None:
        """The seat a token belongs to, or None for the spectator token; ProtocolError if
        it is neither."""
        return self.seats.identify(token)

    def seat_account(self, seat: int) -> str | None:
        """The account a seat belongs to (None: a guest's, a bot's, an open seat)."""
        return self.seats[seat].account

    def check_room(self, seat: int | None) -> None:
        """Refuse a newcomer to ``seat`` (None: a spectator) with ``table_full`` when the
        table holds as many such connections as the server's per-table caps allow."""
        config = self.hub.config
        self.seats.check_room(seat, config.max_connections_per_seat, config.max_spectators)

    def admit_spectator(self) -> None:
        """Admit a spectator without a token: only at a listed table (ProtocolError else)."""
        if not self.settings.listed:
            raise ProtocolError(
                "unauthorized",
                "this table is not listed: watching it needs its watch link",
                401,
            )

    def message_for(self, conn: Peer) -> dict[str, Any]:
        """The state message for ``conn`` from its event cursor on (and moves the cursor).
        A seat holding decisions is shown the game with them applied (its own view), and
        the committed events only: its held decisions are logged once confirmed."""
        st = self.state
        hold = self.holds.shown(conn.seat)
        msg = state_message(
            st if hold is None else hold.state,
            conn.seat,
            conn.cursor,
            table=self.id,
            status=self.status,
            timed_seats=self.timed_seats(),
            deadline_at=self.deadline_at,
        )
        if hold is not None:
            msg["events"] = st.events_since(conn.cursor, conn.seat)
            msg["held"] = self.holds.describe(hold, st)
            if hold.unseen is not None:
                msg["legal"] = []  # nothing more until it is confirmed or taken back
        if conn.seat is not None:
            msg["offers"] = self.offers(conn.seat)
            if self.seats[conn.seat].conceded is not None:
                msg["legal"] = []  # a bot plays the seat now
        if self.turns.turn_based:
            msg["due"] = self.turns.due if self.status == "playing" else None
        if self.final is not None:
            msg["result"] = self.final
        if self.tutorial is not None and conn.seat == self.tutorial.seat:
            msg["tutorial"] = self.tutorial.info(st)
        conn.cursor = st.event_count
        return msg

    def offers(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may ask for now (hints, undo): see :mod:`.table.practice`."""
        hold = self.holds.shown(seat)
        if hold is None:
            return self.practice.offers(seat)
        offers = self.practice.offers(seat, held=True)
        # a hint is for the decision the seat's own game asks of it now
        offers["hint"] = offers["hints"] and hold.unseen is None and seat in hold.state.to_act
        return offers

    def sync_text(self, conn: Peer, since: int) -> str:
        """The encoded state message for a ``sync`` from ``since``: built once per seat,
        cursor and move, however many times connections ask for it."""
        st = self.state
        # (a concession changes what its seat is asked, not the move)
        key = (
            st.move,
            self.status,
            self.deadline_at,
            self.holds.version,
            self.turns.due,
            len(self.conceded()),
        )
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
        return self.seats.connections()

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
        text = encode(
            {
                "type": "seats",
                "seats": [s.info().model_dump() for s in self.seats],
                "paused": self.paused,
                "abandons": self.abandons,
                "vote": self.votes.public(),
            }
        )
        for conn in self.connections():
            conn.send(text)

    # ------------------------------------------------------------------ connections

    async def attach(self, conn: Peer) -> None:
        """A client identified itself: welcome it and send its current state."""
        self.check_playable()  # a broken table refuses connections
        # read before the client joins, with no wait after it does: it gets each message
        # once, in the history or as it is said
        chat = await self.chatroom.opened()
        self.check_playable()
        back = False
        was_paused = self.paused
        first, taken_over = self.seats.arrive(conn)
        if conn.seat is not None:
            self.empty_since = None
            self.clocks.back(self.seats[conn.seat])
            if was_paused:
                self.clocks.resume()
                back = True
            elif first or taken_over:
                back = self.clocks.arm_deadline()
        welcome: dict[str, Any] = {
            "type": "welcome",
            "seat": conn.seat,
            "table": self.info().model_dump(),
        }
        if conn.seat is not None:
            welcome["prefs"] = self.seats[conn.seat].prefs()
        conn.send(encode(welcome))
        conn.send(encode(self.message_for(conn)))
        conn.send(chat.history(conn))
        if conn.seat is not None:
            self.rematch.send(conn)
            self.send_played_for(conn)
        self.broadcast_seats()
        if back:  # the returning player has a window to answer: everyone sees its deadline
            self.broadcast()
        if was_paused:
            self.bots.kick()

    async def say(self, conn: Peer, text: str | None, phrase: str | None = None) -> None:
        """A seat or a spectator says something (:meth:`.table.chatroom.ChatRoom.say`)."""
        await self.chatroom.say(conn, text, phrase)

    async def report(self, conn: Peer, message: int) -> None:
        """A reader reports a chat message (:meth:`.table.chatroom.ChatRoom.report`)."""
        await self.chatroom.report(conn, message)

    def hide_chat(self, message: int) -> bool:
        """The operator hid a message (:meth:`.table.chatroom.ChatRoom.hide`)."""
        return self.chatroom.hide(message)

    def send_played_for(self, conn: Peer, keep: bool = False) -> None:
        """Tell a person who is back what the takeover bot played in their name (once;
        ``keep``: the caller forgets it after telling each of the seat's connections)."""
        seat = self.seats[conn.seat] if conn.seat is not None else None
        if seat is None or not seat.played_for:
            return
        conn.send(
            encode(
                {
                    "type": "played_for_you",
                    "seat": seat.index,
                    "by": self.settings.takeover,
                    "moves": seat.played_for,
                    **({"deadline": True} if self.turns.turn_based else {}),
                }
            )
        )
        if not keep:
            seat.played_for = []

    def detach(self, conn: Peer) -> None:
        """A client left."""
        emptied = self.seats.leave(conn)
        if emptied is not None:
            if self.status == "playing" and self.seats.nobody():
                self.empty_since = time.time()
            if self.paused:
                self.clocks.pause()
                log.info("table %s: every person has left; the table is paused", self.id)
            else:
                self.clocks.arm_away(emptied)
        self.broadcast_seats()
        if self.status in ("over", "abandoned") and not self.connections():
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
        confirmed: bool = False,
    ) -> None:
        """Apply ``seat``'s action made at ``move``, store it, then tell everyone.
        ProtocolError (and nothing changed) if it cannot be applied. An answer in a
        reaction window or offer that must wait for the window's end waits first
        (:mod:`dragonlair.web.table.windows`). At a table with undo a person's decision is
        held for confirmation instead (:meth:`.table.holds.Holds.hold`); ``confirmed``: a
        held decision whose window ended (played at the committed move, whichever that is
        now)."""
        if (
            by == "player"
            and not confirmed
            and self.holds.applies(seat)
            and await self.holds.hold(seat, move, text, conn, ref)
        ):
            return
        if confirmed:
            move = self.current_move or 0
        await self._wait_for_window(seat, move, text, by)
        async with self.lock:
            began = time.perf_counter()
            self._check_playing()
            st = self.state
            if confirmed:
                move = st.move
            action = self._check_action(seat, move, text, by, st)
            nxt = st.clone()
            try:
                nxt.apply(seat, action)
            except IllegalAction as e:
                raise ProtocolError("illegal_action", str(e)) from None
            result = await self._commit(st, nxt, seat, str(action), by)
            self.decisions.advance(nxt, seat)
            if (
                by in ("bot", "deadline")
                and self.seats[seat].kind == "human"
                and self.seats[seat].conceded is None
            ):
                # played in an away person's name: shown to them when they are back (not
                # after they conceded: the bot plays the seat in its own name then)
                self.seats[seat].played_for.append({"move": st.move, "action": str(action)})
            if result is not None:
                self.status = "over"
                if "conceded" in result:
                    self.final = result
            self.hub.actions += 1
            self._after_change(conn, ref)
            self.hub.timings.action.observe(time.perf_counter() - began)

    async def _wait_for_window(self, seat: int, move: int, text: str, by: str) -> None:
        """Wait for the end of the reaction window or offer ``seat`` answers in, when its
        answer must (:mod:`dragonlair.web.table.windows`); an unknown action does not
        wait, it is refused with the others."""
        if not self.windows.is_open(seat, move) or self.game is None:
            return
        try:
            answer = self.game.parse_action(text)
        except UnknownAction:
            return
        if self.windows.holds(seat, move, answer, by):
            await self.windows.hold(seat, move, by)

    def _check_playing(self) -> None:
        """ProtocolError unless the table is being played (a broken table's state
        refuses next: :attr:`state`)."""
        if self.status == "waiting":
            free = ", ".join(str(s.index) for s in self.seats if s.kind == "open")
            raise ProtocolError("not_started", f"the game starts when seats {free} are taken")
        if self.status == "over":
            raise ProtocolError("game_over", "the game is over; no more actions")
        if self.status == "expired":
            raise ProtocolError("expired", "this table waited too long for players and expired")
        if self.status == "abandoned":
            raise ProtocolError(
                "abandoned", "this table ended as abandoned, without a result: no more actions"
            )

    def _check_action(self, seat: int, move: int, text: str, by: str, st: State) -> Action:
        """The action ``text`` names, if ``seat`` may make it by ``by`` at ``move``, the
        committed state being ``st``: ProtocolError if its person conceded, its person is
        back from a bot's turn, its person holds a decision (an answer given for the seat
        then), the move is no longer its decision, the action is unknown
        or a tutorial does not teach it (whether it is legal is the rules' to say)."""
        if by == "player" and self.seats[seat].conceded is not None:
            raise ProtocolError(
                "conceded",
                f"you conceded this game at move {self.seats[seat].conceded}: a bot "
                "plays your seat to the end",
            )
        if by == "bot" and not self.seats[seat].is_bot:
            raise ProtocolError("stale_move", "the seat's player is back")
        if by != "player" and seat in self.holds:
            # (looked at under the lock: the person may have decided while this answer
            # waited for its window's end or for the lock)
            raise ProtocolError(
                "stale_move", "the seat's person has answered; it waits for confirmation"
            )
        if move != st.move and not self.decisions.current(seat, move, st.move):
            raise ProtocolError("stale_move", self.decisions.why_stale(seat, move, st.move), 409)
        assert self.game is not None
        try:
            action = self.game.parse_action(text)
        except UnknownAction as e:
            raise ProtocolError("unknown_action", str(e)) from None
        if self.tutorial is not None and by == "player":
            why = self.tutorial.refusal(st, seat, str(action))
            if why is not None:
                raise ProtocolError("not_taught", why)
        return action

    async def _commit(
        self, st: State, nxt: State, seat: int, action: str, by: str
    ) -> dict[str, Any] | None:
        """Store ``seat``'s ``action`` that takes ``st`` to ``nxt``, with what follows
        from it (the result and the deal revealed, a turn-based table's deadline, idle end
        and mail), then take ``nxt`` as the table's state; return the result (None while
        the game goes on). ProtocolError ``storage_error`` (nothing changed) if the store
        fails; if this task is cancelled the write still lands, and the table takes
        ``nxt`` when it does."""
        result = nxt.result.to_dict() if nxt.result is not None else None
        if result is not None and self.conceded():
            result = conceding.adjusted(result, self.conceded())
        reveal = (self.seed, self.salt) if result is not None else None
        due = self.turns.after(nxt)
        abandons = self.turns.abandons_after(by) if result is None else None
        asked = (
            self.turns.mail(st, nxt, due[0], seat if by == "deadline" else None)
            if due is not None
            else []
        )
        write = asyncio.wrap_future(
            self.hub.store.append(
                self.id,
                st.move,
                seat,
                action,
                result,
                reveal,
                due,
                abandons=abandons,
                asked=asked,
            )
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
            storage_outage.failed(f"table {self.id}: storing move {st.move}", e)
            raise ProtocolError(
                "storage_error",
                "the server could not store that action, so it was not applied; try again",
                503,
            ) from None
        self._state = nxt
        if due is not None:
            self.turns.due = due[0]
        if abandons is not None:
            self.turns.abandons = abandons
        if any(not quiet for _, quiet, _ in asked):
            self.hub.wake_mail()  # a "your turn" to send
        return result

    async def concede(self, seat: int) -> None:
        """``seat``'s player gives up (:mod:`dragonlair.web.concede`): stored, then everyone
        is told; the game ends when at most one seat is left playing, else a bot plays the
        seat to the end. ProtocolError (and nothing changed) where it cannot."""
        async with self.lock:
            if self.status != "playing":
                code = {"waiting": "not_started", "over": "game_over"}.get(self.status)
                raise ProtocolError(
                    code or "not_playing",
                    f"only a game being played can be conceded; this table is {self.status}",
                )
            s = self.seats[seat]
            if s.conceded is not None:
                raise ProtocolError(
                    "already_conceded", f"you conceded this game at move {s.conceded}"
                )
            move = self.state.move
            conceded = {**self.conceded(), seat: move}
            ends = conceding.ends(self.players, conceded)
            result = conceding.ended(self.players, conceded) if ends else None
            reveal = (self.seed, self.salt) if ends else None

            def done() -> None:
                s.conceded = move
                if result is not None:
                    self.final = result
                    self.status = "over"

            await self.hub.write(
                lambda: self.hub.store.concede(self.id, seat, move, result, reveal), done
            )
            if seat in self.holds:
                self.holds.drop(seat)
            log.info("table %s: seat %d conceded at move %d", self.id, seat, move)
            self.broadcast_seats()
            self._after_change()

    # ------------------------------------------------------------------ ending abandoned

    async def vote_end(self, conn: Peer, agree: bool) -> None:
        """``conn``'s seat proposes to end this turn-based game, agrees, or refuses
        (:mod:`.table.votes`): stored, then everyone is told; when every voter agreed the
        game ends as abandoned. ProtocolError (and nothing changed) where it cannot."""
        async with self.lock:
            vote = self.votes.cast(conn.seat, agree, self.status)
            if vote is not None and "ended" in vote:
                await self._end_abandoned(vote)
                log.info("table %s: its players voted to end it", self.id)
                return

            def done() -> None:
                self.votes.vote = vote

            await self.hub.write(lambda: self.hub.store.set_vote(self.id, vote), done)
            self.broadcast_seats()

    async def idle_timeout(self) -> bool:
        """End this turn-based table as abandoned when no person has moved for long
        (:mod:`.table.votes`); True when it ended."""
        async with self.lock:
            if self.status != "playing" or not self.turns.idle_over():
                return False
            await self._end_abandoned(ended_by_timeout(self.turns.clock()))
            log.info("table %s: nobody moved for long; it ended as abandoned", self.id)
            return True

    async def _end_abandoned(self, how: dict[str, Any]) -> None:
        """Store the table's end as abandoned (no result), then tell everyone."""

        def done() -> None:
            self.votes.vote = how
            self.status = "abandoned"
            self.turns.due = None

        await self.hub.write(lambda: self.hub.store.end_abandoned(self.id, how), done)
        self.holds.drop_all()
        self.broadcast_seats()
        self._after_change()

    # ------------------------------------------------------------------ undo

    async def undo(self, seat: int, move: int, conn: Peer | None = None) -> None:
        """Take back ``seat``'s last decision still held for confirmation
        (:meth:`.table.holds.Holds.undo`)."""
        await self.holds.undo(seat, move, conn)

    async def confirm(self, seat: int, move: int, conn: Peer | None = None) -> None:
        """Confirm ``seat``'s held decisions now (:meth:`.table.holds.Holds.confirm`)."""
        await self.holds.confirm(seat, move)

    async def _play_held(self, seat: int, text: str) -> None:
        """Play a held decision whose window ended, at the committed move."""
        await self.submit(seat, 0, text, confirmed=True)

    # ------------------------------------------------------------------ hints

    async def hint(self, seat: int, move: int, conn: Peer) -> None:
        """Work out a hint for ``seat``'s decision and send it to ``conn`` (see
        :mod:`.table.practice`); ProtocolError where a hint is not allowed."""
        hold = self.holds.get(seat)
        await self.practice.hint(seat, move, conn, None if hold is None else hold.state)

    def _late_commit(self, write: asyncio.Future[None], nxt: State) -> None:
        if not write.cancelled() and write.exception() is None and nxt.move == self.state.move + 1:
            self._state = nxt
            self.decisions.reset(nxt)
            if nxt.is_over:
                self.status = "over"

    def _after_change(self, conn: Peer | None = None, ref: str | int | None = None) -> None:
        if self.status != "playing":
            self.clocks.cancel()
        else:
            self.clocks.changed(self.state)
        self.holds.rebase()
        self.broadcast(conn, ref)
        self.bots.kick()
        if self.status in ("over", "abandoned") and not self.connections():
            self.hub.retire(self)

    def start(self) -> None:
        """Every seat is taken: the game begins (or resumes after a restart)."""
        self.status = "playing"
        self.clocks.fill_banks()
        if self.seats.nobody() and self.empty_since is None:
            self.empty_since = time.time()
        for s in self.seats:
            if not s.conns:
                self.clocks.arm_away(s)
        self._after_change()
        if self.turns.missing() is not None or self.turns.abandons_missing() is not None:
            self._spawn(self._store_due())

    async def _store_due(self) -> None:
        """Store the deadline of a turn-based game's first move (or one not stored yet),
        and when it ends as abandoned if nobody moves."""
        async with self.lock:
            due = self.turns.missing()
            abandons = self.turns.abandons_missing()
            if due is None and abandons is None:
                return
            # a deadline stored now asks its seats: their "your turn" e-mail goes with it
            st = self.current.playing() if due is not None else None
            asked = self.turns.mail(None, st, due) if st is not None and due is not None else []
            due = self.turns.due if due is None else due

            def stored() -> None:
                self.turns.due = due
                if abandons is not None:
                    self.turns.abandons = abandons
                self.broadcast()
                if asked:
                    self.hub.wake_mail()

            try:
                await self.hub.write(
                    lambda: self.hub.store.set_due(self.id, due, abandons, asked), stored
                )
            except ProtocolError as e:  # storage is down: the next start stores it
                log.warning("table %s: its move's deadline could not be stored: %s", self.id, e)

    async def deadline_passed(self) -> int:
        """A turn-based table's move deadline has passed: its takeover bot plays the move
        of each person still asked (once; see :mod:`.table.deadlines`); how many moves."""
        if self.turns.firing:
            return 0
        self.turns.firing = True
        played = 0
        try:
            for seat in self.turns.overdue():
                st = self.current.playing()
                if st is None or seat not in st.to_act or self.turns.takeover is None:
                    continue
                text = await self.bots.decide(st, seat, self.turns.takeover)
                try:
                    await self.submit(seat, st.move, text, by="deadline")
                except ProtocolError as e:
                    log.info("table %s: seat %d's deadline move refused: %s", self.id, seat, e)
                    continue
                played += 1
                log.info("table %s: seat %d's move deadline passed; the bot played", self.id, seat)
                for conn in list(self.seats[seat].conns):
                    self.send_played_for(conn, keep=True)
                if self.seats[seat].conns:
                    self.seats[seat].played_for = []
        finally:
            self.turns.firing = False
        return played

    # ------------------------------------------------------------------ clocks

    async def _answer_for(self, seat: int, move: int, text: str, by: str) -> None:
        await self.submit(seat, move, text, by=by)

    def _bank_changed(self, seat: Seat) -> None:
        """Store what is left of a person's time bank (in the background: the bank in
        memory is what counts while the server runs)."""
        index, bank = seat.index, seat.bank

        async def store() -> None:
            try:
                await self.hub.write(lambda: self.hub.store.set_bank(self.id, index, bank))
            except ProtocolError as e:
                log.warning("table %s: seat %d's time bank was not stored: %s", self.id, index, e)

        self._spawn(store())

    def _taken_over(self, seat: Seat) -> None:
        self.broadcast_seats()
        self.bots.kick()

    def set_prefs(self, seat: int, autoplay: bool | None) -> None:
        """Change a seat's preferences and tell that seat's connections."""
        s = self.seats[seat]
        if autoplay is not None:
            s.autoplay = autoplay
            self.clocks.autoplay_changed(seat)
        text = encode({"type": "prefs", "prefs": s.prefs()})
        for conn in s.conns:
            conn.send(text)

    # ------------------------------------------------------------------ bots

    async def _bot_acts(self, seat: int, move: int, text: str) -> None:
        await self.submit(seat, move, text, by="bot")

    # ------------------------------------------------------------------ housekeeping

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def close(self) -> None:
        """Stop timers and bots (server shutdown); connections are closed by the server."""
        self.clocks.cancel()
        self.holds.drop_all()
        for t in list(self._tasks):
            t.cancel()
