"""Cross-site request forgery: every state-changing request of the API must come from a
page of this server, which the browser itself tells (``Origin``, ``Sec-Fetch-Site``).

A browser adds ``Origin`` to every cross-site POST (and every ``fetch`` that is not a GET),
and a page cannot forge it; ``Sec-Fetch-Site`` (Fetch Metadata) says the same where the
``Origin`` is left out. So a request with an ``Origin`` naming another site is refused,
and so is one that carries a session cookie with neither header, whatever it asks. This
was chosen over a double-submit token because the pages are one static file with no form
for the server to put a token in, and the check needs no state; the session cookie is
also ``SameSite=Strict``, so another site's page does not send it in the first place.
Clients that are not browsers (scripts, the load tool) send neither header and hold no
cookie: they are not concerned.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from .cookies import COOKIE

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SAFE = ("GET", "HEAD", "OPTIONS")


def same_site(origin: str, host: str, public_url: str) -> bool:
    """Whether an ``Origin`` names this server: the ``Host`` the request was sent to, or
    that of ``public_url`` (a Host without a port matches any port of that host)."""
    got = urlsplit(origin.lower())
    if got.scheme not in ("http", "https"):
        return False
    ours = [host.lower()]
    if public_url:
        ours.append(urlsplit(public_url).netloc.lower())
    for h in ours:
        if not h:
            continue
        if got.netloc == h:
            return True
        try:
            mine = urlsplit(f"//{h}")
            if mine.port is None and mine.hostname is not None and got.hostname == mine.hostname:
                return True
        except ValueError:
            continue
    return False


def why_forged(headers: dict[str, str], public_url: str) -> str | None:
    """Why a state-changing request may not be served (None: it may)."""
    origin = headers.get("origin")
    if origin is not None and origin != "null":
        if same_site(origin, headers.get("host", ""), public_url):
            return None
        return f"requests from pages of {origin[:100]} are not accepted"
    site = headers.get("sec-fetch-site")
    if site is not None:
        if site in ("same-origin", "none"):
            return None
        return f"requests from {site} pages are not accepted"
    if origin == "null":
        return "requests from pages without an origin are not accepted"
    if f"{COOKIE}=" in headers.get("cookie", ""):
        return "a signed-in request must come from this server's pages (it has no Origin)"
    return None


class SameOrigin:
    """ASGI middleware refusing forged state-changing API requests with 403 ``csrf``."""

    def __init__(self, app: ASGIApp, public_url: str = "") -> None:
        self.app = app
        self.public_url = public_url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] not in SAFE
            and scope["path"].startswith("/api/")
        ):
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            why = why_forged(headers, self.public_url)
            if why is not None:
                from ..app import error_response

                await error_response(403, "csrf", why)(scope, receive, send)
                return
        await self.app(scope, receive, send)
