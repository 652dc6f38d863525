"""Public profiles: what anyone may see of an account, at ``/players/{name}``.

A profile shows what the account's player already shows at the tables and on the
leaderboards, gathered: the name, when the account was made, per game the rating
(:func:`dragonlair.web.ratings.shown`), how many games were played to the end and won, the
rating after each counted rated game (the chart), and the newest finished games with
their players and the account's result.

**Nothing private.** No password hash, session, seat token, seed or settings leave this
module: the account's row gives only its name and creation time. A table kept out of the
lobby (``listed`` false) counts in the games played and won but is not among the recent
games, unless it was rated (every person at it an account, its result on the boards).
**Nothing of a game in play**: only tables whose status is ``over`` are read (a game in
play, waiting, expired or abandoned is neither counted nor listed), so a profile is the
same before and after any move of an unfinished game. A deleted account has no profile
(its name is gone).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import Connection, func, or_, select

from ..core import DragonlairError, spec
from .accounts.schema import accounts_t
from .accounts.service import check_name, name_key
from .protocol import ProtocolError
from .ratings import PROVISIONAL_SIGMA, Rating, bot_name, rated_games_t, ratings_t, shown
from .store import actions_t, seats_t, tables_t

RECENT = 10  # finished games listed, newest first
HISTORY = 200  # rated games per game in the chart, the newest


def game_title(game: str) -> str:
    """A game's name (its id for a game this server no longer offers)."""
    try:
        return spec(game).name
    except DragonlairError:
        return game


def find(conn: Connection, name: str) -> tuple[str, str, float] | None:
    """The account of that name (compared as at sign-in): its id, name and creation time;
    None for no account, a deleted one, or a name no account can have."""
    try:
        key = name_key(check_name(name))
    except ProtocolError:
        return None
    row = conn.execute(
        select(accounts_t.c.id, accounts_t.c.name, accounts_t.c.created).where(
            accounts_t.c.name_key == key, accounts_t.c.deleted.is_(None)
        )
    ).first()
    return None if row is None else (row[0], row[1], row[2])


def profile(conn: Connection, name: str) -> dict[str, Any] | None:
    """The public profile of the account named ``name``, or None if there is none."""
    found = find(conn, name)
    if found is None:
        return None
    account_id, shown_name, created = found
    player = f"a:{account_id}"
    over = tables_t.c.status == "over"
    mine = seats_t.c.account_id == account_id

    # games played to the end and won, per game (a table once, whatever seats it held)
    seats_at: dict[str, list[int]] = defaultdict(list)
    facts: dict[str, tuple[str, dict[str, Any]]] = {}
    for tid, game, seat, result in conn.execute(
        select(tables_t.c.id, tables_t.c.game, seats_t.c.seat, tables_t.c.result)
        .join(tables_t, tables_t.c.id == seats_t.c.table_id)
        .where(mine, over)
    ):
        seats_at[tid].append(seat)
        facts[tid] = (game, dict(result or {}))
    per_game: dict[str, dict[str, Any]] = {}

    def entry(game: str) -> dict[str, Any]:
        if game not in per_game:
            per_game[game] = {
                "game": game,
                "title": game_title(game),
                "played": 0,
                "won": 0,
                "rating": None,
                "start": None,
                "history": [],
            }
        return per_game[game]

    for tid, (game, result) in facts.items():
        e = entry(game)
        e["played"] += 1
        if set(seats_at[tid]) & set(result.get("winners", ())):
            e["won"] += 1

    names = {player: shown_name}
    for r in conn.execute(
        select(ratings_t.c.game, ratings_t.c.mu, ratings_t.c.sigma, ratings_t.c.games).where(
            ratings_t.c.player == player
        )
    ):
        entry(r[0])["rating"] = shown(Rating(player, r[1], r[2], r[3]), names)

    # the rating after each counted rated game, oldest first (the newest HISTORY per game)
    rated = (
        select(rated_games_t.c.game, rated_games_t.c.finished, rated_games_t.c.changes)
        .join(seats_t, seats_t.c.table_id == rated_games_t.c.table_id)
        .where(mine, rated_games_t.c.counted)
        .order_by(rated_games_t.c.finished)
    )
    points: dict[str, list[tuple[float, list[Any]]]] = defaultdict(list)
    for game, finished, changes in conn.execute(rated):
        for change in changes or ():
            if change[0] == player:
                points[game].append((finished, change))
                break
    for game, rows in points.items():
        rows = rows[-HISTORY:]
        e = entry(game)
        _k, mu0, sigma0, _mu, _sigma = rows[0][1]
        e["start"] = _point(None, mu0, sigma0)
        e["history"] = [_point(at, c[3], c[4]) for at, c in rows]

    return {
        "name": shown_name,
        "since": created,
        "provisional_sigma": PROVISIONAL_SIGMA,
        "games": sorted(per_game.values(), key=lambda e: e["title"]),
        "recent": recent(conn, account_id),
    }


