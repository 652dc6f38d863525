"""``GET /metrics``: the process's figures for Prometheus (see :mod:`dragonlair.web.metrics`)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST

from ..deps import HubDep
from ..metrics import exposition

router = APIRouter(tags=["server"])


@router.get("/metrics", response_class=Response)
async def metrics(hub: HubDep) -> Response:
    """Counters, gauges and latency histograms in Prometheus' text format."""
    return Response(exposition(hub), media_type=CONTENT_TYPE_LATEST)
