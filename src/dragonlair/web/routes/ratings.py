"""Ratings (:mod:`dragonlair.web.ratings`): a game's leaderboard, bots included, and the
signed-in player's own ratings."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Query

from ...core import DragonlairError, spec
from ..deps import HubDep
from ..protocol import ProtocolError
from ..ratings import PROVISIONAL_SIGMA, leaderboard, of_account
from .accounts import SignedInDep, _game_name

router = APIRouter(tags=["ratings"])


@router.get("/api/ratings/{game}")
async def game_leaderboard(
    game: str, hub: HubDep, limit: int = Query(100, ge=1, le=500, description="players")
) -> dict[str, Any]:
    """A game's players (accounts and bot levels) by rating (``mu − 3·sigma``), best
    first, each with its uncertainty and whether it is still provisional."""
    try:
        name = spec(game).name
    except DragonlairError as e:
        raise ProtocolError("unknown_game", str(e), 404) from None

    def read() -> list[dict[str, Any]]:
        with hub.store.engine.connect() as conn:
            return leaderboard(conn, game, limit)

    players = await asyncio.to_thread(read)
    return {"game": game, "name": name, "provisional_sigma": PROVISIONAL_SIGMA, "players": players}


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
