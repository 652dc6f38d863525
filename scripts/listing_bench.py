"""How long the lobby's listing takes over many unfinished tables, several processes
(PostgreSQL): ``GET /api/tables`` as :mod:`dragonlair.web.ownership` answers it.

Starts a throw-away PostgreSQL on a loopback port (as the tests do), stores N waiting
tables (two seats each; one in ten from a position of about 6 KB, one in five unlisted),
and times the first page, a page deep in the list and a filtered page::

    .venv/bin/python scripts/listing_bench.py --tables 12000

Prints one line per query: the median and the slowest of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.web.conftest import PostgresCluster

from dragonlair.web.listing import listed_rows
from dragonlair.web.security import Sealer, digest
from dragonlair.web.store import Store, StoredSeat, StoredTable


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=12000)
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    pg = PostgresCluster()
    try:
        key = Path(tempfile.mkdtemp()) / "seal.key"
        store = Store(pg.url, "NORMAL", Sealer.from_file(key), 5.0)
        position = {"title": "A long puzzle", "notes": ["x" * 60] * 100}
        now = time.time()
        futures = []
        for i in range(args.tables):
            settings = {"deadline": 15.0, "away": 60.0, "takeover": None, "listed": i % 5 != 0}
            if i % 10 == 3:
                settings["position"] = position
            futures.append(
                store.create_table(
                    StoredTable(
                        id=f"t{i:06d}",
                        game="pebble-auction",
                        rules_version=1,
                        players=2,
                        options={},
                        seed=i,
                        settings=settings,
                        watch_hash=digest(f"w{i}"),
                        status="waiting",
                        created=now + i,
                        seats=[StoredSeat(0, "human", "Ann"), StoredSeat(1, "human", "Bo")],
                        salt="00" * 16,
                        commitment="c" * 64,
                    )
                )
            )
        for f in futures:
            f.result()
        for label, query in (
            ("first page (50)", (None, None, 50, 0)),
            ("page at offset 9,000", (None, None, 50, 9000)),
            ("status=waiting, game filter", ("waiting", "pebble-auction", 50, 0)),
        ):
            times = []
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                page, total, _, _ = listed_rows(store, *query)  # type: ignore[arg-type]
                times.append(time.perf_counter() - t0)
            print(
                f"{label:30s} {len(page):3d} rows of {total}: median "
                f"{statistics.median(times) * 1000:7.1f} ms, slowest {max(times) * 1000:7.1f} ms"
            )
        store.close()
    finally:
        pg.stop()


if __name__ == "__main__":
    main()
