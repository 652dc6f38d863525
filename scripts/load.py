#!/usr/bin/env python3
"""Load test of the online server and of a deployment (a benchmark, not a test).

Starts ``dragonlair serve`` on a loopback port (or uses --url), then keeps N tables of
people playing through the lobby and WebSocket APIs. Every seat is a client with a
connection of its own that plays random legal moves from what the server sends it:

- **human pace**: a table acts once every ``--think`` seconds on average (exponentially
  distributed pauses; 0 plays as fast as the server answers), one action in flight;
- **reconnects like the browser** (web/static/js/conn.js): a dropped connection comes back
  after 0.25 s doubling to 15 s with jitter, says hello again with the number of the next
  event it needs, and carries on; the refusals that cannot improve (4400, 4401, 4404,
  4409) stop the seat; an action left unanswered for ``--answer-timeout`` seconds is
  counted as unanswered and the table plays on from the newest state;
- **many source addresses**: the clients bind to 127.0.0.2, 127.0.0.3, ... (``--addresses``
  of them, every table on one), as players behind many addresses would arrive;
- **readiness of every process**: /api/ready of each process (``--backends``, or the
  processes the script started) is read every ``--health-every`` seconds;
- **bounded**: it stops by itself after warm-up + duration, and gives up on whatever is
  still running ``--grace`` seconds later, whatever the server does (a process that dies
  or stops answering cannot hold it);
- **checked against the store**: every acknowledged action (the update carrying its ``ref``
  arrived) is looked up in the database at the end (``--db``, the store the server
  writes): each table's in order, each from its seat at or after the move it was sent at;
  one not found is reported as missing.

Reported: actions/s and p50/p90/p99 latency (sending an action to receiving the update that
answers it) over the measured window, the load average, readiness per process, reconnects,
errors, and the store check; with the server started here, its CPU and peak memory; and
from every process's /metrics over the window, the bots' wait for a worker of the pool, their
time from then to their answer, and the actions' time from the table's lock to sent.

    .venv/bin/python scripts/load.py --tables 200 --think 3 --duration 30
    .venv/bin/python scripts/load.py --tables 200 --think 0 --duration 20   # saturation
    .venv/bin/python scripts/load.py --processes 2 --tables 500 --think 3 --duration 30
    .venv/bin/python scripts/load.py --processes 3 --tables 120 --players 2 --think 1 \
        --warmup 8 --duration 45 --pause 2:5:30   # a hung process: SIGSTOP for 30 s
    .venv/bin/python scripts/load.py --url http://127.0.0.1:8000 \\
        --backends http://127.0.0.1:8001,http://127.0.0.1:8002 --db postgresql://...

``--processes N`` runs N server processes (``--shard K/N``) over one PostgreSQL database
(a throw-away cluster with fsync on, unless --db names one) behind nginx configured from
``deploy/nginx/`` (tests/web/clusterkit.py), and measures through the proxy; the server
CPU and memory are then those of all the processes and nginx together.

``--pause K:AT:SECONDS`` (with ``--processes``) stops process K with SIGSTOP AT seconds
into the measured window for SECONDS (SIGCONT after, always), probes the lobby through the
proxy every half second meanwhile (a listing and a new table), and reports the actions/s
before and during the pause, the seconds without any action, and the lobby's longest waits
and answers.

``--game pebble-auction`` (the default) is the example game from the tests; the script
registers it in the server it starts. The exit status is 1 when an acknowledged action is
missing from the store, 0 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import psutil
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT

LAUNCH = """
import sys
sys.path.insert(0, {example!r})
from dragonlair.core import register
from tests.core.pebble_auction.manifest import MANIFEST
register(MANIFEST)
from dragonlair.cli import main
sys.argv = ["dragonlair", *sys.argv[1:]]
main()
"""

# close codes after which the browser does not reconnect (web/static/js/conn.js)
FATAL = {4400, 4401, 4404, 4409}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def raise_fd_limit() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def backoff(retries: int, rng: random.Random) -> float:
    """The browser's reconnection delay: 0.25 s doubling to 15 s, times 0.75 to 1.25."""
    return float(min(15.0, 0.25 * 2**retries) * (0.75 + rng.random() / 2))


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.games = 0
        self.errors: dict[str, int] = {}
        self.closes: dict[str, int] = {}
        self.reconnects = 0
        self.unanswered = 0
        self.refused_seats = 0
        self.measuring = False
        self.t0 = 0.0  # when measuring began (the loop's clock)
        self.per_second: dict[int, int] = {}  # second of the measured window -> actions
        # every acknowledged action: (table, move, seat, action)
        self.acked: list[tuple[str, int, int, str]] = []
        # practice tables: from the person's seat's last decision being played to the bots'
        # first move, and to the person being asked again, each with the game's phase (its
        # view's ``phase``) the bots were asked in: a reaction window's passes wait for its
        # length by design
        self.bot_replies: list[tuple[str, float]] = []
        self.turn_backs: list[tuple[str, float]] = []

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1

    def closed(self, code: int | str) -> None:
        self.closes[str(code)] = self.closes.get(str(code), 0) + 1