def _point(at: float | None, mu: float, sigma: float) -> dict[str, Any]:
    return {
        "at": at,
        "mu": round(mu, 2),
        "sigma": round(sigma, 2),
        "ordinal": round(mu - 3 * sigma, 2),
    }


def recent(conn: Connection, account_id: str, limit: int = RECENT) -> list[dict[str, Any]]:
    """The account's newest finished games (listed or rated): each with its game, when it
    ended, its players (accounts by name, bots by level, guests by the name they gave), and the
    account's rank, points and win, and whether it was rated and how the rating moved."""
    player = f"a:{account_id}"
    newest = conn.execute(
        select(tables_t.c.id, tables_t.c.game, tables_t.c.created, tables_t.c.result)
        .where(
            tables_t.c.status == "over",
            tables_t.c.id.in_(select(seats_t.c.table_id).where(seats_t.c.account_id == account_id)),
            # a table kept out of the lobby is kept off the list (its players, a guest's
            # name among them, are its own business), unless it was rated: then its
            # players are accounts and its result is on the leaderboards anyway
            or_(tables_t.c.listed, tables_t.c.id.in_(select(rated_games_t.c.table_id))),
        )
        .order_by(tables_t.c.created.desc(), tables_t.c.id)
        .limit(limit)
    ).all()
    ids = [r[0] for r in newest]
    if not ids:
        return []
    seats: dict[str, list[Any]] = defaultdict(list)
    for s in conn.execute(
        select(
            seats_t.c.table_id,
            seats_t.c.seat,
            seats_t.c.kind,
            seats_t.c.name,
            seats_t.c.level,
            seats_t.c.account_id,
            accounts_t.c.name.label("account_name"),
            accounts_t.c.deleted,
        )
        .outerjoin(accounts_t, accounts_t.c.id == seats_t.c.account_id)
        .where(seats_t.c.table_id.in_(ids))
        .order_by(seats_t.c.table_id, seats_t.c.seat)
    ):
        seats[s.table_id].append(s)
    ended = dict(
        conn.execute(
            select(actions_t.c.table_id, func.max(actions_t.c.at))
            .where(actions_t.c.table_id.in_(ids))
            .group_by(actions_t.c.table_id)
        ).all()
    )
    rated = {
        r[0]: (r[1], r[2])
        for r in conn.execute(
            select(
                rated_games_t.c.table_id, rated_games_t.c.counted, rated_games_t.c.changes
            ).where(rated_games_t.c.table_id.in_(ids))
        )
    }
    out = []
    for tid, game, created, result in newest:
        result = dict(result or {})
        ranks, points = result.get("ranks") or [], result.get("points") or []
        mine = [s.seat for s in seats[tid] if s.account_id == account_id]
        best = min(mine, key=lambda k: ranks[k] if k < len(ranks) else len(ranks) + 1)
        counted, changes = rated.get(tid, (False, []))
        change = next((c for c in changes or () if c[0] == player), None)
        out.append(
            {
                "table": tid,
                "game": game,
                "title": game_title(game),
                "ended": ended.get(tid, created),
                "players": [_who(s) for s in seats[tid]],
                "seats": mine,
                "rank": ranks[best] if best < len(ranks) else None,
                "points": points[best] if best < len(points) else None,
                "won": bool(set(mine) & set(result.get("winners", ()))),
                "rated": tid in rated,
                "counted": bool(counted),
                "change": None
                if change is None
                else round((change[3] - 3 * change[4]) - (change[1] - 3 * change[2]), 2),
            }
        )
    return out


def _who(seat: Any) -> dict[str, Any]:
    """A seat of a finished game as a profile lists it: an account by its name (with its
    profile while it exists), a bot by its level, a guest by the name they gave."""
    if seat.kind == "bot":
        return {
            "seat": seat.seat,
            "name": bot_name(seat.level),
            "bot": True,
            "level": seat.level,
            "profile": None,
        }
    if seat.account_id is not None and seat.deleted is None and seat.account_name:
        name = seat.account_name
        return {"seat": seat.seat, "name": name, "bot": False, "level": None, "profile": name}
    return {"seat": seat.seat, "name": seat.name, "bot": False, "level": None, "profile": None}
