"""The FastAPI application: middleware, error handlers, the lifespan that opens storage and
resumes tables, and the routers of :mod:`dragonlair.web.routes`.

FastAPI (on Starlette, served by uvicorn) gives us typed request bodies validated by
pydantic, an OpenAPI schema of the lobby at ``/openapi.json`` (FastAPI's ``/docs`` pages are off),
and WebSockets in the same app; uvicorn brings the event loop (uvloop), HTTP and WebSocket
protocol handling. The whole protocol is described in ``docs/server.md``; the modules:

- :mod:`.routes`: the routes, one ``APIRouter`` per part, with :mod:`.deps` their
  dependencies;
- :mod:`.lobby`: the lobby service (every table, create, join, listing, recovery);
- :mod:`.session`: a table's session (turns, deadlines, away timers, bots);
- :mod:`.connection`: a WebSocket client and its conversation.
"""

from __future__ import annotations

import asyncio
import html
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from typing import Any

from argon2 import PasswordHasher
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from ..i18n import N_, _, using
from .accounts import Accounts, SignInGuard
from .accounts.csrf import SameOrigin
from .accounts.passkeys import Passkeys
from .accounts.service import watch_sessions
from .boards import GAMES_PREFIX, GameBoards
from .bots import BotRunner
from .config import ServerConfig
from .connection import SIGNED_OUT as SIGNED_OUT_ERROR
from .connection import Limits
from .language import page_language
from .lobby import Hub
from .mail import Composer, Mailer, Outbox, Tokens
from .metrics import (
    ACTION_SECONDS,
    COMMIT_SECONDS,
    HTTP_RESPONSES,
    observe_bot_time,
    observe_bot_wait,
)
from .metrics import ERRORS as ERROR_ANSWERS
from .ownership import SharedHub
from .protocol import ErrorBody, ProtocolError, encode
from .ratings import rate_finished
from .responses import error_response
from .routes import ROUTERS
from .routes.mail import MailParts
from .routes.pages import STATIC
from .security import RateLimiter, Sealer, SealError
from .store import Store, StoreError
from .table.ports import Timings

log = logging.getLogger("dragonlair.web")

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


