"""The FastAPI application: the lobby (HTTP), play (one WebSocket per seat), static files.

FastAPI (on Starlette, served by uvicorn) gives us typed request bodies validated by
pydantic, an OpenAPI schema of the lobby at ``/openapi.json`` (browsable at ``/docs``),
and WebSockets in the same app; uvicorn brings the event loop (uvloop), HTTP and WebSocket
protocol handling. The whole protocol is described in ``docs/server.md``.

Routes:

- ``GET /api/health``, ``GET /api/games``, ``GET /api/games/{id}``, ``GET /api/games/{id}/rules``
- ``GET /api/tables`` (listed tables), ``POST /api/tables`` (create), ``GET /api/tables/{id}``,
  ``GET /api/tables/{id}/catalog`` (components, action labels, event sentences),
  ``POST /api/tables/{id}/join``, ``GET /api/tables/{id}/record`` and
  ``GET /api/tables/{id}/replay?seat=N`` (finished games)
- ``WS /ws/tables/{id}``: the first message is ``hello`` with a seat's or the watch token
  (or ``spectate`` at a listed table)
- ``GET /``, ``/play/{id}``, ``/watch/{id}`` and ``/static/...``: the browser front end's
  files from ``dragonlair/web/static/`` (its ``index.html`` reads the token after ``#``)
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from ..bots import LEVELS, UnknownBot, make_bot
from ..core import DragonlairError, games, make, spec
from .bots import BotRunner
from .catalog import rules, table_catalog
from .config import ServerConfig
from .protocol import (
    Act,
    Catalog,
    Created,
    ErrorBody,
    Frame,
    GameInfo,
    Hello,
    Joined,
    JoinRequest,
    Ping,
    ProtocolError,
    Replay,
    RulesInfo,
    TableInfo,
    TableRequest,
    encode,
    parse_client,
)
from .security import RateLimiter
from .store import Store
from .tables import Connection, Hub, Table

log = logging.getLogger("dragonlair.web")

STATIC = Path(str(files("dragonlair.web") / "static"))

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "bad request: the message says what was wrong"},
    404: {"model": ErrorBody, "description": "no such game or table"},
    409: {"model": ErrorBody, "description": "conflict with the table's state"},
    413: {"model": ErrorBody, "description": "request body too large"},
    422: {"model": ErrorBody, "description": "malformed request body"},
    429: {"model": ErrorBody, "description": "too many requests from this client"},
}


def error_response(status: int, code: str, message: str) -> JSONResponse:
    """The lobby's error body: ``{"error": {"code": ..., "message": ...}}``."""
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


