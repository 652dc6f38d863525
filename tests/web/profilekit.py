"""Finished rated games put straight into a store, for the tests of profiles and
leaderboards: accounts (a name only: they never sign in) and tables that end at once with a
given result, through :meth:`Store.append` and its ratings hook, the commit a server makes
at a game's end. The tables' records are results only (one stored action), not games that
can be replayed."""

from __future__ import annotations

import secrets
import time
from typing import Any

from sqlalchemy import Engine, insert

from dragonlair.core import spec
from dragonlair.web.accounts.schema import accounts_t
from dragonlair.web.accounts.service import name_key
from dragonlair.web.security import digest
from dragonlair.web.store import Store, StoredSeat, StoredTable

RATED = {"deadline": 15, "away": None, "takeover": None, "listed": True, "rated": True}


def add_account(engine: Engine, name: str, created: float | None = None) -> str:
    """A new account named ``name``; its id."""
    account = secrets.token_urlsafe(12)
    with engine.begin() as conn:
        conn.execute(
            insert(accounts_t).values(
                id=account,
                name=name,
                name_key=name_key(name),
                password=None,
                created=time.time() if created is None else created,
            )
        )
    return account


def seat_of(seat: int, who: str) -> StoredSeat:
    """``who`` at ``seat``: ``"bot:<level>"``, ``"guest:<name>"`` or an account's id."""
    if who.startswith("bot:"):
        return StoredSeat(seat, "bot", "Bot", who[4:])
    if who.startswith("guest:"):
        return StoredSeat(seat, "human", who[6:], token_hash=digest(f"g{seat}"))
    return StoredSeat(seat, "human", f"Seat {seat}", token_hash=digest(f"t{seat}"), account=who)


def finished_game(
    store: Store,
    table: str,
    players: list[str],
    ranks: list[int],
    game: str = "space-race",
    rated: bool = True,
    created: float | None = None,
    listed: bool = True,
) -> None:
    """A table of ``players`` (see :func:`seat_of`) that ended with ``ranks`` (1 = best);
    rated (if it qualifies) in the commit that stores its end."""
    settings = dict(RATED) if rated else {k: v for k, v in RATED.items() if k != "rated"}
    settings["listed"] = listed
    points = [10 * (len(ranks) - r) for r in ranks]
    store.create_table(
        StoredTable(
            id=table,
            game=game,
            rules_version=spec(game).rules_version,
            players=len(players),
            options={},
            seed=7,
            settings=settings,
            watch_hash=digest(f"w{table}"),
            status="playing",
            created=time.time() if created is None else created,
            seats=[seat_of(i, p) for i, p in enumerate(players)],
        )
    ).result(timeout=30)
    result: dict[str, Any] = {
        "points": points,
        "ranks": ranks,
        "winners": [i for i, r in enumerate(ranks) if r == 1],
        "breakdown": [],
        "reason": "",
        "termination": "",
    }
    store.append(table, 0, 0, "a move", result).result(timeout=30)


def streak(
    store: Store, account: str, wins: list[bool], bot: str = "bot:heuristic", prefix: str = "s"
) -> list[str]:
    """One rated two-player game against ``bot`` per entry of ``wins``, oldest first;
    their table ids."""
    start = time.time() - len(wins) * 60
    tables = []
    for i, won in enumerate(wins):
        tid = f"{prefix}{i}"
        finished_game(store, tid, [account, bot], [1, 2] if won else [2, 1], created=start + 60 * i)
        tables.append(tid)
    return tables