class Seat:
    """One seat's connection, kept open as the browser keeps it: reconnects with backoff
    and says hello with the next event it needs."""

    def __init__(self, table: TablePlayer, tid: str, seat: int, token: str) -> None:
        self.table = table
        self.tid = tid
        self.seat = seat
        self.token = token
        self.ws: ClientConnection | None = None
        self.latest: dict[str, Any] | None = None
        self.next_event = 0
        self.stopped = False

    async def run(self) -> None:
        t = self.table
        retries = 0
        while not self.stopped and time.monotonic() < t.stop:
            try:
                async with connect(
                    f"{t.args.ws}/ws/tables/{self.tid}",
                    compression=None,
                    max_size=2**22,
                    open_timeout=10,
                    close_timeout=2,
                    local_addr=t.local_addr,
                ) as ws:
                    self.ws = ws
                    hello = {"type": "hello", "token": self.token, "since": self.next_event}
                    await ws.send(json.dumps(hello))
                    since = self.next_event
                    async for raw in ws:
                        assert isinstance(raw, str)
                        m = json.loads(raw)
                        kind = m.get("type")
                        if kind == "welcome":
                            retries = 0
                        elif kind == "state":
                            since += len(m.get("events") or ())
                            self.next_event = since
                            self.latest = m
                            t.on_state(m)
                            ref = m.get("ref")
                            if ref is not None and ref == t.pending_ref:
                                t.answered(time.perf_counter(), m)
                            t.changed.set()
                        elif kind == "error":
                            t.stats.error(str(m.get("code")))
                            if m.get("ref") is None or m.get("ref") == t.pending_ref:
                                t.answered(None, None)
                            t.changed.set()
                code: int | str = ws.close_code if ws.close_code is not None else "none"
            except ConnectionClosed as e:
                code = e.rcvd.code if e.rcvd is not None else "abnormal"
            except InvalidStatus as e:
                code = f"http {e.response.status_code}"
            except (OSError, InvalidHandshake, TimeoutError) as e:
                code = type(e).__name__
            finally:
                self.ws = None
            t.stats.closed(code)
            if code in FATAL or t.finished:
                if code in FATAL:
                    t.stats.refused_seats += 1
                self.stopped = True
                t.changed.set()
                return
            t.stats.reconnects += 1
            await asyncio.sleep(backoff(retries, t.rng))
            retries += 1

    async def send(self, msg: dict[str, Any]) -> bool:
        ws = self.ws
        if ws is None:
            return False
        try:
            await ws.send(json.dumps(msg))
        except ConnectionClosed:
            return False
        return True


class TablePlayer:
    """Plays tables one after another at human pace, one action in flight at a time."""

    def __init__(
        self,
        args: argparse.Namespace,
        http: httpx.AsyncClient,
        stats: Stats,
        i: int,
        stop: float,
        local_addr: tuple[str, int] | None,
    ) -> None:
        self.args = args
        self.http = http
        self.stats = stats
        self.rng = random.Random(i)
        # the tables start spread over --ramp seconds, not in one burst of creations
        self.start = args.ramp * i / max(1, args.tables)
        self.stop = stop
        self.local_addr = local_addr
        self.changed = asyncio.Event()
        self.answer = asyncio.Event()
        self.pending_ref: int | None = None
        self.pending: tuple[str, int, int, str] | None = None
        self.sent_at = 0.0
        self.ref = 0
        self.finished = False
        self.held: list[tuple[str, int, int, str]] = []  # decisions held for confirmation
        self.committed = 0  # the move of the latest state that held nothing

    def on_state(self, m: dict[str, Any]) -> None:
        """Every ``state`` a seat receives, before its ``ref`` is matched."""

    def answered(self, at: float | None, state: dict[str, Any] | None) -> None:
        if self.pending_ref is None:
            return
        if at is not None and self.pending is not None:
            if state is not None and state.get("held"):
                # held for confirmation: acknowledged once the committed game shows it,
                # stored at or after the committed move it was made at (the held game's
                # move numbers count the held decisions)
                tid, _move, seat, action = self.pending
                self.held.append((tid, self.committed, seat, action))
            else:
                self.stats.acked.append(self.pending)
            if self.stats.measuring:
                self.stats.latencies.append(at - self.sent_at)
                self.stats.actions += 1
                second = int(at - self.stats.t0)
                self.stats.per_second[second] = self.stats.per_second.get(second, 0) + 1
        self.pending_ref = None
        self.pending = None
        self.answer.set()

    async def run(self) -> None:
        retries = 0
        if self.start:
            await asyncio.sleep(min(self.start, self.left()))
        while time.monotonic() < self.stop:
            created = await self.create()
            if created is None:  # the service refused or did not answer: as a person retries
                await asyncio.sleep(min(backoff(retries, self.rng), self.left()))
                retries += 1
                continue
            retries = 0
            await self.play(created)

    def left(self) -> float:
        return max(0.0, self.stop - time.monotonic())

    async def create(self) -> dict[str, Any] | None:
        a = self.args
        body = {
            "game": a.game,
            "players": a.players,
            "seats": [{"type": "human"}] * a.players,
            "deadline": 3600,
            "away": 3600,
            "listed": False,
        }
        try:
            r = await self.http.post("/api/tables", json=body)
        except httpx.HTTPError as e:
            self.stats.error(f"create: {type(e).__name__}")
            return None
        if not r.is_success:
            self.stats.error(f"create: http {r.status_code}")
            return None
        created: dict[str, Any] = r.json()
        return created

    async def play(self, created: dict[str, Any]) -> None:
        tid = created["table"]["id"]
        self.finished = False
        seats = [Seat(self, tid, p["seat"], p["token"]) for p in created["seats"]]
        loop = asyncio.get_running_loop()
        readers = [loop.create_task(s.run()) for s in seats]
        try:
            while time.monotonic() < self.stop:
                if all(s.stopped for s in seats):
                    return
                known = [s.latest for s in seats if s.latest is not None]
                if len(known) < len(seats):
                    await self.wait_change()
                    continue
                st = max(known, key=lambda m: m["move"])
                if st["status"] != "playing":
                    if st["status"] == "over":
                        self.stats.games += 1
                    return
                seat = seats[self.rng.choice(st["view"]["to_act"])]
                mine = seat.latest
                assert mine is not None
                if mine["move"] < st["move"] or not mine["legal"] or seat.ws is None:
                    await self.wait_change()
                    continue
                if self.args.think > 0:  # a person looks at the table before acting
                    pause = self.rng.expovariate(1 / self.args.think)
                    await asyncio.sleep(min(pause, self.left()))
                    if time.monotonic() >= self.stop:
                        return
                    mine = seat.latest
                    assert mine is not None
                    if mine["move"] < st["move"] or not mine["legal"]:
                        continue
                await self.act(tid, seat, mine)
        finally:
            self.finished = True
            for s in seats:
                s.stopped = True
                if s.ws is not None:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(s.ws.close(), 2)
            for r in readers:
                r.cancel()
            await asyncio.gather(*readers, return_exceptions=True)

    async def act(self, tid: str, seat: Seat, at: dict[str, Any]) -> None:
        """Send one of the legal actions of ``at`` (the seat's latest state) at random and
        wait for its answer; one that does not come within the time-out is counted
        unanswered (the connection died with it, or the process stopped answering)."""
        self.ref += 1
        action = self.rng.choice(at["legal"])
        msg = {"type": "act", "move": at["move"], "action": action, "ref": self.ref}
        self.pending_ref = self.ref
        self.pending = (tid, at["move"], seat.seat, action)
        self.answer.clear()
        self.sent_at = time.perf_counter()
        if not await seat.send(msg):
            self.pending_ref = self.pending = None
            await self.wait_change()
            return
        timeout = min(self.args.answer_timeout, self.left() + self.args.grace)
        try:
            await asyncio.wait_for(self.answer.wait(), timeout)
        except TimeoutError:
            self.stats.unanswered += 1
            self.pending_ref = self.pending = None

    async def wait_change(self) -> None:
        self.changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.changed.wait(), min(1.0, self.left() + 0.01))


