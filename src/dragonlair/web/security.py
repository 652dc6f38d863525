"""Secrets and limits: seat tokens, their storage and comparison, and rate limiting.

- **Tokens** come from :func:`secrets.token_urlsafe` (192 random bits): unguessable, and
  the only thing that identifies a seat (there are no accounts). The server keeps only their
  SHA-256 digests, in memory and in storage, so a copied database hands out no seat; a
  presented token is hashed and compared with :func:`hmac.compare_digest` against every
  candidate, so the time taken says nothing about how close a guess was or which seat it
  matched. Tokens never appear in a URL the server sees (links carry them after ``#``,
  which browsers do not send) nor in a log line.
- **Fair deals.** A table's seed is drawn with :mod:`secrets` and published at creation as
  a commitment, the SHA-256 of ``"<seed>:<salt>"`` (:func:`commitment`), revealed when the
  game ends; see ``docs/server.md``. A deal the creator chose (a position, or a chosen
  seed) is committed with what it was made from appended (:func:`deal_source`), so the
  revealed text itself says the deal was chosen and no check can pass it off as drawn.
- **Sealed seeds.** An unfinished game's seed and salt are stored sealed with Fernet
  (``cryptography``: AES-128-CBC with an HMAC-SHA256, the library's recipe for
  authenticated symmetric encryption) under a key kept in a file outside the database
  (:class:`Sealer`), so a copy of the database shows no hidden card of a game in play.
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
import json
import os
import re
import secrets
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

from cryptography.fernet import Fernet, InvalidToken

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


SALT_BYTES = 16


# Below 2**53, so that every client reads a revealed seed exactly (JavaScript's numbers
# are doubles) and can check it against the commitment.
SEED_BOUND = 2**53


def new_seed() -> int:
    """A table's seed, drawn from the operating system's secure source."""
    return secrets.randbelow(SEED_BOUND)


def new_salt() -> str:
    """The salt of a seed's commitment: 32 random hex characters."""
    return secrets.token_hex(SALT_BYTES)


def commitment(seed: int, salt: str, source: str | None = None) -> str:
    """The published commitment to a deal: the SHA-256 hex digest of ``"<seed>:<salt>"``
    for a drawn seed, of ``"<seed>:<salt>:<source>"`` for a chosen deal (:func:`deal_source`)."""
    text = f"{seed}:{salt}" if source is None else f"{seed}:{salt}:{source}"
    return hashlib.sha256(text.encode()).hexdigest()


def deal_chosen(
    settings: Mapping[str, Any], committed: bool = True
) -> Literal["seed", "position"] | None:
    """What the table's creator chose of its deal: ``"position"`` (the game started from a
    position or puzzle), ``"seed"`` (a chosen seed; so is a table stored without any
    commitment), or None for a deal the server drew."""
    if settings.get("position") is not None:
        return "position"
    if settings.get("chosen_seed") or not committed:
        return "seed"
    return None


def deal_source(settings: Mapping[str, Any]) -> str | None:
    """What a chosen deal was made from, as its commitment names it after the salt:
    ``"position:<SHA-256 of the position as canonical JSON>"`` or ``"chosen-seed"``; None
    for a drawn seed."""
    chosen = deal_chosen(settings)
    if chosen == "position":
        canon = json.dumps(
            settings["position"], sort_keys=True, separators=(",", ":"), ensure_ascii=False
        )
        return "position:" + hashlib.sha256(canon.encode()).hexdigest()
    return "chosen-seed" if chosen == "seed" else None


class SealError(Exception):
    """A sealed value cannot be opened (another key), or the key file is unusable."""


