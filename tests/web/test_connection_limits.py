"""Open WebSockets held from many addresses: the global cap below uvicorn's
``limit_concurrency`` (the lobby keeps its room), a newcomer taking the place of the
heaviest address's idle connection, refusals with clear close codes counted in /metrics,
and idle connections closed. The attackers connect from many loopback addresses
(127.0.0.N), as many machines would."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.web.serverkit import TIMEOUT, LiveServer, config, create_table

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def serve(sqlite_url: str) -> Iterator[Callable[..., LiveServer]]:
    started: list[LiveServer] = []

    def start(**settings: Any) -> LiveServer:
        started.append(LiveServer(config(sqlite_url, **settings)))
        return started[-1]

    try:
        yield start
    finally:
        for s in started:
            s.stop()


class Watcher:
    """A spectator's connection from a chosen loopback address, after its hello."""

    def __init__(self, ws: ClientConnection, address: str) -> None:
        self.ws = ws
        self.address = address
        self.messages: list[dict[str, Any]] = []
        self.reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, server: LiveServer, tid: str, token: str, address: str) -> Watcher:
        ws = await connect(
            f"{server.ws}/ws/tables/{tid}", local_addr=(address, 0), open_timeout=TIMEOUT
        )
        with contextlib.suppress(ConnectionClosed):  # refused at once: the reader sees why
            await ws.send(json.dumps({"type": "hello", "token": token, "since": 0}))
        w = cls(ws, address)
        await w.until(lambda: any(m["type"] in ("state", "error") for m in w.messages))
        return w

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                self.messages.append(json.loads(raw))
        except Exception:
            pass

    async def until(self, pred: Callable[[], bool]) -> None:
        async with asyncio.timeout(TIMEOUT):
            while not pred():
                await asyncio.sleep(0.02)

    def errors(self) -> list[str]:
        return [m["code"] for m in self.messages if m["type"] == "error"]

    async def closed(self) -> int | None:
        """Wait for the server to close the connection; its close code."""
        async with asyncio.timeout(TIMEOUT):
            await self.reader
        return self.ws.close_code

    @property
    def is_open(self) -> bool:
        return not self.reader.done()

    async def close(self) -> None:
        await self.ws.close()
        await self.reader


def counter(server: LiveServer, name: str, code: str) -> float:
    text = httpx.get(f"{server.http}/metrics", timeout=TIMEOUT).text
    m = re.search(rf'^{name}\{{code="{code}"\}} (\S+)$', text, re.M)
    return float(m.group(1)) if m else 0.0


def wait_counter(server: LiveServer, name: str, code: str, before: float, grew: float) -> None:
    """Wait until a counter has grown by ``grew`` since it read ``before`` (the server
    counts a close once it has seen the client's answer), and check it went no further.
    The figures are the test process's, shared by every server it ran."""
    end = time.monotonic() + TIMEOUT
    while counter(server, name, code) < before + grew and time.monotonic() < end:
        time.sleep(0.05)
    assert counter(server, name, code) == before + grew


def watch_table(server: LiveServer) -> tuple[str, str]:
    created = create_table(server.http, players=2, seats=[{"type": "human"}] * 2)
    return created["table"]["id"], created["watch"]["token"]


def test_idle_sockets_from_many_addresses_leave_the_lobby_its_room(
    serve: Callable[..., LiveServer],
) -> None:
    # uvicorn serves 40 connections at once; 17 addresses try to hold 4 sockets each (68):
    # without a WebSocket cap below 40, every lobby request would get 503
    server = serve(limit_concurrency=40, max_connections_per_address=4)
    tid, watch = watch_table(server)
    cap = server.app.state.limits.cap
    assert cap == 30

    async def main() -> None:
        held: list[Watcher] = []
        for n in range(17):
            for _ in range(4):
                w = await Watcher.open(server, tid, watch, f"127.0.0.{n + 2}")
                held.append(w)
        live = [w for w in held if w.is_open and "server_full" not in w.errors()]
        assert len(live) <= cap
        refused = [w for w in held if "server_full" in w.errors()]
        assert refused
        for w in refused:
            assert await w.closed() == 1013
        async with httpx.AsyncClient() as c:  # the lobby answers a newcomer
            for _ in range(5):
                r = await c.get(f"{server.http}/api/tables", timeout=TIMEOUT)
                assert r.status_code == 200
        for w in held:
            await w.close()

    before = counter(server, "dragonlair_ws_refused_total", "1013")
    asyncio.run(main())
    assert counter(server, "dragonlair_ws_refused_total", "1013") > before


