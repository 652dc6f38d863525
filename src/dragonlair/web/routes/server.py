"""The process's health for load balancers and operators.

- ``GET /api/health``: liveness, for load balancers: ``{"ok": true}`` and nothing else
  (it is public through the proxy: no table, count or version in it);
- ``GET /api/ready``: readiness: 200 ``{"ready": true}`` once the process has opened its
  storage and resumed its tables and, with several processes, while it renews its
  heartbeat in the database; 503 ``{"ready": false}`` while it cannot (its tables are
  then moving to the other processes);
- ``GET /status``: the operator's view of one process (its tables, the tables it owns,
  counters): like ``/metrics``, read from each process directly; the shipped nginx
  configuration refuses it.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ... import __version__
from ..deps import HubDep

router = APIRouter(tags=["server"])


@router.get("/api/health")
async def health() -> dict[str, Any]:
    """Whether the process answers (for load balancers)."""
    return {"ok": True}


@router.get("/api/ready")
async def ready(hub: HubDep) -> JSONResponse:
    """Whether the process can serve tables now (503 while its heartbeat fails)."""
    silent = getattr(hub, "silent_since", None) is not None
    return JSONResponse({"ready": not silent}, status_code=503 if silent else 200)


# load balancers may ask with HEAD
router.add_api_route("/api/health", health, methods=["HEAD"], include_in_schema=False)
router.add_api_route("/api/ready", ready, methods=["HEAD"], include_in_schema=False)


@router.get("/status", include_in_schema=False)
async def status(hub: HubDep) -> dict[str, Any]:
    """One process's tables and counters, for its operator."""
    return {
        "version": __version__,
        "process": getattr(hub, "name", None),
        "tables": len(hub.tables),
        "actions": hub.actions,
        "commits": hub.store.commits,
        "owns": hub.owned(),
        # turn-based tables at rest, read from storage when opened or due
        "parked": len(getattr(hub, "parked", {})),
    }
