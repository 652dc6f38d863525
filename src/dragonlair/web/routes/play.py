"""``WS /ws/tables/{id}``: one seat's or spectator's connection (see
:mod:`dragonlair.web.connection` for the conversation)."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket
from fastapi.responses import JSONResponse

from ..connection import converse
from ..deps import ConfigDep, HubDep, LimitsDep
from ..protocol import ProtocolError

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def play(
    ws: WebSocket, table_id: str, hub: HubDep, config: ConfigDep, limits: LimitsDep
) -> None:
    """One seat's (or spectator's) connection: hello, then actions until it closes."""
    if getattr(hub, "shared", False):
        # several processes: a table another process owns is refused before the upgrade,
        # with 503, so that the proxy tries the next process (see web/ownership.py)
        try:
            await hub.get(table_id)
        except ProtocolError as e:
            if e.status == 503:
                await ws.send_denial_response(
                    JSONResponse(
                        {"error": {"code": e.code, "message": e.message}}, status_code=e.status
                    )
                )
                return
    await converse(ws, table_id, hub, config, limits)