class PracticePlayer(TablePlayer):
    """A practice table: one person at human pace and bots in the other seats, created as
    the lobby creates it. Besides the person's own actions it times the bots' reply: from
    the moment the person's seat stops being asked (the state in which its last decision
    was played arrives) to the first state carrying a bot's move (``bot_reply``) and to the
    person being asked again (``turn_back``). That moment is when the decision is played,
    not when the person sent it: a pass in a reaction window is played at the window's end
    (up to 1.6 s later), a decision at a table with undo at the end of its confirmation
    window, and the seat's forced answers (the draw that opens a turn, an offer it cannot
    pay for) are given for the person after a delay of 0.6 to 1.6 s
    (``dragonlair.core.autoplay``); counted from the person's last message, those waits
    were the draw phase's whole tail (docs/benchmarks/2026-12-04-capacity-practice.md)."""

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.was_asked = False  # the person's seat was asked in the latest played state
        # (move, when the person's seat stopped being asked, the game's phase then) while
        # the bots act
        self.awaiting: tuple[int, float, str] | None = None
        self.replied = False

    async def create(self) -> dict[str, Any] | None:
        a = self.args
        seats: list[dict[str, Any]] = [{"type": "human"}]
        seats += [{"type": "bot", "level": a.bot_level}] * (a.players - 1)
        body: dict[str, Any] = {
            "game": a.game,
            "players": a.players,
            "seats": seats,
            "deadline": 3600,
            "away": 3600,
            "listed": False,
        }
        if not a.lobby_defaults:
            body.update(hints=False, undo=False)  # a fast table: decisions play at once
        try:
            r = await self.http.post("/api/tables", json=body)
        except httpx.HTTPError as e:
            self.stats.error(f"create: {type(e).__name__}")
            return None
        if not r.is_success:
            self.stats.error(f"create: http {r.status_code}")
            return None
        created: dict[str, Any] = r.json()
        return created

    def on_state(self, m: dict[str, Any]) -> None:
        now = time.perf_counter()
        if m.get("held"):  # the person's own game, private while the window runs
            return
        self.committed = m["move"]
        if self.held and m["move"] > self.held[0][1]:
            self.stats.acked.extend(self.held)  # the held decisions were played
            self.held.clear()
        playing = m.get("status") == "playing"
        asked = m.get("seat") in set(m.get("view", {}).get("to_act") or ())
        if self.awaiting is None:
            if playing and self.was_asked and not asked:
                self.awaiting = (m["move"], now, str(m["view"].get("phase", "")))
                self.replied = False
            self.was_asked = asked
            return
        move, since, phase = self.awaiting
        if m["move"] > move and not self.replied:
            self.replied = True
            if self.stats.measuring:
                self.stats.bot_replies.append((phase, now - since))
        if not playing or asked:
            if playing and self.stats.measuring:
                self.stats.turn_backs.append((phase, now - since))
            self.awaiting = None
            self.was_asked = asked

    async def play(self, created: dict[str, Any]) -> None:
        tid = created["table"]["id"]
        self.finished = False
        self.awaiting = None
        self.was_asked = False
        self.held.clear()
        self.committed = 0
        mine = next(p for p in created["seats"] if p.get("token"))
        seat = Seat(self, tid, mine["seat"], mine["token"])
        reader = asyncio.get_running_loop().create_task(seat.run())
        try:
            while time.monotonic() < self.stop and not seat.stopped:
                st = seat.latest
                if st is None:
                    await self.wait_change()
                    continue
                if st["status"] != "playing":
                    if st["status"] == "over":
                        self.stats.games += 1
                    return
                if not st["legal"] or seat.ws is None:
                    await self.wait_change()
                    continue
                pause = self.rng.expovariate(1 / self.args.think) if self.args.think > 0 else 0
                await asyncio.sleep(min(pause, self.left()))
                if time.monotonic() >= self.stop:
                    return
                now = seat.latest
                if now is None or now["move"] != st["move"] or now.get("held") != st.get("held"):
                    continue
                await self.act(tid, seat, now)
        finally:
            self.finished = True
            seat.stopped = True
            if seat.ws is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(seat.ws.close(), 2)
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)


