"""Ratings (:mod:`dragonlair.web.ratings`): a game's leaderboard, bots included, paged;
the signed-in player's own ratings; a player's public profile
(:mod:`dragonlair.web.profiles`)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Query

from ...core import DragonlairError, spec
from ..deps import HubDep
from ..profiles import profile
from ..protocol import ProtocolError
from ..ratings import PROVISIONAL_SIGMA, board_size, leaderboard, of_account
from .accounts import SignedInDep, _game_name

router = APIRouter(tags=["ratings"])


@router.get("/api/ratings/{game}")
async def game_leaderboard(
    game: str,
    hub: HubDep,
    limit: int = Query(100, ge=1, le=500, description="players"),
    offset: int = Query(0, ge=0, le=1_000_000, description="players to skip"),
    provisional: bool = Query(True, description="list provisional ratings too"),
) -> dict[str, Any]:
    """A game's players (accounts and bot levels) by rating (``mu − 3·sigma``), best
    first, each with its uncertainty and whether it is still provisional; ``total`` is how
    many there are in all, ``provisional_players`` how many of them are provisional."""
    try:
        name = spec(game).name
    except DragonlairError as e:
        raise ProtocolError("unknown_game", str(e), 404) from None
    settled = not provisional

    def read() -> tuple[list[dict[str, Any]], int, int]:
        with hub.store.engine.connect() as conn:
            everyone = board_size(conn, game)
            settled_ones = board_size(conn, game, settled=True)
            return leaderboard(conn, game, limit, offset, settled), everyone, settled_ones

    players, everyone, settled_ones = await asyncio.to_thread(read)
    return {
        "game": game,
        "name": name,
        "provisional_sigma": PROVISIONAL_SIGMA,
        "offset": offset,
        "total": settled_ones if settled else everyone,
        "provisional_players": everyone - settled_ones,
        "players": players,
    }


@router.get("/api/account/ratings")
async def my_ratings(hub: HubDep, session: SignedInDep) -> dict[str, Any]:
    """The signed-in player's rating in each game they have played rated."""

    def read() -> list[dict[str, Any]]:
        with hub.store.engine.connect() as conn:
            return of_account(conn, session.account_id)

    rows = await asyncio.to_thread(read)
    for r in rows:
        r["title"] = _game_name(r["game"])
    return {"ratings": rows, "provisional_sigma": PROVISIONAL_SIGMA}


@router.get("/api/players/{name}")
async def player_profile(name: str, hub: HubDep) -> dict[str, Any]:
    """An account's public profile: its name, since when it exists, per game its rating,
    games played to the end and won and the rating after each counted rated game, and its
    newest finished games. ``404 unknown_player`` for no account of that name."""

    def read() -> dict[str, Any] | None:
        with hub.store.engine.connect() as conn:
            return profile(conn, name)

    found = await asyncio.to_thread(read)
    if found is None:
        raise ProtocolError("unknown_player", "there is no player of that name", 404)
    return found
