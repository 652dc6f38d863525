"""E-mail to the players of turn-based tables: "your turn", one reminder before the move's
deadline, and the link that verifies an address.

Who gets mail: a signed-in player who gave an address on the account page, verified it
by the link sent to it, and turned on "e-mail me when it is my turn" (off by default).
Nothing else is ever sent to an address, and a guest's seat gets nothing (it has no
account to hold an address).

**The outbox** (``dl_outbox``, :data:`dragonlair.web.store.outbox_t`). A "your turn" row
is written by the table in the same commit as the action (or the first deadline) that
asks the seat (:meth:`dragonlair.web.table.deadlines.Turns.mail`), so a restart or a
crash never loses one. Its ``remind_at`` is when a quarter (``ServerConfig.mail_remind``)
of the move's time is left; the sender's sweep turns each row whose time has come, and
whose deadline is still the table's, into one "reminder" row. A unique index on
``(kind, table, seat, deadline)`` holds one message of a kind per seat and deadline,
however many processes write it.

**Sending** (:class:`Mailer`, one per server process, started with the server). Now and
then (``mail_every`` seconds, and at once when a table wrote a "your turn") it writes the
reminders that are due, then *claims* pending rows in a transaction of its own (a claim
stamp and a time limit on each row; on PostgreSQL ``FOR UPDATE SKIP LOCKED``), sends the
rows it won and marks them sent. Two processes therefore never send the same row; a
process that dies in the middle of the SMTP exchange leaves its claim to run out, and the
row is sent again (an e-mail sent twice rather than lost). Whom a row goes to is read when
it is sent: an address removed, unverified or not consenting by then gets nothing
(``dropped``), and so does a game that ended or a reminder whose move was made.

The messages go out through :mod:`smtplib` in a worker thread (``asyncio.to_thread``),
never on the event loop: the standard library's client does STARTTLS, TLS and login,
the server sends a few messages a minute, and a thread per batch costs nothing beside
that, so an asynchronous client (aiosmtplib) would add a dependency for no gain.

**Links** are absolute (``--public-url``): the seat's page (``/play/{table}#seat=N``,
which opens for the signed-in account only), the account page, and two signed tokens
(:mod:`itsdangerous`, under a key derived from the server's seal key with a salt per
purpose): ``/mail/verify?t=`` (valid a week) and ``/mail/unsubscribe?t=`` (one click, no
sign-in; also in the ``List-Unsubscribe`` header with ``List-Unsubscribe-Post``, RFC 8058).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import smtplib
import ssl
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email.errors import HeaderParseError
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from typing import Any
from urllib.parse import quote

from babel.dates import format_datetime as babel_datetime
from itsdangerous import BadSignature, SignatureExpired, URLSafeSerializer, URLSafeTimedSerializer
from sqlalchemy import Engine, func, or_, select, update

from ..core import DragonlairError, spec
from ..i18n import DEFAULT, LANGUAGES, _, using
from .accounts.schema import accounts_t
from .config import MailSettings
from .store import insert_once, outbox_t, seats_t, tables_t

log = logging.getLogger("dragonlair.web.mail")

VERIFY_DAYS = 7  # how long a verification link is good for
CLAIM_SECONDS = 120.0  # how long a claimed row is the claimer's to send
BATCH = 20  # rows claimed at a time
ATTEMPTS = 5  # sends tried before a row is given up as failed
VERIFY_LIMIT = 3  # verification e-mails an account may ask for in an hour
MAX_ADDRESS = 254


class MailError(Exception):
    """An e-mail address or setting that cannot be used (the message says why; ``code``
    is the lobby's error code for it)."""

    def __init__(self, message: str, code: str = "bad_email", status: int = 422) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


def check_address(text: str) -> str:
    """``text`` as an e-mail address (trimmed); MailError if it is not one."""
    address = text.strip()
    if not address or len(address) > MAX_ADDRESS or any(c.isspace() for c in address):
        raise MailError("an e-mail address such as ann@example.org")
    try:
        parsed = Address(addr_spec=address)
    except (HeaderParseError, ValueError, IndexError):
        raise MailError(f"{address!r} is not an e-mail address") from None
    if not parsed.username or "." not in parsed.domain or parsed.addr_spec != address:
        raise MailError(f"{address!r} is not an e-mail address")
    return address


class Tokens:
    """The signed tokens of e-mail links: a verification (valid ``VERIFY_DAYS``) and an
    unsubscription (valid while the account keeps that address), each naming the account
    and the address, signed with ``secret`` and a salt per purpose."""

    def __init__(self, secret: bytes) -> None:
        sha256 = {"digest_method": hashlib.sha256}
        self._verify = URLSafeTimedSerializer(
            secret, salt="dragonlair-mail-verify", signer_kwargs=sha256
        )
        self._unsubscribe = URLSafeSerializer(
            secret, salt="dragonlair-mail-unsubscribe", signer_kwargs=sha256
        )

    def verify(self, account_id: str, address: str) -> str:
        return str(self._verify.dumps([account_id, address]))

    def unsubscribe(self, account_id: str, address: str) -> str:
        return str(self._unsubscribe.dumps([account_id, address]))

    def read_verify(self, token: str) -> tuple[str, str] | None:
        """The account and address of a verification token; None if it is not one of ours
        or older than a week."""
        try:
            got = self._verify.loads(token, max_age=VERIFY_DAYS * 86400)
        except (SignatureExpired, BadSignature):
            return None
        return _pair(got)

    def read_unsubscribe(self, token: str) -> tuple[str, str] | None:
        try:
            got = self._unsubscribe.loads(token)
        except BadSignature:
            return None
        return _pair(got)


def _pair(got: Any) -> tuple[str, str] | None:
    if isinstance(got, list) and len(got) == 2 and all(isinstance(x, str) for x in got):
        return got[0], got[1]
    return None


@dataclass(frozen=True)
class EmailSetting:
    """An account's e-mail setting as the account page shows it."""

    address: str | None
    verified: bool
    turns: bool
    lang: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "address": self.address,
            "verified": self.verified,
            "turns": self.turns,
            "lang": self.lang,
        }


