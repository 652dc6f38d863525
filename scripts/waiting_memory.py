"""What a table waiting for players costs the server in memory.

Runs the server in this process (SQLite in a throw-away folder), creates N tables with
one seat taken and the others open through ``POST /api/tables``, and reports the growth
of the process's resident memory and of Python's allocations (tracemalloc) per table::

    .venv/bin/python scripts/waiting_memory.py --game space-dragons --tables 2000

It then asks for every table once (``GET /api/tables/{id}``, which reads a table into
memory) and reports the growth per table then in memory, for what a table that someone
came to costs (a sweep with nobody connected puts such tables back meanwhile).
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import sys
import tempfile
import tracemalloc
from pathlib import Path

import psutil
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dragonlair.web import create_app
from dragonlair.web.config import ServerConfig


def measure() -> tuple[int, int]:
    gc.collect()
    return psutil.Process().memory_info().rss, tracemalloc.get_traced_memory()[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="space-dragons")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--tables", type=int, default=2000)
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp())
    fields = {f.name for f in dataclasses.fields(ServerConfig)}
    limits = {"max_waiting_per_address": args.tables + 1, "max_waiting": args.tables + 1}
    cfg = ServerConfig(
        db=f"sqlite:///{folder / 'server.sqlite3'}",
        sqlite_sync="NORMAL",
        seal_key=str(folder / "seal.key"),
        http_rate="1000000/minute",
        bot_pool="thread",
        **{k: v for k, v in limits.items() if k in fields},
    )
    body = {
        "game": args.game,
        "players": args.players,
        "seats": [{"type": "human"}] + [{"type": "open"}] * (args.players - 1),
    }
    tracemalloc.start()
    with TestClient(create_app(cfg)) as c:
        assert c.post("/api/tables", json=body).status_code == 201  # imports, caches, pools
        rss0, py0 = measure()
        ids = []
        for _ in range(args.tables):
            r = c.post("/api/tables", json=body)
            assert r.status_code == 201, r.text
            ids.append(r.json()["table"]["id"])
        rss1, py1 = measure()
        for tid in ids:
            assert c.get(f"/api/tables/{tid}").status_code == 200
        rss2, py2 = measure()
        hub = c.app.state.hub  # type: ignore[attr-defined]
        held = len(hub.tables)
    n = args.tables
    print(f"{n} waiting tables of {args.game} ({args.players} seats, one taken)")
    print(
        f"  created:        RSS +{(rss1 - rss0) / n / 1024:.1f} KB a table, "
        f"Python +{(py1 - py0) / n / 1024:.1f} KB a table"
    )
    # a sweep with nobody connected puts asked-for tables back: count those still held
    print(
        f"  asked for:      RSS +{(rss2 - rss0) / max(held, 1) / 1024:.1f} KB, "
        f"Python +{(py2 - py0) / max(held, 1) / 1024:.1f} KB a table in memory "
        f"({held} of {n + 1} still in memory)"
    )


if __name__ == "__main__":
    main()
