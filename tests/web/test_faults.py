"""Faults under play with real parts: three ``dragonlair serve --shard K/3`` processes over
a PostgreSQL server of the test's own, tables played over WebSockets while, in turn, every
database session is cut (``pg_terminate_backend``), PostgreSQL restarts, and the process
owning the most tables is paused (SIGSTOP) past its lease and then resumed (SIGCONT).
After each fault the tables serve again; the paused process's tables move to the others
and the resumed process drops them; at the end nothing acknowledged is lost or changed and
nothing is stored twice."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import random
import signal
import subprocess
import time
from typing import Any

import httpx
import psycopg
import pytest

from dragonlair.core import Record, replay
from dragonlair.core.autoplay import forced_action
from tests.web.clusterkit import NGINX, Cluster
from tests.web.conftest import PostgresCluster, fresh_database
from tests.web.serverkit import SeatClient
from tests.web.test_hosting import Player

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

TABLES = 6
LEASE = 2.0
WAIT = 60.0  # the most any step may take (seconds)


class DirectPlayer(Player):
    """A player that reconnects to whichever live, unpaused process serves its table
    (trying each one directly, a few seconds each), as a proxy with health checks would."""

    def __init__(
        self, cluster: Cluster, paused: set[int], created: dict[str, Any], rng: random.Random
    ) -> None:
        super().__init__(cluster.ws, created, rng)
        self.cluster = cluster
        self.paused = paused

    async def connect(self) -> None:
        self.clients = {}  # old connections are left to end (a paused process's hang)
        end = time.monotonic() + WAIT
        while True:
            for k in self.cluster.alive():
                if k in self.paused:
                    continue
                ws = self.cluster.backend(k).replace("http://", "ws://")
                got: dict[int, SeatClient] = {}
                try:
                    for seat, token in self.tokens.items():
                        got[seat] = await asyncio.wait_for(
                            SeatClient.open(ws, self.id, token, seat), 5
                        )
                except Exception:
                    for c in got.values():
                        with contextlib.suppress(Exception):
                            await asyncio.wait_for(c.close(), 2)
                    continue
                self.clients = got
                return
            assert time.monotonic() < end, f"table {self.id}: no process serves it"
            await asyncio.sleep(0.2)


def owners(db: str) -> dict[str, str]:
    """Each unfinished table's owning process (K/N), as the database says."""
    base, schema = db.split("?", maxsplit=1)[0], db.split("search_path%3D")[1]
    with psycopg.connect(base, autocommit=True) as conn:
        rows = conn.execute(
            f"SELECT t.id, p.name FROM {schema}.dl_tables t JOIN {schema}.dl_processes p "
            "ON p.id = t.owner WHERE t.status IN ('waiting', 'playing')"
        ).fetchall()
    return {r[0]: r[1] for r in rows}


@pytest.fixture
def setting() -> Any:
    if not os.access(NGINX, os.X_OK):
        msg = f"no nginx at {NGINX} (apt-get install nginx)"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)
    try:
        pg = PostgresCluster()
    except (FileNotFoundError, subprocess.CalledProcessError) as e:
        if os.environ.get("CI"):
            pytest.fail(f"no PostgreSQL: {e}")
        pytest.skip(f"no PostgreSQL: {e}")
    try:
        db = fresh_database(pg.url)
        c = Cluster(db, 3, extra=["--lease", str(LEASE)])
        try:
            yield pg, db, c
        finally:
            for p in c.procs.values():
                with contextlib.suppress(ProcessLookupError):
                    p.send_signal(signal.SIGCONT)
            c.close()
    finally:
        pg.stop()


