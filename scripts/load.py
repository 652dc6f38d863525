#!/usr/bin/env python3
"""Load test of the online server (a benchmark, not a test).

Starts ``dragonlair serve`` on a loopback port (or uses --url), then runs N concurrent
tables through the lobby and WebSocket APIs. Every seat is a client of its own connection
that plays random legal moves from what the server sends it, with one action in flight per
table: the next action is sent only once the acting client has received the update that
answers the last one. When a game ends its table is replaced by a new one, so the load
stays at N tables for the whole run.

Reported: actions/s, and p50/p90/p99 latency from sending an action to the acting client
receiving its update (the message carrying the action's ``ref``), over the measured window
after a warm-up; the server's CPU (in cores) and peak memory (RSS); the client's CPU.

    .venv/bin/python scripts/load.py --tables 200 --duration 30
    .venv/bin/python scripts/load.py --game space-race --players 4 --db postgresql://...
    .venv/bin/python scripts/load.py --processes 3 --tables 200 --duration 20

``--processes N`` runs N server processes (``--shard K/N``) over one PostgreSQL database
(a throw-away cluster with fsync on, unless --db names one) behind nginx configured from
``deploy/nginx/`` (tests/web/clusterkit.py), and measures through the proxy; the server
CPU and memory are then those of all the processes and nginx together.

``--game pebble-auction`` (the default) is the example game from the tests; the script
registers it in the server it starts.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def raise_fd_limit() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.games = 0
        self.errors: dict[str, int] = {}
        self.measuring = False

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


class Seat:
    """One seat's connection. Messages are kept as text and parsed only when the table
    needs this seat's latest state, so the clients spend little CPU beside the server."""

    def __init__(self, ws: ClientConnection, seat: int, table: TablePlayer) -> None:
        self.ws = ws
        self.seat = seat
        self.table = table
        self.raw: str | None = None
        self._parsed: dict[str, Any] | None = None

    @property
    def latest(self) -> dict[str, Any] | None:
        if self._parsed is None and self.raw is not None:
            self._parsed = json.loads(self.raw)
        return self._parsed

    async def read(self) -> None:
        t = self.table
        async for raw in self.ws:
            assert isinstance(raw, str)
            if raw.startswith('{"type":"state"'):
                self.raw, self._parsed = raw, None
                if t.pending_ref is not None and raw.endswith(f',"ref":{t.pending_ref}}}'):
                    t.answered(time.perf_counter())
                t.changed.set()
            elif raw.startswith('{"type":"error"'):
                t.stats.error(json.loads(raw)["code"])
                t.answered(None)
                t.changed.set()


class TablePlayer:
    """Plays tables one after another, one action in flight at a time."""

    def __init__(self, args: argparse.Namespace, http: httpx.AsyncClient, stats: Stats, i: int):
        self.args = args
        self.http = http
        self.stats = stats
        self.rng = random.Random(i)
        self.changed = asyncio.Event()
        self.pending_ref: int | None = None
        self.sent_at = 0.0
        self.ref = 0
        self.answer = asyncio.Event()

    def answered(self, at: float | None) -> None:
        if self.pending_ref is None:
            return
        if at is not None and self.stats.measuring:
            self.stats.latencies.append(at - self.sent_at)
            self.stats.actions += 1
        self.pending_ref = None
        self.answer.set()

    async def run(self, stop: float) -> None:
        while time.monotonic() < stop:
            await self.play_one(stop)

    async def play_one(self, stop: float) -> None:
        a = self.args
        body = {
            "game": a.game,
            "players": a.players,
            "seats": [{"type": "human"}] * a.players,
            "deadline": 3600,
            "away": 3600,
            "listed": False,
        }
        for attempt in range(3):
            try:
                r = await self.http.post("/api/tables", json=body)
                break
            except httpx.TransportError:  # a kept-alive connection the server had closed
                if attempt == 2:
                    raise
        r.raise_for_status()
        created = r.json()
        tid = created["table"]["id"]
        seats: list[Seat] = []
        readers = []
        try:
            for p in created["seats"]:
                ws = await connect(
                    f"{a.ws}/ws/tables/{tid}", compression=None, max_size=2**22, open_timeout=60
                )
                await ws.send(json.dumps({"type": "hello", "token": p["token"]}))
                s = Seat(ws, p["seat"], self)
                seats.append(s)
                readers.append(asyncio.get_running_loop().create_task(s.read()))
            while time.monotonic() < stop:
                # the newest state any seat has seen
                known = [s.latest for s in seats if s.latest is not None]
                if len(known) < len(seats):
                    self.changed.clear()
                    await self.changed.wait()
                    continue
                st = max(known, key=lambda m: m["move"])
                if st["status"] == "over":
                    self.stats.games += 1
                    return
                to_act = st["view"]["to_act"]
                seat = seats[self.rng.choice(to_act)]
                mine = seat.latest
                assert mine is not None
                if mine["move"] < st["move"] or not mine["legal"]:
                    self.changed.clear()
                    await self.changed.wait()
                    continue
                self.ref += 1
                self.pending_ref = self.ref
                self.answer.clear()
                action = self.rng.choice(mine["legal"])
                msg = {"type": "act", "move": mine["move"], "action": action, "ref": self.ref}
                self.sent_at = time.perf_counter()
                await seat.ws.send(json.dumps(msg))
                await self.answer.wait()
        finally:
            for s in seats:
                await s.ws.close()
            for t in readers:
                t.cancel()


