"""One WebSocket client: its outgoing queue and sender task, and the conversation.

:func:`converse` is the whole life of a connection after the lobby route accepted it:
the ``hello`` (who it is), attaching it to its table, then reading its messages (actions,
``sync``, ``ping``) until it closes. Every connection has its own outgoing queue drained
by its own sender task (:meth:`Connection.pump`), so a slow client never holds up a table,
and one that lets too many messages pile up is disconnected.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import MutableMapping
from typing import Any, Protocol

from starlette.websockets import WebSocket

from .config import ServerConfig
from .metrics import ACTION_REPLY_SECONDS, WS_CLOSED, WS_IN, WS_OPENED, WS_OUT, WS_REFUSED
from .protocol import (
    Act,
    AnyClientMessage,
    Concede,
    Confirm,
    EndVote,
    Hello,
    Hint,
    Ping,
    Prefs,
    ProtocolError,
    Rematch,
    Rename,
    Report,
    Rotate,
    Say,
    Undo,
    encode,
    parse_client,
)
from .security import RateLimiter, TokenBucket

Message = MutableMapping[str, Any]


class Door(Protocol):
    """A table as a connection uses it (:class:`dragonlair.web.session.Table`): every
    message a client may send is one call, and a refusal is a ProtocolError."""

    def check_playable(self) -> None: ...

    @property
    def current_move(self) -> int | None: ...

    def identify(self, token: str) -> int | None: ...

    def seat_account(self, seat: int) -> str | None: ...

    def admit_spectator(self) -> None: ...

    def check_room(self, seat: int | None) -> None: ...

    async def attach(self, conn: Connection) -> None: ...

    def detach(self, conn: Connection) -> None: ...

    async def submit(
        self,
        seat: int,
        move: int,
        text: str,
        *,
        by: str = "player",
        conn: Connection | None = None,
        ref: str | int | None = None,
    ) -> None: ...

    async def hint(self, seat: int, move: int, conn: Connection) -> None: ...

    async def undo(self, seat: int, move: int, conn: Connection | None = None) -> None: ...

    async def confirm(self, seat: int, move: int, conn: Connection | None = None) -> None: ...

    def set_prefs(self, seat: int, autoplay: bool | None) -> None: ...

    async def rename(self, seat: int, name: str) -> None: ...

    async def ask_rematch(self, seat: int) -> None: ...

    async def concede(self, seat: int) -> None: ...

    async def vote_end(self, conn: Connection, agree: bool) -> None: ...

    async def rotate(self, conn: Connection) -> None: ...

    async def say(self, conn: Connection, text: str | None, phrase: str | None = None) -> None: ...

    async def report(self, conn: Connection, message: int) -> None: ...

    def sync_text(self, conn: Connection, since: int) -> str: ...


class SignedIn(Protocol):
    """A signed-in session (:class:`dragonlair.web.accounts.Session`)."""

    account_id: str
    conns: set[Any]

    def live(self) -> bool: ...


class Tables(Protocol):
    """Where a connection finds its table (the lobby's :class:`~dragonlair.web.lobby.Hub`)."""

    async def get(self, table_id: str, /) -> Door: ...


class Connection:
    """One WebSocket client: its seat (None: a spectator), queue and event cursor.

    The outgoing queue is bounded both in messages (``max_queue``) and in bytes
    (``max_bytes``): a client that lets more pile up unread is disconnected (1008)."""

    def __init__(
        self,
        ws: WebSocket | None,
        seat: int | None,
        cursor: int,
        max_queue: int,
        max_bytes: int = 1 << 20,
    ):
        self.ws = ws
        self.seat = seat
        self.cursor = cursor
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.max_queue = max_queue
        self.max_bytes = max_bytes
        self.queued_bytes = 0
        self.close_code = 1000
        self.closing = False
        self.strikes = 0
        self.bucket: TokenBucket | None = None
        self.heard = time.monotonic()  # when its last message arrived
        # the session a seat that belongs to an account is played under: checked on
        # every message, so a signed-out session plays no more
        self.session: SignedIn | None = None

    def send(self, text: str) -> None:
        """Queue a message; a client that lets too many pile up is disconnected."""
        if self.closing:
            return
        if self.queue.qsize() >= self.max_queue or self.queued_bytes + len(text) > self.max_bytes:
            self.close(1008)
            return
        self.queued_bytes += len(text)
        self.queue.put_nowait(text)
        WS_OUT.inc()

    def close(self, code: int = 1000) -> None:
        """Close after the messages already queued."""
        if not self.closing:
            self.closing = True
            self.close_code = code
            self.queue.put_nowait(None)

    async def pump(self) -> None:
        """Send queued messages in order until closed (the connection's sender task)."""
        ws = self.ws
        assert ws is not None
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    await ws.close(self.close_code)
                    return
                await ws.send_text(text)
                self.queued_bytes -= len(text)
        except Exception:  # the client went away; the receiving side notices too
            self.closing = True


SIGNED_OUT = ProtocolError(
    "signed_out", "you signed out (here or everywhere): sign in again to play this seat", 401
)

# A sync is charged one message, plus one more for every this many bytes it sends.
SYNC_BYTES_PER_TOKEN = 4096


class Slot:
    """One open WebSocket as :class:`Limits` counts it: its address, and its connection
    once it said hello (None before)."""

    __slots__ = ("address", "conn", "evicted")

    def __init__(self, address: str) -> None:
        self.address = address
        self.conn: Connection | None = None
        self.evicted = False


# Close codes of the limits: 1008 (policy: a per-address cap or rate), 1013 (try again
# later: the server is full, or this connection made room for a lighter address), 4408
# (silent longer than the idle time-out).
FULL = 1013
IDLE = 4408


class Limits:
    """The server's limits on clients: rate limiters (per connection for messages, per
    address for lobby requests and connection attempts), and the open WebSockets, counted
    per address (``max_connections_per_address``) and for the whole process
    (``max_websockets``).

    The global cap sits below uvicorn's ``limit_concurrency``, so WebSockets can never
    take the places lobby requests need. At the cap, a newcomer from an address holding
    fewer connections than the heaviest address less one takes the place of that
    address's longest-silent connection (closed with 1013, after its hello: a connection
    still saying hello is bounded by ``hello_timeout``); otherwise it is refused with 1013.
    So idle sockets from many addresses cannot shut out players from others: to keep a
    newcomer out, every address must hold about as few connections as the newcomer's.
    A connection that sends nothing for ``ws_idle_timeout`` is closed with 4408 (a
    sweep every few seconds, nothing on the message path)."""

    def __init__(self, config: ServerConfig) -> None:
        from .serving import concurrency  # uvicorn's cap, after the file limit

        self.ws = RateLimiter(config.ws_rate)
        self.http = RateLimiter(config.http_rate)
        self.per_address = config.max_connections_per_address
        room = concurrency(config)
        cap = config.max_websockets if config.max_websockets is not None else room * 3 // 4
        self.cap = max(1, min(cap, room - 1))
        self.idle = config.ws_idle_timeout
        self.open: dict[str, list[Slot]] = {}
        self.total = 0
        self.evicting = 0
        self._sweeper: asyncio.TimerHandle | None = None

    def admit(self, address: str) -> Slot | tuple[ProtocolError, int]:
        """Count a new connection from ``address``: its slot, or (not counted) the refusal
        and its close code."""
        mine = self.open.get(address)
        held = sum(1 for s in mine if not s.evicted) if mine is not None else 0
        if held >= self.per_address:
            return ProtocolError(
                "too_many_connections",
                f"at most {self.per_address} open connections per client address",
            ), 1008
        if self.total - self.evicting >= self.cap:
            victim = self._victim(held)
            if victim is None:
                return ProtocolError(
                    "server_full",
                    f"the server holds the most connections it serves ({self.cap}); "
                    "try again shortly",
                ), FULL
            self._evict(victim)
        slot = Slot(address)
        if mine is None:
            mine = self.open[address] = []
        mine.append(slot)
        self.total += 1
        if self._sweeper is None and self.idle > 0:
            self._arm()
        return slot

    def release(self, slot: Slot) -> None:
        """A connection closed."""
        mine = self.open.get(slot.address)
        if mine is None or slot not in mine:
            return
        mine.remove(slot)
        if not mine:
            del self.open[slot.address]
        self.total -= 1
        if slot.evicted:
            self.evicting -= 1
        if self.total == 0 and self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None

    def _victim(self, held: int) -> Slot | None:
        """The connection to close for a newcomer from an address holding ``held``: the
        longest-silent one, after its hello, of the address holding the most (None when
        no address holds at least two more than the newcomer's)."""
        heaviest, most = None, held + 1
        for slots in self.open.values():
            live = [s for s in slots if not s.evicted and s.conn is not None]
            if len(live) > most:
                heaviest, most = live, len(live)
        if heaviest is None:
            return None
        return min(heaviest, key=lambda s: s.conn.heard if s.conn is not None else 0.0)

    def _evict(self, slot: Slot) -> None:
        slot.evicted = True
        self.evicting += 1
        if slot.conn is not None:
            slot.conn.send(
                encode(
                    ProtocolError(
                        "server_full",
                        "the server is full and this address holds the most connections: "
                        "this one made room for another client",
                    ).to_message()
                )
            )
            slot.conn.close(FULL)

    def _arm(self) -> None:
        every = min(5.0, max(0.05, self.idle / 4))
        self._sweeper = asyncio.get_running_loop().call_later(every, self._sweep)

    def _sweep(self) -> None:
        """Close the connections silent for longer than the idle time-out."""
        self._sweeper = None
        stale = time.monotonic() - self.idle
        for slots in self.open.values():
            for slot in slots:
                conn = slot.conn
                if conn is not None and not conn.closing and conn.heard < stale:
                    conn.send(
                        encode(
                            ProtocolError(
                                "idle",
                                f"nothing received for {self.idle:g} s: closed "
                                '(send {"type": "ping"} to keep a connection open)',
                            ).to_message()
                        )
                    )
                    conn.close(IDLE)
        if self.total > 0:
            self._arm()


async def converse(
    ws: WebSocket,
    table_id: str,
    hub: Tables,
    config: ServerConfig,
    limits: Limits,
    session: SignedIn | None = None,
) -> None:
    """One seat's (or spectator's) connection: hello, then actions until it closes;
    ``session``: who the connection's cookie signs in."""
    await ws.accept()
    WS_OPENED.inc()
    client = ws.client.host if ws.client else "?"
    if not limits.http.allow(f"ip:{client}"):
        await _refuse(ws, ProtocolError("rate_limited", "too many connections"), 1008)
        return
    slot = limits.admit(client)
    if isinstance(slot, tuple):
        await _refuse(ws, *slot)
        return
    try:
        await _converse(ws, table_id, hub, config, limits, slot, session)
    finally:
        limits.release(slot)


async def _converse(
    ws: WebSocket,
    table_id: str,
    hub: Tables,
    config: ServerConfig,
    limits: Limits,
    slot: Slot,
    session: SignedIn | None = None,
) -> None:
    try:
        first = await asyncio.wait_for(ws.receive(), config.hello_timeout)
    except TimeoutError:
        await _refuse(ws, ProtocolError("hello_required", "send hello first"), 4400)
        return
    if first["type"] == "websocket.disconnect":
        return
    try:
        hello = _hello(first, config.max_message_bytes)
        table = await hub.get(table_id)
        seat, owner = _identify(table, hello, session)
    except ProtocolError as e:
        code = {
            "not_found": 4404,
            "unauthorized": 4401,
            "sign_in_required": 4401,
            "broken": 4409,
        }.get(e.code, 4400)
        await _refuse(ws, e, code)
        return
    conn = Connection(ws, seat, hello.since, config.max_queue, config.max_queue_bytes)
    conn.bucket = limits.ws.bucket()
    slot.conn = conn
    if owner is not None and session is not None:
        conn.session = session
        session.conns.add(conn)
    sender = asyncio.get_running_loop().create_task(conn.pump())
    await table.attach(conn)
    code = 1006
    try:
        code = await _serve(ws, table, conn, limits.ws, config.max_message_bytes)
    finally:
        WS_CLOSED.labels(str(code)).inc()
        if conn.session is not None:
            conn.session.conns.discard(conn)
        table.detach(conn)
        conn.close()
        try:
            await asyncio.wait_for(sender, 5)
        except (TimeoutError, asyncio.CancelledError):
            sender.cancel()


def _identify(table: Door, hello: Hello, session: SignedIn | None) -> tuple[int | None, str | None]:
    """Who a hello says the connection is: its seat (None: a spectator) and the account
    the seat belongs to (None: a guest's seat or a spectator). ProtocolError when the
    table is broken, the token or seat is not theirs, or there is no room for them."""
    table.check_playable()  # a broken table refuses, whoever asks
    owner: str | None = None
    seat: int | None
    if hello.token is not None:
        seat = table.identify(hello.token)
        owner = None if seat is None else table.seat_account(seat)
        if owner is not None and (
            session is None or not session.live() or session.account_id != owner
        ):
            raise ProtocolError(
                "sign_in_required",
                "this seat belongs to an account: sign in as its player to play it",
                401,
            )
    elif hello.seat is not None:
        seat, owner = _own_seat(table, hello.seat, session)
    else:
        table.admit_spectator()
        seat = None
    table.check_room(seat)
    return seat, owner


def _own_seat(table: Door, seat: int, session: SignedIn | None) -> tuple[int, str]:
    """A seat asked for by number (no token): only one of the signed-in account's own."""
    if session is None or not session.live():
        raise ProtocolError(
            "sign_in_required", "sign in to play a seat of your account without its link", 401
        )
    try:
        owner = table.seat_account(seat)
    except IndexError:
        owner = None
    if owner != session.account_id:
        raise ProtocolError(
            "unauthorized", f"seat {seat} of this table is not one of your account's", 401
        )
    return seat, session.account_id


def _hello(first: Message, max_bytes: int) -> Hello:
    text = first.get("text")
    if text is None:
        raise ProtocolError("bad_message", "send JSON text frames, not binary ones")
    if len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise ProtocolError("too_large", f"messages are at most {max_bytes} bytes")
    msg = parse_client(text)
    if not isinstance(msg, Hello):
        raise ProtocolError(
            "hello_required", 'the first message must be {"type": "hello", "token": ...}'
        )
    return msg


async def _refuse(ws: WebSocket, e: ProtocolError, code: int) -> None:
    WS_REFUSED.labels(str(code)).inc()
    try:
        await ws.send_text(encode(e.to_message()))
        await ws.close(code)
    except Exception:
        pass


async def _serve(
    ws: WebSocket, table: Door, conn: Connection, limiter: RateLimiter, max_bytes: int
) -> int:
    """Read a connection's messages until it closes; the close code. Each message is
    counted, checked against the session and the rate, read (:func:`_read`) and handed to
    the table (:func:`_dispatch`); a refusal is sent back and the connection goes on."""
    while not conn.closing:
        m = await ws.receive()
        if m["type"] == "websocket.disconnect":
            # closed by the server (a limit, idle, evicted): its code, not the echo
            return conn.close_code if conn.closing else int(m.get("code") or 1005)
        WS_IN.inc()
        conn.heard = time.monotonic()
        received = time.perf_counter()
        if conn.session is not None and not conn.session.live():
            conn.send(encode(SIGNED_OUT.to_message()))
            conn.close(4401)
            return 4401
        try:
            if conn.bucket is not None and not conn.bucket.allow():
                conn.strikes += 1
                if conn.strikes > 100:
                    conn.close(1008)
                    return 1008
                raise ProtocolError(
                    "rate_limited",
                    f"too many messages: at most {limiter.describe()}; this one was ignored",
                )
            await _dispatch(table, conn, _read(m, max_bytes), received)
        except ProtocolError as e:
            conn.send(encode(e.to_message(table.current_move)))
    return conn.close_code


def _read(m: Message, max_bytes: int) -> AnyClientMessage:
    """A received frame as a client message (ProtocolError: not JSON text, too large, or
    not a message)."""
    text = m.get("text")
    if text is None:
        raise ProtocolError("bad_message", "send JSON text frames, not binary ones")
    if len(text) > max_bytes // 4 and len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise ProtocolError("too_large", f"messages are at most {max_bytes} bytes")
    return parse_client(text)


def _seat(conn: Connection, refusal: str, asked: int | None = None, doing: str = "") -> int:
    """The seat a message is for: the connection's own (ProtocolError ``spectator`` with
    ``refusal`` for a spectator, ``wrong_seat`` when the message names another seat for
    ``doing``)."""
    if conn.seat is None:
        raise ProtocolError("spectator", refusal)
    if asked is not None and asked != conn.seat:
        raise ProtocolError(
            "wrong_seat",
            f"this connection plays seat {conn.seat}; it cannot {doing} for seat {asked}",
        )
    return conn.seat


async def _dispatch(table: Door, conn: Connection, msg: AnyClientMessage, received: float) -> None:
    """One client message, handed to its table (a refusal is a ProtocolError);
    ``received``: when it arrived (perf_counter), for the time to answer an action."""
    if isinstance(msg, Act):
        seat = _seat(conn, "spectators watch; they cannot act", msg.seat, "act")
        try:
            await table.submit(seat, msg.move, msg.action, conn=conn, ref=msg.ref)
        finally:  # answered: the update with its ref, or the refusal queued by the caller
            ACTION_REPLY_SECONDS.observe(time.perf_counter() - received)
    elif isinstance(msg, Hint | Undo | Confirm):
        seat = _seat(conn, "spectators watch; they have no decision")
        if isinstance(msg, Hint):
            await table.hint(seat, msg.move, conn)
        elif isinstance(msg, Undo):
            await table.undo(seat, msg.move, conn)
        else:
            await table.confirm(seat, msg.move, conn)
    elif isinstance(msg, Concede):
        await table.concede(
            _seat(conn, "spectators watch; they cannot concede", msg.seat, "concede")
        )
    elif isinstance(msg, EndVote):
        await table.vote_end(conn, msg.agree)
    elif isinstance(msg, Ping):
        conn.send('{"type":"pong"}')
    elif isinstance(msg, Prefs | Rename | Rematch):
        seat = _seat(conn, "spectators have no seat to set up")
        if isinstance(msg, Prefs):
            table.set_prefs(seat, msg.prefs.autoplay)
        elif isinstance(msg, Rename):
            await table.rename(seat, msg.name)
        else:
            await table.ask_rematch(seat)
    elif isinstance(msg, Hello):
        raise ProtocolError("already_identified", "this connection already said hello")
    elif isinstance(msg, Rotate):
        await table.rotate(conn)
    elif isinstance(msg, Say):
        await table.say(conn, msg.text, msg.phrase)
    elif isinstance(msg, Report):
        await table.report(conn, msg.id)
    else:
        text = table.sync_text(conn, msg.since)
        if conn.bucket is not None:
            conn.bucket.charge(len(text) / SYNC_BYTES_PER_TOKEN)
        conn.send(text)