def start_server(args: argparse.Namespace) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    cmd = [sys.executable, "-c", LAUNCH.format(example=str(EXAMPLE)), "serve"]
    cmd += ["--port", str(port), "--db", args.db, "--sqlite-sync", args.sqlite_sync]
    cmd += ["--http-rate", "1000000/minute", "--ws-rate", "1000/second", "--log-level", "warning"]
    cmd += ["--max-connections-per-address", "1000000", "--limit-concurrency", "1000000"]
    cmd += getattr(args, "server_arg", [])
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=sys.stderr)
    url = f"http://127.0.0.1:{port}"
    # a fresh server imports and starts its bot workers: a minute or more on a busy machine
    end = time.monotonic() + 180
    while True:
        try:
            if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > end:
            raise SystemExit("the server did not start")
        time.sleep(0.1)


async def watch_health(
    backends: list[str], every: float, stop: float, seen: dict[str, dict[str, int]]
) -> None:
    """Read /api/ready of every process (at once, 5 s at most each) until ``stop``:
    counts of ready, not ready (503) and unreachable answers per process."""

    async def ask(http: httpx.AsyncClient, url: str) -> None:
        counts = seen.setdefault(url, {"ready": 0, "not_ready": 0, "unreachable": 0})
        try:
            r = await http.get(f"{url}/api/ready")
            counts["ready" if r.status_code == 200 else "not_ready"] += 1
        except httpx.HTTPError:
            counts["unreachable"] += 1

    async with httpx.AsyncClient(timeout=5.0) as http:
        while time.monotonic() < stop:
            await asyncio.gather(*(ask(http, url) for url in backends))
            await asyncio.sleep(min(every, max(0.0, stop - time.monotonic())))


def check_store(db: str, acked: list[tuple[str, int, int, str]]) -> dict[str, Any]:
    """Every acknowledged action, looked up in the store. A table's acknowledged actions
    (one in flight at a time, so in the order they were made) must be found among its
    stored actions in that order, each from the seat that made it at or after the move it
    was made at: an answer held in a reaction window is applied after the passes the
    server made for the other seats, so it can be stored at a later move than it was sent
    at (counted as ``later``)."""
    from sqlalchemy import create_engine, select

    from dragonlair.web.store import actions_t, normalize_url

    engine = create_engine(normalize_url(db))
    stored: dict[str, dict[int, tuple[int, str]]] = {}
    tables = sorted({a[0] for a in acked})
    try:
        with engine.connect() as conn:
            for i in range(0, len(tables), 500):
                rows = conn.execute(
                    select(
                        actions_t.c.table_id, actions_t.c.move, actions_t.c.seat, actions_t.c.action
                    ).where(actions_t.c.table_id.in_(tables[i : i + 500]))
                )
                for r in rows:
                    stored.setdefault(r.table_id, {})[r.move] = (r.seat, r.action)
    finally:
        engine.dispose()
    missing: list[tuple[str, int, int, str]] = []
    later = 0
    after: dict[str, int] = {}  # per table: the move after the last action found
    for a in acked:
        tid, move, seat, action = a
        moves = stored.get(tid, {})
        at = next(
            (
                m
                for m in sorted(moves)
                if m >= max(move, after.get(tid, 0)) and moves[m] == (seat, action)
            ),
            None,
        )
        if at is None:
            missing.append(a)
            continue
        after[tid] = at + 1
        later += at > move
    return {
        "acknowledged": len(acked),
        "found": len(acked) - len(missing),
        "missing": len(missing),
        "later": later,
        "examples": [list(a) for a in missing[:5]],
    }


class CpuMeter:
    """CPU seconds used since :meth:`start` by groups of processes and their children
    (a server's bot workers, PostgreSQL's backends), each sampled by :meth:`sample`: a
    child seen first after the start counts from zero, and one that ended keeps what it
    had at its last sample."""

    def __init__(
        self, groups: dict[str, list[psutil.Process]], children: dict[str, str] | None = None
    ) -> None:
        self.groups = groups
        self.children = children or {}  # a group's children counted under another name
        self.base: dict[int, float] = {}
        self.last: dict[int, tuple[str, float]] = {}
        self.t0 = 0.0

    def _walk(self) -> dict[int, tuple[str, psutil.Process]]:
        seen: dict[int, tuple[str, psutil.Process]] = {}
        for name, procs in self.groups.items():
            for p in procs:
                with contextlib.suppress(psutil.Error):
                    seen.setdefault(p.pid, (name, p))
                    for q in p.children(recursive=True):
                        seen.setdefault(q.pid, (self.children.get(name, name), q))
        return seen

    def start(self) -> None:
        self.t0 = time.time()
        for pid, (name, p) in self._walk().items():
            with contextlib.suppress(psutil.Error):
                t = p.cpu_times()
                self.base[pid] = t.user + t.system
                self.last[pid] = (name, self.base[pid])

    def sample(self) -> None:
        for pid, (name, p) in self._walk().items():
            with contextlib.suppress(psutil.Error):
                t = p.cpu_times()
                if pid not in self.base:
                    self.base[pid] = 0.0 if p.create_time() >= self.t0 - 1 else t.user + t.system
                self.last[pid] = (name, t.user + t.system)

    def used(self) -> dict[str, float]:
        out = dict.fromkeys([*self.groups, *self.children.values()], 0.0)
        for pid, (name, now) in self.last.items():
            out[name] += now - self.base.get(pid, now)
        return out


