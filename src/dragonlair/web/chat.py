"""Chat at a table: text messages from its seats and spectators over the table's
WebSocket, limited in length and rate, stored with the table's record and sent again to
whoever (re)connects.

A chat message is only text: the server keeps what was typed (up to :data:`MAX_CHAT`
characters) and sends it back inside JSON, never a card or anything of the game; the
browser shows it with ``textContent``. A table created with ``chat_apart`` keeps its
spectators' messages among spectators (the seats' messages reach everyone), so that
watchers cannot whisper to a player what they see. See docs/server.md, "Chat".
"""

from __future__ import annotations

import time
import weakref
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .protocol import MAX_CHAT, ProtocolError, encode
from .security import TokenBucket


class Peer(Protocol):
    """A client as the chat sees it (a table's :class:`~.table.ports.Peer`)."""

    seat: int | None

    def send(self, text: str) -> None: ...


RATE = (5, 10.0)  # at most 5 messages per 10 seconds per connection, in bursts of 5
KEPT = 200  # the last messages of a table kept in memory and sent to a connecting client


@dataclass
class StoredChat:
    """One chat message as stored (``apart``: a spectator's, for spectators only)."""

    seat: int | None
    name: str
    text: str
    apart: bool
    at: float


class Chat:
    """One table's chat: its recent messages and each connection's rate."""

    def __init__(self, apart: bool, history: list[StoredChat]) -> None:
        self.apart = apart
        self.said: deque[StoredChat] = deque(history, maxlen=KEPT)
        self._buckets: weakref.WeakKeyDictionary[Peer, TokenBucket] = weakref.WeakKeyDictionary()

    def check(self, conn: Peer, text: str) -> str:
        """The message to store (stripped), or a ProtocolError saying why it is refused
        (nothing is stored or sent then)."""
        text = text.strip()
        if not text:
            raise ProtocolError("chat_empty", "a chat message needs some text")
        if len(text) > MAX_CHAT:
            raise ProtocolError("chat_too_long", f"a chat message is at most {MAX_CHAT} characters")
        bucket = self._buckets.get(conn)
        if bucket is None:
            bucket = self._buckets[conn] = TokenBucket(*RATE)
        if not bucket.allow():
            raise ProtocolError(
                "chat_rate_limited",
                f"at most {RATE[0]} chat messages per {RATE[1]:g} seconds; this one was not sent",
            )
        return text

    def message(self, conn: Peer, name: str, text: str) -> StoredChat:
        """The stored form of what ``conn`` (shown as ``name``) said."""
        return StoredChat(
            seat=conn.seat,
            name=name,
            text=text,
            apart=self.apart and conn.seat is None,
            at=time.time(),
        )

    def add(self, said: StoredChat, conns: Sequence[Peer]) -> None:
        """Keep a stored message and send it to everyone who may read it."""
        self.said.append(said)
        text = encode({"type": "chat", "messages": [_public(said)]})
        for c in conns:
            if _reaches(said, c):
                c.send(text)

    def history(self, conn: Peer) -> str:
        """The ``chat`` message with the table's recent chat ``conn`` may read."""
        return encode(
            {"type": "chat", "messages": [_public(s) for s in self.said if _reaches(s, conn)]}
        )


def _reaches(said: StoredChat, conn: Peer) -> bool:
    """Whether ``conn`` may read ``said``: a spectator's message said apart reaches
    spectators only."""
    return not said.apart or conn.seat is None


def _public(said: StoredChat) -> dict[str, Any]:
    return {"seat": said.seat, "name": said.name, "text": said.text, "at": said.at}
