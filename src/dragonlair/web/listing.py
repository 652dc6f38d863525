"""The lobby's listing, read from the database: listed unfinished tables, a page at a time.

Every process answers it alike, whether it holds the tables in memory or not: a table
waiting for players is kept in memory only once someone comes to it (see
:meth:`dragonlair.web.lobby.Hub.create`), and with several processes a table may be another
process's. A table this process holds is described by itself (:meth:`Table.info`), any
other from its rows (:func:`stored_info`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from ..core import DragonlairError
from ..core import spec as game_spec
from .config import ServerConfig
from .protocol import Fairness, SeatInfo, TableInfo, stored_settings
from .security import deal_chosen
from .store import ACTIVE, Store, account_names, actions_t, seats_t, tables_t


def listed_rows(
    store: Store, status: str | None, game: str | None, limit: int, offset: int
) -> tuple[list[dict[str, Any]], int, dict[str, list[dict[str, Any]]], dict[str, int]]:
    """One page of the listed unfinished tables, how many there are, and the page's seats
    and move counts. The filter, the count and the page are the database's, over the
    partial index of listed unfinished tables (``dl_tables_listed``), so only the page's
    rows are read: with 12,000 waiting tables, reading every row (settings, positions and
    all) to filter them here took about a second a request (scripts/listing_bench.py)."""
    where = [tables_t.c.status.in_(ACTIVE), tables_t.c.listed]
    if status is not None:
        where.append(tables_t.c.status == status)
    if game is not None:
        where.append(tables_t.c.game == game)
    q = (
        select(tables_t)
        .where(*where)
        .order_by(tables_t.c.created, tables_t.c.id)
        .limit(limit)
        .offset(offset)
    )
    with store.engine.connect() as conn:
        total = int(
            conn.execute(select(func.count()).select_from(tables_t).where(*where)).scalar_one()
        )
        page = [dict(r) for r in conn.execute(q).mappings() if isinstance(r["settings"], dict)]
        ids = [r["id"] for r in page]
        seats: dict[str, list[dict[str, Any]]] = {}
        moves: dict[str, int] = {}
        if ids:
            for s in conn.execute(
                select(seats_t).where(seats_t.c.table_id.in_(ids)).order_by(seats_t.c.seat)
            ).mappings():
                seats.setdefault(s["table_id"], []).append(dict(s))
            # the accounts' names, for the links to their profiles
            names = account_names(
                conn, [x["account_id"] for xs in seats.values() for x in xs if x["account_id"]]
            )
            for xs in seats.values():
                for x in xs:
                    x["profile"] = names.get(x["account_id"]) if x["account_id"] else None
            for tid, count in conn.execute(
                select(actions_t.c.table_id, func.count())
                .where(actions_t.c.table_id.in_(ids))
                .group_by(actions_t.c.table_id)
            ):
                moves[tid] = int(count)
    return page, total, seats, moves


def stored_info(
    r: dict[str, Any], seats: list[dict[str, Any]], move: int, config: ServerConfig
) -> TableInfo:
    """A listed table no process of ours holds in memory, as the database describes it
    (who is connected and who is asked are known to its owner only)."""
    st = r["settings"]
    try:
        name = game_spec(r["game"]).name
    except DragonlairError:
        name = r["game"]
    return TableInfo(
        id=r["id"],
        game=r["game"],
        name=name,
        players=r["players"],
        options=dict(r["options"] or {}),
        status=r["status"],
        move=move,
        to_act=[],
        seats=[
            SeatInfo(
                seat=s["seat"],
                kind=s["kind"],
                name=s["name"],
                level=s["level"],
                connected=False,
                connections=0,
                bot_playing=False,
                profile=s.get("profile"),
            )
            for s in seats
        ],
        settings=stored_settings(st, config.deadline),
        created=r["created"],
        fairness=Fairness(
            commitment=r["commitment"],
            revealed=None,
            chosen_seed=deal_chosen(st, r["commitment"] is not None) == "seed",
            chosen=deal_chosen(st, r["commitment"] is not None),
        ),
        expires=r["created"] + config.waiting_ttl if r["status"] == "waiting" else None,
        problem=None,
        due=r.get("due") if r["status"] == "playing" else None,
        abandons=r.get("abandons") if r["status"] == "playing" else None,
        vote=r.get("vote") if isinstance(r.get("vote"), dict) else None,
    )
