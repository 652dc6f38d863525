"""How long the migrations after 0002 take on a store of many finished games (a benchmark,
not a test): a database at revision 0002 is filled with ``--games`` finished games (their
seats and actions), then opened by the server's :class:`~dragonlair.web.store.Store`,
which migrates it to the newest revision; the time of that is printed, and the check that
every game is still there.

    .venv/bin/python scripts/bench_migration.py --games 100000
    .venv/bin/python scripts/bench_migration.py --games 100000 --db postgresql://...
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from alembic import command
from cryptography.fernet import Fernet
from sqlalchemy import create_engine, text

from dragonlair.web.migrations import alembic_config, head, revision
from dragonlair.web.security import Sealer
from dragonlair.web.store import Store, normalize_url

CHUNK = 2000


def fill(url: str, games: int, players: int, actions: int) -> float:
    """A database at 0002 with ``games`` finished games; the seconds it took."""
    began = time.perf_counter()
    engine = create_engine(normalize_url(url))
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0002")
    insert_table = text(
        "INSERT INTO dl_tables (id, game, rules_version, players, options, seed, salt, "
        "settings, watch_hash, status, created, result, epoch) VALUES (:id, 'pebble-auction', "
        "1, :players, '{}', :seed, 'salt', '{\"deadline\": 15.0}', :w, 'over', :created, "
        "'{\"winners\": [0]}', 0)"
    )
    insert_seat = text(
        "INSERT INTO dl_seats (table_id, seat, kind, name, token_hash) "
        "VALUES (:t, :s, 'human', :name, :h)"
    )
    insert_action = text(
        "INSERT INTO dl_actions (table_id, move, seat, action, at) VALUES (:t, :m, :s, 'pass', 1.0)"
    )
    now = time.time()
    for start in range(0, games, CHUNK):
        ids = [f"g{i:08d}" for i in range(start, min(games, start + CHUNK))]
        with engine.begin() as conn:
            conn.execute(
                insert_table,
                [
                    {"id": i, "players": players, "seed": n, "w": b"w" * 32, "created": now - n}
                    for n, i in enumerate(ids, start)
                ],
            )
            conn.execute(
                insert_seat,
                [
                    {"t": i, "s": s, "name": f"Player {s + 1}", "h": b"h" * 32}
                    for i in ids
                    for s in range(players)
                ],
            )
            if actions:
                conn.execute(
                    insert_action,
                    [{"t": i, "m": m, "s": m % players} for i in ids for m in range(actions)],
                )
    engine.dispose()
    return time.perf_counter() - began


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--actions", type=int, default=20, help="stored actions per game")
    ap.add_argument("--db", help="a database URL (default: a new SQLite file)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    tmp = tempfile.TemporaryDirectory(prefix="dragonlair-migration-")
    url = args.db or f"sqlite:///{Path(tmp.name) / 'store.sqlite3'}"
    filled = fill(url, args.games, args.players, args.actions)
    began = time.perf_counter()
    store = Store(url, sealer=Sealer(Fernet.generate_key()))
    took = time.perf_counter() - began
    try:
        with store.engine.connect() as conn:
            at = revision(conn)
            kept = conn.execute(text("SELECT count(*) FROM dl_tables")).scalar()
            seats = conn.execute(text("SELECT count(*) FROM dl_seats")).scalar()
        sample = store.load(f"g{args.games // 2:08d}")
    finally:
        store.close()
    assert at == head(), f"the database is at {at}, not {head()}"
    assert kept == args.games and seats == args.games * args.players
    assert sample is not None and sample.problem is None and len(sample.actions) == args.actions
    out = {
        "database": url.split(":", 1)[0],
        "games": args.games,
        "seats": seats,
        "actions": args.games * args.actions,
        "fill_seconds": round(filled, 1),
        "migrate_seconds": round(took, 2),
        "revision": at,
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(
            f"{out['database']}: {args.games:,} finished games ({seats:,} seats, "
            f"{out['actions']:,} actions) migrated from 0002 to {at} in {took:.2f} s "
            f"(filled in {filled:.0f} s); every game is there"
        )
    tmp.cleanup()


if __name__ == "__main__":
    main()
