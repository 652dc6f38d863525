"""Bounded bots and bounded resources per client: budgets within the operator's bounds,
decisions cut at the wall-clock limit, outgoing queues bounded in bytes, syncs charged by
their cost, connections capped per address, idle and half-sent requests closed, waiting
tables expiring, the listing paginated."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.asyncio.client import connect

import dragonlair
from dragonlair.web import create_app
from dragonlair.web.connection import Connection
from dragonlair.web.security import Sealer, digest
from dragonlair.web.store import Store, StoredSeat, StoredTable
from tests.web.serverkit import TIMEOUT, LiveServer, SeatClient, config, create_table

RANDOM = [{"type": "bot", "level": "random"}] * 2


@pytest.fixture
def serve(sqlite_url: str) -> Iterator[Callable[..., LiveServer]]:
    """Start a real server with some settings (stopped after the test)."""
    started: list[LiveServer] = []

    def start(**settings: Any) -> LiveServer:
        started.append(LiveServer(config(sqlite_url, **settings)))
        return started[-1]

    try:
        yield start
    finally:
        for s in started:
            s.stop()


def wait_over(http: str, tid: str) -> dict[str, Any]:
    end = time.monotonic() + TIMEOUT
    while time.monotonic() < end:
        info: dict[str, Any] = httpx.get(f"{http}/api/tables/{tid}").json()
        if info["status"] == "over":
            return info
        time.sleep(0.05)
    raise AssertionError(f"table {tid} did not finish")


# ---------------------------------------------------------------------------- bots


def test_budgets_beyond_the_bounds_are_refused(sqlite_url: str) -> None:
    cfg = config(sqlite_url, bot_max_iterations=1000, bot_max_seconds=2)
    with TestClient(create_app(cfg)) as c:
        for budget in ({"iterations": 10**15}, {"time": 3600}, {"iterations": 1001}):
            seats = [{"type": "bot", "level": "ismcts", "budget": budget}] * 2
            r = c.post("/api/tables", json={"game": "pebble-auction", "players": 2, "seats": seats})
            err = r.json()["error"]
            assert r.status_code == 400 and err["code"] == "bad_budget", budget
            assert "1000 iterations" in err["message"] and "2 seconds" in err["message"]
        seats = [{"type": "bot", "level": "ismcts", "budget": {"iterations": 1000}}] * 2
        r = c.post("/api/tables", json={"game": "pebble-auction", "players": 2, "seats": seats})
        assert r.status_code == 201
        assert c.get("/status").json()["tables"] == 1


@pytest.mark.slow
def test_other_tables_bots_keep_moving_while_the_greediest_tables_run(
    serve: Callable[..., LiveServer],
) -> None:
    server = serve(bot_pool="process", bot_workers=2, bot_max_seconds=0.2, bot_max_iterations=10**7)
    # two tables asking the most the server allows: each decision would take minutes
    greedy = [{"type": "bot", "level": "ismcts", "budget": {"iterations": 10**7}}] * 2
    hogs = [create_table(server.http, players=2, seats=greedy)["table"]["id"] for _ in range(2)]
    quick = create_table(server.http, players=2, seats=RANDOM)["table"]["id"]
    wait_over(server.http, quick)
    moves = [httpx.get(f"{server.http}/api/tables/{t}").json()["move"] for t in hogs]
    assert all(m >= 1 for m in moves)  # the greedy tables' bots were cut and moved too


def test_bots_in_a_process_pool_are_bounded_too(serve: Callable[..., LiveServer]) -> None:
    server = serve(bot_pool="process", bot_workers=1, bot_max_seconds=0.2)
    greedy = [{"type": "bot", "level": "ismcts", "budget": {"iterations": 5000}}] * 2
    tid = create_table(server.http, game="dragon-stripes", players=2, seats=greedy)["table"]["id"]
    end = time.monotonic() + TIMEOUT
    while httpx.get(f"{server.http}/api/tables/{tid}").json()["move"] < 3:
        assert time.monotonic() < end, "the bots did not move"
        time.sleep(0.1)


def test_a_greedy_table_stored_earlier_is_bounded_after_a_restart(
    serve: Callable[..., LiveServer], sqlite_url: str
) -> None:
    # a table stored before the bounds existed, asking a decision that would never end
    cfg = config(sqlite_url)
    store = Store(sqlite_url, sealer=Sealer.from_file(cfg.seal_key_path()))
    greedy = StoredTable(
        id="greedy",
        game="pebble-auction",
        rules_version=dragonlair.spec("pebble-auction").rules_version,
        players=2,
        options={},
        seed=3,
        settings={"deadline": 15, "away": None, "takeover": None, "listed": True},
        watch_hash=digest("watch"),
        status="playing",
        created=time.time(),
        seats=[
            StoredSeat(0, "bot", "Greedy", "ismcts", {"iterations": 10**15}),
            StoredSeat(1, "bot", "Quick", "random"),
        ],
    )
    store.create_table(greedy).result()
    store.close()
    server = serve(bot_max_seconds=0.2)
    wait_over(server.http, "greedy")  # every decision was cut at the limit


# ---------------------------------------------------------------------------- clients


def test_an_outgoing_queue_is_bounded_in_bytes() -> None:
    async def main() -> None:
        conn = Connection(None, None, 0, max_queue=1000, max_bytes=100_000)
        for _ in range(9):
            conn.send("x" * 10_000)
        assert not conn.closing and conn.queued_bytes == 90_000
        conn.send("x" * 20_000)  # ten messages, but more bytes than allowed
        assert conn.closing and conn.close_code == 1008

    asyncio.run(main())


def test_a_sync_is_charged_by_what_it_costs(serve: Callable[..., LiveServer]) -> None:
    server = serve(ws_rate="20/minute")  # a burst of 20, refilled slowly
    created = create_table(server.http, players=2, seats=RANDOM)
    tid = created["table"]["id"]
    wait_over(server.http, tid)

    async def main() -> None:
        watcher = await SeatClient.open(server.ws, tid, created["watch"]["token"], None)
        size = len(json.dumps(watcher.states[0]))
        assert size > 2000  # the whole game's events
        for _ in range(20):
            await watcher.send({"type": "sync", "since": 0})
        await watcher.wait(lambda: len(watcher.states) + len(watcher.errors) >= 21, "answers")
        assert any(e["code"] == "rate_limited" for e in watcher.errors)
        assert len(watcher.states) < 21
        assert all(s == watcher.states[1] for s in watcher.states[1:])  # one encoding
        await watcher.close()

    asyncio.run(main())


def test_connections_are_capped_per_address(serve: Callable[..., LiveServer]) -> None:
    server = serve(max_connections_per_address=3)
    created = create_table(server.http, players=2, seats=[{"type": "human"}] * 2)
    tid, watch = created["table"]["id"], created["watch"]["token"]

    async def main() -> None:
        open_ = [await SeatClient.open(server.ws, tid, watch, None) for _ in range(3)]
        async with connect(f"{server.ws}/ws/tables/{tid}") as ws:
            msg = json.loads(await ws.recv())
            assert msg["code"] == "too_many_connections" and "at most 3" in msg["message"]
            await ws.wait_closed()
            assert ws.close_code == 1008
        await open_[0].close()
        again = await SeatClient.open(server.ws, tid, watch, None)  # room for one again
        for c in [*open_[1:], again]:
            await c.close()

    asyncio.run(main())


def test_idle_and_half_sent_requests_are_closed(serve: Callable[..., LiveServer]) -> None:
    server = serve(header_timeout=0.3, body_timeout=0.3)

    def closed_by_server(data: bytes) -> bytes:
        with socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT) as s:
            if data:
                s.sendall(data)
            got = b""
            while chunk := s.recv(4096):
                got += chunk
            return got  # recv() returned b"": the server closed the connection

    assert closed_by_server(b"") == b""  # connected and said nothing
    assert closed_by_server(b"GET /api/health HTTP/1.1\r\nHost: x\r\n") == b""  # half a head
    answer = closed_by_server(
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b'Content-Length: 100\r\nConnection: close\r\n\r\n{"game":'
    )
    assert answer.startswith(b"HTTP/1.1 408") and b'"timeout"' in answer
    assert httpx.get(f"{server.http}/api/health").status_code == 200


def test_an_address_holds_a_bounded_number_of_http_connections(
    serve: Callable[..., LiveServer],
) -> None:
    server = serve(max_connections_per_address=3)
    idle = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(3)]
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT) as extra:
            try:
                extra.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
                got = extra.recv(4096)
            except ConnectionResetError:
                got = b""
            assert got == b""  # closed at once, nothing served
    finally:
        for s in idle:
            s.close()
    end = time.monotonic() + TIMEOUT
    while True:  # the server notices the closed ones, and there is room again
        try:
            if httpx.get(f"{server.http}/api/health").status_code == 200:
                break
        except httpx.HTTPError:
            pass
        assert time.monotonic() < end
        time.sleep(0.05)


def test_the_uvicorn_configuration_bounds_connections(sqlite_url: str) -> None:
    from dragonlair.web.serving import uvicorn_config

    cfg = config(sqlite_url, limit_concurrency=500, idle_timeout=3)
    uc = uvicorn_config(create_app(cfg), cfg, "127.0.0.1", 0, log_config=None)
    assert uc.limit_concurrency <= 500 and uc.timeout_keep_alive == 3
    assert uc.proxy_headers is False


# ---------------------------------------------------------------------------- lobby


def test_waiting_tables_expire_and_are_not_resumed(sqlite_url: str) -> None:
    with TestClient(create_app(config(sqlite_url, waiting_ttl=3600))) as c:
        old = c.post("/api/tables", json={"game": "pebble-auction", "players": 2}).json()
        assert old["table"]["expires"] == pytest.approx(old["table"]["created"] + 3600)
    time.sleep(0.3)
    # the server restarts with a shorter time: the old table expires at once
    with TestClient(create_app(config(sqlite_url, waiting_ttl=0.2))) as c:
        tid = old["table"]["id"]
        assert c.get("/status").json()["tables"] == 0
        assert c.get(f"/api/tables/{tid}").json()["status"] == "expired"
        r = c.post(f"/api/tables/{tid}/join", json={})
        assert r.status_code == 409 and r.json()["error"]["code"] == "no_open_seat"
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json({"type": "hello", "token": old["seats"][0]["token"]})
            assert ws.receive_json()["type"] == "welcome"
            assert ws.receive_json()["status"] == "expired"
            ws.send_json({"type": "act", "move": 0, "action": "bid 1"})
            while (m := ws.receive_json())["type"] != "error":
                pass
            assert m["code"] == "expired"
        # and one created now expires while the server runs
        new = c.post("/api/tables", json={"game": "pebble-auction", "players": 2}).json()
        nid = new["table"]["id"]
        assert [t["id"] for t in c.get("/api/tables").json()] == [nid]
        end = time.monotonic() + TIMEOUT
        while c.get(f"/api/tables/{nid}").json()["status"] != "expired":
            assert time.monotonic() < end
            time.sleep(0.05)
        assert c.get("/api/tables").json() == []
    with TestClient(create_app(config(sqlite_url))) as c:
        assert c.get("/status").json()["tables"] == 0  # expired tables are not resumed


def test_the_listing_is_paginated(sqlite_url: str) -> None:
    with TestClient(create_app(config(sqlite_url, page_size=2, max_page_size=3))) as c:
        ids = [
            c.post("/api/tables", json={"game": "pebble-auction", "players": 2}).json()["table"][
                "id"
            ]
            for _ in range(5)
        ]
        r = c.get("/api/tables")
        assert [t["id"] for t in r.json()] == ids[:2] and r.headers["x-total-count"] == "5"
        seen = []
        url: str | None = "/api/tables?limit=2"
        while url:
            r = c.get(url)
            seen += [t["id"] for t in r.json()]
            link = r.headers.get("link")
            url = link[1 : link.index(">")] if link else None
        assert seen == ids
        r = c.get("/api/tables", params={"limit": 4})
        assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"
        assert "at most 3" in r.json()["error"]["message"]
