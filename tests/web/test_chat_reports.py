"""Quick phrases, reports and the operator's admin routes: a phrase travels as its id and
only known ids are taken; a reader reports a message it can read (not its own, once);
the admin routes answer only the operator's token, list the reports, and hiding a
message takes it out of the live table's chat and of what anyone connecting later gets;
migration 0006_reports keeps the chat that was there."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic import command
from cryptography.fernet import Fernet
from sqlalchemy import create_engine, inspect, text

from dragonlair.web.chat import PHRASES
from dragonlair.web.migrations import alembic_config, head, revision
from dragonlair.web.security import Sealer
from dragonlair.web.store import Store, normalize_url
from tests.web.serverkit import LiveServer, SeatClient, config
from tests.web.test_chat import two_friends

pytestmark = pytest.mark.timeout(120)

TOKEN = "operator-token-0123456789"


def chats(c: SeatClient) -> list[dict[str, Any]]:
    """Every chat message this connection received, as sent."""
    return [m for msg in c.messages if msg["type"] == "chat" for m in msg["messages"]]


def admin(server: LiveServer, method: str, path: str, token: str | None = TOKEN) -> httpx.Response:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    return httpx.request(method, f"{server.http}{path}", headers=headers, timeout=30)


def test_quick_phrases_travel_as_known_ids(db_url: str) -> None:
    server = LiveServer(config(db_url))
    try:
        tid, tokens, watch = two_friends(server)

        async def talk() -> None:
            ann = await SeatClient.open(server.ws, tid, tokens[0], 0)
            eve = await SeatClient.open(server.ws, tid, watch, None)
            await ann.send({"type": "chat", "phrase": "good_luck"})
            await eve.wait(lambda: len(chats(eve)) == 1, "the phrase")
            m = chats(eve)[0]
            assert (m["seat"], m["name"], m["phrase"], m["text"]) == (0, "Ann", "good_luck", "")
            assert isinstance(m["id"], int)
            await ann.send({"type": "chat", "phrase": "<b>gg</b>"})
            assert (await ann.next_error(0))["code"] == "chat_unknown_phrase"
            await ann.send({"type": "chat", "phrase": "thanks", "text": "hi"})
            assert (await ann.next_error(1))["code"] == "bad_message"
            await ann.send({"type": "chat"})
            assert (await ann.next_error(2))["code"] == "bad_message"
            await ann.settle()
            await eve.settle()
            assert len(chats(eve)) == 1
            for c in (ann, eve):
                await c.close()

        asyncio.run(talk())
        stored = server.hub.store.load_chat(tid, 10)
        assert [(s.phrase, s.text) for s in stored] == [("good_luck", "")]
    finally:
        server.stop()
    assert "good_luck" in PHRASES


def test_a_report_is_checked_stored_and_acknowledged(db_url: str) -> None:
    server = LiveServer(config(db_url, admin_token=TOKEN))
    try:
        tid, tokens, watch = two_friends(server, chat_apart=True)

        async def talk() -> None:
            ann = await SeatClient.open(server.ws, tid, tokens[0], 0)
            bob = await SeatClient.open(server.ws, tid, tokens[1], 1)
            eve = await SeatClient.open(server.ws, tid, watch, None)
            await ann.send({"type": "chat", "text": "you are all losers"})
            await eve.send({"type": "chat", "text": "Bob holds the dragon"})
            await bob.wait(lambda: len(chats(bob)) == 1, "Ann's message")
            await eve.wait(lambda: len(chats(eve)) == 2, "both messages")
            rude, aside = chats(eve)[0]["id"], chats(eve)[1]["id"]
            await bob.send({"type": "report", "id": rude})
            await bob.wait(
                lambda: any(m == {"type": "chat_reported", "id": rude} for m in bob.messages),
                "the acknowledgement",
            )
            await bob.send({"type": "report", "id": rude})
            assert (await bob.next_error(0))["code"] == "chat_already_reported"
            await ann.send({"type": "report", "id": rude})
            assert (await ann.next_error(0))["code"] == "chat_report_own"
            # a spectator's aside is not Bob's to read, so not his to report
            await bob.send({"type": "report", "id": aside})
            assert (await bob.next_error(1))["code"] == "chat_no_message"
            await bob.send({"type": "report", "id": 99999})
            assert (await bob.next_error(2))["code"] == "chat_no_message"
            await bob.send({"type": "report", "id": "1; DROP TABLE"})
            assert (await bob.next_error(3))["code"] == "bad_message"
            # the spectators report too (once for all of them)
            await eve.send({"type": "report", "id": rude})
            await eve.wait(
                lambda: any(m.get("type") == "chat_reported" for m in eve.messages), "ack"
            )
            for c in (ann, bob, eve):
                await c.close()

        asyncio.run(talk())

        async def again() -> None:
            # the table as a process that never served it reads it (after a restart, or
            # when another process takes it over): Bob's report is remembered all the same
            table.chatroom.chat = None
            bob = await SeatClient.open(server.ws, tid, tokens[1], 1)
            rude = chats(bob)[0]["id"]
            await bob.send({"type": "report", "id": rude})
            assert (await bob.next_error(0))["code"] == "chat_already_reported"
            await bob.close()

        table = server.hub.tables[tid]
        asyncio.run(again())
        listed = admin(server, "GET", "/api/admin/reports")
        assert listed.status_code == 200
        (entry,) = listed.json()["reports"]
        assert entry["text"] == "you are all losers" and entry["name"] == "Ann"
        assert entry["open"] and not entry["hidden"] and entry["table"] == tid
        assert [(r["seat"], r["name"]) for r in entry["reports"]] == [
            (1, "Bob"),
            (None, "spectator"),
        ]
    finally:
        server.stop()


def test_the_admin_routes_answer_only_the_operator(db_url: str, tmp_path: Path) -> None:
    off = LiveServer(config(f"sqlite:///{tmp_path / 'off.sqlite3'}"))
    try:
        r = admin(off, "GET", "/api/admin/reports")
        assert r.status_code == 404 and r.json()["error"]["code"] == "admin_off"
        assert admin(off, "GET", "/admin", token=None).status_code == 200  # the page, no data
    finally:
        off.stop()
    server = LiveServer(config(db_url, admin_token=TOKEN))
    try:
        for token in (None, "wrong", TOKEN[:-1], TOKEN + "x", TOKEN.upper()):
            r = admin(server, "GET", "/api/admin/reports", token=token)
            assert r.status_code == 401 and r.json()["error"]["code"] == "admin_token", token
            r = admin(server, "POST", "/api/admin/reports/1/hide", token=token)
            assert r.status_code == 401, token
        basic = httpx.get(
            f"{server.http}/api/admin/reports", headers={"Authorization": f"Basic {TOKEN}"}
        )
        assert basic.status_code == 401
        assert admin(server, "GET", "/api/admin/reports").json() == {"reports": []}
        r = admin(server, "POST", "/api/admin/reports/7/hide")
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    finally:
        server.stop()


def test_hiding_a_message_takes_it_out_of_the_chat(db_url: str) -> None:
    server = LiveServer(config(db_url, admin_token=TOKEN))
    try:
        tid, tokens, watch = two_friends(server)
        ids: list[int] = []

        async def talk() -> None:
            ann = await SeatClient.open(server.ws, tid, tokens[0], 0)
            bob = await SeatClient.open(server.ws, tid, tokens[1], 1)
            eve = await SeatClient.open(server.ws, tid, watch, None)
            await ann.send({"type": "chat", "text": "something vile"})
            await ann.send({"type": "chat", "text": "something fine"})
            await bob.wait(lambda: len(chats(bob)) == 2, "both messages")
            ids.extend(m["id"] for m in chats(bob))
            await bob.send({"type": "report", "id": ids[0]})
            await eve.send({"type": "report", "id": ids[1]})
            await bob.wait(
                lambda: any(m.get("type") == "chat_reported" for m in bob.messages), "ack"
            )
            await eve.wait(
                lambda: any(m.get("type") == "chat_reported" for m in eve.messages), "ack"
            )
            bad = await asyncio.to_thread(admin, server, "POST", f"/api/admin/reports/{ids[0]}/x")
            assert bad.status_code in (404, 405)
            r = await asyncio.to_thread(admin, server, "POST", f"/api/admin/reports/{ids[0]}/hide")
            assert r.status_code == 200
            for c in (ann, bob, eve):
                await c.wait(
                    lambda c=c: {"type": "chat_hidden", "id": ids[0]} in c.messages, "the hiding"
                )
            r = await asyncio.to_thread(
                admin, server, "POST", f"/api/admin/reports/{ids[1]}/dismiss"
            )
            assert r.status_code == 200
            # whoever connects now gets the chat without it
            late = await SeatClient.open(server.ws, tid, watch, None)
            await late.wait(lambda: any(m["type"] == "chat" for m in late.messages), "history")
            assert [m["text"] for m in chats(late)] == ["something fine"]
            # a hidden message cannot be reported again
            await bob.send({"type": "report", "id": ids[0]})
            assert (await bob.next_error(0))["code"] == "chat_no_message"
            for c in (ann, bob, eve, late):
                await c.close()

        asyncio.run(talk())
        listed = admin(server, "GET", "/api/admin/reports").json()["reports"]
        assert [(e["id"], e["open"], e["outcome"], e["hidden"]) for e in listed] == [
            (ids[1], False, "dismissed", False),
            (ids[0], False, "hidden", True),
        ]
    finally:
        server.stop()
    # and after a restart
    assert [s.text for s in _reopen(db_url).load_chat(tid, 10)] == ["something fine"]


def _reopen(db_url: str) -> Store:
    server = LiveServer(config(db_url))
    server.stop()
    store = server.hub.store
    assert isinstance(store, Store)
    return store


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def test_reports_migration_from_0005_keeps_the_chat(
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
        command.upgrade(alembic_config(conn), "0005_chat")
        conn.execute(
            text(
                "INSERT INTO dl_tables (id, game, rules_version, players, options, settings, "
                "watch_hash, status, created) VALUES ('t1', 'pebble-auction', 1, 2, '{}', "
                "'{}', :w, 'over', :now)"
            ),
            {"w": b"w" * 32, "now": time.time()},
        )
        conn.execute(
            text(
                "INSERT INTO dl_chat (table_id, seat, name, text, apart, at) "
                "VALUES ('t1', 0, 'Ann', 'hello', :f, 1.0), "
                "('t1', NULL, 'spectator', 'hi', :t, 2.0)"
            ),
            {"f": False, "t": True},
        )
    engine.dispose()
    store = Store(url, sealer=Sealer(Fernet.generate_key()))
    try:
        with store.engine.connect() as conn:
            assert revision(conn) == head()
            look = inspect(conn)
            assert "dl_reports" in look.get_table_names()
            assert {"phrase", "hidden"} <= {c["name"] for c in look.get_columns("dl_chat")}
            assert "dl_chat_table" in {i["name"] for i in look.get_indexes("dl_chat")}
        old = store.load_chat("t1", 10)
        assert [(s.name, s.text, s.apart, s.phrase) for s in old] == [
            ("Ann", "hello", False, None),
            ("spectator", "hi", True, None),
        ]
        assert all(s.id is not None for s in old)
    finally:
        store.close()
    with engine.begin() as conn:
        command.downgrade(alembic_config(conn), "0005_chat")
        look = inspect(conn)
        assert "dl_reports" not in look.get_table_names()
        assert "phrase" not in {c["name"] for c in look.get_columns("dl_chat")}
        assert conn.execute(text("SELECT count(*) FROM dl_chat")).scalar() == 2
    engine.dispose()


def test_the_page_has_words_for_exactly_the_phrases_the_server_takes() -> None:
    import re

    from dragonlair.web.routes.pages import STATIC

    source = (STATIC / "js" / "chat.js").read_text(encoding="utf-8")
    block = source[
        source.index("export const PHRASES = {") : source.index("};", source.index("PHRASES"))
    ]
    assert tuple(re.findall(r"^\s+([a-z_]+): N_\(", block, re.M)) == PHRASES


def test_a_message_hidden_from_another_process_leaves_the_chat_at_the_next_connection(
    db_url: str,
) -> None:
    from dragonlair.web.reports import decide

    server = LiveServer(config(db_url))
    try:
        tid, tokens, watch = two_friends(server)

        async def talk() -> None:
            ann = await SeatClient.open(server.ws, tid, tokens[0], 0)
            bob = await SeatClient.open(server.ws, tid, tokens[1], 1)
            await ann.send({"type": "chat", "text": "something vile"})
            await bob.wait(lambda: len(chats(bob)) == 1, "the message")
            vile = chats(bob)[0]["id"]
            await bob.send({"type": "report", "id": vile})
            await bob.wait(lambda: {"type": "chat_reported", "id": vile} in bob.messages, "ack")
            # the operator hides it on a process that does not run the table: only storage
            await asyncio.to_thread(decide, server.hub.store.engine, vile, "hidden")
            eve = await SeatClient.open(server.ws, tid, watch, None)
            await eve.wait(lambda: any(m["type"] == "chat" for m in eve.messages), "history")
            assert chats(eve) == []
            for c in (ann, bob):
                await c.wait(lambda c=c: {"type": "chat_hidden", "id": vile} in c.messages, "gone")
            for c in (ann, bob, eve):
                await c.close()

        asyncio.run(talk())
    finally:
        server.stop()