def start_server(args: argparse.Namespace) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    cmd = [sys.executable, "-c", LAUNCH.format(example=str(EXAMPLE)), "serve"]
    cmd += ["--port", str(port), "--db", args.db, "--sqlite-sync", args.sqlite_sync]
    cmd += ["--http-rate", "1000000/minute", "--ws-rate", "1000/second", "--log-level", "warning"]
    # every client is on this machine: one address for all the tables' connections
    cmd += ["--max-connections-per-address", "1000000", "--limit-concurrency", "1000000"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=sys.stderr)
    url = f"http://127.0.0.1:{port}"
    end = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > end:
            raise SystemExit("the server did not start")
        time.sleep(0.1)


async def health(http: httpx.AsyncClient, args: argparse.Namespace) -> dict[str, int]:
    """Actions and commits of every server process (each answers for itself only, at its
    own /status)."""
    out = {"actions": 0, "commits": 0}
    for url in args.backends or [args.url]:
        r = await http.get(f"{url}/status")
        if r.status_code != 200:  # a proxy refuses /status: name the processes (--backends)
            continue
        h = r.json()
        out["actions"] += h["actions"]
        out["commits"] += h["commits"]
    return out


def cpu(servers: list[psutil.Process]) -> float:
    return sum(t.user + t.system for t in (s.cpu_times() for s in servers))


