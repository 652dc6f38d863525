"""The operator's admin routes (see :mod:`dragonlair.web.reports`): every one needs the
operator's token in ``Authorization: Bearer``; without a configured token they are off.

- ``GET /api/admin/reports``: the reported chat messages, open ones first;
- ``POST /api/admin/reports/{message}/hide``: hide the message and close its reports;
- ``POST /api/admin/reports/{message}/dismiss``: close its reports, the message stays.

The page itself, ``GET /admin``, is the front end's (:mod:`.pages`): it holds no data and
asks for the token.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header

from ..deps import ConfigDep, HubDep
from ..reports import check_token, decide, list_reports


def operator(config: ConfigDep, authorization: Annotated[str | None, Header()] = None) -> None:
    """Refuse a request without the operator's token (404 when the admin page is off)."""
    check_token(config.admin_token, authorization)


router = APIRouter(tags=["admin"], dependencies=[Depends(operator)])


@router.get("/api/admin/reports")
async def reports(hub: HubDep) -> dict[str, Any]:
    """The reported chat messages, the ones with open reports first."""
    return {"reports": await asyncio.to_thread(list_reports, hub.store.engine)}


@router.post("/api/admin/reports/{message}/hide")
async def hide(message: int, hub: HubDep) -> dict[str, Any]:
    """Hide a reported message: it leaves the table's chat; its open reports close."""
    table_id = await asyncio.to_thread(decide, hub.store.engine, message, "hidden")
    live = hub.tables.get(table_id)
    if live is not None:
        live.hide_chat(message)
    return {"id": message, "outcome": "hidden"}


@router.post("/api/admin/reports/{message}/dismiss")
async def dismiss(message: int, hub: HubDep) -> dict[str, Any]:
    """Dismiss a message's open reports: the message stays."""
    await asyncio.to_thread(decide, hub.store.engine, message, "dismissed")
    return {"id": message, "outcome": "dismissed"}
