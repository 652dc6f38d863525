"""``WS /ws/tables/{id}``: one seat's or spectator's connection (see
:mod:`dragonlair.web.connection` for the conversation)."""

from __future__ import annotations

from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket
from fastapi.responses import JSONResponse

from ..connection import converse
from ..deps import ConfigDep, HubDep, LimitsDep
from ..protocol import ProtocolError
from .accounts import current_session

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def play(
    ws: WebSocket, table_id: str, hub: HubDep, config: ConfigDep, limits: LimitsDep
) -> None:
    """One seat's (or spectator's) connection: hello, then actions until it closes."""
    refused = foreign_origin(ws, config.public_url)
    if refused is not None:
        await ws.send_denial_response(
            JSONResponse({"error": {"code": "bad_origin", "message": refused}}, status_code=403)
        )
        return
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
    await converse(ws, table_id, hub, config, limits, await current_session(ws))


def foreign_origin(ws: WebSocket, public_url: str) -> str | None:
    """Why a browser page of another site may not open this connection (None: it may).

    A browser sends the page's ``Origin`` with every WebSocket handshake, and does not
    apply the same-origin policy to WebSockets: without this check any site could open a
    table's socket from its visitors' browsers. The origin must name this server: the
    host the request was sent to (``Host``, kept by the proxy), or that of ``public_url``.
    Clients that are not browsers send no Origin and are not concerned."""
    origin = ws.headers.get("origin")
    if origin is None:
        return None
    ours = [ws.headers.get("host", "").lower()]
    if public_url:
        ours.append(urlsplit(public_url).netloc.lower())
    got = urlsplit(origin.lower())
    if got.scheme in ("http", "https") and any(_same_host(got.netloc, h) for h in ours if h):
        return None
    return f"connections from pages of {origin[:100]} are not accepted"


def _same_host(origin: str, host: str) -> bool:
    """Whether an Origin's ``host[:port]`` names ``host`` (a Host without a port, as a
    proxy may pass it, matches the host on any port)."""
    if origin == host:
        return True
    try:
        ours, theirs = urlsplit(f"//{host}"), urlsplit(f"//{origin}")
        return ours.port is None and ours.hostname is not None and theirs.hostname == ours.hostname
    except ValueError:  # a port that is not a number
        return False