def test_a_newcomer_takes_the_place_of_the_heaviest_address_idle_connection(
    serve: Callable[..., LiveServer],
) -> None:
    server = serve(max_websockets=6, max_connections_per_address=4)
    tid, watch = watch_table(server)
    closed = counter(server, "dragonlair_ws_closed_total", "1013")
    refused = counter(server, "dragonlair_ws_refused_total", "1013")

    async def main() -> None:
        # one address holds 4, another 2: the server is full
        heavy = [await Watcher.open(server, tid, watch, "127.0.0.2") for _ in range(4)]
        light = [await Watcher.open(server, tid, watch, "127.0.0.3") for _ in range(2)]
        for w in heavy[1:]:  # all but the first of the heavy address's are active
            await w.ws.send('{"type": "ping"}')
        await asyncio.sleep(0.05)
        newcomer = await Watcher.open(server, tid, watch, "127.0.0.4")
        assert newcomer.errors() == [] and newcomer.is_open
        # the heavy address's longest-silent connection made room, with a clear reason
        assert await heavy[0].closed() == 1013 and heavy[0].errors() == ["server_full"]
        assert all(w.is_open for w in heavy[1:] + light)
        # the heavy address (3 now) cannot push out the light one (2) or the newcomer (1)
        again = await Watcher.open(server, tid, watch, "127.0.0.2")
        assert again.errors() == ["server_full"] and await again.closed() == 1013
        assert all(w.is_open for w in heavy[1:] + light + [newcomer])
        # a fourth address takes the place of the heavy address's next connection
        light.append(await Watcher.open(server, tid, watch, "127.0.0.5"))
        assert light[-1].is_open
        assert sum(w.is_open for w in heavy) == 2
        # and two more, of the two addresses holding two each
        light.append(await Watcher.open(server, tid, watch, "127.0.0.6"))
        light.append(await Watcher.open(server, tid, watch, "127.0.0.7"))
        assert sum(w.is_open for w in heavy) == 1 and sum(w.is_open for w in light) == 4
        # now six addresses hold one each: nobody holds two more than a newcomer
        late = await Watcher.open(server, tid, watch, "127.0.0.8")
        assert late.errors() == ["server_full"] and await late.closed() == 1013
        assert newcomer.is_open
        for w in heavy + light + [newcomer]:
            await w.close()

    asyncio.run(main())
    wait_counter(server, "dragonlair_ws_closed_total", "1013", closed, 4)
    wait_counter(server, "dragonlair_ws_refused_total", "1013", refused, 2)


def test_an_address_is_capped_whatever_the_room(serve: Callable[..., LiveServer]) -> None:
    server = serve(max_connections_per_address=2)
    tid, watch = watch_table(server)
    refused = counter(server, "dragonlair_ws_refused_total", "1008")

    async def main() -> None:
        mine = [await Watcher.open(server, tid, watch, "127.0.0.7") for _ in range(2)]
        extra = await Watcher.open(server, tid, watch, "127.0.0.7")
        assert extra.errors() == ["too_many_connections"] and await extra.closed() == 1008
        other = await Watcher.open(server, tid, watch, "127.0.0.8")  # another address
        assert other.errors() == [] and other.is_open
        for w in [*mine, other]:
            await w.close()

    asyncio.run(main())
    wait_counter(server, "dragonlair_ws_refused_total", "1008", refused, 1)


def test_silent_connections_are_closed_and_talking_ones_kept(
    serve: Callable[..., LiveServer],
) -> None:
    server = serve(ws_idle_timeout=0.6)
    tid, watch = watch_table(server)
    idle = counter(server, "dragonlair_ws_closed_total", "4408")

    async def main() -> None:
        silent = await Watcher.open(server, tid, watch, "127.0.0.9")
        talking = await Watcher.open(server, tid, watch, "127.0.0.10")
        loop = asyncio.get_running_loop()
        end = loop.time() + 2.0
        while loop.time() < end:  # pings every 0.2 s over three idle periods
            await talking.ws.send('{"type": "ping"}')
            await asyncio.sleep(0.2)
        assert await silent.closed() == 4408
        assert silent.errors() == ["idle"]
        assert talking.is_open and talking.errors() == []
        await talking.close()
        # the slots are given back: the address holds nothing now
        limits = server.app.state.limits
        async with asyncio.timeout(TIMEOUT):
            while limits.total:
                await asyncio.sleep(0.02)
        assert limits.open == {}

    asyncio.run(main())
    wait_counter(server, "dragonlair_ws_closed_total", "4408", idle, 1)


def test_one_tables_crowd_is_capped_per_seat_and_for_spectators(
    serve: Callable[..., LiveServer],
) -> None:
    # the per-address cap is far above the table's: one client alone meets the table's
    server = serve(max_connections_per_seat=2, max_spectators=3)
    created = create_table(server.http, players=2, seats=[{"type": "human"}] * 2)
    tid, watch = created["table"]["id"], created["watch"]["token"]
    seat = created["seats"][0]["token"]

    async def main() -> None:
        watchers = [await Watcher.open(server, tid, watch, "127.0.0.2") for _ in range(4)]
        assert [w.errors() for w in watchers[:3]] == [[], [], []]
        assert watchers[3].errors() == ["table_full"]
        assert await watchers[3].closed() is not None
        seats = [await Watcher.open(server, tid, seat, "127.0.0.3") for _ in range(3)]
        assert [w.errors() for w in seats[:2]] == [[], []]
        assert seats[2].errors() == ["table_full"]
        # the other seat and a place given back are unaffected
        other = await Watcher.open(server, tid, created["seats"][1]["token"], "127.0.0.3")
        assert other.errors() == []
        await watchers[0].close()
        await asyncio.sleep(0.2)
        again = await Watcher.open(server, tid, watch, "127.0.0.4")
        assert again.errors() == []
        for w in [*watchers[1:3], *seats[:2], other, again]:
            await w.close()

    asyncio.run(main())
