"""Limits on signing in and up that a stranger cannot turn against someone else.

- **Failed sign-ins lock a pair, never an account**: after ``FAILURES`` wrong passwords for
  one name from one client address within ``WINDOW`` seconds, that address may not try
  that name again for ``LOCK`` seconds. The account's player, from any other address
  (their phone, their home), signs in as usual: someone guessing at their name cannot lock
  them out. A right password clears the pair's failures.
- **Each address has a budget of sign-in attempts** across all names (``ATTEMPTS`` per
  ``WINDOW`` seconds), so one address cannot try a leaked list of names and passwords
  faster than that (credential stuffing), and of sign-ups (``SIGNUPS`` per hour), which
  also bounds how fast it can probe which names are taken.

The counts live in this process's memory (like the lobby's rate limits): a restart clears
them, and with several processes each counts what it serves. Both are bounded in size.
"""

from __future__ import annotations

import time
from collections import deque

from ..protocol import ProtocolError

FAILURES = 5
WINDOW = 900.0
LOCK = 900.0
ATTEMPTS = 30
SIGNUPS = 10
SIGNUP_WINDOW = 3600.0
MAX_KEYS = 50_000


class _Window:
    """When each of a key's recent events happened, within a sliding window."""

    def __init__(self, size: int, seconds: float) -> None:
        self.size = size
        self.seconds = seconds
        self.events: dict[str, deque[float]] = {}

    def count(self, key: str, now: float) -> int:
        q = self.events.get(key)
        if q is None:
            return 0
        while q and q[0] <= now - self.seconds:
            q.popleft()
        if not q:
            del self.events[key]
            return 0
        return len(q)

    def add(self, key: str, now: float) -> None:
        if key not in self.events and len(self.events) >= MAX_KEYS:
            for k in list(self.events)[: MAX_KEYS // 2]:
                del self.events[k]
        q = self.events.setdefault(key, deque(maxlen=self.size))
        q.append(now)

    def clear(self, key: str) -> None:
        self.events.pop(key, None)

    def retry_after(self, key: str, now: float) -> float:
        q = self.events.get(key)
        return 0.0 if not q else max(0.0, q[0] + self.seconds - now)


class SignInGuard:
    """Counts sign-in attempts and failures (per address, and per address and name) and
    sign-ups (per address); refuses with ``locked`` or ``rate_limited`` (429)."""

    def __init__(
        self,
        failures: int = FAILURES,
        window: float = WINDOW,
        lock: float = LOCK,
        attempts: int = ATTEMPTS,
        signups: int = SIGNUPS,
    ) -> None:
        self.failures = failures
        self.lock = lock
        self._failed = _Window(failures, window)
        self._locked: dict[str, float] = {}
        self._attempts = _Window(attempts, window)
        self._signups = _Window(signups, SIGNUP_WINDOW)

    def before_sign_in(self, address: str, key: str) -> None:
        """Count an attempt; ProtocolError if this address may not try now (or not this
        name)."""
        now = time.time()
        pair = f"{address}\x00{key}"
        until = self._locked.get(pair)
        if until is not None:
            if now < until:
                raise ProtocolError(
                    "locked",
                    f"too many wrong passwords for this name from your address: try again in "
                    f"{int(until - now) + 1} s (signing in from elsewhere is not affected)",
                    429,
                )
            del self._locked[pair]
        if self._attempts.count(address, now) >= self._attempts.size:
            raise ProtocolError(
                "rate_limited",
                f"too many sign-in attempts from your address: at most {self._attempts.size} "
                f"per {int(self._attempts.seconds // 60)} minutes; try again in "
                f"{int(self._attempts.retry_after(address, now)) + 1} s",
                429,
            )
        self._attempts.add(address, now)

    def failed(self, address: str, key: str) -> None:
        """A wrong password (or no such name): the pair's failures, locking it at the limit."""
        now = time.time()
        pair = f"{address}\x00{key}"
        self._failed.add(pair, now)
        if self._failed.count(pair, now) >= self.failures:
            if len(self._locked) >= MAX_KEYS:
                self._locked = {k: v for k, v in self._locked.items() if v > now}
            self._locked[pair] = now + self.lock
            self._failed.clear(pair)

    def succeeded(self, address: str, key: str) -> None:
        """A right password clears the pair's failures."""
        self._failed.clear(f"{address}\x00{key}")

    def before_sign_up(self, address: str) -> None:
        """Count a sign-up; ProtocolError ``rate_limited`` over the address's budget."""
        now = time.time()
        if self._signups.count(address, now) >= self._signups.size:
            raise ProtocolError(
                "rate_limited",
                f"too many sign-ups from your address: at most {self._signups.size} an hour; "
                f"try again in {int(self._signups.retry_after(address, now)) + 1} s",
                429,
            )
        self._signups.add(address, now)
