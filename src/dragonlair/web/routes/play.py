"""``WS /ws/tables/{id}``: one seat's or spectator's connection (see
:mod:`dragonlair.web.connection` for the conversation)."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from ..connection import converse
from ..deps import ConfigDep, HubDep, LimitsDep

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def play(
    ws: WebSocket, table_id: str, hub: HubDep, config: ConfigDep, limits: LimitsDep
) -> None:
    """One seat's (or spectator's) connection: hello, then actions until it closes."""
    await converse(ws, table_id, hub, config, limits)
