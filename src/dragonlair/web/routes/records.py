"""Finished games: the record (``dragonlair.replay`` rebuilds it), per-seat replays and
the facts the game's page shows (``summary``). None exists before the game is over: it
would reveal hidden cards."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Query

from ...core.registry import replay_actions
from ..deps import FinishedDep, HubDep
from ..finished import summary
from ..protocol import Frame, ProtocolError, Replay
from ..session import Table

router = APIRouter(tags=["records"])


@router.get("/api/tables/{table_id}/record")
async def get_record(table: FinishedDep) -> dict[str, Any]:
    """A finished game's record: ``dragonlair.replay`` rebuilds it exactly."""
    return table.state.record.to_dict()


@router.get("/api/tables/{table_id}/summary")
async def get_summary(table: FinishedDep, hub: HubDep) -> dict[str, Any]:
    """A finished game's page: the table's description, its players (the account of each
    person who has one), the number of moves and the rating changes of a rated game."""

    def read() -> dict[str, Any]:
        with hub.store.engine.connect() as conn:
            return summary(conn, table)

    return await asyncio.to_thread(read)


@router.get("/api/tables/{table_id}/replay")
async def get_replay(table: FinishedDep, seat: int | None = Query(None, ge=0)) -> Replay:
    """A finished game step by step as one seat saw it (no seat: as a spectator)."""
    if seat is not None and seat >= table.players:
        raise ProtocolError(
            "bad_seat", f"seat {seat} is not at this table: expected 0..{table.players - 1}"
        )
    return await asyncio.to_thread(frames, table, table.state.record.actions, seat)


def frames(table: Table, actions: tuple[tuple[int, str], ...], seat: int | None) -> Replay:
    """The game replayed from its seed (and the position it started from), one frame per
    action (an undo included), as ``seat`` saw it."""
    st = table.initial_state()
    out = [Frame(move=0, view=st.view(seat), events=st.events_since(0, seat))]
    for s, a in actions:
        n = st.event_count
        replay_actions(st, [(s, a)])
        out.append(Frame(move=st.move, view=st.view(seat), events=st.events_since(n, seat)))
    return Replay(table=table.id, seat=seat, frames=out)
