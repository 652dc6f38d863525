"""A finished game's page (``/games/{table}``): what it shows besides the replay, read
once the game is over.

Everything here is public once a game has ended: the table's description (game, options,
settings, seats, result, the revealed seed), the accounts of its people (their names, for
a link to their profile), the rated game's rating changes, how many moves it took, and
the table's chat, each message with the move it was said at, for the replay.
Nothing is read for a table that is not over: the route refuses it first
(``not_over``), since before the end the record and the replay would show hidden cards.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

from sqlalchemy import Connection, false, select

from .accounts.schema import accounts_t
from .concede import RATED_AFTER
from .ratings import Rating, rated_games_t
from .session import Table
from .store import actions_t, chat_t

REPLAY_CHAT = 2000  # the last chat messages a finished game's page shows


def summary(conn: Connection, table: Table) -> dict[str, Any]:
    """The page's facts about finished ``table`` (see the module's docstring)."""
    info = table.info().model_dump()
    accounts = [s.account for s in table.seats if s.account is not None]
    names: dict[str, str] = {}
    if accounts:
        rows = conn.execute(
            select(accounts_t.c.id, accounts_t.c.name).where(
                accounts_t.c.id.in_(accounts), accounts_t.c.deleted.is_(None)
            )
        ).all()
        names = {r[0]: r[1] for r in rows}
    players = [
        {
            "seat": s.index,
            "name": s.name,
            "kind": s.kind,
            "level": s.level,
            # the account's name (its profile's address), None for a guest, a bot or a
            # deleted account
            "account": names.get(s.account) if s.account is not None else None,
            "conceded": s.conceded,
        }
        for s in table.seats
    ]
    result = table.result or {}
    return {
        "table": info,
        "players": players,
        "moves": table.state.move,
        "rating": _rating(conn, table, result),
        "chat": said(conn, table.id),
    }


def said(conn: Connection, table_id: str) -> list[dict[str, Any]]:
    """The table's chat for its replay, oldest first: every message the operator did not
    hide (text only, or a quick phrase's id), with ``move``, how many moves had been
    played when it was said (the replay's frame to show it at), and ``apart``, a
    spectator's message that only spectators read (a table whose spectators chat apart:
    the page shows it in the spectator's view only)."""
    times = [
        float(r[0])
        for r in conn.execute(
            select(actions_t.c.at)
            .where(actions_t.c.table_id == table_id)
            .order_by(actions_t.c.move)
        )
    ]
    rows = conn.execute(
        select(chat_t)
        .where(chat_t.c.table_id == table_id, chat_t.c.hidden == false())
        .order_by(chat_t.c.id.desc())
        .limit(REPLAY_CHAT)
    ).all()
    return [
        {
            "id": r.id,
            "seat": r.seat,
            "name": r.name,
            "text": r.text,
            **({"phrase": r.phrase} if r.phrase is not None else {}),
            "apart": bool(r.apart),
            "at": r.at,
            "move": bisect_right(times, r.at),
        }
        for r in reversed(rows)
    ]


def _rating(conn: Connection, table: Table, result: dict[str, Any]) -> dict[str, Any]:
    """Whether the game was rated, and each seat's rating before and after."""
    # why: a code, for a rated table that rated nobody ("conceded_early", "not_all_accounts")
    # or whose game did not count ("same_accounts")
    out: dict[str, Any] = {
        "rated": False,
        "counted": None,
        "why": None,
        "changes": [],
        # a concession before this move leaves the game unrated (dragonlair.web.concede)
        "rated_after": RATED_AFTER,
    }
    if not table.settings.rated:
        return out
    row = conn.execute(
        select(rated_games_t.c.counted, rated_games_t.c.changes).where(
            rated_games_t.c.table_id == table.id
        )
    ).first()
    if row is None:
        # a rated table that rated nobody: given up too early, or a guest in a seat
        out["why"] = "conceded_early" if result.get("unrated") else "not_all_accounts"
        return out
    out["rated"] = True
    out["counted"] = bool(row[0])
    if not row[0]:
        out["why"] = "same_accounts"  # the anti-farming rule (dragonlair.web.ratings)
    seats = {}
    for i, change in enumerate(row[1] or []):
        player, mu0, s0, mu1, s1 = change
        seats[i] = {
            "seat": i,
            "player": player,
            "before": _shown(mu0, s0),
            "after": _shown(mu1, s1),
        }
    out["changes"] = list(seats.values())
    return out


def _shown(mu: float, sigma: float) -> dict[str, Any]:
    r = Rating("", mu, sigma, 0)
    return {
        "mu": round(mu, 2),
        "sigma": round(sigma, 2),
        "ordinal": round(r.ordinal, 2),
        "provisional": r.provisional,
    }
