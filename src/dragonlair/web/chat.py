"""Chat at a table: text messages from its seats and spectators over the table's
WebSocket, limited in length and rate, stored with the table's record and sent again to
whoever (re)connects.

A chat message is only text: the server keeps what was typed (up to :data:`MAX_CHAT`
characters) and sends it back inside JSON, never a card or anything of the game; the
browser shows it with ``textContent``. A table created with ``chat_apart`` keeps its
spectators' messages among spectators (the seats' messages reach everyone), so that
watchers cannot whisper to a player what they see.

A quick phrase (:data:`PHRASES`) travels as its id, never as words, so each reader sees it
in their own language; the server accepts only the ids it knows. Every message has the id
of its stored row: a reader may report it to the operator (:meth:`Chat.reported`, stored
in ``dl_reports``), and the operator may hide it (:meth:`Chat.hide`): it leaves the table's
chat, for those connected now and whoever connects later. See docs/server.md, "Chat".
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
REPORT_RATE = (5, 60.0)  # at most 5 reports per minute per connection
KEPT = 200  # the last messages of a table kept in memory and sent to a connecting client

# The quick phrases' ids, in the order the chat panel offers them; their words (English and
# German) are the browser's (web/static/js/chat.js), so each reader reads their own language.
PHRASES = (
    "good_luck",
    "have_fun",
    "your_turn",
    "one_moment",
    "thanks",
    "sorry",
    "well_played",
    "good_game",
)


@dataclass
class StoredChat:
    """One chat message as stored (``apart``: a spectator's, for spectators only; a quick
    phrase has its id in ``phrase`` and no ``text``; ``id``: its stored row's, set once
    stored)."""

    seat: int | None
    name: str
    text: str
    apart: bool
    at: float
    phrase: str | None = None
    id: int | None = None


class Chat:
    """One table's chat: its recent messages and each connection's rate."""

    def __init__(
        self,
        apart: bool,
        history: list[StoredChat],
        reports: Sequence[tuple[int, int | None]] = (),
    ) -> None:
        # reports: the table's stored reports (message id, reporting seat), so that a seat
        # reports a message once whichever process served the table when it did
        self.apart = apart
        self.said: deque[StoredChat] = deque(history, maxlen=KEPT)
        self._buckets: weakref.WeakKeyDictionary[Peer, TokenBucket] = weakref.WeakKeyDictionary()
        self._report_buckets: weakref.WeakKeyDictionary[Peer, TokenBucket] = (
            weakref.WeakKeyDictionary()
        )
        # (message id, reporter) already reported: a seat's number, or None for spectators
        self._reports: set[tuple[int, int | None]] = set(reports)
        # the messages reported here that are still shown: the operator may hide them from
        # any process, so the table asks storage about these when a client connects
        shown = {s.id for s in self.said}
        self.reported_ids: set[int] = {m for m, _ in self._reports if m in shown}

    def check(self, conn: Peer, text: str | None, phrase: str | None = None) -> str:
        """The message to store (stripped), or a ProtocolError saying why it is refused
        (nothing is stored or sent then). A quick phrase must be one of :data:`PHRASES`."""
        if phrase is not None:
            if phrase not in PHRASES:
                raise ProtocolError(
                    "chat_unknown_phrase",
                    f"no quick phrase {phrase[:40]!r}; the phrases are {', '.join(PHRASES)}",
                )
            self._allow(conn)
            return ""
        text = (text or "").strip()
        if not text:
            raise ProtocolError("chat_empty", "a chat message needs some text")
        if len(text) > MAX_CHAT:
            raise ProtocolError("chat_too_long", f"a chat message is at most {MAX_CHAT} characters")
        self._allow(conn)
        return text

    def _allow(self, conn: Peer) -> None:
        bucket = self._buckets.get(conn)
        if bucket is None:
            bucket = self._buckets[conn] = TokenBucket(*RATE)
        if not bucket.allow():
            raise ProtocolError(
                "chat_rate_limited",
                f"at most {RATE[0]} chat messages per {RATE[1]:g} seconds; this one was not sent",
            )

    def message(self, conn: Peer, name: str, text: str, phrase: str | None = None) -> StoredChat:
        """The stored form of what ``conn`` (shown as ``name``) said."""
        return StoredChat(
            seat=conn.seat,
            name=name,
            text=text,
            apart=self.apart and conn.seat is None,
            at=time.time(),
            phrase=phrase,
        )

    def reported(self, conn: Peer, message: int) -> StoredChat:
        """The message ``conn`` reports, once checked: one it may read, not its own seat's,
        not reported by the same seat (or the spectators) before, within the rate;
        otherwise a ProtocolError and nothing is stored."""
        said = next((s for s in self.said if s.id == message and _reaches(s, conn)), None)
        if said is None:
            raise ProtocolError(
                "chat_no_message", f"there is no chat message {message} at this table to report"
            )
        if conn.seat is not None and said.seat == conn.seat:
            raise ProtocolError("chat_report_own", "you cannot report your own message")
        if (message, conn.seat) in self._reports:
            raise ProtocolError(
                "chat_already_reported", f"message {message} was already reported from here"
            )
        bucket = self._report_buckets.get(conn)
        if bucket is None:
            bucket = self._report_buckets[conn] = TokenBucket(*REPORT_RATE)
        if not bucket.allow():
            raise ProtocolError(
                "chat_rate_limited",
                f"at most {REPORT_RATE[0]} reports per {REPORT_RATE[1]:g} seconds; "
                "this one was not sent",
            )
        return said

    def mark_reported(self, conn: Peer, message: int) -> None:
        """Remember that ``conn``'s seat (or the spectators) reported ``message``."""
        self._reports.add((message, conn.seat))
        self.reported_ids.add(message)

    def hide(self, message: int, conns: Sequence[Peer]) -> bool:
        """Take a message out of the chat (the operator hid it) and tell everyone who could
        read it; False if this table's recent chat does not hold it."""
        self.reported_ids.discard(message)
        said = next((s for s in self.said if s.id == message), None)
        if said is None:
            return False
        self.said.remove(said)
        text = encode({"type": "chat_hidden", "id": message})
        for c in conns:
            if _reaches(said, c):
                c.send(text)
        return True

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
    out = {"id": said.id, "seat": said.seat, "name": said.name, "text": said.text, "at": said.at}
    if said.phrase is not None:
        out["phrase"] = said.phrase
    return out