class Guard:
    """ASGI middleware for the lobby: per-client rate limit, request body size limit and
    body timeout. It reads a body (up to the limit) before the app does, so an oversized
    one is refused with 413 whether or not it declared its length, and one that does not
    arrive in time with 408."""

    def __init__(
        self, app: ASGIApp, limiter: RateLimiter, max_body: int, timeout: float = 10.0
    ) -> None:
        self.app = app
        self.limiter = limiter
        self.max_body = max_body
        self.timeout = timeout

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
        end = asyncio.get_running_loop().time() + self.timeout
        while more:
            try:
                msg = await asyncio.wait_for(receive(), end - asyncio.get_running_loop().time())
            except TimeoutError:
                await error_response(
                    408, "timeout", f"the request body did not arrive within {self.timeout:g} s"
                )(scope, receive, send)
                return
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


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Open storage and the bot pool, resume unfinished tables; close them at the end."""
    cfg: ServerConfig = app.state.config
    key = cfg.seal_key_path()
    try:
        sealer = Sealer.from_file(key)
    except SealError as e:
        raise StoreError(str(e)) from None
    store = Store(cfg.db, cfg.sqlite_sync, sealer, cfg.db_lock_timeout, on_finish=rate_finished)
    bots = BotRunner(
        cfg.bot_pool, cfg.bot_workers, on_wait=observe_bot_wait, on_done=observe_bot_time
    )
    # on PostgreSQL every process, sharded or not, owns its tables through fenced leases
    shared = not store.sqlite or cfg.shard is not None  # SharedHub refuses SQLite
    hub = SharedHub(cfg, store, bots) if shared else Hub(cfg, store, bots)
    hub.timings = Timings(action=ACTION_SECONDS, commit=COMMIT_SECONDS)
    app.state.hub = hub
    accounts = Accounts(
        store.engine,
        PasswordHasher(time_cost=cfg.argon2_time, memory_cost=cfg.argon2_memory),
        recheck=cfg.session_recheck,
        ended_text=SIGNED_OUT,
    )
    app.state.accounts = accounts
    app.state.passkeys = Passkeys(accounts)
    # sign-in limits counted in the database, so that every process shares them
    app.state.sign_in_guard = SignInGuard(store.engine)
    # the stand-in hash a sign-in under an unknown name is checked against, made before
    # the first request, so that even that one takes as long as a wrong password
    await asyncio.to_thread(accounts.stand_in_hash)
    outbox = Outbox(store.engine, cfg.clock)
    mailer: Mailer | None = None
    tokens = Tokens(key.read_bytes().strip())
    if cfg.mail is not None:
        composer = Composer(cfg.mail, cfg.public_url, tokens)
        mailer = Mailer(cfg.mail, outbox, composer, cfg.mail_every)
        hub.on_mail = mailer.wake
    app.state.mail = MailParts(outbox, tokens, mailer)
    keeper: asyncio.Task[None] | None = None
    sessions = asyncio.get_running_loop().create_task(watch_sessions(accounts, cfg.session_recheck))
    try:
        # the bots' workers start and import what a hint needs before the first request,
        # so that a fresh server's first hint does not wait for them
        # (docs/benchmarks/2026-12-04-first-hint.md)
        try:
            await asyncio.wait_for(bots.warm_hints(), WARM_SECONDS)
        except Exception as e:  # the first hint warms them, or says why it cannot
            log.warning("the bots' workers could not get ready for hints: %r", e)
        resumed = await hub.recover()
        log.info("storage %s (seal key %s); resumed %d tables", store.describe(), key, resumed)
        if cfg.keep_finished_days is not None and getattr(hub, "index", 1) == 1:
            keeper = asyncio.get_running_loop().create_task(retention(store, cfg))
        if mailer is not None:
            mailer.start()
        yield
    finally:
        sessions.cancel()
        if mailer is not None:
            await mailer.close()
        if keeper is not None:
            keeper.cancel()
        hub.close()
        bots.close()
        await asyncio.to_thread(store.close)


SIGNED_OUT = encode(SIGNED_OUT_ERROR.to_message())

WARM_SECONDS = 60.0  # the longest the start waits for the bots' workers to get ready

RETENTION_EVERY = 3600.0  # seconds between looks for finished tables past retention


async def retention(store: Store, cfg: ServerConfig, every: float = RETENTION_EVERY) -> None:
    """Delete finished tables older than ``keep_finished_days``, now and every ``every``
    seconds, a batch at a time (one process of several does it)."""
    assert cfg.keep_finished_days is not None
    while True:
        before = time.time() - cfg.keep_finished_days * 86400
        gone = 0
        try:
            while True:
                await asyncio.wrap_future(store.forget_finished(before))
                gone += store.forgotten
                if store.forgotten == 0:
                    break
        except Exception as e:  # storage is away: try again at the next look
            log.warning("could not delete finished tables past retention: %s", e)
        if gone:
            log.info("deleted %d finished tables older than %g days", gone, cfg.keep_finished_days)
        await asyncio.sleep(every)


async def _protocol_error(_: Request, e: Exception) -> JSONResponse:
    assert isinstance(e, ProtocolError)
    ERROR_ANSWERS.labels(e.code).inc()
    return error_response(e.status, e.code, e.message)


async def _invalid(_: Request, e: Exception) -> JSONResponse:
    assert isinstance(e, RequestValidationError)
    parts = []
    for err in e.errors():
        loc = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
        parts.append(f"{loc or 'body'}: {err.get('msg')}")
    return error_response(422, "invalid_request", "; ".join(parts))


NOT_FOUND_PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}: dragonlair</title><link rel="stylesheet" href="/static/app.css">
<link rel="stylesheet" href="/static/app-end.css">
<link rel="icon" href="data:,"></head>
<body><header class="topbar"><a href="/" class="brand">dragonlair</a></header>
<main><div class="panel not-found"><h1>{heading}</h1>
<p>{text}</p>
<p><a class="button primary" href="/">{back}</a></p></div></main></body></html>
"""
NOT_FOUND_TEXTS = {
    "title": N_("Not found"),
    "heading": N_("There is nothing here"),
    "text": N_(
        "This address is not a page of this server: the link may be mistyped or out of date."
    ),
    "back": N_("Back to the lobby"),
}