class Guard:
    """ASGI middleware for the lobby: per-client rate limit and request body size limit.
    It reads a body (up to the limit) before the app does, so an oversized one is refused
    with 413 whether or not it declared its length."""

    def __init__(self, app: ASGIApp, limiter: RateLimiter, max_body: int) -> None:
        self.app = app
        self.limiter = limiter
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return
        if scope["path"] != "/api/health":
            client = scope.get("client") or ("?", 0)
            if not self.limiter.allow(f"ip:{client[0]}"):
                await error_response(
                    429,
                    "rate_limited",
                    f"too many requests: at most {self.limiter.describe()} per client address",
                )(scope, receive, send)
                return
        if scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        body = b""
        more = True
        while more:
            msg = await receive()
            if msg["type"] != "http.request":
                return
            body += msg.get("body", b"")
            more = msg.get("more_body", False)
            if len(body) > self.max_body:
                await error_response(
                    413, "too_large", f"request bodies are at most {self.max_body} bytes"
                )(scope, receive, send)
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The server as an ASGI application (storage opens when it starts)."""
    cfg = config or ServerConfig()
    ws_limiter = RateLimiter(cfg.ws_rate)
    http_limiter = RateLimiter(cfg.http_rate)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(cfg.db, cfg.sqlite_sync)
        bots = BotRunner(cfg.bot_pool, cfg.bot_workers)
        hub = Hub(cfg, store, bots)
        app.state.hub = hub
        try:
            resumed = await hub.recover()
            log.info("storage %s; resumed %d tables", store.describe(), resumed)
            yield
        finally:
            hub.close()
            bots.close()
            await asyncio.to_thread(store.close)

    app = FastAPI(
        title="dragonlair server",
        version=__version__,
        summary="Lobby and play API for dragonlair's games: tables, seats, bots, spectators.",
        description="Create a table, hand each player their seat's link, and play over one "
        "WebSocket per seat (`/ws/tables/{id}`, see docs/server.md for its messages).",
        lifespan=lifespan,
        responses=ERRORS,
    )
    app.state.config = cfg
    app.add_middleware(Guard, limiter=http_limiter, max_body=cfg.max_body_bytes)

    @app.exception_handler(ProtocolError)
    async def _protocol_error(_: Request, e: ProtocolError) -> JSONResponse:
        return error_response(e.status, e.code, e.message)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, e: RequestValidationError) -> JSONResponse:
        parts = []
        for err in e.errors():
            loc = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
            parts.append(f"{loc or 'body'}: {err.get('msg')}")
        return error_response(422, "invalid_request", "; ".join(parts))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, e: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(e.status_code, "http_error")
        return error_response(e.status_code, code, str(e.detail))

    def hub_of(request: Request | WebSocket) -> Hub:
        h: Hub = request.app.state.hub
        return h

    # ------------------------------------------------------------------ lobby

    @app.get("/api/health", tags=["server"])
    async def health(request: Request) -> dict[str, Any]:
        """Whether the server is up, and a few counters."""
        h = hub_of(request)
        return {
            "ok": True,
            "version": __version__,
            "tables": len(h.tables),
            "actions": h.actions,
            "commits": h.store.commits,
        }

    bot_levels: dict[str, list[str]] = {}

    def game_info(game_id: str) -> GameInfo:
        try:
            s = spec(game_id)
        except DragonlairError as e:
            raise ProtocolError("unknown_game", str(e), 404) from None
        if game_id not in bot_levels:
            g = make(game_id)
            levels = []
            for level in LEVELS:
                try:
                    make_bot(level, g)
                except UnknownBot:
                    continue
                levels.append(level)
            bot_levels[game_id] = levels
        return GameInfo(**s.to_dict(), bots=bot_levels[game_id])  # type: ignore[arg-type]

    @app.get("/api/games", tags=["lobby"])
    async def list_games() -> list[GameInfo]:
        """The games, their player counts and options, and the bot levels each has."""
        return [game_info(g) for g in games()]

    @app.get("/api/games/{game_id}", tags=["lobby"])
    async def get_game(game_id: str) -> GameInfo:
        """One game's description."""
        return game_info(game_id)

    @app.get("/api/games/{game_id}/rules", tags=["lobby"])
    async def get_rules(game_id: str) -> RulesInfo:
        """A game's rules in brief, our rulings and deviations, and what each action does."""
        game_info(game_id)  # unknown_game
        return RulesInfo(**rules(make(game_id)))

    @app.get("/api/tables", tags=["lobby"])
    async def list_tables(
        request: Request,
        status: str | None = Query(None, pattern="^(waiting|playing)$"),
        game: str | None = None,
    ) -> list[TableInfo]:
        """Listed tables: waiting for players (join one) or in play."""
        return hub_of(request).listed(status, game)

    @app.post("/api/tables", status_code=201, tags=["lobby"])
    async def create_table(request: Request, body: TableRequest) -> Created:
        """Create a table. The answer holds each person's seat token and link (hand them
        out) and the spectators' link; the server keeps only their digests."""
        return await hub_of(request).create(body)

    @app.get("/api/tables/{table_id}", tags=["lobby"])
    async def get_table(request: Request, table_id: str) -> TableInfo:
        """A table's public description."""
        return (await hub_of(request).get(table_id)).info()

    catalogs: dict[tuple[str, int, str], dict[str, Any]] = {}

    @app.get("/api/tables/{table_id}/catalog", tags=["lobby"])
    async def get_catalog(request: Request, table_id: str) -> Catalog:
        """What a page needs to draw this table, all of it public and the same for every
        seat: the printed components, a label for every action, the events' sentences."""
        t = await hub_of(request).get(table_id)
        if t.game is None:
            raise ProtocolError("broken", f"table {t.id} cannot be played: {t.problem}", 409)
        key = (t.game_id, t.players, json.dumps(t.options, sort_keys=True))
        if key not in catalogs:
            if len(catalogs) >= 64:
                catalogs.clear()
            catalogs[key] = table_catalog(t.game)
        return Catalog(**catalogs[key])

    @app.post("/api/tables/{table_id}/join", tags=["lobby"])
    async def join_table(request: Request, table_id: str, body: JoinRequest) -> Joined:
        """Take an open seat (the first one, or the one named); the game starts when the
        last open seat is taken."""
        return await hub_of(request).join(table_id, body)

    async def finished(request: Request, table_id: str) -> Table:
        t = await hub_of(request).get(table_id)
        if t.status != "over":
            raise ProtocolError(
                "not_over",
                "a record is available once the game is over (before that it would reveal "
                "hidden cards)",
                409,
            )
        return t

    @app.get("/api/tables/{table_id}/record", tags=["records"])
    async def get_record(request: Request, table_id: str) -> dict[str, Any]:
        """A finished game's record: ``dragonlair.replay`` rebuilds it exactly."""
        return (await finished(request, table_id)).state.record.to_dict()

    @app.get("/api/tables/{table_id}/replay", tags=["records"])
    async def get_replay(
        request: Request, table_id: str, seat: int | None = Query(None, ge=0)
    ) -> Replay:
        """A finished game step by step as one seat saw it (no seat: as a spectator)."""
        t = await finished(request, table_id)
        if seat is not None and seat >= t.players:
            raise ProtocolError(
                "bad_seat", f"seat {seat} is not at this table: expected 0..{t.players - 1}"
            )
        record = t.state.record
        return await asyncio.to_thread(_frames, t, record.actions, seat)

    # ------------------------------------------------------------------ play

    @app.websocket("/ws/tables/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        """One seat's (or spectator's) connection: hello, then actions until it closes."""
        h = hub_of(ws)
        await ws.accept()
        client = ws.client.host if ws.client else "?"
        if not http_limiter.allow(f"ip:{client}"):
            await _refuse(ws, ProtocolError("rate_limited", "too many connections"), 1008)
            return
        try:
            first = await asyncio.wait_for(ws.receive(), cfg.hello_timeout)
        except TimeoutError:
            await _refuse(ws, ProtocolError("hello_required", "send hello first"), 4400)
            return
        if first["type"] == "websocket.disconnect":
            return
        try:
            hello = _hello(first, cfg.max_message_bytes)
            table = await h.get(table_id)
            if hello.token is not None:
                seat = table.identify(hello.token)
            else:
                table.admit_spectator()
                seat = None
            table.state  # noqa: B018  (a broken table refuses)
        except ProtocolError as e:
            code = {"not_found": 4404, "unauthorized": 4401, "broken": 4409}.get(e.code, 4400)
            await _refuse(ws, e, code)
            return
        conn = Connection(ws, seat, hello.since, cfg.max_queue)
        conn.bucket = ws_limiter.bucket()
        sender = asyncio.get_running_loop().create_task(conn.pump())
        await table.attach(conn)
        try:
            await _serve(ws, table, conn, ws_limiter, cfg.max_message_bytes)
        finally:
            table.detach(conn)
            conn.close()
            try:
                await asyncio.wait_for(sender, 5)
            except (TimeoutError, asyncio.CancelledError):
                sender.cancel()

    # ------------------------------------------------------------------ browser front end

    def index() -> HTMLResponse | FileResponse:
        page = STATIC / "index.html"
        if page.is_file():
            return FileResponse(page)
        return HTMLResponse(PLACEHOLDER)

    @app.get("/", include_in_schema=False)
    async def home() -> Any:
        return index()

    @app.get("/play/{table_id}", include_in_schema=False)
    async def play_page(table_id: str) -> Any:
        return index()

    @app.get("/watch/{table_id}", include_in_schema=False)
    async def watch_page(table_id: str) -> Any:
        return index()

    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app


PLACEHOLDER = """<!doctype html>
<html><head><meta charset="utf-8"><title>dragonlair</title></head>
<body><h1>dragonlair server</h1>
<p>The browser front end is not installed in this copy of the server.
The lobby API is described at <a href="/docs">/docs</a>.</p></body></html>
"""


def _hello(first: Message, max_bytes: int) -> Hello:
    text = first.get("text")
    if text is None:
        raise ProtocolError("bad_message", "send JSON text frames, not binary ones")
    if len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise ProtocolError("too_large", f"messages are at most {max_bytes} bytes")
    msg = parse_client(text)
    if not isinstance(msg, Hello):
        raise ProtocolError(
            "hello_required", 'the first message must be {"type": "hello", "token": ...}'
        )
    return msg


async def _refuse(ws: WebSocket, e: ProtocolError, code: int) -> None:
    try:
        await ws.send_text(encode(e.to_message()))
        await ws.close(code)
    except Exception:
        pass


async def _serve(
    ws: WebSocket, table: Table, conn: Connection, limiter: RateLimiter, max_bytes: int
) -> None:
    """Read a connection's messages until it closes."""
    while not conn.closing:
        m = await ws.receive()
        if m["type"] == "websocket.disconnect":
            return
        try:
            if conn.bucket is not None and not conn.bucket.allow():
                conn.strikes += 1
                if conn.strikes > 100:
                    conn.close(1008)
                    return
                raise ProtocolError(
                    "rate_limited",
                    f"too many messages: at most {limiter.describe()}; this one was ignored",
                )
            text = m.get("text")
            if text is None:
                raise ProtocolError("bad_message", "send JSON text frames, not binary ones")
            if (
                len(text) > max_bytes // 4
                and len(text.encode("utf-8", "surrogatepass")) > max_bytes
            ):
                raise ProtocolError("too_large", f"messages are at most {max_bytes} bytes")
            msg = parse_client(text)
            if isinstance(msg, Act):
                if conn.seat is None:
                    raise ProtocolError("spectator", "spectators watch; they cannot act")
                if msg.seat is not None and msg.seat != conn.seat:
                    raise ProtocolError(
                        "wrong_seat",
                        f"this connection plays seat {conn.seat}; "
                        f"it cannot act for seat {msg.seat}",
                    )
                await table.submit(conn.seat, msg.move, msg.action, conn=conn, ref=msg.ref)
            elif isinstance(msg, Ping):
                conn.send('{"type":"pong"}')
            elif isinstance(msg, Hello):
                raise ProtocolError("already_identified", "this connection already said hello")
            else:
                conn.cursor = msg.since
                conn.send(encode(table.message_for(conn)))
        except ProtocolError as e:
            st = table._state
            conn.send(encode(e.to_message(st.move if st is not None else None)))


def _frames(table: Table, actions: tuple[tuple[int, str], ...], seat: int | None) -> Replay:
    assert table.game is not None
    st = table.game.new_game(table.seed)
    frames = [Frame(move=0, view=st.view(seat), events=st.events_since(0, seat))]
    for s, a in actions:
        n = st.event_count
        st.apply(s, a)
        frames.append(Frame(move=st.move, view=st.view(seat), events=st.events_since(n, seat)))
    return Replay(table=table.id, seat=seat, frames=frames)
