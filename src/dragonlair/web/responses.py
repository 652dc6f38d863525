"""The lobby's error body, shared by the app and its middleware (which the app imports,
so it cannot import the app back)."""

from __future__ import annotations

from fastapi.responses import JSONResponse


def error_response(status: int, code: str, message: str) -> JSONResponse:
    """The lobby's error body: ``{"error": {"code": ..., "message": ...}}``."""
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)