@dataclass
class Letter:
    """A claimed row, with what its message needs."""

    id: int
    kind: str
    claim: str
    to: str | None = None  # None: nobody to send it to (dropped)
    why: str = ""
    account_id: str = ""
    name: str = ""
    lang: str = DEFAULT
    table_id: str | None = None
    seat: int | None = None
    due: float | None = None
    game: str = ""
    players: tuple[str, ...] = ()
    takeover: str | None = None


class Outbox:
    """The e-mail settings of accounts and the outbox, in the server's database."""

    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock  # the game clock: deadlines and reminders

    # ------------------------------------------------------------ an account's setting

    def setting(self, account_id: str) -> EmailSetting | None:
        with self.engine.connect() as conn:
            r = conn.execute(
                select(
                    accounts_t.c.email,
                    accounts_t.c.email_verified,
                    accounts_t.c.email_turns,
                    accounts_t.c.email_lang,
                ).where(accounts_t.c.id == account_id, accounts_t.c.deleted.is_(None))
            ).first()
        if r is None:
            return None
        return EmailSetting(
            r.email, r.email_verified is not None, bool(r.email_turns), r.email_lang or DEFAULT
        )

    def save(
        self, account_id: str, address: str | None, turns: bool, lang: str
    ) -> tuple[EmailSetting, bool]:
        """Set an account's address (None: remove it), whether turn-based tables may
        write to it, and its language. A new address is unverified and gets a
        verification e-mail (the second value: True). MailError, nothing changed, for a
        bad address or language, or too many verification e-mails within an hour."""
        if address is not None:
            address = check_address(address)
        if lang not in LANGUAGES:
            raise MailError(f"lang: one of {', '.join(LANGUAGES)}, not {lang!r}")
        now = time.time()
        with self.engine.begin() as conn:
            r = conn.execute(
                select(accounts_t.c.email, accounts_t.c.email_verified).where(
                    accounts_t.c.id == account_id, accounts_t.c.deleted.is_(None)
                )
            ).first()
            if r is None:
                raise MailError("there is no such account", "not_signed_in", 401)
            new = address is not None and (
                address.casefold() != (r.email or "").casefold() or r.email_verified is None
            )
            if new:
                recent = conn.execute(
                    select(func.count())
                    .select_from(outbox_t)
                    .where(
                        outbox_t.c.kind == "verify",
                        outbox_t.c.account_id == account_id,
                        outbox_t.c.created > now - 3600,
                    )
                ).scalar_one()
                if recent >= VERIFY_LIMIT:
                    raise MailError(
                        f"{VERIFY_LIMIT} verification e-mails were sent within the hour; "
                        "look for them, or try again later",
                        "too_many_emails",
                        429,
                    )
            values: dict[str, Any] = {"email_turns": turns, "email_lang": lang}
            if address is None:
                values.update(email=None, email_verified=None)
            elif new:
                values.update(email=address, email_verified=None)
            conn.execute(update(accounts_t).where(accounts_t.c.id == account_id).values(values))
            if new:
                conn.execute(
                    outbox_t.insert().values(
                        kind="verify",
                        status="pending",
                        account_id=account_id,
                        address=address,
                        created=now,
                    )
                )
        got = self.setting(account_id)
        assert got is not None
        return got, new

    def verify(self, account_id: str, address: str) -> bool:
        """A verification link was opened: the account's address is verified if it is
        still ``address``; whether it was."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(accounts_t)
                .where(
                    accounts_t.c.id == account_id,
                    accounts_t.c.email == address,
                    accounts_t.c.deleted.is_(None),
                )
                .values(email_verified=func.coalesce(accounts_t.c.email_verified, time.time()))
            )
            return bool(done.rowcount)

    def unsubscribe(self, account_id: str, address: str) -> str | None:
        """An unsubscribe link was used: no more turn e-mail to the account while its
        address is ``address``; its language (None: the link is not its address's)."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(accounts_t)
                .where(accounts_t.c.id == account_id, accounts_t.c.email == address)
                .values(email_turns=False)
            )
            if not done.rowcount:
                return None
            lang = conn.execute(
                select(accounts_t.c.email_lang).where(accounts_t.c.id == account_id)
            ).scalar()
        return str(lang or DEFAULT)

    def lang_of(self, account_id: str) -> str:
        with self.engine.connect() as conn:
            lang = conn.execute(
                select(accounts_t.c.email_lang).where(accounts_t.c.id == account_id)
            ).scalar()
        return str(lang or DEFAULT)

    # ------------------------------------------------------------ the sender's side

    def remind(self, limit: int = 500) -> int:
        """Write the reminders whose time has come: for each seat asked whose move's
        deadline is still the table's and has not passed, one "reminder" row (the unique
        index keeps it one, however many processes look); how many rows were looked at."""
        now = self.clock()
        with self.engine.begin() as conn:
            q = (
                select(outbox_t.c.id, outbox_t.c.table_id, outbox_t.c.seat, outbox_t.c.due)
                .where(outbox_t.c.remind_at.is_not(None), outbox_t.c.remind_at <= now)
                .order_by(outbox_t.c.remind_at)
                .limit(limit)
            )
            if conn.dialect.name == "postgresql":
                q = q.with_for_update(skip_locked=True)
            rows = conn.execute(q).all()
            if not rows:
                return 0
            ids = {r.table_id for r in rows}
            tables = {
                t.id: t
                for t in conn.execute(
                    select(tables_t.c.id, tables_t.c.due, tables_t.c.status).where(
                        tables_t.c.id.in_(ids)
                    )
                )
            }
            fresh = []
            for r in rows:
                t = tables.get(r.table_id)
                if t is None or t.status != "playing" or t.due != r.due or r.due <= now:
                    continue
                fresh.append(
                    {
                        "kind": "reminder",
                        "status": "pending",
                        "table_id": r.table_id,
                        "seat": r.seat,
                        "due": r.due,
                        "created": time.time(),
                    }
                )
            insert_once(conn, outbox_t, fresh)
            conn.execute(
                update(outbox_t)
                .where(outbox_t.c.id.in_([r.id for r in rows]))
                .values(remind_at=None)
            )
        return len(rows)

    def claim(self, limit: int = BATCH, hold: float = CLAIM_SECONDS) -> list[Letter]:
        """Claim up to ``limit`` pending rows for this call (nobody else's claim on them
        running), in one transaction, and read what their messages need."""
        now = time.time()
        stamp = uuid.uuid4().hex
        free = or_(outbox_t.c.claimed_until.is_(None), outbox_t.c.claimed_until < now)
        with self.engine.begin() as conn:
            q = (
                select(outbox_t.c.id)
                .where(outbox_t.c.status == "pending", free)
                .order_by(outbox_t.c.id)
                .limit(limit)
            )
            if conn.dialect.name == "postgresql":
                q = q.with_for_update(skip_locked=True)
            ids = [r.id for r in conn.execute(q)]
            if not ids:
                return []
            conn.execute(
                update(outbox_t)
                .where(outbox_t.c.id.in_(ids), outbox_t.c.status == "pending", free)
                .values(
                    claimed_by=stamp,
                    claimed_until=now + hold,
                    attempts=outbox_t.c.attempts + 1,
                )
            )
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(outbox_t).where(outbox_t.c.claimed_by == stamp).order_by(outbox_t.c.id)
            ).all()
            return [self._letter(conn, r) for r in rows]

    def _letter(self, conn: Any, r: Any) -> Letter:
        letter = Letter(id=r.id, kind=r.kind, claim=r.claimed_by, table_id=r.table_id, seat=r.seat)
        letter.due = r.due
        if r.kind == "verify":
            a = conn.execute(select(accounts_t).where(accounts_t.c.id == r.account_id)).first()
            if a is None or a.deleted is not None or a.email != r.address:
                letter.why = "the account's address changed"
            elif a.email_verified is not None:
                letter.why = "the address is verified already"
            else:
                letter.to = a.email
            if a is not None:
                letter.account_id, letter.name = a.id, a.name
                letter.lang = a.email_lang or DEFAULT
            return letter
        s = conn.execute(
            select(seats_t.c.account_id).where(
                seats_t.c.table_id == r.table_id, seats_t.c.seat == r.seat
            )
        ).first()
        t = conn.execute(
            select(tables_t.c.game, tables_t.c.status, tables_t.c.due, tables_t.c.settings).where(
                tables_t.c.id == r.table_id
            )
        ).first()
        a = (
            conn.execute(select(accounts_t).where(accounts_t.c.id == s.account_id)).first()
            if s is not None and s.account_id is not None
            else None
        )
        if a is None or a.deleted is not None or not a.email:
            letter.why = "no address"
        elif a.email_verified is None:
            letter.why = "the address is not verified"
        elif not a.email_turns:
            letter.why = "no turn e-mail wanted"
        elif t is None or t.status != "playing":
            letter.why = "the game is not in play"
        elif r.kind == "reminder" and (t.due != r.due or r.due <= self.clock()):
            letter.why = "the move was made"
        else:
            letter.to = a.email
        if a is not None:
            letter.account_id, letter.name = a.id, a.name
            letter.lang = a.email_lang or DEFAULT
        if t is not None:
            letter.game = t.game
            settings = t.settings if isinstance(t.settings, dict) else {}
            takeover = settings.get("takeover")
            letter.takeover = takeover if isinstance(takeover, str) else None
        letter.players = tuple(
            n
            for (n,) in conn.execute(
                select(seats_t.c.name)
                .where(seats_t.c.table_id == r.table_id)
                .order_by(seats_t.c.seat)
            )
        )
        return letter

    def done(self, outcomes: Sequence[tuple[Letter, str, str | None]]) -> None:
        """Mark claimed rows ``sent``, ``dropped`` or ``failed`` (each only while the claim
        is still this one's), in one transaction: ``(letter, status, error)``."""
        if not outcomes:
            return
        now = time.time()
        with self.engine.begin() as conn:
            for letter, status, error in outcomes:
                conn.execute(
                    update(outbox_t)
                    .where(outbox_t.c.id == letter.id, outbox_t.c.claimed_by == letter.claim)
                    .values(
                        status=status,
                        sent=now if status == "sent" else None,
                        claimed_until=None,
                        error=(error or "")[:200] or None,
                    )
                )

    def retry(self, letter: Letter, error: str, after: float) -> None:
        """A send failed: try the row again ``after`` seconds from now, or give it up
        as failed after ``ATTEMPTS`` tries."""
        with self.engine.begin() as conn:
            attempts = conn.execute(
                select(outbox_t.c.attempts).where(outbox_t.c.id == letter.id)
            ).scalar()
            if attempts is not None and attempts >= ATTEMPTS:
                status: dict[str, Any] = {"status": "failed", "claimed_until": None}
            else:
                status = {"claimed_until": time.time() + after}
            conn.execute(
                update(outbox_t)
                .where(outbox_t.c.id == letter.id, outbox_t.c.claimed_by == letter.claim)
                .values(error=error[:200], **status)
            )

    def counts(self) -> dict[str, int]:
        """How many rows of each status (for the operator and the tests)."""
        with self.engine.connect() as conn:
            return {
                s: int(n)
                for s, n in conn.execute(
                    select(outbox_t.c.status, func.count()).group_by(outbox_t.c.status)
                )
            }


