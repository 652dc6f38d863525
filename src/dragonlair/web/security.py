"""Secrets and limits: seat tokens, their storage and comparison, and rate limiting.

- **Tokens** come from :func:`secrets.token_urlsafe` (192 random bits): unguessable, and
  the only thing that identifies a seat (there are no accounts). The server keeps only their
  SHA-256 digests, in memory and in storage, so a copied database hands out no seat; a
  presented token is hashed and compared with :func:`hmac.compare_digest` against every
  candidate, so the time taken says nothing about how close a guess was or which seat it
  matched. Tokens never appear in a URL the server sees (links carry them after ``#``,
  which browsers do not send) nor in a log line.
- **Rate limits** are token buckets: per WebSocket connection for messages (the bucket
  lives on the connection, so it needs no shared store and dies with it), and per client
  address for lobby requests and connection attempts. We first used the ``limits``
  library (the engine behind slowapi), but its in-memory store starts a new timer thread
  every 10 ms while any key is live to expire old hits, which cost the server several per
  cent of a core under load for what is a dozen lines of arithmetic here.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Iterable

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


_UNITS = {"second": 1.0, "minute": 60.0, "hour": 3600.0, "day": 86400.0}
_RATE = re.compile(r"^\s*(\d+)\s*(?:/|per)\s*(\d+)?\s*(second|minute|hour|day)s?\s*$")


def parse_rate(text: str) -> tuple[int, float]:
    """A rate such as ``"20/second"`` or ``"120 per 2 minutes"`` as (count, seconds);
    ValueError says the form expected."""
    m = _RATE.match(text.lower()) if isinstance(text, str) else None
    if m is None or int(m.group(1)) < 1 or int(m.group(2) or 1) < 1:
        raise ValueError(
            f"a rate is a count per period such as '20/second' or '120/minute', not {text!r}"
        )
    return int(m.group(1)), int(m.group(2) or 1) * _UNITS[m.group(3)]


class TokenBucket:
    """``count`` requests per ``period`` seconds, in bursts of up to ``count``."""

    __slots__ = ("capacity", "rate", "stamp", "tokens")

    def __init__(self, count: int, period: float) -> None:
        self.capacity = float(count)
        self.rate = count / period
        self.tokens = float(count)
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        """Take one token; False (and nothing taken) when the bucket is empty."""
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def full(self) -> bool:
        """Whether the bucket has refilled (its key may be forgotten)."""
        return self.tokens + (time.monotonic() - self.stamp) * self.rate >= self.capacity


class RateLimiter:
    """A token bucket per key (a client address), or handed to a connection to keep."""

    MAX_KEYS = 100_000

    def __init__(self, rate: str) -> None:
        self.text = rate
        self.count, self.period = parse_rate(rate)
        self._buckets: dict[str, TokenBucket] = {}

    def bucket(self) -> TokenBucket:
        """A fresh bucket at this rate."""
        return TokenBucket(self.count, self.period)

    def allow(self, key: str) -> bool:
        """Count one request for ``key``; False when it is over the limit."""
        b = self._buckets.get(key)
        if b is None:
            if len(self._buckets) >= self.MAX_KEYS:
                self._prune()
            b = self._buckets[key] = self.bucket()
        return b.allow()

    def _prune(self) -> None:
        idle = [k for k, b in self._buckets.items() if b.full()]
        for k in idle or list(self._buckets)[: self.MAX_KEYS // 2]:
            del self._buckets[k]

    def describe(self) -> str:
        """The limit as it was given ("20/second")."""
        return self.text
