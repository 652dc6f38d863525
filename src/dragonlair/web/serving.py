"""How uvicorn serves the app: the settings of :class:`~dragonlair.web.config.ServerConfig`
that live at the HTTP layer, in one place for ``dragonlair serve`` and the tests.

- **Header timeout.** uvicorn closes an idle keep-alive connection, but not one that
  connects and never sends a request, or sends its headers a byte at a time: enough of
  those exhaust the server's file descriptors. :class:`TimedHttp` closes a connection
  whose request headers are not complete ``header_timeout`` seconds after it opened (or
  after its previous response), and says so in the log, once a minute at most.
- **Body timeout** is the lobby middleware's (:class:`~dragonlair.web.app.Guard`).
- **Connections per address.** An address (other than a named proxy) may hold at most
  ``max_connections_per_address`` HTTP connections at once; one more is closed at once
  (WebSocket connections are counted by the app once upgraded, against the same cap).
- **Idle timeout** is uvicorn's keep-alive timeout; ``limit_concurrency`` its cap on
  connections and tasks at once (beyond it, 503), kept below the process's file limit.
- **Proxies.** ``X-Forwarded-For`` is believed only from ``forwarded_allow_ips``
  (default: nobody), so a local process cannot pose as many clients, and behind a proxy
  each player counts as their own address.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import resource
import time
from collections import Counter
from typing import Any, ClassVar

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .config import ServerConfig

log = logging.getLogger("dragonlair.web")

# descriptors kept free for storage, the bot pool, logs and the listening socket
RESERVED_FDS = 64


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def networks(allowed: str) -> tuple[Network, ...] | None:
    """The proxies named in ``forwarded_allow_ips`` (None: ``*``, every address)."""
    items = [p.strip() for p in allowed.split(",") if p.strip()]
    if "*" in items:
        return None
    return tuple(ipaddress.ip_network(p, strict=False) for p in items)


class TimedHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol, with a deadline for each request's headers and a cap on
    each address's open connections (a subclass per server holds its settings)."""

    header_timeout = 10.0
    per_address = 64
    proxies: ClassVar[tuple[Network, ...] | None] = ()
    open_by_address: ClassVar[Counter[str]] = Counter()
    closed = 0
    reported = 0.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._header_timer: asyncio.TimerHandle | None = None
        self._counted: str | None = None
        super().connection_made(transport)
        host = self.client[0] if self.client else None
        if host is not None and not self._is_proxy(host):
            cls = type(self)
            if cls.open_by_address[host] >= cls.per_address:
                transport.close()
                self._report(f"{host} had {cls.per_address} connections open already")
                return
            cls.open_by_address[host] += 1
            self._counted = host
        self._arm_header_timer()

    def _is_proxy(self, host: str) -> bool:
        proxies = type(self).proxies
        if proxies is None:
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in net for net in proxies)

    def _uncount(self) -> None:
        if self._counted is not None:
            counts = type(self).open_by_address
            counts[self._counted] -= 1
            if counts[self._counted] <= 0:
                del counts[self._counted]
            self._counted = None

    def handle_websocket_upgrade(self) -> None:
        self._uncount()  # a WebSocket is counted by the app from here on
        super().handle_websocket_upgrade()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm_header_timer()

    def on_headers_complete(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None
        self._uncount()
        super().connection_lost(exc)

    def _arm_header_timer(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_timeout, self._too_slow)

    def _too_slow(self) -> None:
        self._header_timer = None
        if self.transport.is_closing():
            return
        self.transport.close()
        self._report(
            f"{self.client[0] if self.client else '?'} sent no complete request within "
            f"{self.header_timeout:g} s"
        )

    def _report(self, last: str) -> None:
        """Count a connection closed for its client's behaviour; log once a minute."""
        cls = type(self)
        cls.closed += 1
        now = time.monotonic()
        if now - cls.reported >= 60:
            log.warning(
                "closed %d connections of misbehaving clients (the last: %s)", cls.closed, last
            )
            cls.closed, cls.reported = 0, now


def concurrency(config: ServerConfig) -> int:
    """``limit_concurrency``, kept below the process's file descriptor limit."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return config.limit_concurrency
    return max(1, min(config.limit_concurrency, soft - RESERVED_FDS))


def uvicorn_config(app: Any, config: ServerConfig, host: str, port: int, **kw: Any) -> Any:
    """The uvicorn configuration serving ``app`` with ``config``'s HTTP-level limits."""
    protocol = type(
        "TimedHttp",
        (TimedHttp,),
        {
            "header_timeout": config.header_timeout,
            "per_address": config.max_connections_per_address,
            "proxies": networks(config.forwarded_allow_ips),
            "open_by_address": Counter(),
        },
    )
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=protocol,
        ws_max_size=config.max_message_bytes * 16,
        ws_per_message_deflate=False,
        ws_ping_interval=config.ws_ping_interval,
        ws_ping_timeout=max(20.0, config.ws_ping_interval * 2),
        timeout_keep_alive=max(1, round(config.idle_timeout)),
        limit_concurrency=concurrency(config),
        proxy_headers=bool(config.forwarded_allow_ips),
        forwarded_allow_ips=config.forwarded_allow_ips or "",
        server_header=False,
        **kw,
    )