# ------------------------------------------------------------------ the messages


def game_name(game_id: str) -> str:
    try:
        return spec(game_id).name
    except DragonlairError:
        return game_id


def when(due: float, lang: str) -> str:
    """A deadline as a date and time in ``lang``, in UTC (an e-mail does not know the
    reader's time zone)."""
    at = datetime.fromtimestamp(due, UTC)
    return f"{babel_datetime(at, format='medium', tzinfo=UTC, locale=lang)} UTC"


class Composer:
    """Writes each kind of message in its reader's language, with absolute links."""

    def __init__(self, settings: MailSettings, public_url: str, tokens: Tokens) -> None:
        self.settings = settings
        self.base = public_url.rstrip("/")
        self.tokens = tokens
        domain = settings.sender.rpartition("@")[2] or "localhost"
        self.domain = domain

    def seat_link(self, table_id: str, seat: int) -> str:
        return f"{self.base}/play/{quote(table_id)}#seat={seat}"

    def unsubscribe_link(self, account_id: str, address: str) -> str:
        return f"{self.base}/mail/unsubscribe?t={self.tokens.unsubscribe(account_id, address)}"

    def verify_link(self, account_id: str, address: str) -> str:
        return f"{self.base}/mail/verify?t={self.tokens.verify(account_id, address)}"

    def compose(self, letter: Letter) -> EmailMessage:
        assert letter.to is not None
        lang = letter.lang if letter.lang in LANGUAGES else DEFAULT
        with using(lang):
            if letter.kind == "verify":
                subject, body = self._verify(letter)
            else:
                subject, body = self._turn(letter)
        m = EmailMessage()
        m["From"] = self.settings.sender
        m["To"] = letter.to
        m["Subject"] = subject
        m["Date"] = format_datetime(datetime.now(UTC))
        m["Message-ID"] = make_msgid(domain=self.domain)
        m["Auto-Submitted"] = "auto-generated"
        m["Content-Language"] = lang
        if letter.kind != "verify":
            link = self.unsubscribe_link(letter.account_id, letter.to)
            m["List-Unsubscribe"] = f"<{link}>"
            m["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        m.set_content(body)
        return m

    def _verify(self, letter: Letter) -> tuple[str, str]:
        assert letter.to is not None
        subject = _("Confirm your e-mail address for dragonlair")
        body = "\n\n".join(
            [
                _("Hello {name},").format(name=letter.name),
                _(
                    "someone, probably you, gave this address to the dragonlair account "
                    "{name}. Open this link to confirm it (it works for {days} days):"
                ).format(name=letter.name, days=VERIFY_DAYS),
                self.verify_link(letter.account_id, letter.to),
                _(
                    "Until then nothing else is sent here. If it was not you, do nothing: "
                    "this address gets no more e-mail."
                ),
            ]
        )
        return subject, body + "\n"

    def _turn(self, letter: Letter) -> tuple[str, str]:
        assert letter.to is not None and letter.table_id is not None and letter.seat is not None
        game = game_name(letter.game)
        lang = letter.lang if letter.lang in LANGUAGES else DEFAULT
        deadline = when(letter.due, lang) if letter.due is not None else ""
        players = ", ".join(letter.players)
        if letter.kind == "reminder":
            subject = _("Reminder: your move in {game} is due by {deadline}").format(
                game=game, deadline=deadline
            )
            first = _("your move at table {table} ({game}: {players}) is still to be made.").format(
                table=letter.table_id, game=game, players=players
            )
        else:
            subject = _("Your turn in {game} (table {table})").format(
                game=game, table=letter.table_id
            )
            first = _("it is your turn at table {table} ({game}: {players}).").format(
                table=letter.table_id, game=game, players=players
            )
        due_line = (
            _("Make your move by {deadline}; after that the table's bot ({bot}) plays it for you.")
            if letter.takeover
            else _("Make your move by {deadline}.")
        ).format(deadline=deadline, bot=letter.takeover or "")
        body = "\n\n".join(
            [
                _("Hello {name},").format(name=letter.name),
                first,
                due_line,
                _("Your seat (sign in as {name}):").format(name=letter.name)
                + "\n"
                + self.seat_link(letter.table_id, letter.seat),
                "-- ",
                _(
                    "You get this e-mail because you asked for it on your dragonlair "
                    "account page. No more of these e-mails, in one click:"
                )
                + "\n"
                + self.unsubscribe_link(letter.account_id, letter.to),
            ]
        )
        return subject, body + "\n"


def deliver(settings: MailSettings, messages: Sequence[EmailMessage]) -> list[str | None]:
    """Send ``messages`` over one SMTP connection (in a worker thread: this blocks); for
    each, None when the server took it, else why not. OSError or smtplib's errors when no
    connection could be made (every message is then to be tried again)."""
    context = ssl.create_default_context()
    server: smtplib.SMTP
    if settings.security == "tls":
        server = smtplib.SMTP_SSL(
            settings.host, settings.port, timeout=settings.timeout, context=context
        )
    else:
        server = smtplib.SMTP(settings.host, settings.port, timeout=settings.timeout)
    with server:
        if settings.security == "starttls":
            server.starttls(context=context)
        if settings.user is not None and settings.password is not None:
            server.login(settings.user, settings.password)
        out: list[str | None] = []
        for m in messages:
            try:
                server.send_message(m)
            except smtplib.SMTPRecipientsRefused as e:
                out.append(f"refused: {e.recipients}")
            except (smtplib.SMTPDataError, smtplib.SMTPSenderRefused) as e:
                out.append(f"refused: {e}")
            else:
                out.append(None)
        return out


class Mailer:
    """A server process's sender: writes due reminders and sends claimed rows, every
    ``every`` seconds and whenever :meth:`wake` is called."""

    def __init__(
        self,
        settings: MailSettings,
        outbox: Outbox,
        composer: Composer,
        every: float,
        send: Callable[[MailSettings, Sequence[EmailMessage]], list[str | None]] = deliver,
    ) -> None:
        self.settings = settings
        self.outbox = outbox
        self.composer = composer
        self.every = every
        self._send = send
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self.sent = 0
        self.failures = 0  # sends given up or to be tried again

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    def wake(self) -> None:
        self._wake.set()

    async def close(self) -> None:
        """Stop: a look under way finishes first (a message handed to the SMTP server is
        marked sent), within the SMTP timeout; then the sender is cancelled."""
        if self._task is None:
            return
        self._stopping = True
        self._wake.set()
        try:
            await asyncio.wait_for(asyncio.shield(self._task), self.settings.timeout + 5)
        except TimeoutError:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while not self._stopping:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.every)
            self._wake.clear()
            if self._stopping:
                return
            try:
                await self.once()
            except Exception as e:  # storage or the SMTP server is away: the next look
                log.warning("sending e-mail failed: %s", e)

    async def once(self) -> int:
        """One look: reminders written, then every pending row claimed and sent; how many
        messages the SMTP server took."""
        await asyncio.to_thread(self.outbox.remind)
        took = 0
        while True:
            letters = await asyncio.to_thread(self.outbox.claim)
            if not letters:
                return took
            took += await self._post(letters)
            if len(letters) < BATCH:
                return took

    async def _post(self, letters: list[Letter]) -> int:
        dropped = [(x, "dropped", x.why) for x in letters if x.to is None]
        # composing (the email package's header parsing) takes a few ms a message: off
        # the event loop too
        ready = await asyncio.to_thread(
            lambda: [(x, self.composer.compose(x)) for x in letters if x.to is not None]
        )
        await asyncio.to_thread(self.outbox.done, dropped)
        if not ready:
            return 0
        try:
            answers = await asyncio.to_thread(self._send, self.settings, [m for _, m in ready])
        except (OSError, smtplib.SMTPException) as e:
            log.warning("the SMTP server %s:%d: %s", self.settings.host, self.settings.port, e)
            self.failures += len(ready)
            for letter, _m in ready:
                await asyncio.to_thread(self.outbox.retry, letter, str(e), self.every * 6)
            return 0
        outcomes: list[tuple[Letter, str, str | None]] = []
        for (letter, _m), error in zip(ready, answers, strict=True):
            if error is None:
                outcomes.append((letter, "sent", None))
            else:
                self.failures += 1
                log.warning("e-mail %d to %s refused: %s", letter.id, letter.to, error)
                outcomes.append((letter, "failed", error))
        await asyncio.to_thread(self.outbox.done, outcomes)
        took = sum(status == "sent" for _, status, _ in outcomes)
        self.sent += took
        return took


def is_mail_key(text: str) -> bool:
    """Whether ``text`` is a plausible token (what the routes accept before checking)."""
    return 0 < len(text) <= 1000 and all(c.isalnum() or c in "-_.:" for c in text)


__all__ = [
    "Composer",
    "EmailSetting",
    "MailError",
    "Mailer",
    "Outbox",
    "Tokens",
    "check_address",
    "deliver",
]