def cpu(servers: list[psutil.Process]) -> float:
    total = 0.0
    for s in servers:
        with contextlib.suppress(psutil.Error):
            t = s.cpu_times()
            total += t.user + t.system
    return total


async def served_actions(backends: list[str]) -> int | None:
    """Actions applied by every process (its /status), bots' included; None if one does
    not answer."""
    total = 0
    async with httpx.AsyncClient(timeout=20.0) as http:  # a loaded process answers late
        for url in backends:
            try:
                total += int((await http.get(f"{url}/status")).json()["actions"])
            except (httpx.HTTPError, ValueError, KeyError):
                return None
    return total


# the server's own histograms (every process's /metrics) read at the window's edges: where
# a bot's reply spends its time on the server side
SERVER_TIMES = {
    "bot_wait": ("dragonlair_bot_wait_seconds", {"kind": "bot"}),  # for a worker of the pool
    "bot_think": ("dragonlair_bot_seconds", {"kind": "bot"}),  # from then to its answer
    "action": ("dragonlair_action_seconds", {}),  # the table's lock to sent, commit included
}


async def server_histograms(backends: list[str]) -> dict[str, dict[float, float]] | None:
    """The cumulative bucket counts of :data:`SERVER_TIMES`, summed over every process's
    /metrics; None if one does not answer them."""
    from prometheus_client.parser import text_string_to_metric_families

    out: dict[str, dict[float, float]] = {key: {} for key in SERVER_TIMES}
    async with httpx.AsyncClient(timeout=20.0) as http:
        for url in backends:
            try:
                r = await http.get(f"{url}/metrics")
            except httpx.HTTPError:
                return None
            if r.status_code != 200:
                return None
            for family in text_string_to_metric_families(r.text):
                for key, (name, labels) in SERVER_TIMES.items():
                    if family.name != name:
                        continue
                    for sample in family.samples:
                        if sample.name == f"{name}_bucket" and all(
                            sample.labels.get(k) == v for k, v in labels.items()
                        ):
                            le = float(sample.labels["le"])
                            out[key][le] = out[key].get(le, 0.0) + sample.value
    return out


def bucket_spread(before: dict[float, float], after: dict[float, float]) -> dict[str, Any]:
    """How many were observed between two reads of a histogram, and the bucket its p50,
    p95 and p99 fall in, as the bucket's upper bound in ms (the true value is at most it)."""
    bounds = sorted(after)
    counts = [after[le] - before.get(le, 0.0) for le in bounds]
    total = counts[-1] if counts else 0.0
    out: dict[str, Any] = {"count": int(total)}
    for p in (50, 95, 99):
        le = next((b for b, c in zip(bounds, counts, strict=True) if c >= p / 100 * total), None)
        out[f"p{p}_at_most"] = None if not total or le is None else round(1000 * le, 1)
    return out


def rss(servers: list[psutil.Process]) -> int:
    total = 0
    for s in servers:
        with contextlib.suppress(psutil.Error):
            total += s.memory_info().rss
    return total


