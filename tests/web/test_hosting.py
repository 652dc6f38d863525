"""Hosting with real parts: PostgreSQL, three ``dragonlair serve --shard K/3`` processes and
nginx configured with the shipped files. Tables are played through the proxy over
WebSockets; the process owning the most tables is killed with SIGKILL mid-game; its tables
are taken over by the others (before any client comes back), and every table finishes with
no action lost or doubled; no table is ever owned by two processes at once."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import threading
import time
from typing import Any

import httpx
import pytest

from dragonlair.core import Record, replay
from tests.web.clusterkit import NGINX, Cluster
from tests.web.conftest import fresh_database
from tests.web.serverkit import SeatClient

pytestmark = pytest.mark.slow

TABLES = 6
KILL_AT = 4  # moves every table has made before the kill
DEADLINE = 120.0


class Player:
    """Plays one table through the proxy with random legal actions, reconnecting when a
    connection ends; keeps every action it sent and every one acknowledged."""

    def __init__(self, ws: str, created: dict[str, Any], rng: random.Random) -> None:
        self.ws = ws
        self.id = created["table"]["id"]
        self.tokens = {p["seat"]: p["token"] for p in created["seats"]}
        self.rng = rng
        self.clients: dict[int, SeatClient] = {}
        self.sent: dict[int, tuple[int, str]] = {}  # move -> (seat, action)
        self.acked: dict[int, tuple[int, str]] = {}
        self.move = 0
        self.over = False
        self.reconnects = 0

    async def connect(self) -> None:
        """Open every seat's connection at once, as each seat's own browser does, until
        all of them are open."""
        end = time.monotonic() + 30
        for c in self.clients.values():
            with contextlib.suppress(Exception):
                await c.close()
        self.clients = {}
        seats = list(self.tokens)
        while True:
            got = await asyncio.gather(
                *(SeatClient.open(self.ws, self.id, self.tokens[s], s) for s in seats),
                return_exceptions=True,
            )
            failed = [g for g in got if isinstance(g, BaseException)]
            if not failed:
                self.clients = {s: g for s, g in zip(seats, got, strict=True)}  # type: ignore[misc]
                return
            for g in got:
                if isinstance(g, SeatClient):
                    with contextlib.suppress(Exception):
                        await g.close()
            if time.monotonic() > end:
                raise failed[0]
            await asyncio.sleep(0.2)

    async def play(self, go: asyncio.Event, until: int | None = None) -> None:
        end = time.monotonic() + DEADLINE
        n = 0
        while not self.over and (until is None or self.move < until):
            n += 1
            assert n < 10_000 and time.monotonic() < end, f"table {self.id} did not finish"
            await go.wait()
            if not self.clients or any(c.closed for c in self.clients.values()):
                self.reconnects += 1
                await self.connect()
            st = max((c.latest for c in self.clients.values()), key=lambda m: m["move"])
            self.move = st["move"]
            if st["status"] == "over":
                self.over = True
                return
            seat = min(st["view"]["to_act"])
            c = self.clients[seat]
            with contextlib.suppress(AssertionError):
                await c.wait(lambda c=c, m=st["move"]: c.latest["move"] >= m, "its state", 5)
            mine = c.latest
            if mine["move"] != st["move"] or not mine["legal"]:
                continue
            action = self.rng.choice(mine["legal"])
            ref = f"{self.id}:{mine['move']}"
            self.sent[mine["move"]] = (seat, action)
            try:
                await c.act(mine["move"], action, ref=ref)
                await c.wait(
                    lambda c=c, r=ref: (
                        any(m.get("ref") == r for m in c.states[-3:])
                        or any(e.get("move") is not None for e in c.errors)
                    ),
                    "the answer",
                    10,
                )
            except Exception:
                continue  # the connection ended: reconnect and look again
            if any(m.get("ref") == ref for m in c.states[-3:]):
                self.acked[mine["move"]] = (seat, action)
            c.errors.clear()


class Watcher:
    """Asks every live process which tables it owns, again and again, and records any
    table owned by two processes in the same round."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.doubles: list[tuple[str, list[int]]] = []
        self.owners: dict[str, set[int]] = {}
        self.rounds = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        end = time.monotonic() + DEADLINE * 2
        while not self.stop.is_set() and time.monotonic() < end:
            owned: dict[str, list[int]] = {}
            answers = {k: self.cluster.health(k) for k in self.cluster.alive()}
            # a process killed during the round may have answered before its tables moved:
            # only the answers of processes still alive at the end of the round count
            still = set(self.cluster.alive())
            for k, h in answers.items():
                for t in (h or {}).get("owns", []):
                    self.owners.setdefault(t, set()).add(k)
                    if k in still:
                        owned.setdefault(t, []).append(k)
            self.doubles += [(t, ks) for t, ks in owned.items() if len(ks) > 1]
            self.rounds += 1
            self.stop.wait(0.1)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(30)


