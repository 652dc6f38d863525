"""What the e-mail sender costs (:mod:`dragonlair.web.mail`), on SQLite::

    .venv/bin/python scripts/mail_bench.py --rows 100000 --send 200

Fills an outbox with ``--rows`` rows already sent (the history of a busy server), then
times the sender's look when nothing is to be done (reminders due, then a claim: what every
process does every ``mail_every`` seconds), median of 20; then queues ``--send`` "your
turn" rows for verified, consenting accounts and times one look that claims, composes and
sends them all to a local SMTP server (aiosmtpd, as the tests start one). Prints one line
per figure.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cryptography.fernet import Fernet
from sqlalchemy import insert
from tests.web.mailkit import SmtpServer

from dragonlair.web.accounts.schema import accounts_t
from dragonlair.web.mail import Composer, Mailer, Outbox, Tokens
from dragonlair.web.security import Sealer
from dragonlair.web.store import Store, outbox_t, seats_t, tables_t


def fill(store: Store, rows: int, send: int) -> None:
    now = time.time()
    with store.engine.begin() as conn:
        conn.execute(
            insert(outbox_t),
            [
                {
                    "kind": "turn",
                    "status": "sent",
                    "table_id": f"old{i}",
                    "seat": 0,
                    "due": now + i,
                    "created": now,
                    "sent": now,
                }
                for i in range(rows)
            ],
        )
        conn.execute(
            insert(accounts_t),
            [
                {
                    "id": f"a{i}",
                    "name": f"P{i}",
                    "name_key": f"p{i}",
                    "created": now,
                    "email": f"p{i}@example.org",
                    "email_verified": now,
                    "email_turns": True,
                }
                for i in range(send)
            ],
        )
        conn.execute(
            insert(tables_t),
            [
                {
                    "id": f"t{i}",
                    "game": "dragon-race",
                    "rules_version": 1,
                    "players": 2,
                    "options": {},
                    "settings": {"takeover": "heuristic", "pace": 86400},
                    "watch_hash": b"w" * 32,
                    "status": "playing",
                    "created": now,
                    "due": now + 86400,
                }
                for i in range(send)
            ],
        )
        conn.execute(
            insert(seats_t),
            [
                {
                    "table_id": f"t{i}",
                    "seat": s,
                    "kind": "human",
                    "name": f"P{i}",
                    "account_id": f"a{i}" if s == 0 else None,
                }
                for i in range(send)
                for s in (0, 1)
            ],
        )


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--send", type=int, default=200)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp, SmtpServer() as smtp:
        store = Store(f"sqlite:///{tmp}/mail.sqlite3", "NORMAL", Sealer(Fernet.generate_key()))
        try:
            fill(store, args.rows, args.send)
            outbox = Outbox(store.engine)
            composer = Composer(smtp.settings(), "https://games.example", Tokens(b"k" * 32))
            mailer = Mailer(smtp.settings(), outbox, composer, 10.0)
            times = []
            for _ in range(20):
                began = time.perf_counter()
                await mailer.once()
                times.append(time.perf_counter() - began)
            print(
                f"idle look, {args.rows} rows sent before: "
                f"{statistics.median(times) * 1000:.2f} ms (median of 20)"
            )
            now = time.time()
            with store.engine.begin() as conn:
                conn.execute(
                    insert(outbox_t),
                    [
                        {
                            "kind": "turn",
                            "status": "pending",
                            "table_id": f"t{i}",
                            "seat": 0,
                            "due": now + 86400,
                            "created": now,
                        }
                        for i in range(args.send)
                    ],
                )
            began = time.perf_counter()
            took = await mailer.once()
            spent = time.perf_counter() - began
            smtp.inbox.wait(lambda ms: len(ms) >= args.send, "every message")
            print(
                f"one look sending {took} messages: {spent:.2f} s "
                f"({spent / max(took, 1) * 1000:.1f} ms a message)"
            )
        finally:
            store.close()


if __name__ == "__main__":
    asyncio.run(main())