async def measure(
    args: argparse.Namespace, servers: list[psutil.Process], meter: CpuMeter
) -> dict[str, Any]:
    stats = Stats()
    me = psutil.Process()
    loop = asyncio.get_running_loop()
    start = time.monotonic()
    stop = start + args.warmup + args.duration
    health: dict[str, dict[str, int]] = {}
    addresses = [f"127.0.0.{2 + k}" for k in range(args.addresses)]
    sources: list[str | None] = list(addresses) or [None]
    clients = [
        httpx.AsyncClient(
            base_url=args.url,
            transport=httpx.AsyncHTTPTransport(
                local_address=source, retries=1, limits=httpx.Limits(max_connections=100)
            ),
            timeout=10,
        )
        for source in sources
    ]
    try:
        players = []
        for i in range(args.tables):
            source = sources[i % len(sources)]
            players.append(
                (PracticePlayer if args.practice else TablePlayer)(
                    args,
                    clients[i % len(clients)],
                    stats,
                    i,
                    stop,
                    (source, 0) if source else None,
                )
            )
        tasks = [loop.create_task(p.run()) for p in players]
        watcher = loop.create_task(watch_health(args.backends, args.health_every, stop, health))
        await asyncio.sleep(args.warmup)
        stats.t0 = time.perf_counter()
        stats.measuring = True
        t0 = time.monotonic()
        lobby: list[tuple[float, str, int, float]] = []
        extra = []
        if args.pause_pid:
            extra.append(loop.create_task(pause(args, stop)))
            extra.append(loop.create_task(probe_lobby(args, clients[0], t0, stop, lobby)))
        s0 = cpu(servers)
        c0 = me.cpu_times()
        meter.start()
        served0 = await served_actions(args.backends)
        times0 = await server_histograms(args.backends)
        peak = 0
        loads = []
        while time.monotonic() < stop:
            await asyncio.sleep(min(1.0, max(0.0, stop - time.monotonic())))
            peak = max(peak, rss(servers))
            loads.append(os.getloadavg()[0])
            meter.sample()
        stats.measuring = False
        elapsed = time.monotonic() - t0
        s1 = cpu(servers)
        c1 = me.cpu_times()
        served1 = await served_actions(args.backends)
        times1 = await server_histograms(args.backends)
        load1 = os.getloadavg()[0]
        # whatever still runs after the grace period is abandoned: the tool always stops
        _done, late = await asyncio.wait([*tasks, watcher, *extra], timeout=args.grace)
        for t in late:
            t.cancel()
        await asyncio.gather(*late, return_exceptions=True)
        failures = [
            repr(t.exception()) for t in tasks if t not in late and t.exception() is not None
        ]
    finally:
        for c in clients:
            await c.aclose()
    lat = sorted(stats.latencies)

    def pct(p: float, values: list[float] = lat) -> float:
        if not values:
            return float("nan")
        return 1000 * values[min(len(values) - 1, int(p / 100 * len(values)))]

    def spread(values: list[float]) -> dict[str, Any]:
        values = sorted(values)
        return {
            "count": len(values),
            **{f"p{p}": round(pct(p, values), 1) for p in (50, 95, 99)},
            "max": round(1000 * values[-1], 1) if values else None,
        }

    def by_phase(waits: list[tuple[str, float]]) -> dict[str, Any]:
        phases = sorted({p for p, _ in waits})
        return {
            "all": spread([w for _, w in waits]),
            **{p or "-": spread([w for q, w in waits if q == p]) for p in phases},
        }

    used = meter.used()
    served = served1 - served0 if served0 is not None and served1 is not None else None
    cpu_s = {name: round(v, 2) for name, v in used.items()}
    server_s = used.get("server", 0.0) + used.get("bot workers", 0.0)

    return {
        "game": args.game,
        "players": args.players,
        "tables": args.tables,
        "think_s": args.think,
        "db": args.db_label,
        "seconds": round(elapsed, 1),
        "actions": stats.actions,
        "actions_per_s": round(stats.actions / elapsed, 1),
        "games_finished": stats.games,
        "latency_ms": {
            "p50": round(pct(50), 2),
            "p90": round(pct(90), 2),
            "p99": round(pct(99), 2),
            "mean": round(1000 * statistics.fmean(lat), 2) if lat else None,
        },
        "load_average": {
            "mean_1min": round(statistics.fmean(loads), 2) if loads else None,
            "end_1min": round(load1, 2),
        },
        "processes": len(args.backends),
        "readiness": health,
        "source_addresses": len(addresses) or 1,
        "reconnects": stats.reconnects,
        "closes": stats.closes,
        "unanswered": stats.unanswered,
        "refused_seats": stats.refused_seats,
        "abandoned_tasks": len(late),
        "server_cpu_cores": round((s1 - s0) / elapsed, 2) if servers else None,
        "cpu_seconds": cpu_s,
        "served_actions": served,
        "served_actions_per_s": round(served / elapsed, 1) if served is not None else None,
        "server_cpu_ms_per_served_action": (
            round(1000 * server_s / served, 3) if served and "server" in used else None
        ),
        "server_times_ms": (
            {key: bucket_spread(times0[key], times1[key]) for key in SERVER_TIMES}
            if times0 is not None and times1 is not None
            else None
        ),
        "practice": (
            {
                "bot_level": args.bot_level,
                "lobby_defaults": args.lobby_defaults,
                "bot_reply_ms": by_phase(stats.bot_replies),
                "turn_back_ms": by_phase(stats.turn_backs),
            }
            if args.practice
            else None
        ),
        "server_peak_rss_mb": round(peak / 2**20, 1) if servers else None,
        "client_cpu_cores": round((c1.user + c1.system - c0.user - c0.system) / elapsed, 2),
        "errors": stats.errors,
        "failures": failures[:5],
        "machine": f"{os.cpu_count()} cores",
        "pause": paused_figures(args, stats, lobby, elapsed) if args.pause_pid else None,
        "_acked": stats.acked,
    }


async def pause(args: argparse.Namespace, stop: float) -> None:
    """SIGSTOP the chosen process ``args.pause_at`` seconds into the measured window, and
    SIGCONT it ``args.pause_for`` seconds later (always, even if the run ends first)."""
    await asyncio.sleep(args.pause_at)
    os.kill(args.pause_pid, signal.SIGSTOP)
    try:
        await asyncio.sleep(args.pause_for)
    finally:
        os.kill(args.pause_pid, signal.SIGCONT)


async def probe_lobby(
    args: argparse.Namespace,
    client: httpx.AsyncClient,
    t0: float,
    stop: float,
    out: list[tuple[float, str, int, float]],
) -> None:
    """A lobby listing and a new table through the proxy every half second, as people
    arriving would: (second of the window, method, status (0: no answer), seconds waited)."""
    body = {"game": args.game, "players": 2, "seats": [{"type": "human"}, {"type": "open"}]}
    while time.monotonic() < stop:
        for method in ("GET", "POST"):
            began = time.monotonic()
            try:
                if method == "GET":
                    r = await client.get("/api/tables", params={"limit": 5}, timeout=60)
                else:
                    r = await client.post("/api/tables", json=body, timeout=60)
                status = r.status_code
            except httpx.HTTPError:
                status = 0
            out.append((began - t0, method, status, time.monotonic() - began))
        await asyncio.sleep(0.5)


