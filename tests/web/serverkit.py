"""Test clients for the server: real WebSocket clients (the ``websockets`` library) that
keep every message they receive, and a deterministic driver that plays a table."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from dragonlair.web import ServerConfig, create_app
from dragonlair.web.serving import uvicorn_config

TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def config(db: str, **kw: Any) -> ServerConfig:
    """Test settings: generous limits and bots in the thread pool, unless a test sets its
    own (``bot_pool="process"`` where the test is about the process pool)."""
    base: dict[str, Any] = {
        "db": db,
        "sqlite_sync": "NORMAL",
        "http_rate": "100000/minute",
        "ws_rate": "100000/second",
        "max_waiting_per_address": 100000,
        "deadline": 30.0,
        "away": None,
        # a window's passes wait this long (short: tests play many of them)
        "window": 0.05,
        # a held decision is confirmed this soon (tests that look at the window set theirs)
        "confirm": 0.05,
        # account passwords: Argon2id at its smallest cost (the server's default is 64 MiB)
        "argon2_memory": 1024,
        "argon2_time": 1,
        # bots in threads: a process pool starts (spawns) its workers with every server
        # and TestClient; the tests of the process pool itself ask for it by name
        "bot_pool": "thread",
    }
    base.update(kw)
    return ServerConfig(**base)


class LiveServer:
    """The app served by uvicorn in a thread, on a loopback port."""

    def __init__(self, cfg: ServerConfig) -> None:
        self.app = create_app(cfg)
        self.port = free_port()
        self.server = uvicorn.Server(
            uvicorn_config(
                self.app,
                cfg,
                "127.0.0.1",
                self.port,
                log_level="warning",
                lifespan="on",
                # no logging.config.dictConfig in the test process: it closes every
                # handler there is, pytest's own among them
                log_config=None,
            )
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        self.http = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"

    @property
    def hub(self) -> Any:
        return self.app.state.hub

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)

    def close(self) -> None:
        """Stop it (it keeps nothing else: its database is the test's)."""
        self.stop()


def create_table(http: str, **body: Any) -> dict[str, Any]:
    """POST /api/tables; the created table, its seat passes and its watch pass."""
    body.setdefault("game", "pebble-auction")
    r = httpx.post(f"{http}/api/tables", json=body, timeout=TIMEOUT)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


class SeatClient:
    """One WebSocket connection to a table (a seat's or a spectator's)."""

    def __init__(self, ws: ClientConnection, seat: int | None) -> None:
        self.ws = ws
        self.seat = seat
        self.messages: list[dict[str, Any]] = []
        self.states: list[dict[str, Any]] = []
        self.arrivals: list[float] = []  # the event loop's clock when each state arrived
        self.errors: list[dict[str, Any]] = []
        self.changed = asyncio.Event()
        self.closed = False
        self.reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(
        cls, ws_base: str, table: str, token: str, seat: int | None, since: int = 0
    ) -> SeatClient:
        # as a browser, wait for the handshake as long as the proxy does (12 s to pass over
        # a hung process), not websockets' 10 s
        ws = await connect(
            f"{ws_base}/ws/tables/{table}", max_size=2**22, compression=None, open_timeout=30
        )
        await ws.send(json.dumps({"type": "hello", "token": token, "since": since}))
        c = cls(ws, seat)
        await c.wait(lambda: bool(c.states), "the first state")
        return c

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                m = json.loads(raw)
                self.messages.append(m)
                if m["type"] == "state":
                    self.states.append(m)
                    self.arrivals.append(asyncio.get_running_loop().time())
                elif m["type"] == "error":
                    self.errors.append(m)
                self.changed.set()
        except Exception:
            pass
        finally:
            self.closed = True
            self.changed.set()

    @property
    def latest(self) -> dict[str, Any]:
        return self.states[-1]

    async def wait_move(self, at_least: int, what: str) -> None:
        """Wait until this connection has seen move ``at_least`` (or a later one)."""
        await self.wait(lambda: self.latest["move"] >= at_least, what)

    async def wait(self, pred: Callable[..., bool], what: str, timeout: float = TIMEOUT) -> None:
        """Wait until ``pred()`` holds (fails the test after ``timeout`` seconds); ``pred``
        may bind loop variables as defaults (``lambda c=c: ...``)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not pred():
            if self.closed:
                raise AssertionError(f"connection closed while waiting for {what}")
            self.changed.clear()
            left = end - loop.time()
            if left <= 0:
                raise AssertionError(f"timed out waiting for {what}")
            # wake now and then too: a predicate may look at other connections
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.05))

    async def send(self, msg: dict[str, Any] | str) -> None:
        await self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    async def act(self, move: int, action: str, **extra: Any) -> None:
        await self.send({"type": "act", "move": move, "action": action, **extra})

    async def settle(self) -> None:
        """Wait until the server has answered everything this connection sent before: a
        connection's messages are handled in order, so once the ``pong`` to a ``ping`` sent
        now has arrived, every reply to an earlier message (a refusal, a state) has too."""
        pongs = sum(1 for m in self.messages if m["type"] == "pong")
        await self.send({"type": "ping"})
        await self.wait(
            lambda: sum(1 for m in self.messages if m["type"] == "pong") > pongs, "the pong"
        )

    async def next_error(self, count_before: int) -> dict[str, Any]:
        await self.wait(lambda: len(self.errors) > count_before, "an error message")
        return self.errors[count_before]

    async def close(self) -> None:
        await self.ws.close()
        await self.reader


async def open_all(ws_base: str, created: dict[str, Any]) -> dict[int, SeatClient]:
    """A connection for every seat the creator holds a token for."""
    table = created["table"]["id"]
    out = {}
    for p in created["seats"]:
        out[p["seat"]] = await SeatClient.open(ws_base, table, p["token"], p["seat"])
    return out


async def drive(
    clients: dict[int, SeatClient],
    rng: random.Random,
    stop_after: int | None = None,
    auto: set[int] = frozenset(),  # type: ignore[assignment]
    undo: random.Random | None = None,
) -> dict[str, Any]:
    """Play the people's seats with random legal actions until the game ends (or reaches
    move ``stop_after``). Deterministic: it waits for bots to move and then always acts for
    the lowest seat asked, so a seeded table always gets the same actions in the same order.
    Seats in ``auto`` never answer when they have a single legal action: the server
    answers for them (their ``autoplay`` preference). With ``undo``, a decision held for
    confirmation is sometimes taken back (the seat then decides again). At a table that
    confirms at the end of a turn, a seat's held decisions are confirmed once its own game
    asks another seat, or asks it nothing until they are. The latest state seen."""
    people = set(clients)
    any_client = next(iter(clients.values()))
    while True:
        st = max((c.latest for c in clients.values()), key=lambda m: m["move"])
        if st["status"] == "over" or (stop_after is not None and st["move"] >= stop_after):
            return st
        to_act = st["view"]["to_act"]
        if not to_act or any(s not in people for s in to_act):
            holder = next((c for c in clients.values() if "held" in c.latest), None)
            if holder is not None:  # nobody else is told until its window ends
                await _confirm_turn(holder)
                continue
            move = st["move"]
            await any_client.wait_move(move + 1, "a bot's move")
            continue
        seat = min(to_act)
        holder = next((c for c in clients.values() if "held" in c.latest), None)
        if holder is not None and (holder.seat != seat or holder.latest["held"]["waiting"]):
            await _confirm_turn(holder)  # its turn ended, or it waits to see what it drew
            continue
        c = clients[seat]
        move = st["move"]
        await c.wait_move(move, "the current state")
        mine = c.latest
        if seat in auto and len(mine["legal"]) == 1 and mine["move"] == move:
            await c.wait(lambda c=c, m=move: c.latest["move"] > m, "the server's answer")
            continue
        assert mine["move"] == move and mine["legal"], mine
        legal = mine["legal"]
        # a forced answer draws nothing from rng, typed or not, so runs stay comparable
        await c.act(move, legal[0] if len(legal) == 1 else rng.choice(legal))
        # (a decision that would show its seat something is held unseen, at the same move)
        await c.wait(
            lambda c=c, m=move: (
                c.latest["move"] > m
                or ("held" in c.latest and c.latest["held"]["waiting"] is not None)
            ),
            "the update after acting",
        )
        if undo is not None and "held" in c.latest and undo.random() < 0.3:
            # a held decision taken back (if its window has not ended yet) and made again
            await c.send({"type": "undo", "move": c.latest["move"]})
            await c.settle()


async def _confirm_turn(holder: SeatClient) -> None:
    """Wait until ``holder``'s held decisions are played: at the end of their window, or,
    at a table that confirms at the end of a turn, when it confirms them now."""
    if holder.latest["held"].get("turn"):
        await holder.send({"type": "confirm", "move": holder.latest["move"]})
    await holder.wait(lambda: "held" not in holder.latest, "the confirmation")
