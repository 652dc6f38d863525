"""What idle turn-based tables cost a server, and how long the deadline sweep's query
takes (:mod:`dragonlair.web.table.deadlines`), on SQLite or a throw-away PostgreSQL (as
the tests start one)::

    .venv/bin/python scripts/deadlines_bench.py --db sqlite --tables 10000 --idle 60
    .venv/bin/python scripts/deadlines_bench.py --db postgresql --tables 10000 --idle 60

Stores N turn-based tables in play (Great Dragon Race, two friends, a day per move, each
move's deadline a day or more away), starts ``dragonlair serve`` on them and waits until
it serves every table (in memory, or at rest and read from storage when opened or due:
``Hub.park_idle``), then measures the server process over ``--idle`` seconds of
nothing happening: CPU seconds used (utime + stime of the process and its bot workers,
from /proc) and resident memory. The same is measured for a server with no table, so the
difference is what the tables cost. Then times the sweep's query
(``Store.due_tables``) with nothing due and with 100 tables due, and, for comparison, a
read of every table in play (what a sweep without the index would do). Prints one line
per figure.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import select

from dragonlair.web.security import Sealer, digest
from dragonlair.web.store import Store, StoredSeat, StoredTable, tables_t

DAY = 86400.0
ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def populate(store: Store, n: int, now: float) -> None:
    futures = []
    for i in range(n):
        futures.append(
            store.create_table(
                StoredTable(
                    id=f"d{i:06d}",
                    game="dragon-race",
                    rules_version=1,
                    players=2,
                    options={},
                    seed=i + 1,
                    settings={
                        "deadline": 15.0,
                        "away": None,
                        "takeover": "heuristic",
                        "listed": False,
                        "pace": DAY,
                    },
                    watch_hash=digest(f"w{i}"),
                    status="playing",
                    created=now,
                    seats=[
                        StoredSeat(0, "human", "Ann", token_hash=digest(f"a{i}")),
                        StoredSeat(1, "human", "Bo", token_hash=digest(f"b{i}")),
                    ],
                    salt="00" * 16,
                    commitment="c" * 64,
                    due=now + DAY + i,
                    abandons=now + 7 * DAY,
                )
            )
        )
    for f in futures:
        f.result()


def cpu_seconds(pid: int) -> float:
    """utime + stime of the process and its children alive now (seconds)."""
    tick = os.sysconf("SC_CLK_TCK")
    pids = [pid]
    try:
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(k) for k in kids]
    except OSError:
        pass
    total = 0
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / tick


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def idle_server(url: str, key: Path, expect: int, idle: float) -> tuple[float, float, float]:
    """Start a server on ``url``, wait until it serves ``expect`` tables, then idle:
    (seconds to be ready, CPU seconds over ``idle``, resident MiB of the server)."""
    port = free_port()
    cmd = [
        str(ROOT / ".venv/bin/dragonlair"),
        "serve",
        "--db",
        url,
        "--port",
        str(port),
        "--seal-key",
        str(key),
        "--log-level",
        "warning",
    ]
    began = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        while True:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            try:
                status = httpx.get(f"http://127.0.0.1:{port}/status", timeout=30).json()
                # (a table at rest is served too: it is read from storage when opened)
                if len(status["owns"]) + status.get("parked", 0) >= expect:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        ready = time.monotonic() - began
        time.sleep(5)  # the start's own work settles
        before = cpu_seconds(proc.pid)
        time.sleep(idle)
        used = cpu_seconds(proc.pid) - before
        # one table opened after the idle time: how long reading it from storage takes
        if expect:
            listed = httpx.get(f"http://127.0.0.1:{port}/status", timeout=30).json()
            if listed.get("parked"):
                t0 = time.perf_counter()
                r = httpx.get(f"http://127.0.0.1:{port}/api/tables/d000007", timeout=30)
                assert r.status_code == 200, r.text
                print(f"  a table at rest opened in {(time.perf_counter() - t0) * 1000:.0f} ms")
        return ready, used, rss_mib(proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def timed(fn: object, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000, max(times) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    ap.add_argument("--tables", type=int, default=10000)
    ap.add_argument("--idle", type=float, default=60.0)
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp())
    key = work / "seal.key"
    cluster = None
    if args.db == "postgresql":
        from tests.web.conftest import PostgresCluster, fresh_database

        cluster = PostgresCluster()
        empty_url, url = fresh_database(cluster.url), fresh_database(cluster.url)
    else:
        empty_url, url = f"sqlite:///{work / 'empty.sqlite3'}", f"sqlite:///{work / 'd.sqlite3'}"
    try:
        sealer = Sealer.from_file(key)
        Store(empty_url, "NORMAL", sealer).close()
        store = Store(url, "NORMAL", sealer)
        now = time.time()
        t0 = time.perf_counter()
        populate(store, args.tables, now)
        print(
            f"{args.db}: stored {args.tables} turn-based tables in {time.perf_counter() - t0:.1f} s"
        )
        nothing = timed(lambda: store.due_tables(now), args.repeat)
        hundred = timed(lambda: store.due_tables(now + DAY + 99), args.repeat)
        assert len(store.due_tables(now + DAY + 99)) == 100

        def scan() -> None:
            with store.engine.connect() as conn:
                conn.execute(
                    select(tables_t.c.id, tables_t.c.settings).where(tables_t.c.status == "playing")
                ).all()

        everything = timed(scan, args.repeat)
        store.close()
        print(
            f"sweep query, nothing due:   median {nothing[0]:7.2f} ms, slowest {nothing[1]:7.2f} ms"
        )
        print(
            f"sweep query, 100 due:       median {hundred[0]:7.2f} ms, slowest {hundred[1]:7.2f} ms"
        )
        print(
            f"reading every table in play: median {everything[0]:7.2f} ms, "
            f"slowest {everything[1]:7.2f} ms"
        )
        for label, u, n in (
            ("no table", empty_url, 0),
            (f"{args.tables} tables", url, args.tables),
        ):
            ready, cpu, rss = idle_server(u, key, n, args.idle)
            print(
                f"server with {label:12s}: ready in {ready:5.1f} s; idle {args.idle:.0f} s: "
                f"{cpu:.2f} CPU s ({cpu / args.idle * 100:.2f} % of a core), {rss:.0f} MiB resident"
            )
    finally:
        if cluster is not None:
            cluster.stop()


if __name__ == "__main__":
    main()
