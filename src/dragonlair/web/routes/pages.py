"""The browser front end's pages: every one is ``static/index.html``, which reads the
path and the token after ``#`` itself (its other files are under ``/static``)."""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.exceptions import HTTPException

from ..deps import HubDep
from ..language import LangQuery, check, page_language, strings
from ..protocol import ProtocolError

STATIC = Path(str(files("dragonlair.web") / "static"))

router = APIRouter(include_in_schema=False)

PLACEHOLDER = """<!doctype html>
<html><head><meta charset="utf-8"><title>dragonlair</title></head>
<body><h1>dragonlair server</h1>
<p>The browser front end is not installed in this copy of the server.
The lobby API is described by <a href="/openapi.json">/openapi.json</a>.</p></body></html>
"""


def index(request: Request) -> Response:
    """The front end's page in the reader's language (a placeholder where it is not
    installed)."""
    page = STATIC / "index.html"
    if page.is_file():
        lang = page_language(request)
        html = _page().replace('<html lang="en">', f'<html lang="{lang}">', 1)
        return HTMLResponse(html, headers={"Vary": "Accept-Language, Cookie"})
    return HTMLResponse(PLACEHOLDER)


@cache
def _page() -> str:
    return (STATIC / "index.html").read_text(encoding="utf-8")


@router.get("/")
async def home(request: Request) -> Response:
    return index(request)


@router.get("/play/{table_id}")
async def play_page(request: Request, table_id: str) -> Response:
    return index(request)


@router.get("/account")
async def account_page(request: Request) -> Response:
    return index(request)


@router.get("/admin")
async def admin_page(request: Request) -> Response:
    return index(request)


@router.get("/players/{name}")
async def player_page(request: Request, name: str) -> Response:
    return index(request)


@router.get("/leaderboard")
@router.get("/leaderboard/{game}")
async def leaderboard_page(request: Request, game: str = "") -> Response:
    return index(request)


@router.get("/rules/{game_id}")
async def rules_page(request: Request, game_id: str) -> Response:
    """A game's rules at a glance (``static/js/rules.js``), before any table exists."""
    return index(request)


@router.get("/watch/{table_id}")
async def watch_page(request: Request, table_id: str) -> Response:
    return index(request)


@router.get("/games/{table_id}")
async def game_page(request: Request, table_id: str, hub: HubDep) -> Response:
    """A finished game's page; before the game is over there is none (404), since its
    replay would show hidden cards."""
    try:
        table = await hub.get(table_id)
    except ProtocolError:
        raise HTTPException(404) from None
    if table.status != "over":
        raise HTTPException(404)
    return index(request)


@router.get("/api/strings", include_in_schema=True, tags=["pages"])
async def get_strings(lang: LangQuery = "en") -> dict[str, Any]:
    """Every word the browser pages show, in ``lang`` (message id -> text)."""
    return strings(check(lang))
