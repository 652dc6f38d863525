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

The counts live in the server's database (``dl_sign_in_events``, ``dl_sign_in_locks``,
migration ``0008_sign_in_limits``), so every process of the server counts against the same
budgets and honours the same locks, and a restart clears nothing. An event is a row: its
kind, the SHA-256 of what it counts (the address, or the address and the name's key: the
table holds no names or addresses in the clear) and when it happened. Rows older than the
longest window are deleted as the guard goes (at most once a minute per process).

Two processes racing at the edge of a budget each count their own attempt before they
look (insert, commit, then count), so neither lets more than the budget through; both
may refuse, and the refused one takes its attempt back.
"""

from __future__ import annotations

import hashlib
import time

from sqlalchemy import Engine, delete, func, insert, select
from sqlalchemy.exc import IntegrityError

from ..protocol import ProtocolError
from .schema import sign_in_events_t, sign_in_locks_t

FAILURES = 5
WINDOW = 900.0
LOCK = 900.0
ATTEMPTS = 30
SIGNUPS = 10
SIGNUP_WINDOW = 3600.0
SWEEP_EVERY = 60.0  # seconds between two deletions of old rows by one process

ATTEMPT, FAILURE, SIGNUP = "attempt", "failure", "signup"


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x00".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


class SignInGuard:
    """Counts sign-in attempts and failures (per address, and per address and name) and
    sign-ups (per address) in the database; refuses with ``locked`` or ``rate_limited``
    (429). Blocking calls: the routes run them in a worker thread."""

    def __init__(
        self,
        engine: Engine,
        failures: int = FAILURES,
        window: float = WINDOW,
        lock: float = LOCK,
        attempts: int = ATTEMPTS,
        signups: int = SIGNUPS,
        signup_window: float = SIGNUP_WINDOW,
    ) -> None:
        self.engine = engine
        self.failures = failures
        self.window = window
        self.lock = lock
        self.attempts = attempts
        self.signups = signups
        self.signup_window = signup_window
        self._swept = 0.0

    # ------------------------------------------------------------------ the rows

    def _sweep(self, now: float) -> None:
        if now - self._swept < SWEEP_EVERY:
            return
        self._swept = now
        oldest = now - max(self.window, self.signup_window)
        with self.engine.begin() as conn:
            conn.execute(delete(sign_in_events_t).where(sign_in_events_t.c.at <= oldest))
            conn.execute(delete(sign_in_locks_t).where(sign_in_locks_t.c.until <= now))

    def _add(self, kind: str, key: str, now: float) -> int:
        """Record an event; its row's id."""
        with self.engine.begin() as conn:
            got = conn.execute(
                insert(sign_in_events_t).values(kind=kind, key=key, at=now)
            ).inserted_primary_key
        return int(got[0]) if got else 0

    def _recent(self, kind: str, key: str, since: float) -> tuple[int, float | None]:
        """How many events of ``kind`` for ``key`` after ``since``, and the oldest's time."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(func.count(), func.min(sign_in_events_t.c.at)).where(
                    sign_in_events_t.c.kind == kind,
                    sign_in_events_t.c.key == key,
                    sign_in_events_t.c.at > since,
                )
            ).one()
        return int(row[0]), row[1]

    def _take_back(self, event_id: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(sign_in_events_t).where(sign_in_events_t.c.id == event_id))

    def _clear(self, kind: str, key: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                delete(sign_in_events_t).where(
                    sign_in_events_t.c.kind == kind, sign_in_events_t.c.key == key
                )
            )

    def _budget(self, kind: str, key: str, size: int, seconds: float, now: float) -> float:
        """Count an event against a budget of ``size`` per ``seconds``: 0.0 if it fits,
        else how long until it would (and the event is not counted)."""
        mine = self._add(kind, key, now)
        n, oldest = self._recent(kind, key, now - seconds)
        if n <= size:
            return 0.0
        self._take_back(mine)
        return max(0.0, (oldest if oldest is not None else now) + seconds - now)

    # ------------------------------------------------------------------ the checks

    def before_sign_in(self, address: str, key: str) -> None:
        """Count an attempt; ProtocolError if this address may not try now (or not this
        name)."""
        now = time.time()
        self._sweep(now)
        pair = _digest(address, key)
        with self.engine.connect() as conn:
            until = conn.execute(
                select(sign_in_locks_t.c.until).where(sign_in_locks_t.c.key == pair)
            ).scalar()
        if until is not None and now < until:
            raise ProtocolError(
                "locked",
                f"too many wrong passwords for this name from your address: try again in "
                f"{int(until - now) + 1} s (signing in from elsewhere is not affected)",
                429,
            )
        wait = self._budget(ATTEMPT, _digest(address), self.attempts, self.window, now)
        if wait:
            raise ProtocolError(
                "rate_limited",
                f"too many sign-in attempts from your address: at most {self.attempts} "
                f"per {int(self.window // 60)} minutes; try again in {int(wait) + 1} s",
                429,
            )

    def failed(self, address: str, key: str) -> None:
        """A wrong password (or no such name): the pair's failures, locking it at the limit."""
        now = time.time()
        pair = _digest(address, key)
        self._add(FAILURE, pair, now)
        n, _ = self._recent(FAILURE, pair, now - self.window)
        if n < self.failures:
            return
        try:
            with self.engine.begin() as conn:
                conn.execute(delete(sign_in_locks_t).where(sign_in_locks_t.c.key == pair))
                conn.execute(insert(sign_in_locks_t).values(key=pair, until=now + self.lock))
        except IntegrityError:
            pass  # another process locked the pair at the same moment: locked either way
        self._clear(FAILURE, pair)

    def succeeded(self, address: str, key: str) -> None:
        """A right password clears the pair's failures."""
        self._clear(FAILURE, _digest(address, key))

    def before_sign_up(self, address: str) -> None:
        """Count a sign-up; ProtocolError ``rate_limited`` over the address's budget."""
        now = time.time()
        self._sweep(now)
        wait = self._budget(SIGNUP, _digest(address), self.signups, self.signup_window, now)
        if wait:
            raise ProtocolError(
                "rate_limited",
                f"too many sign-ups from your address: at most {self.signups} an hour; "
                f"try again in {int(wait) + 1} s",
                429,
            )
