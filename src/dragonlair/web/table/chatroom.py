"""A table's chat as a part of the table: read from storage when the first client comes,
each message stored before anyone is sent it, reports stored for the operator, and the
messages the operator hides taken out (the rules of the chat itself, its limits and who
reads what, are :mod:`dragonlair.web.chat`'s)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from ..chat import KEPT, Chat
from ..protocol import encode
from .ports import Peer, Storage
from .seats import Seats


class ChatRoom:
    """One table's chat, with the storage it is kept in."""

    def __init__(
        self,
        table_id: str,
        apart: bool,
        seats: Seats,
        store: Storage,
        *,
        write: Callable[[Callable[[], Any], Callable[[], None] | None], Awaitable[None]],
        connections: Callable[[], list[Peer]],
    ) -> None:
        """``apart``: spectators' messages reach spectators only; ``write``: stores with a
        follow-up once committed (the host's); ``connections``: everyone at the table."""
        self.table_id = table_id
        self.apart = apart
        self.seats = seats
        self.store = store
        self._write = write
        self._connections = connections
        self.chat: Chat | None = None  # read from the store when the first client comes

    async def _chat(self) -> Chat:
        """The table's chat, its recent messages read from the store the first time."""
        if self.chat is None:
            store = self.store
            history, reports = await asyncio.to_thread(
                lambda: (store.load_chat(self.table_id, KEPT), store.chat_reports(self.table_id))
            )
            if self.chat is None:
                self.chat = Chat(self.apart, history, reports)
        return self.chat

    async def opened(self) -> Chat:
        """The chat as a client that connects now is to be sent it: read the first time,
        and without the reported messages the operator hid meanwhile (maybe from another
        process)."""
        chat = await self._chat()
        if chat.reported_ids:
            hidden = await asyncio.to_thread(
                self.store.hidden_chat, self.table_id, list(chat.reported_ids)
            )
            for message in hidden:
                chat.hide(message, self._connections())
        return chat

    def _name(self, conn: Peer) -> str:
        return "spectator" if conn.seat is None else self.seats[conn.seat].name

    async def say(self, conn: Peer, text: str | None, phrase: str | None = None) -> None:
        """A seat or a spectator says something (or a quick phrase): stored, then sent to
        everyone who may read it (a refusal is a ProtocolError and nothing is stored or
        sent)."""
        chat = await self._chat()
        text = chat.check(conn, text, phrase)
        said = chat.message(conn, self._name(conn), text, phrase)
        await self._write(
            lambda: self.store.add_chat(self.table_id, said),
            lambda: chat.add(said, self._connections()),
        )

    async def report(self, conn: Peer, message: int) -> None:
        """A reader reports a chat message to the operator: stored in ``dl_reports``, then
        acknowledged to this connection (``chat_reported``)."""
        chat = await self._chat()
        said = chat.reported(conn, message)
        name = self._name(conn)

        def done() -> None:
            chat.mark_reported(conn, message)
            conn.send(encode({"type": "chat_reported", "id": message}))

        await self._write(lambda: self.store.add_report(self.table_id, said, conn.seat, name), done)

    def hide(self, message: int) -> bool:
        """The operator hid a message (already marked in storage): it leaves this table's
        chat and its readers' pages."""
        return self.chat is not None and self.chat.hide(message, self._connections())
