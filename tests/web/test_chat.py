"""Chat at a table: seats and spectators talk over the table's WebSocket; a table may
keep its spectators' chat apart; length and rate limits refuse with clear codes; a
sender is only ever its own connection's seat; the chat is stored with the table and
sent again to whoever (re)connects, after a restart too."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from cryptography.fernet import Fernet
from sqlalchemy import create_engine, inspect
from websockets.asyncio.client import connect

from dragonlair.web.chat import RATE, StoredChat
from dragonlair.web.migrations import alembic_config, head, revision
from dragonlair.web.protocol import MAX_CHAT
from dragonlair.web.security import Sealer
from dragonlair.web.store import Store, StoreError, normalize_url
from tests.web.serverkit import LiveServer, SeatClient, config, create_table

pytestmark = pytest.mark.timeout(120)

HOSTILE = '<img src=x onerror="alert(1)"> <a href="javascript:alert(2)">x</a>'


def said(c: SeatClient) -> list[tuple[int | None, str, str]]:
    """Every chat message this connection received: (seat, name, text)."""
    return [
        (m["seat"], m["name"], m["text"])
        for msg in c.messages
        if msg["type"] == "chat"
        for m in msg["messages"]
    ]


def two_friends(server: LiveServer, **extra: Any) -> tuple[str, list[str], str]:
    created = create_table(
        server.http,
        players=2,
        seats=[{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}],
        seed=3,
        **extra,
    )
    tokens = [p["token"] for p in created["seats"]]
    return created["table"]["id"], tokens, created["watch"]["token"]


def test_seats_and_spectators_chat_and_it_survives_a_restart(db_url: str) -> None:
    server = LiveServer(config(db_url))
    try:
        tid, tokens, watch = two_friends(server)

        async def talk() -> None:
            ann = await SeatClient.open(server.ws, tid, tokens[0], 0)
            bob = await SeatClient.open(server.ws, tid, tokens[1], 1)
            eve = await SeatClient.open(server.ws, tid, watch, None)
            await ann.send({"type": "chat", "text": HOSTILE})
            await eve.send({"type": "chat", "text": "  nice move  "})
            for c in (ann, bob, eve):
                await c.wait(lambda c=c: len(said(c)) == 2, "both messages")
                assert said(c) == [(0, "Ann", HOSTILE), (None, "spectator", "nice move")]
                assert not c.errors
            for c in (ann, bob, eve):
                await c.close()

        asyncio.run(talk())
    finally:
        server.stop()
    server = LiveServer(config(db_url))
    try:

        async def back() -> None:
            bob = await SeatClient.open(server.ws, tid, tokens[1], 1)
            await bob.wait(lambda: bool(said(bob)), "the chat so far")
            assert said(bob) == [(0, "Ann", HOSTILE), (None, "spectator", "nice move")]
            await bob.close()

        asyncio.run(back())
    finally:
        server.stop()


def test_spectators_apart_reach_spectators_only(db_url: str) -> None:
    server = LiveServer(config(db_url))
    try:
        tid, tokens, watch = two_friends(server, chat_apart=True)
        assert server.hub.tables[tid].info().settings.chat_apart

        async def talk() -> None:
            ann = await SeatClient.open(server.ws, tid, tokens[0], 0)
            eve = await SeatClient.open(server.ws, tid, watch, None)
            await eve.send({"type": "chat", "text": "Ann holds the dragon"})
            await ann.send({"type": "chat", "text": "Good game"})
            await eve.wait(lambda: len(said(eve)) == 2, "both messages")
            await ann.wait(lambda: len(said(ann)) == 1, "Ann's own message")
            await ann.settle()
            assert said(ann) == [(0, "Ann", "Good game")]
            # and so when they connect again
            bob = await SeatClient.open(server.ws, tid, tokens[1], 1)
            eve2 = await SeatClient.open(server.ws, tid, watch, None)
            await bob.settle()
            await eve2.settle()
            assert said(bob) == [(0, "Ann", "Good game")]
            assert [t for _, _, t in said(eve2)] == ["Ann holds the dragon", "Good game"]
            for c in (ann, eve, bob, eve2):
                await c.close()

        asyncio.run(talk())
    finally:
        server.stop()


def test_limits_refuse_with_clear_codes_and_send_nothing(db_url: str) -> None:
    server = LiveServer(config(db_url))
    try:
        tid, tokens, _ = two_friends(server)
        store = server.hub.store

        async def talk() -> None:
            ann = await SeatClient.open(server.ws, tid, tokens[0], 0)
            bob = await SeatClient.open(server.ws, tid, tokens[1], 1)
            await ann.send({"type": "chat", "text": "x" * (MAX_CHAT + 1)})
            assert (await ann.next_error(0))["code"] == "chat_too_long"
            await ann.send({"type": "chat", "text": " \n "})
            assert (await ann.next_error(1))["code"] == "chat_empty"
            await ann.send({"type": "chat", "text": "\U0001f409" * 1000})  # within a frame
            assert (await ann.next_error(2))["code"] == "too_large"
            await ann.send({"type": "chat", "text": 5})
            assert (await ann.next_error(3))["code"] == "bad_message"
            # a chat carries no seat: it cannot be said for somebody else
            await ann.send({"type": "chat", "text": "hi", "seat": 1})
            assert (await ann.next_error(4))["code"] == "bad_message"
            burst = 3 * RATE[0]
            for i in range(burst):
                await ann.send({"type": "chat", "text": f"m{i}"})
            await ann.settle()
            limited = [e for e in ann.errors[5:] if e["code"] == "chat_rate_limited"]
            assert limited, "a burst past the rate limit is refused"
            accepted = burst - len(limited)
            await bob.wait(lambda: len(said(bob)) == accepted, "the accepted messages")
            await bob.settle()
            assert len(said(bob)) == accepted
            assert all(len(t) <= MAX_CHAT for _, _, t in said(bob))
            # bob's own connection has its own allowance
            await bob.send({"type": "chat", "text": "Thanks"})
            await ann.wait(lambda: said(ann)[-1:] == [(1, "Bob", "Thanks")], "Bob's message")
            for c in (ann, bob):
                await c.close()
            assert len(store.load_chat(tid, 1000)) == accepted + 1

        asyncio.run(talk())
    finally:
        server.stop()


def test_a_sender_must_be_identified(db_url: str) -> None:
    server = LiveServer(config(db_url))
    try:
        tid, _, _ = two_friends(server)

        async def attempt(hello: dict[str, Any] | None) -> dict[str, Any]:
            async with connect(f"{server.ws}/ws/tables/{tid}") as ws:
                if hello is not None:
                    await ws.send(json.dumps(hello))
                await ws.send(json.dumps({"type": "chat", "text": "let me in"}))
                first: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 30))
                return first

        assert asyncio.run(attempt(None))["code"] == "hello_required"
        assert asyncio.run(attempt({"type": "hello", "token": "forged"}))["code"] == (
            "unauthorized"
        )
        assert server.hub.store.load_chat(tid, 10) == []
    finally:
        server.stop()


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def test_chat_migration_from_0004(
    request: pytest.FixtureRequest, tmp_path: Path, kind: str
) -> None:
    from tests.web.conftest import fresh_database

    url = (
        f"sqlite:///{tmp_path / 'before.sqlite3'}"
        if kind == "sqlite"
        else fresh_database(request.getfixturevalue("postgres"))
    )
    engine = create_engine(normalize_url(url))
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0004_ratings")
        assert "dl_chat" not in inspect(conn).get_table_names()
    engine.dispose()
    sealer = Sealer(Fernet.generate_key())
    store = Store(url, sealer=sealer)
    try:
        with store.engine.connect() as conn:
            assert revision(conn) == head()
            look = inspect(conn)
            assert "dl_chat" in look.get_table_names()
            assert "dl_chat_table" in {i["name"] for i in look.get_indexes("dl_chat")}
    finally:
        store.close()
    with engine.begin() as conn:
        command.downgrade(alembic_config(conn), "0004_ratings")
        assert "dl_chat" not in inspect(conn).get_table_names()
    engine.dispose()


def test_chat_of_an_unknown_table_is_not_stored(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 's.sqlite3'}", sealer=Sealer(Fernet.generate_key()))
    try:
        said_ = StoredChat(seat=None, name="spectator", text="<b>hi</b>", apart=True, at=1.0)
        with pytest.raises(StoreError):
            store.add_chat("nosuchtable", said_).result(timeout=30)
        assert store.load_chat("nosuchtable", 10) == []
    finally:
        store.close()
