"""The rematch of a finished table: from a position as large as the lobby accepts (its
JSON text longer than the limit on a position's text), and its links handed only until
each new seat has been opened."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

import dragonlair
from dragonlair.core.position import to_toml
from dragonlair.web.protocol import MAX_POSITION
from tests.web.serverkit import LiveServer, SeatClient, config, create_table, drive

pytestmark = pytest.mark.timeout(120)

BOT = {"type": "bot", "level": "random"}


async def rematch_of(c: SeatClient) -> dict[str, Any]:
    await c.send({"type": "rematch"})
    await c.wait(lambda: any(m["type"] == "rematch" for m in c.messages), "the rematch", 15)
    return [m for m in c.messages if m["type"] == "rematch"][-1]


def test_the_rematch_of_a_table_from_a_large_position(sqlite_url: str) -> None:
    doc = dragonlair.make("dragon-stripes", players=2).new_game(7).to_position()
    # a long array written tightly: within the limit as TOML, beyond it as JSON
    body = to_toml(doc)
    text = "notes = [" + ",".join(["1"] * ((MAX_POSITION - len(body) - 20) // 2)) + "]\n" + body
    assert len(text) <= MAX_POSITION < len(json.dumps(dragonlair.core.position.parse(text)))
    live = LiveServer(config(sqlite_url))
    try:
        created = create_table(
            live.http,
            game="dragon-stripes",
            players=2,
            seats=[{"type": "human", "name": "Ann"}, BOT],
            position=text,
        )

        async def main() -> None:
            ann = await SeatClient.open(
                live.ws, created["table"]["id"], created["seats"][0]["token"], 0
            )
            await drive({0: ann}, random.Random(1))
            got = await rematch_of(ann)
            assert got["link"] and ann.errors == [] and not ann.closed
            new = live.hub.tables[got["table"]]
            assert new.position == live.hub.tables[created["table"]["id"]].position
            assert new.state.to_position()["players"] == 2
            await ann.close()

        asyncio.run(main())
    finally:
        live.stop()


def test_an_old_link_gets_no_new_seat_once_it_was_opened(sqlite_url: str) -> None:
    live = LiveServer(config(sqlite_url))
    try:
        created = create_table(
            live.http, game="dragon-stripes", players=2, seats=[{"type": "human"}, BOT]
        )
        tid, token = created["table"]["id"], created["seats"][0]["token"]

        async def main() -> None:
            ann = await SeatClient.open(live.ws, tid, token, 0)
            await drive({0: ann}, random.Random(3))
            got = await rematch_of(ann)
            new_token = got["link"].split("#", 1)[1]
            # before Ann opens her new seat, her old link reconnecting still finds it
            back = await SeatClient.open(live.ws, tid, token, 0)
            await back.wait(lambda: any(m["type"] == "rematch" for m in back.messages), "it")
            assert [m for m in back.messages if m["type"] == "rematch"][-1]["link"] == got["link"]
            await back.close()
            seat = await SeatClient.open(live.ws, got["table"], new_token, 0)
            # someone who kept the old link learns there was a rematch, not its seat
            kept = await SeatClient.open(live.ws, tid, token, 0)
            await kept.wait(lambda: any(m["type"] == "rematch" for m in kept.messages), "it")
            late = [m for m in kept.messages if m["type"] == "rematch"][-1]
            assert late["table"] == got["table"] and late["link"] is None
            assert new_token not in json.dumps(kept.messages)
            for c in (ann, seat, kept):
                await c.close()

        asyncio.run(main())
    finally:
        live.stop()
