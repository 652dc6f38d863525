"""What a table's parts need from outside, as Protocols: whatever satisfies them can be
handed in (the server's own store, bot pool and lobby service; a test's fakes).

Nothing here imports the lobby, the connections or the storage: they depend on this
module, never the other way round.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ..bots import BotJob, HintJob
from ..config import ServerConfig

if TYPE_CHECKING:
    from ..chat import StoredChat


class Peer(Protocol):
    """One client of a table as the table sees it: whose seat (None: a spectator), how
    far its events go, and a queue to send it text."""

    seat: int | None
    cursor: int

    def send(self, text: str) -> None: ...

    def close(self, code: int = 1000) -> None: ...


class BotPool(Protocol):
    """Where bots think and hints are worked out, off the event loop (the server's is
    :class:`dragonlair.web.bots.BotRunner`); both raise ``BotTimeout`` when cut."""

    async def decide(self, job: BotJob, table: str = "") -> str: ...

    async def hint(self, job: HintJob, table: str = "") -> dict[str, Any]: ...

    async def warm_hints(self) -> None:
        """Have the workers import what a hint needs, ahead of the first hint."""


class Storage(Protocol):
    """The writes a table makes, each a future that completes once committed (the
    server's is :class:`dragonlair.web.store.Store`)."""

    def append(
        self,
        table_id: str,
        move: int,
        seat: int,
        action: str,
        result: dict[str, Any] | None,
        reveal: tuple[int, str | None] | None,
        due: tuple[float | None] | None = None,
        abandons: float | None = None,
        asked: Sequence[tuple[int, bool, float | None]] = (),
    ) -> Future[None]: ...

    def set_due(
        self,
        table_id: str,
        due: float | None,
        abandons: float | None = None,
        asked: Sequence[tuple[int, bool, float | None]] = (),
    ) -> Future[None]: ...

    def set_vote(self, table_id: str, vote: dict[str, Any] | None) -> Future[None]: ...

    def end_abandoned(self, table_id: str, vote: dict[str, Any]) -> Future[None]: ...

    def set_bank(self, table_id: str, seat: int, bank: float | None) -> Future[None]: ...

    def set_token(self, table_id: str, seat: int, token_hash: bytes) -> Future[None]: ...

    def concede(
        self,
        table_id: str,
        seat: int,
        move: int,
        result: dict[str, Any] | None,
        reveal: tuple[int, str | None] | None,
    ) -> Future[None]: ...

    def add_chat(self, table_id: str, said: StoredChat) -> Future[None]: ...

    def load_chat(self, table_id: str, limit: int) -> list[StoredChat]: ...

    def add_report(
        self, table_id: str, said: StoredChat, seat: int | None, name: str
    ) -> Future[None]: ...

    def chat_reports(self, table_id: str) -> list[tuple[int, int | None]]: ...

    def hidden_chat(self, table_id: str, ids: Collection[int]) -> list[int]: ...


class Histogram(Protocol):
    """A figure the table reports (a Prometheus histogram's ``observe``)."""

    def observe(self, amount: float) -> None: ...


class _Unobserved:
    def observe(self, amount: float) -> None:
        pass


@dataclass
class Timings:
    """Where a table reports how long an accepted action took (from taking the table's
    lock to being sent) and its commit; nowhere unless the server hands its metrics in."""

    action: Histogram = field(default_factory=_Unobserved)
    commit: Histogram = field(default_factory=_Unobserved)


class Host(Protocol):
    """What a table needs of the service that holds it (the lobby's
    :class:`~dragonlair.web.lobby.Hub`): the settings, storage, the bot pool, a count of
    actions, writing with a follow-up once committed, links, and taking back a finished
    table nobody watches."""

    actions: int

    @property
    def config(self) -> ServerConfig: ...

    @property
    def store(self) -> Storage: ...

    @property
    def bots(self) -> BotPool: ...

    @property
    def timings(self) -> Timings: ...

    async def write(
        self, submit: Callable[[], Any], then: Callable[[], None] | None = None
    ) -> None: ...

    def link(self, kind: str, table_id: str, token: str) -> str: ...

    def retire(self, table: Any, /) -> None: ...

    def wake_mail(self) -> None: ...

    async def rename(self, table: Any, seat: int, name: str, /) -> None: ...

    async def rematch(self, table: Any, seat: int, /) -> None: ...