def not_found_page(lang: str) -> str:
    """The page for a mistyped address, in ``lang``."""
    with using(lang):
        texts = {k: html.escape(_(v)) for k, v in NOT_FOUND_TEXTS.items()}
    return NOT_FOUND_PAGE.format(lang=lang, **texts)


async def _http(request: Request, e: Exception) -> Response:
    assert isinstance(e, StarletteHTTPException)
    path = request.url.path
    if e.status_code == 404 and not path.startswith(("/api/", "/ws/", "/static/")):
        # a person's mistyped address: a page with a way back, not an API error
        return HTMLResponse(not_found_page(page_language(request)), status_code=404)
    if e.status_code == 400 and request.method in ("POST", "PUT", "PATCH"):
        # FastAPI could not parse the body at all (nested too deep, not UTF-8, ...)
        return error_response(
            422, "invalid_request", f"body: not a JSON document this server can read ({e.detail})"
        )
    code = {404: "not_found", 405: "method_not_allowed"}.get(e.status_code, "http_error")
    return error_response(e.status_code, code, str(e.detail))


# The browser front end loads only its own files: no inline script, no other origin.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)


class Headers:
    """ASGI middleware adding the security headers to every HTTP response, and answering
    HEAD for the pages (as their GET without the body)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = [
            (b"content-security-policy", CSP.encode()),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"),
            (b"x-frame-options", b"DENY"),
        ]

        head = scope["method"] == "HEAD" and not scope["path"].startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *extra]
                HTTP_RESPONSES.labels(str(message.get("status", 0))).inc()
            elif head and message["type"] == "http.response.body":
                message = {**message, "body": b""}  # HEAD: the GET's headers, no body
            await send(message)

        if head:  # a page asked with HEAD (a monitor, a link checker) is answered as GET
            scope = {**scope, "method": "GET"}
        await self.app(scope, receive, send_with_headers)


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The server as an ASGI application (storage opens when it starts)."""
    cfg = config or ServerConfig()
    if cfg.mail is not None:
        cfg.mail.check(cfg.public_url)  # ValueError: settings that cannot work
    app = FastAPI(
        title="dragonlair server",
        version=__version__,
        summary="Lobby and play API for dragonlair's games: tables, seats, bots, spectators.",
        description="Create a table, hand each player their seat's link, and play over one "
        "WebSocket per seat (`/ws/tables/{id}`, see docs/server.md for its messages).",
        lifespan=lifespan,
        responses=ERRORS,
        # FastAPI's /docs and /redoc pages load scripts from a CDN and start them inline, on
        # the origin where seat tokens are kept: off. The schema is at /openapi.json.
        docs_url=None,
        redoc_url=None,
    )
    limits = Limits(cfg)
    app.state.config = cfg
    app.state.limits = limits
    app.add_middleware(
        Guard, limiter=limits.http, max_body=cfg.max_body_bytes, timeout=cfg.body_timeout
    )
    app.add_middleware(SameOrigin, public_url=cfg.public_url)
    app.add_middleware(Headers)
    app.add_exception_handler(ProtocolError, _protocol_error)
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(StarletteHTTPException, _http)
    for router in ROUTERS:
        app.include_router(router)
    app.mount(f"/static/{GAMES_PREFIX}", GameBoards(), name="game-boards")
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app