class Sealer:
    """Seals and opens small JSON values with a Fernet key kept in a file."""

    def __init__(self, key: bytes, path: str = "") -> None:
        try:
            self._fernet = Fernet(key)
        except (ValueError, TypeError) as e:
            raise SealError(f"the seal key {path or ''} is not a Fernet key: {e}") from None
        self.path = path
        self._mac_key = hashlib.sha256(b"dragonlair tag key\0" + key).digest()

    def tag(self, text: str) -> str:
        """A keyed digest of ``text`` (HMAC-SHA-256 under a key derived from the seal key),
        the same in every process sharing the key: stored instead of ``text`` where only
        equality counts (a client address), so the database does not hold the text."""
        mac = hmac.new(self._mac_key, text.encode("utf-8", "surrogatepass"), hashlib.sha256)
        return mac.hexdigest()[:32]

    @classmethod
    def from_file(cls, path: str | Path) -> Sealer:
        """The key in ``path``, generated there (readable by its owner only) if missing."""
        p = Path(path)
        if not p.exists():
            key = Fernet.generate_key()
            try:
                p.parent.mkdir(parents=True, exist_ok=True)
                fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                with os.fdopen(fd, "wb") as f:
                    f.write(key + b"\n")
            except FileExistsError:
                pass  # another process made it first: use theirs
            except OSError as e:
                raise SealError(f"cannot create the seal key {p}: {e}") from None
        try:
            key = p.read_bytes().strip()
        except OSError as e:
            raise SealError(f"cannot read the seal key {p}: {e}") from None
        return cls(key, str(p))

    def seal(self, value: dict[str, Any]) -> bytes:
        """``value`` encrypted and authenticated."""
        return self._fernet.encrypt(json.dumps(value, sort_keys=True).encode())

    def unseal(self, token: bytes) -> dict[str, Any]:
        """The value sealed in ``token``; SealError if this key did not seal it."""
        try:
            value: dict[str, Any] = json.loads(self._fernet.decrypt(token))
        except InvalidToken:
            raise SealError(
                f"its seed is sealed with another key than {self.path or 'this server'}'s "
                "(was the key file lost or replaced?), so the game cannot be rebuilt"
            ) from None
        return value


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

    def charge(self, amount: float) -> None:
        """Take ``amount`` more (a costly request), into debt if need be: the requests
        after it wait until the bucket has refilled."""
        self.tokens = max(-self.capacity, self.tokens - amount)

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


# ---------------------------------------------------------------------- positions

MAX_POSITION_DEPTH = 16  # tables and arrays inside each other (the games' use at most 4)


def _bracket_depth(text: str, limit: int) -> int | None:
    """The deepest nesting of ``[``/``{`` in TOML or JSON text, outside strings and
    comments, without parsing it; None as soon as it passes ``limit`` (one pass, no
    recursion, so any text is read in bounded time and stack)."""
    depth = deepest = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            quote = c * 3 if text.startswith(c * 3, i) else c
            i += len(quote)
            while i < n and not text.startswith(quote, i):
                if text[i] == "\\" and c == '"':
                    i += 1  # an escaped character (basic strings only)
                elif text[i] == "\n" and len(quote) == 1:
                    break  # an unterminated one-line string: the parser says so
                i += 1
            i += len(quote)
            continue
        if c == "#":  # a TOML comment, to the end of the line
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if c in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > limit:
                return None
        elif c in "]}":
            depth = max(0, depth - 1)
        i += 1
    return deepest


def _doc_depth(doc: object, limit: int) -> bool:
    """Whether a parsed document nests at most ``limit`` deep (TOML's dotted keys nest
    without brackets), looked at without recursion."""
    stack: list[tuple[object, int]] = [(doc, 0)]
    while stack:
        item, d = stack.pop()
        if d > limit:
            return False
        if isinstance(item, dict):
            stack.extend((v, d + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, d + 1) for v in item)
    return True


def read_position(text: str, max_chars: int, max_depth: int = MAX_POSITION_DEPTH) -> dict[str, Any]:
    """A position document from TOML or JSON text sent by a client, read within bounds:
    its size and its nesting are checked before the parser sees it (Python's TOML and JSON
    parsers recurse, and a few kilobytes of brackets would exhaust the stack), and the
    document's depth after (dotted keys); BadPosition says what is wrong."""
    from ..core.position import BadPosition, parse

    if len(text) > max_chars:
        raise BadPosition("position", f"is {len(text)} characters long; at most {max_chars}")
    if _bracket_depth(text, max_depth) is None:
        raise BadPosition("position", f"nests tables or arrays more than {max_depth} deep")
    doc = parse(text)
    if not _doc_depth(doc, max_depth):
        raise BadPosition("position", f"nests tables or arrays more than {max_depth} deep")
    return doc