async def measure(args: argparse.Namespace, servers: list[psutil.Process]) -> dict[str, Any]:
    stats = Stats()
    me = psutil.Process()
    limits = httpx.Limits(max_connections=100)
    async with httpx.AsyncClient(base_url=args.url, limits=limits, timeout=120) as http:
        start = time.monotonic()
        stop = start + args.warmup + args.duration
        players = [TablePlayer(args, http, stats, i) for i in range(args.tables)]
        tasks = [asyncio.get_running_loop().create_task(p.run(stop)) for p in players]
        await asyncio.sleep(args.warmup)
        h0 = await health(http, args)
        stats.measuring = True
        t0 = time.monotonic()
        s0 = cpu(servers)
        c0 = me.cpu_times()
        peak = 0
        while time.monotonic() < stop:
            await asyncio.sleep(min(1.0, max(0.0, stop - time.monotonic())))
            if servers:
                peak = max(peak, sum(s.memory_info().rss for s in servers))
        stats.measuring = False
        elapsed = time.monotonic() - t0
        h1 = await health(http, args)
        s1 = cpu(servers)
        c1 = me.cpu_times()
        done = await asyncio.gather(*tasks, return_exceptions=True)
        failures = [repr(d) for d in done if isinstance(d, BaseException)]
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(p / 100 * len(lat)))] if lat else float("nan")

    return {
        "game": args.game,
        "players": args.players,
        "tables": args.tables,
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
        "commits_per_s": round((h1["commits"] - h0["commits"]) / elapsed, 1),
        "actions_per_commit": round(
            (h1["actions"] - h0["actions"]) / max(1, h1["commits"] - h0["commits"]), 1
        ),
        "processes": len(args.backends) or 1,
        "server_cpu_cores": round((s1 - s0) / elapsed, 2) if servers else None,
        "server_peak_rss_mb": round(peak / 2**20, 1) if servers else None,
        "client_cpu_cores": round((c1.user + c1.system - c0.user - c0.system) / elapsed, 2),
        "errors": stats.errors,
        "failures": failures[:5],
        "machine": f"{os.cpu_count()} cores",
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="pebble-auction", help="game id (default: the example)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--tables", type=int, default=200, help="concurrent tables")
    ap.add_argument("--duration", type=float, default=20.0, help="measured seconds")
    ap.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    ap.add_argument("--db", default=None, help="server storage URL (default: a fresh SQLite file)")
    ap.add_argument("--sqlite-sync", default="FULL", choices=["FULL", "NORMAL"])
    ap.add_argument("--url", default=None, help="use this running server instead of starting one")
    ap.add_argument("--server-pid", type=int, default=None, help="with --url: for CPU and memory")
    ap.add_argument(
        "--processes",
        type=int,
        default=0,
        help="run N server processes (--shard K/N) over a throw-away PostgreSQL (or --db) "
        "behind nginx configured from deploy/nginx, and measure through the proxy",
    )
    ap.add_argument("--json", action="store_true", help="print the figures as JSON only")
    args = ap.parse_args()
    if args.tables < 1 or args.players < 1 or args.duration <= 0:
        ap.error("--tables and --players must be positive, --duration above zero")
    raise_fd_limit()
    tmp = None
    proc = None
    cluster = pg = None
    args.backends = []
    if args.processes > 0:
        sys.path.insert(0, str(ROOT))
        from tests.web.clusterkit import Cluster
        from tests.web.conftest import PostgresCluster

        if args.db is None:
            pg = PostgresCluster(fsync=True)
            args.db = pg.url
        cluster = Cluster(args.db, args.processes)
        args.url = cluster.url
        args.backends = [cluster.backend(k) for k in range(1, args.processes + 1)]
        servers = [psutil.Process(p.pid) for p in cluster.procs.values()]
        assert cluster.nginx is not None
        servers.append(psutil.Process(cluster.nginx.pid))
    elif args.url is None:
        if args.db is None:
            tmp = tempfile.TemporaryDirectory()
            args.db = f"sqlite:///{tmp.name}/load.sqlite3"
        proc, args.url = start_server(args)
        servers = [psutil.Process(proc.pid)]
    else:
        servers = [psutil.Process(args.server_pid)] if args.server_pid else []
    args.url = args.url.rstrip("/")
    args.ws = "ws" + args.url[4:]
    args.db_label = (args.db or "given server").split("://")[0] + (
        f" synchronous={args.sqlite_sync}" if (args.db or "").startswith("sqlite") else ""
    )
    try:
        report = asyncio.run(measure(args, servers))
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
    if args.json:
        print(json.dumps(report, indent=2))
        return
    lat = report["latency_ms"]
    print(
        f"{report['game']} {report['players']}p, {report['tables']} tables, {report['db']}, "
        f"{report['processes']} process(es): "
        f"{report['actions_per_s']:,} actions/s over {report['seconds']} s "
        f"({report['actions_per_commit']} per commit, {report['commits_per_s']} commits/s); "
        f"latency p50 "
        f"{lat['p50']} ms, p90 {lat['p90']} ms, p99 {lat['p99']} ms; server CPU "
        f"{report['server_cpu_cores']} cores, peak RSS {report['server_peak_rss_mb']} MB; "
        f"client CPU {report['client_cpu_cores']} cores; games finished "
        f"{report['games_finished']}; errors {report['errors'] or 'none'}"
    )
    if report["failures"]:
        print("failures:", *report["failures"], sep="\n  ")


if __name__ == "__main__":
    main()
