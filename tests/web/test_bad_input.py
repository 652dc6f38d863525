"""Bad input on the play WebSocket: each gets a clear error and changes nothing."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.web.serverkit import LiveServer, SeatClient, config, create_table


def stored_moves(live: LiveServer, tid: str) -> int:
    n: int = live.hub.store.action_count(tid)
    return n


def test_bad_messages_change_nothing(live: LiveServer) -> None:
    created = create_table(live.http, players=2, seats=[{"type": "human"}] * 2, seed=5)
    tid = created["table"]["id"]
    tokens = [p["token"] for p in created["seats"]]

    async def main() -> None:
        me = await SeatClient.open(live.ws, tid, tokens[0], 0)
        other = await SeatClient.open(live.ws, tid, tokens[1], 1)
        watcher = await SeatClient.open(live.ws, tid, created["watch"]["token"], None)
        st = me.latest
        move = st["move"]
        legal = st["legal"]
        hand = st["view"]["hand"]
        not_mine = next(f"bid {c}" for c in range(1, 17) if c not in hand)
        bad: list[tuple[SeatClient, Any, str]] = [
            (me, "{not json", "bad_json"),
            (me, "[1, 2]", "bad_message"),
            (me, {"type": "dance"}, "bad_message"),
            (me, {"move": move, "action": legal[0]}, "bad_message"),
            (me, {"type": "act", "action": legal[0]}, "bad_message"),
            (me, {"type": "act", "move": str(move), "action": legal[0]}, "bad_message"),
            (me, {"type": "act", "move": move, "action": legal[0], "extra": 1}, "bad_message"),
            (me, {"type": "act", "move": move, "action": "fly away"}, "unknown_action"),
            (me, {"type": "act", "move": move, "action": not_mine}, "illegal_action"),
            (me, {"type": "act", "move": move, "action": "take"}, "illegal_action"),
            (me, {"type": "act", "move": move + 3, "action": legal[0]}, "stale_move"),
            (me, {"type": "act", "move": move, "action": legal[0], "seat": 1}, "wrong_seat"),
            (me, {"type": "act", "move": move, "action": legal[0], "ref": "x" * 65}, "bad_message"),
            (me, {"type": "hello", "token": tokens[1]}, "already_identified"),
            (me, "x" * 5000, "too_large"),
            (watcher, {"type": "act", "move": move, "action": legal[0]}, "spectator"),
        ]
        for client, msg, code in bad:
            n = len(client.errors)
            await client.send(msg)
            err = await client.next_error(n)
            assert err["code"] == code, (msg, err)
            assert err["move"] == move and len(err["message"]) > 10
        n = len(me.errors)
        await me.ws.send(b"\x00\x01binary")
        assert (await me.next_error(n))["code"] == "bad_message"
        # a ping still works and the seat can still act afterwards
        await me.send({"type": "ping"})
        await me.wait(lambda: me.messages[-1]["type"] == "pong", "pong")
        assert live.hub.tables[tid].state.move == move
        assert stored_moves(live, tid) == move
        assert len(me.states) == 1 and len(other.states) == 1
        await me.act(move, legal[0])
        await me.wait(lambda: me.latest["move"] == move + 1, "the accepted action")
        for c in (me, other, watcher):
            await c.close()

    asyncio.run(main())


async def refused(live: LiveServer, path: str, first: Any) -> tuple[dict[str, Any], int | None]:
    async with connect(f"{live.ws}{path}") as ws:
        if first is not None:
            await ws.send(first if isinstance(first, str | bytes) else json.dumps(first))
        msg = json.loads(await ws.recv())
        with pytest.raises(ConnectionClosed):
            await ws.recv()
        return msg, ws.close_code


def test_wrong_or_missing_tokens_are_refused(live: LiveServer) -> None:
    created = create_table(live.http, players=2, seats=[{"type": "human"}] * 2, seed=1)
    tid = created["table"]["id"]
    token = created["seats"][0]["token"]

    async def main() -> None:
        cases = [
            (
                f"/ws/tables/{tid}",
                {"type": "hello", "token": token[:-1] + ("A" if token[-1] != "A" else "B")},
                4401,
                "unauthorized",
            ),
            (f"/ws/tables/{tid}", {"type": "hello", "token": ""}, 4400, "bad_message"),
            (f"/ws/tables/{tid}", {"type": "hello"}, 4400, "bad_message"),
            (
                f"/ws/tables/{tid}",
                {"type": "act", "move": 0, "action": "x"},
                4400,
                "hello_required",
            ),
            (f"/ws/tables/{tid}", "not json", 4400, "bad_json"),
            (f"/ws/tables/{tid}", b"\x00", 4400, "bad_message"),
            ("/ws/tables/nosuchtable", {"type": "hello", "token": token}, 4404, "not_found"),
        ]
        for path, first, close, code in cases:
            msg, got = await refused(live, path, first)
            assert msg["code"] == code and got == close, (first, msg, got)

    asyncio.run(main())
    assert live.hub.tables[tid].state.move == 0


def test_hello_must_come_in_time(db_url: str) -> None:
    server = LiveServer(config(db_url, hello_timeout=0.2))
    try:
        tid = create_table(server.http, players=2)["table"]["id"]
        msg, code = asyncio.run(refused(server, f"/ws/tables/{tid}", None))
        assert msg["code"] == "hello_required" and code == 4400
    finally:
        server.stop()


def test_message_rate_limit(db_url: str) -> None:
    server = LiveServer(config(db_url, ws_rate="5/second"))
    try:
        created = create_table(server.http, players=2, seats=[{"type": "human"}] * 2, seed=1)
        tid = created["table"]["id"]

        async def main() -> None:
            me = await SeatClient.open(server.ws, tid, created["seats"][0]["token"], 0)
            for _ in range(12):
                await me.send({"type": "ping"})
            await me.wait(lambda: any(e["code"] == "rate_limited" for e in me.errors), "limit")
            pongs = [m for m in me.messages if m["type"] == "pong"]
            assert 1 <= len(pongs) < 12  # some were refused, whatever the timing
            await me.close()

        asyncio.run(main())
        assert server.hub.tables[tid].state.move == 0
    finally:
        server.stop()


def test_connection_rate_limit_per_address(db_url: str) -> None:
    server = LiveServer(config(db_url, http_rate="3/minute"))
    try:
        r = __import__("httpx").post(f"{server.http}/api/tables", json={"game": "pebble-auction"})
        tid = r.json()["table"]["id"]

        async def main() -> None:
            for _ in range(2):
                await refused(server, f"/ws/tables/{tid}", {"type": "hello", "token": "x" * 30})
            msg, code = await refused(server, f"/ws/tables/{tid}", None)
            assert msg["code"] == "rate_limited" and code == 1008

        asyncio.run(main())
    finally:
        server.stop()
