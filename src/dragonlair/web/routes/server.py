"""``GET /api/health``: whether the server is up, and a few counters."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ... import __version__
from ..deps import HubDep

router = APIRouter(tags=["server"])


@router.get("/api/health")
async def health(hub: HubDep) -> dict[str, Any]:
    """Whether the server is up, and a few counters."""
    return {
        "ok": True,
        "version": __version__,
        "tables": len(hub.tables),
        "actions": hub.actions,
        "commits": hub.store.commits,
        "process": hub.config.shard,
        "owns": hub.owned(),
    }