def test_tables_serve_again_after_every_fault(setting: Any) -> None:
    pg, db, cluster = setting
    rng = random.Random(41)
    created = []
    for _ in range(TABLES):
        r = httpx.post(
            f"{cluster.url}/api/tables",
            json={"game": "pebble-auction", "players": 2, "seats": [{"type": "human"}] * 2},
            timeout=30,
        )
        assert r.status_code == 201, r.text
        created.append(r.json())
    # through the proxy, strangers read health only, not which process owns what
    assert httpx.get(f"{cluster.url}/api/health", timeout=30).json() == {"ok": True}
    assert httpx.get(f"{cluster.url}/status", timeout=30).status_code == 404
    paused: set[int] = set()
    players = [DirectPlayer(cluster, paused, c, random.Random(rng.random())) for c in created]
    log: list[str] = []

    async def play_to(move: int) -> None:
        go = asyncio.Event()
        go.set()
        await asyncio.wait_for(asyncio.gather(*(p.play(go, until=move) for p in players)), WAIT)

    async def main() -> None:
        await play_to(3)

        # 1. every database session of every process is cut
        with psycopg.connect(pg.url, autocommit=True) as conn:
            cut = conn.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'"
            ).fetchone()
        assert cut is not None and cut[0] > 0
        log.append(f"cut {cut[0]} sessions")
        await play_to(6)

        # 2. PostgreSQL restarts
        subprocess.run(
            [*pg.prefix, pg.pg_ctl, "-D", str(pg.data), "-m", "fast", "-w", "restart"],
            check=True,
            stdout=subprocess.DEVNULL,  # the new postmaster keeps them open
            stderr=subprocess.DEVNULL,
            timeout=WAIT,
        )
        await play_to(9)

        # 3. the process owning the most unfinished tables is paused past its lease
        now = owners(db)
        by: dict[str, set[str]] = {}
        for t, name in now.items():
            by.setdefault(name, set()).add(t)
        victim_name = max(by, key=lambda n: len(by[n]))
        victim = int(victim_name.split("/")[0])
        moved = by[victim_name]
        assert moved, "no unfinished table to move"
        paused.add(victim)
        cluster.procs[victim].send_signal(signal.SIGSTOP)
        end = time.monotonic() + WAIT
        while True:  # its tables move to the other processes within seconds
            now = owners(db)
            if all(now.get(t) not in (None, victim_name) for t in moved):
                break
            assert time.monotonic() < end, f"tables {moved} stayed with paused {victim_name}"
            await asyncio.sleep(0.2)
        for p in players:
            if p.id in moved:
                p.clients = {}  # their connections hang on the paused process
        await play_to(12)

        # ... and resumed: it drops the tables it lost, and serves none of them
        cluster.procs[victim].send_signal(signal.SIGCONT)
        paused.discard(victim)
        end = time.monotonic() + WAIT
        while True:
            h = cluster.health(victim)
            if h is not None and not set(h["owns"]) & moved:
                break
            assert time.monotonic() < end, "the resumed process still serves its lost tables"
            await asyncio.sleep(0.2)
        await play_to(10_000)
        for p in players:
            for c in p.clients.values():
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(c.close(), 5)

    asyncio.run(main())
    for p in players:
        assert p.over, p.id
        rec = httpx.get(f"{cluster.url}/api/tables/{p.id}/record", timeout=30)
        assert rec.status_code == 200, rec.text
        record = rec.json()
        stored = [tuple(a) for a in record["actions"]]
        # nothing acknowledged is lost or changed, and every stored action is one that was
        # sent at that very move (none invented, none doubled) or the one answer a seat
        # had, given by the server for it
        for move, action in p.acked.items():
            assert stored[move] == action, (p.id, move)
        whole = Record.from_dict(record)
        for move, action in enumerate(stored):
            if p.sent.get(move) != action:  # only the server's answer for a forced seat
                before = replay(dataclasses.replace(whole, actions=whole.actions[:move]))
                forced = forced_action(before, action[0])
                assert forced is not None and str(forced) == action[1], (p.id, move)
        assert replay(whole).is_over
    text = "".join(cluster.log(k) for k in cluster.procs)
    assert "no longer serves it" in text  # the resumed process dropped what it lost
    assert "Traceback" not in text
