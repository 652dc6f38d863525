"""Accounts and their sessions: sign-up, sign-in, sign-out (here or everywhere), deletion.

- **Passwords** are hashed with Argon2id through ``argon2-cffi`` (the reference C code's
  binding, by the author of ``attrs``; RFC 9106's memory-hard function, the one OWASP
  recommends first), never with anything home-made; a hash made under older parameters is
  rehashed at the next sign-in.
- **Sessions** live on the server: the cookie holds 256 random bits, the database only
  their SHA-256 digest, so ending a session (sign-out) or all of an account's (sign out
  everywhere, deletion) is deleting rows. This process keeps the sessions it has seen in
  memory (:class:`Session`) and asks the database again after ``recheck`` seconds (the
  sessions of live WebSocket connections too, all in one query, :func:`watch_sessions`),
  so a session ended by another process stops working here within that time, and one
  ended here at once: its live WebSocket connections are told and closed.
- **The same answer** for a name without an account and for a wrong password, after the
  same work (a password is checked against a stand-in hash when there is no account), so
  sign-in does not tell which names have accounts.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import Engine, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..protocol import ProtocolError
from ..store import seats_t, tables_t
from .schema import DELETED_NAME, accounts_t, passkeys_t, sessions_t

NAME_MIN, NAME_MAX = 3, 24
PASSWORD_MIN, PASSWORD_MAX = 10, 200
SESSION_DAYS = 30.0
RECHECK = 30.0  # seconds a session seen in the database is trusted before asking again
MAX_CACHED = 20_000


def name_key(name: str) -> str:
    """How names are compared: NFKC-normalised and case-folded ("Anna" and "ANNA" are one
    account; so are names that only differ by a compatibility character)."""
    return unicodedata.normalize("NFKC", name).casefold().strip()


def check_name(name: str) -> str:
    """The account name, trimmed; ProtocolError ``bad_name`` unless it is 3-24 letters,
    digits, spaces, ``_`` or ``-`` with a letter or digit first."""
    clean = " ".join(name.split())
    if not NAME_MIN <= len(clean) <= NAME_MAX:
        raise ProtocolError(
            "bad_name", f"an account name has {NAME_MIN} to {NAME_MAX} characters, not {len(clean)}"
        )
    if not clean[0].isalnum() or not all(ch.isalnum() or ch in " _-" for ch in clean):
        raise ProtocolError(
            "bad_name",
            "an account name starts with a letter or digit and has only letters, digits, "
            "spaces, '_' and '-'",
        )
    if name_key(clean) == name_key(DELETED_NAME):
        raise ProtocolError("bad_name", f"{DELETED_NAME!r} stands for deleted accounts")
    return clean


def check_password(password: str, name: str) -> None:
    """ProtocolError ``weak_password`` for a password too short, too long, or the name."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ProtocolError(
            "weak_password",
            f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters, not {len(password)}",
        )
    if name_key(password) == name_key(name):
        raise ProtocolError("weak_password", "a password must not be the account's name")


