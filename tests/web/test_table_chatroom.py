"""A table's chat as a part (dragonlair.web.table.chatroom) on its own, with fakes handed in
for storage, its writes and the table's connections."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import Future
from typing import Any

import pytest

from dragonlair.web.chat import StoredChat
from dragonlair.web.protocol import ProtocolError
from dragonlair.web.store import StoredSeat
from dragonlair.web.table.chatroom import ChatRoom
from dragonlair.web.table.seats import Seats
from tests.web.partkit import FakePeer


def done() -> Future[None]:
    f: Future[None] = Future()
    f.set_result(None)
    return f


class FakeStore:
    """The chat's rows and reports in memory; ``down``: every write fails."""

    def __init__(self, history: list[StoredChat], reports: list[tuple[int, int | None]]) -> None:
        self.rows = list(history)
        self.reports = list(reports)
        self.reported: list[tuple[int | None, int | None, str]] = []  # (id, by seat, name)
        self.hidden: set[int] = set()
        self.loads = 0
        self.down = False

    def _write(self) -> Future[None]:
        if self.down:
            f: Future[None] = Future()
            f.set_exception(OSError("the database is down"))
            return f
        return done()

    def load_chat(self, table_id: str, limit: int) -> list[StoredChat]:
        self.loads += 1
        return [s for s in self.rows if s.id not in self.hidden][-limit:]

    def chat_reports(self, table_id: str) -> list[tuple[int, int | None]]:
        return list(self.reports)

    def hidden_chat(self, table_id: str, ids: list[int]) -> list[int]:
        return [i for i in ids if i in self.hidden]

    def add_chat(self, table_id: str, said: StoredChat) -> Future[None]:
        f = self._write()
        if not self.down:
            said.id = len(self.rows) + 1
            self.rows.append(said)
        return f

    def add_report(
        self, table_id: str, said: StoredChat, seat: int | None, name: str
    ) -> Future[None]:
        f = self._write()
        if not self.down:
            self.reported.append((said.id, seat, name))
        return f


async def write(submit: Any, then: Any = None) -> None:
    """The host's write: stored, then the follow-up; a failure changes nothing."""
    try:
        await asyncio.wrap_future(submit())
    except OSError:
        raise ProtocolError("storage_error", "could not store that", 503) from None
    if then is not None:
        then()


def room(apart: bool = False, history: list[StoredChat] | None = None, **kw: Any) -> Any:
    store = FakeStore(history or [], kw.get("reports", []))
    seats = Seats([StoredSeat(0, "human", "Ann"), StoredSeat(1, "human", "Bob")], None, True)
    ann, bob, eve = FakePeer(0), FakePeer(1), FakePeer(None)
    peers: list[Any] = [ann, bob, eve]
    store_: Any = store
    part = ChatRoom("t", apart, seats, store_, write=write, connections=lambda: peers)
    return part, store, ann, bob, eve


@pytest.mark.timeout(30)
def test_a_message_is_stored_then_sent_to_whoever_may_read_it() -> None:
    async def main() -> None:
        part, store, ann, bob, eve = room(apart=True)
        await part.say(ann, "  good luck  ")
        said = {"id": 1, "seat": 0, "name": "Ann", "text": "good luck"}
        for p in (ann, bob, eve):
            (msg,) = p.sent
            assert msg["type"] == "chat" and msg["messages"][0].items() >= said.items()
        # a spectator's message at a table that keeps them apart reaches spectators only
        await part.say(eve, None, "good_game")
        assert len(ann.sent) == len(bob.sent) == 1 and len(eve.sent) == 2
        assert eve.sent[-1]["messages"][0]["phrase"] == "good_game"
        assert eve.sent[-1]["messages"][0]["name"] == "spectator"
        assert [s.text for s in store.rows] == ["good luck", ""]
        assert store.loads == 1  # read once, the first time

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_two_clients_coming_at_once_share_one_chat() -> None:
    async def main() -> None:
        part, store, ann, bob, _ = room()
        first, second = await asyncio.gather(part.opened(), part.opened())
        assert first is second and store.loads == 2  # both read it; the first read counts
        await part.say(ann, "hi")
        assert [m["text"] for m in json.loads(second.history(bob))["messages"]] == ["hi"]

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_a_refused_or_unstored_message_changes_nothing() -> None:
    async def main() -> None:
        part, store, ann, bob, eve = room()
        for text, phrase, code in (
            ("   ", None, "chat_empty"),
            (None, "boo", "chat_unknown_phrase"),
            ("x" * 5000, None, "chat_too_long"),
        ):
            with pytest.raises(ProtocolError) as e:
                await part.say(ann, text, phrase)
            assert e.value.code == code
        store.down = True
        with pytest.raises(ProtocolError) as e:
            await part.say(ann, "hello")
        assert e.value.code == "storage_error"
        assert store.rows == [] and ann.sent == bob.sent == eve.sent == []
        # and nothing is kept to send a newcomer
        store.down = False
        chat = await part.opened()
        assert json.loads(chat.history(bob))["messages"] == []

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_a_report_is_stored_once_and_acknowledged_to_its_reader() -> None:
    rude = StoredChat(seat=0, name="Ann", text="you all lose", apart=False, at=1.0, id=7)

    async def main() -> None:
        part, store, ann, bob, eve = room(history=[rude])
        await part.report(bob, 7)
        assert store.reported == [(7, 1, "Bob")]
        assert bob.sent == [{"type": "chat_reported", "id": 7}] and ann.sent == []
        for conn, message, code in (
            (bob, 7, "chat_already_reported"),
            (ann, 7, "chat_report_own"),
            (eve, 8, "chat_no_message"),
        ):
            with pytest.raises(ProtocolError) as e:
                await part.report(conn, message)
            assert e.value.code == code
        assert store.reported == [(7, 1, "Bob")] and len(bob.sent) == 1
        await part.report(eve, 7)  # the spectators report too
        assert store.reported[-1] == (7, None, "spectator")

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_a_message_the_operator_hid_leaves_the_chat() -> None:
    rude = StoredChat(seat=0, name="Ann", text="you all lose", apart=False, at=1.0, id=7)
    kind = StoredChat(seat=1, name="Bob", text="well played", apart=False, at=2.0, id=8)

    async def main() -> None:
        part, store, ann, bob, eve = room(history=[rude, kind], reports=[(7, 1)])
        assert not part.hide(7)  # not read yet: nothing to take out here
        chat = await part.opened()
        assert [m["id"] for m in json.loads(chat.history(eve))["messages"]] == [7, 8]
        # the reported message is hidden by the operator (maybe through another process):
        # the next client to come finds it gone, and everyone's page loses it
        store.hidden.add(7)
        assert [m["id"] for m in json.loads((await part.opened()).history(eve))["messages"]] == [8]
        assert all({"type": "chat_hidden", "id": 7} in p.sent for p in (ann, bob, eve))
        # the operator hides another one while the table is open
        assert part.hide(8)
        assert eve.sent[-1] == {"type": "chat_hidden", "id": 8}
        assert json.loads((await part.opened()).history(eve))["messages"] == []
        assert store.loads == 1

    asyncio.run(main())
