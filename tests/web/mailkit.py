"""A local SMTP server for the e-mail tests (aiosmtpd, on a free loopback port): it keeps
every message it is handed, and the tests wait on it for the ones they expect."""

from __future__ import annotations

import email
import email.policy
import re
import threading
import time
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import Envelope, Session

from dragonlair.web.config import MailSettings
from tests.web.serverkit import free_port


class Inbox:
    """aiosmtpd's handler: every message received, parsed, in order."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.changed = threading.Condition()

    async def handle_DATA(self, server: Any, session: Session, envelope: Envelope) -> str:
        content = envelope.original_content or b""
        parsed = email.message_from_bytes(content, policy=email.policy.default)
        assert isinstance(parsed, EmailMessage)
        with self.changed:
            self.messages.append(parsed)
            self.changed.notify_all()
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        with self.changed:
            return [m for m in self.messages if m["To"] == address]

    def wait(
        self, check: Callable[[list[EmailMessage]], bool], what: str, timeout: float = 20
    ) -> list[EmailMessage]:
        """Wait until ``check`` holds of the messages received; them."""
        end = time.monotonic() + timeout
        with self.changed:
            while not check(self.messages):
                left = end - time.monotonic()
                assert left > 0, f"timed out waiting for {what}; got {self.summary()}"
                self.changed.wait(left)
            return list(self.messages)

    def wait_for(self, address: str, n: int = 1, timeout: float = 20) -> list[EmailMessage]:
        """The messages to ``address`` once there are ``n`` of them."""
        self.wait(lambda ms: sum(m["To"] == address for m in ms) >= n, f"{n} to {address}", timeout)
        return self.to(address)

    def summary(self) -> list[tuple[str, str]]:
        return [(str(m["To"]), str(m["Subject"])) for m in self.messages]


def text_of(message: EmailMessage) -> str:
    body = message.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


def link(message: EmailMessage, path: str) -> str:
    """The first link in the message whose path starts with ``path``."""
    found = re.search(r"https?://[^/\s]+(" + re.escape(path) + r"[^\s]*)", text_of(message))
    assert found, f"no {path} link in {text_of(message)!r}"
    return found.group(1)


class SmtpServer:
    """aiosmtpd's controller on a free port, with its inbox."""

    def __init__(self) -> None:
        self.inbox = Inbox()
        self.port = free_port()
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port)

    def settings(self, **kw: Any) -> MailSettings:
        """Settings that send here: no encryption, no login (a relay on this machine)."""
        base: dict[str, Any] = {
            "host": "127.0.0.1",
            "port": self.port,
            "security": "none",
            "sender": "games@dragonlair.test",
            "timeout": 10.0,
        }
        base.update(kw)
        return MailSettings(**base)

    def __enter__(self) -> SmtpServer:
        self.controller.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.controller.stop()


def smtp_server() -> Iterator[SmtpServer]:
    with SmtpServer() as s:
        yield s