def paused_figures(
    args: argparse.Namespace,
    stats: Stats,
    lobby: list[tuple[float, str, int, float]],
    elapsed: float,
) -> dict[str, Any]:
    """What the rest did while one process was stopped: actions/s before and during the
    pause, the seconds with no action at all, and the lobby's waits and answers."""
    a, b = args.pause_at, args.pause_at + args.pause_for
    before = [stats.per_second.get(s, 0) for s in range(int(a))]
    during = [stats.per_second.get(s, 0) for s in range(int(a), min(int(b), int(elapsed)))]
    in_pause = [x for x in lobby if a <= x[0] < b]

    def worst(method: str) -> float | None:
        waits = [x[3] for x in in_pause if x[1] == method]
        return round(max(waits), 2) if waits else None

    statuses: dict[str, int] = {}
    for x in in_pause:
        key = f"{x[1]} {x[2] or 'no answer'}"
        statuses[key] = statuses.get(key, 0) + 1
    return {
        "process": args.pause,
        "actions_per_s_before": round(statistics.fmean(before), 1) if before else None,
        "actions_per_s_during": round(statistics.fmean(during), 1) if during else None,
        "seconds_without_an_action": sum(1 for n in during if n == 0),
        "lobby_get_longest_wait_s": worst("GET"),
        "lobby_post_longest_wait_s": worst("POST"),
        "lobby_answers_during": statuses,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--game",
        default=None,
        help="game id (default: the example game; with --practice, dragon-stripes, where "
        "three bots answer each turn of the person)",
    )
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--tables", type=int, default=200, help="concurrent tables")
    ap.add_argument(
        "--practice",
        type=int,
        default=0,
        metavar="N",
        help="N practice tables instead: one person at --think pace and bots in the other "
        "seats; reports the bots' reply latency",
    )
    ap.add_argument("--bot-level", default="heuristic", help="with --practice: the bots' level")
    ap.add_argument(
        "--lobby-defaults",
        action="store_true",
        help="with --practice: the table as the lobby makes it by default (its bot level "
        "for the game, hints and undo on: each decision held for the confirmation window)",
    )
    ap.add_argument(
        "--server-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="an argument for the server processes started here (repeatable, e.g. "
        "--server-arg=--bot-workers=3)",
    )
    ap.add_argument(
        "--think",
        type=float,
        default=3.0,
        help="mean seconds between a table's actions (human pace; 0: as fast as answered)",
    )
    ap.add_argument("--duration", type=float, default=20.0, help="measured seconds")
    ap.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    ap.add_argument(
        "--ramp",
        type=float,
        default=0.0,
        help="seconds over which the tables start, evenly (default 0: all at once); keep it "
        "below --warmup",
    )
    ap.add_argument(
        "--grace",
        type=float,
        default=15.0,
        help="seconds after the run before what still runs is abandoned",
    )
    ap.add_argument(
        "--answer-timeout",
        type=float,
        default=30.0,
        help="seconds an action may wait for its answer before it counts as unanswered",
    )
    ap.add_argument(
        "--addresses",
        type=int,
        default=16,
        help="source addresses 127.0.0.2 on to spread the clients over (0: the default one)",
    )
    ap.add_argument(
        "--health-every", type=float, default=2.0, help="seconds between readiness reads"
    )
    ap.add_argument(
        "--db",
        default=None,
        help="the store's URL: the server's storage when started here, and the database "
        "the acknowledged actions are checked against (default: a fresh SQLite file)",
    )
    ap.add_argument("--no-check", action="store_true", help="skip the check against the store")
    ap.add_argument("--sqlite-sync", default="FULL", choices=["FULL", "NORMAL"])
    ap.add_argument("--url", default=None, help="use this running service instead of starting one")
    ap.add_argument(
        "--backends",
        default="",
        help="with --url: comma-separated URLs of every process, for their /api/ready",
    )
    ap.add_argument(
        "--server-pid",
        type=int,
        action="append",
        default=[],
        help="with --url: a server process, for CPU and memory (repeatable)",
    )
    ap.add_argument(
        "--processes",
        type=int,
        default=0,
        help="run N server processes (--shard K/N) over a throw-away PostgreSQL (or --db) "
        "behind nginx configured from deploy/nginx, and measure through the proxy",
    )
    ap.add_argument(
        "--pause",
        default=None,
        metavar="K:AT:SECONDS",
        help="with --processes: stop process K (SIGSTOP) AT seconds into the measured window "
        "for SECONDS, and report what the others and the lobby did meanwhile",
    )
    ap.add_argument("--json", action="store_true", help="print the figures as JSON only")
    args = ap.parse_args()
    if args.practice < 0:
        ap.error("--practice must be a number of tables")
    if args.practice:
        args.tables = args.practice
        if args.players < 2:
            ap.error("--practice needs --players 2 or more (one person, the rest bots)")
    elif args.lobby_defaults:
        ap.error("--lobby-defaults goes with --practice")
    if args.game is None:
        args.game = "dragon-stripes" if args.practice else "pebble-auction"
    if args.tables < 1 or args.players < 1 or args.duration <= 0:
        ap.error("--tables and --players must be positive, --duration above zero")
    if args.think < 0 or args.warmup < 0 or args.grace < 0 or args.answer_timeout <= 0:
        ap.error(
            "--think, --warmup and --grace cannot be negative, --answer-timeout must be positive"
        )
    if not 0 <= args.addresses <= 250:
        ap.error("--addresses must be between 0 and 250")
    if args.health_every <= 0:
        ap.error("--health-every must be above zero")
    args.pause_pid = 0
    if args.pause is not None:
        try:
            k, at, seconds = args.pause.split(":")
            args.pause_k, args.pause_at, args.pause_for = int(k), float(at), float(seconds)
        except ValueError:
            ap.error("--pause is K:AT:SECONDS, e.g. 2:10:30")
        if not 1 <= args.pause_k <= args.processes:
            ap.error("--pause needs --processes N and a process K between 1 and N")
        if args.pause_at < 0 or args.pause_for <= 0:
            ap.error("--pause: AT cannot be negative and SECONDS must be positive")
    raise_fd_limit()
    tmp = None
    proc = None
    cluster = pg = None
    backends = [b.strip().rstrip("/") for b in args.backends.split(",") if b.strip()]
    groups: dict[str, list[psutil.Process]] = {}
    if args.processes > 0:
        sys.path.insert(0, str(ROOT))
        from tests.web.clusterkit import Cluster
        from tests.web.conftest import PostgresCluster

        if args.db is None:
            pg = PostgresCluster(fsync=True)
            args.db = pg.url
        cluster = Cluster(args.db, args.processes, extra=args.server_arg)
        args.url = cluster.url
        backends = [cluster.backend(k) for k in range(1, args.processes + 1)]
        servers = [psutil.Process(p.pid) for p in cluster.procs.values()]
        groups["server"] = list(servers)
        if args.pause is not None:
            args.pause_pid = cluster.procs[args.pause_k].pid
        assert cluster.nginx is not None
        servers.append(psutil.Process(cluster.nginx.pid))
        groups["nginx"] = [servers[-1]]
        if pg is not None:
            with contextlib.suppress(OSError, ValueError, psutil.Error):
                pid = int((pg.data / "postmaster.pid").read_text().split()[0])
                groups["postgresql"] = [psutil.Process(pid)]
    elif args.url is None:
        if args.db is None:
            tmp = tempfile.TemporaryDirectory()
            args.db = f"sqlite:///{tmp.name}/load.sqlite3"
        proc, args.url = start_server(args)
        servers = [psutil.Process(proc.pid)]
        groups["server"] = list(servers)
    else:
        servers = [psutil.Process(pid) for pid in args.server_pid]
        groups["server"] = list(servers)
    args.url = args.url.rstrip("/")
    args.backends = backends or [args.url]
    args.ws = "ws" + args.url[4:]
    args.db_label = (args.db or "given server").split("://")[0] + (
        f" synchronous={args.sqlite_sync}" if (args.db or "").startswith("sqlite") else ""
    )
    try:
        meter = CpuMeter(groups, {"server": "bot workers"})
        report = asyncio.run(measure(args, servers, meter))
        acked = report.pop("_acked")
        report["store_check"] = (
            check_store(args.db, acked) if args.db and not args.no_check else None
        )
    finally:
        if cluster is not None:
            cluster.close()
        if pg is not None:
            pg.stop()
        if proc is not None:
            proc.terminate()
            proc.wait(30)
        if tmp is not None:
            tmp.cleanup()
    check = report["store_check"]
    bad = check is not None and check["missing"] > 0
    if args.json:
        print(json.dumps(report, indent=2))
        sys.exit(1 if bad else 0)
    lat = report["latency_ms"]
    load = report["load_average"]
    print(
        f"{report['game']} {report['players']}p, {report['tables']} tables acting every "
        f"{report['think_s']} s, {report['db']}, {report['processes']} process(es), "
        f"{report['source_addresses']} source addresses: "
        f"{report['actions_per_s']:,} actions/s over {report['seconds']} s; latency p50 "
        f"{lat['p50']} ms, p90 {lat['p90']} ms, p99 {lat['p99']} ms (mean {lat['mean']} ms); "
        f"load average {load['mean_1min']} (1 min, mean over the run); server CPU "
        f"{report['server_cpu_cores']} cores, peak RSS {report['server_peak_rss_mb']} MB; "
        f"client CPU {report['client_cpu_cores']} cores; games finished "
        f"{report['games_finished']}; reconnects {report['reconnects']}; unanswered "
        f"{report['unanswered']}; errors {report['errors'] or 'none'}"
    )
    print(
        f"  CPU seconds over the window: {report['cpu_seconds'] or 'not measured'}; actions "
        f"served (bots' included) {report['served_actions_per_s']}/s, server and bot workers "
        f"{report['server_cpu_ms_per_served_action']} ms of CPU per action"
    )
    practice = report["practice"]
    if practice is not None:
        for name in ("bot_reply_ms", "turn_back_ms"):
            for phase, f in practice[name].items():
                print(
                    f"  {name.replace('_', ' ')[:-3]}, {phase} ({practice['bot_level']} bots"
                    f"{', lobby defaults' if practice['lobby_defaults'] else ''}): "
                    f"{f['count']} waits, p50 {f['p50']} ms, p95 {f['p95']} ms, "
                    f"p99 {f['p99']} ms, max {f['max']} ms"
                )
    times = report["server_times_ms"]
    if times is not None:
        print(
            "  the processes' own histograms over the window (bucket bounds, ms): "
            + "; ".join(
                f"{key} {f['count']} p50 <= {f['p50_at_most']}, p95 <= {f['p95_at_most']}, "
                f"p99 <= {f['p99_at_most']}"
                for key, f in times.items()
            )
        )
    for url, seen in report["readiness"].items():
        print(f"  {url}/api/ready: {seen}")
    if check is None:
        print("store check: skipped (no --db)")
    else:
        print(
            f"store check: {check['found']} of {check['acknowledged']} acknowledged actions "
            f"found in the store, in order ({check['later']} stored at a later move than "
            f"sent at, after a reaction window); missing {check['missing']}"
        )
    paused = report["pause"]
    if paused is not None:
        print(
            f"process {paused['process']} stopped: actions/s before "
            f"{paused['actions_per_s_before']}, during {paused['actions_per_s_during']} "
            f"({paused['seconds_without_an_action']} s without any); lobby during: longest "
            f"GET {paused['lobby_get_longest_wait_s']} s, POST "
            f"{paused['lobby_post_longest_wait_s']} s, answers {paused['lobby_answers_during']}"
        )
    if report["failures"]:
        print("failures:", *report["failures"], sep="\n  ")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