def session_digest(token: str) -> str:
    """The SHA-256 hex digest under which a session's cookie value is stored."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(eq=False)
class Session:
    """A signed-in session as this process knows it."""

    digest: str
    account_id: str
    name: str
    expires: float
    checked: float
    revoked: bool = False
    # the live connections it opened a seat with: told and closed when it ends
    conns: set[Any] = field(default_factory=set)

    def live(self) -> bool:
        """Whether the session still signs its player in (checked on every WebSocket
        message of a seat that belongs to an account)."""
        return not self.revoked and time.time() < self.expires

    def end(self, text: str) -> None:
        """The session ended: it signs nobody in from now on; its connections are told
        (``text``) and closed."""
        self.revoked = True
        for conn in list(self.conns):
            conn.send(text)
            conn.close(4401)
        self.conns.clear()


@dataclass
class Account:
    """An account as its player sees it."""

    id: str
    name: str
    created: float


class Accounts:
    """The accounts and sessions of one server, in its database (blocking calls: the
    routes run them in a worker thread)."""

    def __init__(
        self,
        engine: Engine,
        hasher: PasswordHasher | None = None,
        session_days: float = SESSION_DAYS,
        recheck: float = RECHECK,
        ended_text: str = "",
    ) -> None:
        self.engine = engine
        self.hasher = hasher or PasswordHasher()  # Argon2id, RFC 9106's low-memory profile
        self.session_seconds = session_days * 86400.0
        self.recheck = recheck
        self.ended_text = ended_text
        self._sessions: dict[str, Session] = {}
        self._mutex = threading.Lock()  # the blocking calls run in worker threads
        self._ending: list[Session] = []  # ended, their connections still to be closed
        self._stand_in: str | None = None

    # ------------------------------------------------------------------ passwords

    def stand_in_hash(self) -> str:
        """A hash to check a password against when there is no account by that name, so
        that answering takes as long as for a wrong password."""
        if self._stand_in is None:
            self._stand_in = self.hasher.hash(secrets.token_urlsafe(16))
        return self._stand_in

    def _verify(self, stored: str | None, password: str) -> bool:
        try:
            return self.hasher.verify(stored or self.stand_in_hash(), password) and bool(stored)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    # ------------------------------------------------------------------ accounts

    def sign_up(self, name: str, password: str) -> tuple[Account, str]:
        """A new account and a session for it (its cookie's value); ProtocolError
        ``bad_name``, ``weak_password`` or ``name_taken`` (409)."""
        clean = check_name(name)
        check_password(password, clean)
        account = Account(id=secrets.token_urlsafe(12), name=clean, created=time.time())
        hashed = self.hasher.hash(password)
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(accounts_t).values(
                        id=account.id,
                        name=clean,
                        name_key=name_key(clean),
                        password=hashed,
                        created=account.created,
                    )
                )
        except IntegrityError:
            raise ProtocolError(
                "name_taken", f"the name {clean!r} is taken: choose another one", 409
            ) from None
        return account, self.open_session(account)

    def sign_in(self, name: str, password: str) -> tuple[Account, str] | None:
        """The account and a new session if the name and password match, else None (the
        same for a name without an account, after the same work)."""
        key = name_key(name)
        with self.engine.connect() as conn:
            row = (
                conn.execute(
                    select(accounts_t).where(
                        accounts_t.c.name_key == key, accounts_t.c.deleted.is_(None)
                    )
                )
                .mappings()
                .first()
            )
        if not self._verify(None if row is None else row["password"], password):
            return None
        assert row is not None
        if self.hasher.check_needs_rehash(row["password"]):
            with self.engine.begin() as conn:
                conn.execute(
                    update(accounts_t)
                    .where(accounts_t.c.id == row["id"])
                    .values(password=self.hasher.hash(password))
                )
        account = Account(id=row["id"], name=row["name"], created=row["created"])
        return account, self.open_session(account)

    def check_password_of(self, account_id: str, password: str) -> bool:
        """Whether ``password`` is the account's (to confirm a deletion)."""
        with self.engine.connect() as conn:
            stored = conn.execute(
                select(accounts_t.c.password).where(accounts_t.c.id == account_id)
            ).scalar()
        return self._verify(stored, password)

    def delete(self, account_id: str) -> None:
        """Delete an account's personal data: its name (its seats are renamed "deleted
        player"), its password, its passkeys and every session. Its games stay as they
        were played."""
        with self.engine.begin() as conn:
            conn.execute(
                update(accounts_t)
                .where(accounts_t.c.id == account_id)
                .values(name=DELETED_NAME, name_key=None, password=None, deleted=time.time())
            )
            conn.execute(delete(sessions_t).where(sessions_t.c.account_id == account_id))
            conn.execute(delete(passkeys_t).where(passkeys_t.c.account_id == account_id))
            conn.execute(
                update(seats_t).where(seats_t.c.account_id == account_id).values(name=DELETED_NAME)
            )
        self._forget(lambda s: s.account_id == account_id)

    # ------------------------------------------------------------------ sessions

    def open_session(self, account: Account) -> str:
        """A new session for ``account``: its cookie's value (only its digest is stored)."""
        token = secrets.token_urlsafe(32)
        now = time.time()
        d = session_digest(token)
        with self.engine.begin() as conn:
            conn.execute(
                insert(sessions_t).values(
                    digest=d,
                    account_id=account.id,
                    created=now,
                    expires=now + self.session_seconds,
                )
            )
        self._remember(Session(d, account.id, account.name, now + self.session_seconds, now))
        return token

    def session(self, token: str | None) -> Session | None:
        """The live session whose cookie value is ``token``, or None (no cookie, an ended
        or expired session, or a value the server never made)."""
        if not token or len(token) > 100:
            return None
        d = session_digest(token)
        now = time.time()
        s = self._sessions.get(d)
        if s is not None and now - s.checked < self.recheck:
            return s if s.live() else None
        with self.engine.connect() as conn:
            row = conn.execute(
                select(sessions_t.c.account_id, sessions_t.c.expires, accounts_t.c.name)
                .join(accounts_t, accounts_t.c.id == sessions_t.c.account_id)
                .where(sessions_t.c.digest == d, accounts_t.c.deleted.is_(None))
            ).first()
        if row is None or row.expires <= now:
            if s is not None:
                self._forget(lambda x: x.digest == d)
            return None
        if s is None:
            s = Session(d, row.account_id, row.name, row.expires, now)
            self._remember(s)
        else:
            s.checked = now
        return s

    def sign_out(self, session: Session) -> None:
        """End one session."""
        with self.engine.begin() as conn:
            conn.execute(delete(sessions_t).where(sessions_t.c.digest == session.digest))
        session.revoked = True
        with self._mutex:
            self._ending.append(session)
        self._forget(lambda s: s.digest == session.digest)

    def sign_out_everywhere(self, account_id: str) -> int:
        """End every session of an account (every device); how many there were."""
        with self.engine.begin() as conn:
            n = conn.execute(
                delete(sessions_t).where(sessions_t.c.account_id == account_id)
            ).rowcount
        self._forget(lambda s: s.account_id == account_id)
        return int(n or 0)

    def _remember(self, s: Session) -> None:
        with self._mutex:
            if len(self._sessions) >= MAX_CACHED:
                # asked of the database again when next seen; those with live connections
                # are kept, so that ending them still closes their connections
                idle = [k for k, v in self._sessions.items() if not v.conns]
                for k in idle[: MAX_CACHED // 2]:
                    del self._sessions[k]
            self._sessions[s.digest] = s

    def _forget(self, which: Callable[[Session], bool]) -> None:
        """Drop the sessions ``which`` picks: they sign nobody in from now on, and their
        connections are closed by :meth:`close_ended` (on the event loop)."""
        with self._mutex:
            for d, s in list(self._sessions.items()):
                if which(s):
                    del self._sessions[d]
                    s.revoked = True
                    self._ending.append(s)

    def close_ended(self) -> None:
        """Tell and close the connections of the sessions ended since the last call (on
        the event loop: connections are not thread-safe)."""
        with self._mutex:
            ended, self._ending = self._ending, []
        for s in ended:
            s.end(self.ended_text)

    def connected(self) -> list[str]:
        """The digests of the sessions that have live connections here."""
        with self._mutex:
            return [d for d, s in self._sessions.items() if s.conns and not s.revoked]

    def recheck_sessions(self, digests: list[str]) -> None:
        """Forget the sessions among ``digests`` that the database no longer has (ended by
        another process, expired, their account deleted), so their connections close."""
        if not digests:
            return
        now = time.time()
        with self.engine.connect() as conn:
            found = set(
                conn.execute(
                    select(sessions_t.c.digest)
                    .join(accounts_t, accounts_t.c.id == sessions_t.c.account_id)
                    .where(
                        sessions_t.c.digest.in_(digests),
                        sessions_t.c.expires > now,
                        accounts_t.c.deleted.is_(None),
                    )
                ).scalars()
            )
        gone = set(digests) - found
        if gone:
            self._forget(lambda s: s.digest in gone)
        with self._mutex:
            for d in found:
                cached = self._sessions.get(d)
                if cached is not None:
                    cached.checked = now

    # ------------------------------------------------------------------ reading

    def account(self, account_id: str) -> Account | None:
        """An account that is not deleted, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(accounts_t).where(
                    accounts_t.c.id == account_id, accounts_t.c.deleted.is_(None)
                )
            ).first()
        return None if row is None else Account(id=row.id, name=row.name, created=row.created)

    def games(
        self, account_id: str, limit: int, offset: int = 0
    ) -> tuple[list[dict[str, Any]], int]:
        """One page of the account's seats at tables, newest first, and how many there are
        in all: each with its table, game, seat, the seat's name, status, when the table
        was made and, once over, the result."""
        mine = seats_t.c.account_id == account_id
        with self.engine.connect() as conn:
            total = conn.execute(select(func.count()).select_from(seats_t).where(mine)).scalar()
            rows = conn.execute(
                select(
                    tables_t.c.id,
                    tables_t.c.game,
                    tables_t.c.players,
                    tables_t.c.status,
                    tables_t.c.created,
                    tables_t.c.result,
                    seats_t.c.seat,
                    seats_t.c.name,
                )
                .join(tables_t, tables_t.c.id == seats_t.c.table_id)
                .where(mine)
                .order_by(tables_t.c.created.desc(), seats_t.c.seat)
                .limit(limit)
                .offset(offset)
            ).all()
        page = [
            {
                "table": r.id,
                "game": r.game,
                "players": r.players,
                "seat": r.seat,
                "name": r.name,
                "status": r.status,
                "created": r.created,
                "result": r.result if r.status == "over" else None,
            }
            for r in rows
        ]
        return page, int(total or 0)


async def watch_sessions(accounts: Accounts, every: float = RECHECK) -> None:
    """Every ``every`` seconds, ask the database whether the sessions of this process's
    live seat connections still exist, and close those of ended ones (a sign-out on
    another process of a sharded server)."""
    import asyncio
    import logging

    while True:
        await asyncio.sleep(every)
        try:
            await asyncio.to_thread(accounts.recheck_sessions, accounts.connected())
        except Exception as e:  # storage is away: look again next time
            logging.getLogger("dragonlair.web").warning("could not recheck sessions: %s", e)
        accounts.close_ended()