@pytest.fixture
def cluster(postgres: str) -> Any:
    if not os.access(NGINX, os.X_OK):
        msg = f"no nginx at {NGINX} (apt-get install nginx)"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)
    c = Cluster(fresh_database(postgres), 3)
    try:
        yield c
    finally:
        c.close()


def test_a_killed_process_tables_finish_on_the_others(cluster: Cluster) -> None:
    rng = random.Random(23)
    created = []
    for _ in range(TABLES):
        r = httpx.post(
            f"{cluster.url}/api/tables",
            json={"game": "pebble-auction", "players": 2, "seats": [{"type": "human"}] * 2},
            timeout=30,
        )
        assert r.status_code == 201, r.text
        created.append(r.json())
    listing = httpx.get(f"{cluster.url}/api/tables", timeout=30)
    assert int(listing.headers["X-Total-Count"]) == TABLES  # any process lists them all
    watcher = Watcher(cluster)
    players = [Player(cluster.ws, c, random.Random(rng.random())) for c in created]

    async def main() -> None:
        go = asyncio.Event()
        go.set()
        await asyncio.gather(*(p.play(go, until=KILL_AT) for p in players))
        owns = {k: set((cluster.health(k) or {})["owns"]) for k in cluster.alive()}
        assert set().union(*owns.values()) >= {p.id for p in players}
        victim = max(owns, key=lambda k: len(owns[k]))
        orphaned = owns[victim]
        assert orphaned
        # the watcher has seen who owns them before that process is killed (its rounds are
        # slow while the processes are busy, and a table's move is seen as two owners)
        seen_by = time.monotonic() + 15
        while not all(victim in watcher.owners.get(t, set()) for t in orphaned):
            assert time.monotonic() < seen_by, "the watcher never saw the tables' owner"
            await asyncio.sleep(0.1)
        go.clear()  # nobody reconnects: the survivors must find the tables themselves
        cluster.kill(victim)
        end = time.monotonic() + 30
        while True:
            taken = set()
            for k in cluster.alive():
                taken |= set((cluster.health(k) or {}).get("owns", []))
            if orphaned <= taken:
                break
            assert time.monotonic() < end, f"tables {orphaned - taken} were not taken over"
            await asyncio.sleep(0.2)
        # ... and has seen them owned by another before the games go on (and end)
        while not all(len(watcher.owners.get(t, set())) > 1 for t in orphaned):
            assert time.monotonic() < end, "the watcher never saw the tables move"
            await asyncio.sleep(0.1)
        go.set()
        await asyncio.gather(*(p.play(go) for p in players))
        for p in players:
            for c in p.clients.values():
                await c.close()

    try:
        asyncio.run(main())
    finally:
        watcher.close()
    assert watcher.rounds >= 3
    assert watcher.doubles == [], "a table was owned by two processes at once"
    for p in players:
        assert p.over
        rec = httpx.get(f"{cluster.url}/api/tables/{p.id}/record", timeout=30)
        assert rec.status_code == 200, rec.text
        record = rec.json()
        stored = [tuple(a) for a in record["actions"]]
        # nothing acknowledged is lost, and every stored action is one that was sent at
        # that very move (none invented, none doubled)
        for move, action in p.acked.items():
            assert stored[move] == action, (p.id, move)
        for move, action in enumerate(stored):
            assert p.sent.get(move) == action, (p.id, move)
        final = replay(Record.from_dict(record))
        assert final.is_over
    # the logs are JSON lines naming tables and processes, and never carry a token
    tokens = {s["token"] for c in created for s in c["seats"]} | {
        c["watch"]["token"] for c in created
    }
    raw = [x for k in cluster.procs for x in cluster.log(k).splitlines() if x]
    # (the one exception: a killed process cannot clean up after its bot workers, and
    # Python's resource tracker, a process of its own, says so on the same stderr)
    tracker = [x for x in raw if not x.startswith("{")]
    assert all("resource_tracker" in x or "warnings.warn(" in x for x in tracker), tracker
    lines = [json.loads(x) for x in raw if x.startswith("{")]
    assert {ln["process"] for ln in lines} == {"1/3", "2/3", "3/3"}
    assert {ln.get("table") for ln in lines} >= {p.id for p in players}
    text = "".join(cluster.log(k) for k in cluster.procs)
    assert not [t for t in tokens if t in text]
    moved = [p.id for p in players if len(watcher.owners.get(p.id, set())) > 1]
    assert moved, "no table changed process"
    assert any(p.reconnects > 1 for p in players)
