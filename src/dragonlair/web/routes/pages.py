"""The browser front end's pages: every one is ``static/index.html``, which reads the
path and the token after ``#`` itself (its other files are under ``/static``)."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, Response

STATIC = Path(str(files("dragonlair.web") / "static"))

router = APIRouter(include_in_schema=False)

PLACEHOLDER = """<!doctype html>
<html><head><meta charset="utf-8"><title>dragonlair</title></head>
<body><h1>dragonlair server</h1>
<p>The browser front end is not installed in this copy of the server.
The lobby API is described at <a href="/docs">/docs</a>.</p></body></html>
"""


def index() -> Response:
    """The front end's page (a placeholder where it is not installed)."""
    page = STATIC / "index.html"
    if page.is_file():
        return FileResponse(page)
    return HTMLResponse(PLACEHOLDER)


@router.get("/")
async def home() -> Response:
    return index()


@router.get("/play/{table_id}")
async def play_page(table_id: str) -> Response:
    return index()


@router.get("/watch/{table_id}")
async def watch_page(table_id: str) -> Response:
    return index()
