"""The server's front door: a locked database answered in bounded time, X-Forwarded-For
believed only from named proxies, security headers, and every malformed body a 422."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from dragonlair.web import create_app
from tests.web.serverkit import LiveServer, SeatClient, config, create_table

PEOPLE = [{"type": "human"}] * 2


@contextlib.contextmanager
def locked(db_url: str) -> Iterator[None]:
    """Another process holding the database's write lock."""
    if db_url.startswith("sqlite"):
        db = sqlite3.connect(Path(db_url.removeprefix("sqlite:///")), isolation_level=None)
        db.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            db.execute("ROLLBACK")
            db.close()
    else:
        import psycopg

        with psycopg.connect(db_url) as pg:
            pg.execute("LOCK TABLE dl_actions IN EXCLUSIVE MODE")
            try:
                yield
            finally:
                pg.rollback()


def test_a_locked_database_gives_storage_error_in_bounded_time_once(db_url: str) -> None:
    server = LiveServer(config(db_url, db_lock_timeout=0.5))
    try:
        created = create_table(server.http, players=2, seats=PEOPLE)
        tid = created["table"]["id"]

        async def main() -> None:
            clients = {
                p["seat"]: await SeatClient.open(server.ws, tid, p["token"], p["seat"])
                for p in created["seats"]
            }
            seat = clients[0].latest["view"]["to_act"][0]
            me = clients[seat]
            first = me.latest
            with locked(db_url):
                await me.act(0, first["legal"][0], ref="a")
                # far less than the 30 s busy timeout (twice) this used to take
                await me.wait(lambda: bool(me.errors), "the storage error", timeout=20)
                assert [e["code"] for e in me.errors] == ["storage_error"]
                assert server.hub.tables[tid].state.move == 0
            await me.settle()  # everything sent so far is answered: it was answered once
            assert len(me.errors) == 1 and me.latest["move"] == 0
            # the lock is gone: play resumes, and what was acknowledged is stored
            await me.act(0, first["legal"][0], ref="b")
            await me.wait(lambda: me.latest["move"] == 1, "the action applied")
            assert me.latest["ref"] == "b"
            for c in clients.values():
                await c.close()

        asyncio.run(main())
        assert server.hub.store.action_count(tid) == 1
    finally:
        server.stop()


def get(server: LiveServer, forwarded: str | None) -> int:
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    return httpx.get(f"{server.http}/api/games", headers=headers).status_code


def test_forwarded_for_counts_only_from_the_named_proxies(sqlite_url: str) -> None:
    # by default nobody is a proxy: a local process cannot pose as many clients
    server = LiveServer(config(sqlite_url, http_rate="3/minute"))
    try:
        assert [get(server, f"10.0.0.{i}") for i in range(4)] == [200, 200, 200, 429]
    finally:
        server.stop()
    # behind a named proxy, each player is their own address
    server = LiveServer(config(sqlite_url, http_rate="3/minute", forwarded_allow_ips="127.0.0.1"))
    try:
        assert [get(server, f"10.0.0.{i}") for i in range(6)] == [200] * 6
        assert [get(server, "10.0.0.99") for _ in range(4)] == [200, 200, 200, 429]
    finally:
        server.stop()


@pytest.fixture
def web(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(config(sqlite_url))) as c:
        yield c


@pytest.mark.parametrize("path", ["/", "/play/abc", "/api/health", "/static/app.css"])
def test_security_headers(web: TestClient, path: str) -> None:
    h = web.get(path).headers
    csp = {part.split()[0]: part.split()[1:] for part in h["content-security-policy"].split("; ")}
    assert csp["frame-ancestors"] == ["'none'"]
    assert csp["script-src"] == ["'self'"]  # no inline script, no other origin
    assert csp["default-src"] == ["'self'"]
    assert h["x-content-type-options"] == "nosniff"
    assert h["referrer-policy"] == "no-referrer"


def nested(depth: int) -> bytes:
    return b'{"game": ' + b"[" * depth + b"]" * depth + b"}"


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (nested(3000), "application/json"),
        (b'{"game": "pebble-auction"', "application/json"),
        (b'{"game": "\xff\xfe"}', "application/json"),
        (b"", "application/json"),
        (b"[1, 2]", "application/json"),
        (b"null", "application/json"),
        (b'{"game": NaN}', "application/json"),
        (b"game=pebble-auction", "application/x-www-form-urlencoded"),
        (b'{"game": "pebble-auction"}', "text/plain"),
    ],
)
def test_every_malformed_body_is_invalid_request(
    web: TestClient, body: bytes, content_type: str
) -> None:
    for path in ("/api/tables", "/api/tables/abc/join"):
        r = web.post(path, content=body, headers={"Content-Type": content_type})
        err: dict[str, Any] = r.json()["error"]
        assert r.status_code == 422 and err["code"] == "invalid_request", (path, r.text)
    assert web.get("/status").json()["tables"] == 0


def test_a_deadline_that_passes_while_the_database_is_locked_still_applies(
    sqlite_url: str,
) -> None:
    from tests.web.test_play import play_to_window

    server = LiveServer(config(sqlite_url, deadline=1.0, db_lock_timeout=0.2))
    try:
        created = create_table(server.http, players=2, seats=PEOPLE, seed=8)

        async def main() -> None:
            clients = {
                p["seat"]: await SeatClient.open(
                    server.ws, created["table"]["id"], p["token"], p["seat"]
                )
                for p in created["seats"]
            }
            st = await play_to_window(clients, random.Random(3))
            assert st["deadline"] is not None, "the seeded game reaches a window"
            waiting = clients[st["deadline"]["seat"]]
            with locked(sqlite_url):
                await asyncio.sleep(1.8)  # the deadline passes while storage is locked
                assert waiting.latest["move"] == st["move"]
            # storage is free again: the default answer is applied after all
            await waiting.wait(lambda: waiting.latest["move"] > st["move"], "the default answer")
            for c in clients.values():
                await c.close()

        asyncio.run(main())
    finally:
        server.stop()
