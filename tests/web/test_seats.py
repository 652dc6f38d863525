"""A seat's connections: every one of them sees how many the seat has, and the seat's
holder can rotate its token (a new link; the old token refused from then on)."""

from __future__ import annotations

import asyncio
import json

from websockets.asyncio.client import connect

from dragonlair.web.security import digest
from tests.web.serverkit import LiveServer, SeatClient, create_table

PEOPLE = [{"type": "human"}] * 2


def counts(c: SeatClient) -> list[int]:
    """The seat-0 connection counts in the ``seats`` messages ``c`` received."""
    return [m["seats"][0]["connections"] for m in c.messages if m["type"] == "seats"]


async def hello(live: LiveServer, tid: str, token: str) -> tuple[dict[str, object], int | None]:
    async with connect(f"{live.ws}/ws/tables/{tid}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        first = json.loads(await ws.recv())
        if first["type"] == "error":
            await ws.wait_closed()
        return first, ws.close_code


def test_a_seat_sees_its_connections_and_rotates_its_token(live: LiveServer) -> None:
    created = create_table(live.http, players=2, seats=PEOPLE)
    tid = created["table"]["id"]
    old = created["seats"][0]["token"]

    async def main() -> None:
        mine = await SeatClient.open(live.ws, tid, old, 0)
        await mine.wait(lambda: counts(mine)[-1:] == [1], "one connection")
        other = await SeatClient.open(live.ws, tid, old, 0)  # someone else with the link
        for c in (mine, other):

            def two(c: SeatClient = c) -> bool:
                return counts(c)[-1:] == [2]

            await c.wait(two, "two connections")
        await mine.send({"type": "rotate"})
        await mine.wait(lambda: any(m["type"] == "rotated" for m in mine.messages), "rotated")
        rotated = next(m for m in mine.messages if m["type"] == "rotated")
        new = rotated["token"]
        assert new != old and rotated["seat"] == 0
        assert rotated["link"].endswith(f"/play/{tid}#{new}")
        # the other connection is told and closed; nobody else hears the new token
        await other.wait(lambda: other.closed, "the other connection closed")
        assert other.errors[-1]["code"] == "token_rotated"
        assert other.ws.close_code == 4401
        assert not any(m["type"] == "rotated" for m in other.messages)
        await mine.wait(lambda: counts(mine)[-1:] == [1], "one connection again")
        # the old token opens nothing; the new one does
        msg, code = await hello(live, tid, old)
        assert msg["code"] == "unauthorized" and code == 4401
        again = await SeatClient.open(live.ws, tid, new, 0)
        assert again.messages[0]["type"] == "welcome"
        await again.close()
        await mine.close()

    asyncio.run(main())
    # the new token is stored: it is the one that counts after a restart too
    hub = live.hub
    stored = hub.store.load(tid)
    assert stored.seats[0].token_hash == hub.tables[tid].seats[0].token_hash != digest(old)


def test_a_spectator_has_no_token_to_rotate(live: LiveServer) -> None:
    created = create_table(live.http, players=2, seats=PEOPLE)
    tid = created["table"]["id"]

    async def main() -> None:
        watcher = await SeatClient.open(live.ws, tid, created["watch"]["token"], None)
        await watcher.send({"type": "rotate"})
        err = await watcher.next_error(0)
        assert err["code"] == "spectator"
        await watcher.close()

    asyncio.run(main())
