#!/usr/bin/env python3
"""How much ISMCTS bot tables cost the people-only tables of the same server process (a
benchmark, not a test).

Starts one ``dragonlair serve`` on a loopback port with ``--bot-pool`` as given, keeps
``--bot-tables`` tables of two ISMCTS bots (their default budget, 500 iterations) playing
(a finished one is replaced) at ``--bot-game``, a built-in game the pool's worker
processes know (a game registered only in the server, like the people-only tables'
example game, would have its bots fall back to threads), and runs ``scripts/load.py
--url`` against the same process with ``--tables`` people-only tables. Prints load.py's
figures for the people-only tables (actions/s, p50/p99) with the bot pool, the bot
decisions made in the window, and the 1-minute load average at the end, as one JSON line.

    .venv/bin/python scripts/bot_pool_bench.py --bot-pool thread
    .venv/bin/python scripts/bot_pool_bench.py --bot-pool process
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import EXAMPLE, LAUNCH, free_port

ISMCTS = [{"type": "bot", "level": "ismcts"}] * 2


def start(pool: str, workers: int, db: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    cmd = [sys.executable, "-c", LAUNCH.format(example=str(EXAMPLE)), "serve"]
    cmd += ["--port", str(port), "--db", db, "--log-level", "warning"]
    cmd += ["--bot-pool", pool, "--bot-workers", str(workers)]
    cmd += ["--http-rate", "1000000/minute", "--ws-rate", "1000/second"]
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


def keep_bots(url: str, game: str, tables: int, stop: threading.Event, moves: list[int]) -> None:
    """Keep ``tables`` ISMCTS tables playing; ``moves[0]``: bot decisions seen so far."""
    live: dict[str, int] = {}
    with httpx.Client(base_url=url, timeout=10) as http:
        while not stop.is_set():
            while len(live) < tables:
                body = {"game": game, "players": 2, "seats": ISMCTS}
                r = http.post("/api/tables", json=body)
                r.raise_for_status()
                live[r.json()["table"]["id"]] = 0
            for tid in list(live):
                t = http.get(f"/api/tables/{tid}").json()
                moves[0] += t["move"] - live[tid]
                live[tid] = t["move"]
                if t["status"] != "playing":
                    del live[tid]
            stop.wait(0.5)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bot-pool", default="process", choices=["thread", "process"])
    ap.add_argument("--bot-workers", type=int, default=2)
    ap.add_argument("--bot-tables", type=int, default=10)
    ap.add_argument("--bot-game", default="dragon-stripes", help="the bot tables' game")
    ap.add_argument("--tables", type=int, default=50, help="people-only tables")
    ap.add_argument("--duration", type=float, default=20.0)
    ap.add_argument("--warmup", type=float, default=5.0)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start(args.bot_pool, args.bot_workers, f"sqlite:///{tmp}/bench.db")
        stop = threading.Event()
        moves = [0]
        work = (url, args.bot_game, args.bot_tables, stop, moves)
        keeper = threading.Thread(target=keep_bots, args=work)
        keeper.start()
        try:
            time.sleep(2.0)
            before = moves[0]
            load = [sys.executable, str(Path(__file__).with_name("load.py")), "--url", url]
            load += ["--server-pid", str(proc.pid), "--players", "2", "--json"]
            load += ["--tables", str(args.tables), "--duration", str(args.duration)]
            load += ["--warmup", str(args.warmup)]
            out = subprocess.run(load, capture_output=True, text=True, check=True).stdout
            figures = json.loads(out)
            bot_moves = moves[0] - before
            load1 = os.getloadavg()[0]
        finally:
            stop.set()
            keeper.join()
            proc.terminate()
            proc.wait(30)
    print(
        json.dumps(
            {
                "bot_pool": args.bot_pool,
                "bot_workers": args.bot_workers,
                "bot_tables": args.bot_tables,
                "bot_game": args.bot_game,
                "people_tables": args.tables,
                "people": figures,
                "bot_decisions_per_s": round(bot_moves / (args.duration + args.warmup), 2),
                "load_average_1m": round(load1, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
