"""Storage on its own and under failure: group commit, duplicates refused without harming
neighbours, bad URLs, a failed commit changing nothing, tables that cannot resume."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import wait

import pytest
from fastapi.testclient import TestClient

from dragonlair.web import create_app
from dragonlair.web.security import Sealer, digest
from dragonlair.web.store import Store, StoredSeat, StoredTable, StoreError, normalize_url
from tests.web.serverkit import LiveServer, SeatClient, config, create_table


def table(tid: str, game: str = "pebble-auction") -> StoredTable:
    return StoredTable(
        id=tid,
        game=game,
        rules_version=1,
        players=2,
        options={"start_points": 1},
        seed=5,
        settings={"deadline": 15, "away": None, "takeover": None, "listed": True},
        watch_hash=digest("w"),
        status="playing",
        created=time.time(),
        seats=[
            StoredSeat(0, "human", "A", token_hash=digest("a")),
            StoredSeat(1, "bot", "B", "random"),
        ],
    )


def test_group_commit_and_duplicates(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.create_table(table("t1")).result()
        futures = [store.append("t1", m, m % 2, f"bid {m + 1}", None) for m in range(50)]
        wait(futures)
        assert store.commits < store.writes == 51  # writes shared commits
        dup = store.append("t1", 3, 1, "bid 4", None)
        more = store.append("t1", 50, 0, "take", {"points": [1, 2]})
        wait([*futures, dup, more])
        assert all(f.exception() is None for f in futures)
        assert isinstance(dup.exception(), StoreError)  # the same move twice is refused
        assert more.exception() is None  # and its neighbours in the batch are not harmed
        loaded = store.load("t1")
        assert loaded is not None and len(loaded.actions) == 51
        assert loaded.status == "over" and loaded.result == {"points": [1, 2]}
        assert loaded.seats[0].token_hash == digest("a") and loaded.seats[1].level == "random"
        assert store.load_active() == [] and store.load("nope") is None
    finally:
        store.close()
    assert isinstance(store.append("t1", 99, 0, "x", None).exception(), StoreError)


@pytest.mark.parametrize(
    "url", ["mysql://x/y", "sqlite://", "sqlite:///:memory:", "not a url at all", "redis://h"]
)
def test_unsupported_databases_are_refused(url: str) -> None:
    with pytest.raises(StoreError, match="expected|must be a file"):
        normalize_url(url)


def test_postgres_urls_get_psycopg() -> None:
    assert normalize_url("postgresql://u@h/db").startswith("postgresql+psycopg://")


def test_failed_commit_changes_nothing(live: LiveServer) -> None:
    created = create_table(live.http, players=2, seats=[{"type": "human"}] * 2, seed=5)
    tid = created["table"]["id"]

    async def main() -> None:
        me = await SeatClient.open(live.ws, tid, created["seats"][0]["token"], 0)
        st = me.latest
        live.hub.store.close()  # storage goes away under the server
        await me.act(st["move"], st["legal"][0])
        err = await me.next_error(0)
        assert err["code"] == "storage_error" and err["move"] == st["move"]
        assert live.hub.tables[tid].state.move == st["move"]
        assert len(me.states) == 1
        await me.close()

    asyncio.run(main())


def test_a_table_that_cannot_resume_is_marked_broken(sqlite_url: str) -> None:
    store = Store(sqlite_url, sealer=Sealer.from_file(config(sqlite_url).seal_key_path()))
    store.create_table(table("gone", game="retired-game")).result()
    store.create_table(table("fine")).result()
    store.close()
    with TestClient(create_app(config(sqlite_url))) as c:
        info = c.get("/api/tables/gone").json()
        assert info["status"] == "broken" and "retired-game" in info["problem"]
        assert c.get("/api/tables/fine").json()["status"] == "playing"
        with c.websocket_connect("/ws/tables/gone") as ws:
            ws.send_json({"type": "hello", "token": "a"})
            assert ws.receive_json()["code"] == "broken"


@pytest.mark.slow
def test_bots_in_a_process_pool(db_url: str) -> None:
    server = LiveServer(config(db_url, bot_pool="process", bot_workers=1))
    try:
        bots = [{"type": "bot", "level": "random"}] * 2
        tid = create_table(server.http, players=2, seats=bots, seed=3)["table"]["id"]

        async def wait_over() -> None:
            for _ in range(3000):
                t = server.hub.tables.get(tid) or server.hub.finished.get(tid)
                if t.status == "over":
                    return
                await asyncio.sleep(0.01)
            raise AssertionError("did not finish")

        asyncio.run(wait_over())
        # the workers cannot make a game registered only in this process: threads took over
        assert "pebble-auction" in server.hub.bots._thread_only
    finally:
        server.stop()


def test_a_database_from_before_sealed_seeds_is_upgraded(db_url: str) -> None:
    from sqlalchemy import (
        JSON,
        BigInteger,
        Column,
        Float,
        ForeignKey,
        Integer,
        LargeBinary,
        MetaData,
        String,
        Table,
        create_engine,
        insert,
        select,
    )

    from dragonlair.web import store as storage

    old = MetaData()
    Table(
        "dl_tables",
        old,
        Column("id", String(32), primary_key=True),
        Column("game", String(64), nullable=False),
        Column("rules_version", Integer, nullable=False),
        Column("players", Integer, nullable=False),
        Column("options", JSON, nullable=False),
        Column("seed", BigInteger, nullable=False),
        Column("settings", JSON, nullable=False),
        Column("watch_hash", LargeBinary(32), nullable=False),
        Column("status", String(16), nullable=False),
        Column("created", Float, nullable=False),
        Column("result", JSON, nullable=True),
    )
    storage.actions_t.to_metadata(old)
    Table(  # the seats as they were then: without the columns of later revisions
        "dl_seats",
        old,
        *(
            Column(
                c.name,
                c.type,
                *([ForeignKey("dl_tables.id")] if c.foreign_keys else []),
                primary_key=c.primary_key,
                nullable=c.nullable,
            )
            for c in storage.seats_t.columns
            if c.name not in ("account_id", "bank", "conceded")
        ),
    )
    engine = create_engine(normalize_url(db_url))
    old.create_all(engine)
    settings = {"deadline": 15, "away": None, "takeover": None, "listed": True}
    with engine.begin() as conn:
        for tid, status in (("playing1", "playing"), ("finished", "over")):
            conn.execute(
                insert(old.tables["dl_tables"]),
                {
                    "id": tid,
                    "game": "pebble-auction",
                    "rules_version": 1,
                    "players": 2,
                    "options": {},
                    "seed": 424242,
                    "settings": settings,
                    "watch_hash": digest("w"),
                    "status": status,
                    "created": time.time(),
                    "result": None,
                },
            )
            conn.execute(
                insert(old.tables["dl_seats"]),
                [
                    {"table_id": tid, "seat": i, "kind": "human", "name": f"P{i}"}
                    | {"level": None, "budget": None, "token_hash": digest(f"{tid}{i}")}
                    for i in range(2)
                ],
            )
    engine.dispose()
    for _ in range(2):  # upgraded once, and opened as it is the second time
        with TestClient(create_app(config(db_url))) as c:
            info = c.get("/api/tables/playing1").json()
            assert info["status"] == "playing", info
            assert info["fairness"] == {
                "commitment": None,
                "revealed": None,
                "chosen_seed": True,
                "chosen": "seed",
            }
            assert c.app.state.hub.tables["playing1"].seed == 424242  # type: ignore[attr-defined]
            r = c.post("/api/tables", json={"game": "pebble-auction", "players": 2})
            assert r.status_code == 201, r.text
    engine = create_engine(normalize_url(db_url))
    with engine.connect() as conn:
        t = storage.tables_t
        rows = dict(
            conn.execute(select(t.c.id, t.c.seed).where(t.c.id.in_(["playing1", "finished"]))).all()
        )
    engine.dispose()
    assert rows == {"playing1": None, "finished": 424242}  # sealed while unfinished only
