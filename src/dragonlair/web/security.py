"""Secrets and limits: seat tokens, their storage and comparison, and rate limiting.

- **Tokens** come from :func:`secrets.token_urlsafe` (192 random bits): unguessable, and
  the only thing that identifies a seat (there are no accounts). The server keeps only their
  SHA-256 digests, in memory and in storage, so a copied database hands out no seat; a
  presented token is hashed and compared with :func:`hmac.compare_digest` against every
  candidate, so the time taken says nothing about how close a guess was or which seat it
  matched. Tokens never appear in a URL the server sees (links carry them after ``#``,
  which browsers do not send) nor in a log line.
- **Rate limits** use the ``limits`` library (the engine behind slowapi) with a moving
  window kept in memory: per WebSocket connection for messages, per client address for
  HTTP requests and WebSocket connection attempts. A hand-written bucket would be a few
  lines, but ``limits`` gets the window arithmetic right, parses the "20/second" strings
  people write in options, and can move to a shared store if the server ever runs as
  several processes.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

TOKEN_BYTES = 24


def new_token() -> str:
    """A fresh unguessable token (URL-safe text)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_table_id() -> str:
    """A short random table id: not a secret, but not guessable in sequence either."""
    return secrets.token_urlsafe(6)


def digest(token: str) -> bytes:
    """The SHA-256 digest under which a token is stored."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


def match(token: str, candidates: Iterable[tuple[object, bytes | None]]) -> object | None:
    """The key of the candidate whose digest ``token`` has, or None; every candidate is
    compared in constant time, whichever matches."""
    d = digest(token)
    found: object | None = None
    for key, stored in candidates:
        if stored is not None and hmac.compare_digest(d, stored) and found is None:
            found = key
    return found


def parse_rate(text: str) -> RateLimitItem:
    """A rate such as ``"20/second"`` or ``"120 per minute"``; ValueError says the form."""
    try:
        return parse(text)
    except ValueError:
        raise ValueError(
            f"a rate is a count per period such as '20/second' or '120/minute', not {text!r}"
        ) from None


class RateLimiter:
    """Moving-window limits per key (a connection id or a client address)."""

    def __init__(self, rate: str) -> None:
        self.item = parse_rate(rate)
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    def allow(self, key: str) -> bool:
        """Count one request for ``key``; False when it is over the limit."""
        return self._limiter.hit(self.item, key)

    def forget(self, key: str) -> None:
        """Drop what is kept for ``key`` (a closed connection)."""
        self._limiter.clear(self.item, key)

    def describe(self) -> str:
        """The limit in words, for error messages ("20 per 1 second")."""
        unit = self.item.GRANULARITY.name
        return f"{self.item.amount} per {self.item.multiples} {unit}"
