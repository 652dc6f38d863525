"""A finished table's rematch as a part of the table: where the new table is, which seat
asked for it, and each seat's link to its new seat, told to that seat alone. The new table
itself is made by the host (:meth:`dragonlair.web.lobby.Hub.rematch`), which records it
here; where it is and who asked are stored with the finished table, so a table read back
from storage tells its seats where the rematch is (their links went to them already)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from ..protocol import encode
from .ports import Peer
from .seats import Seats


class NewTable(Protocol):
    """The rematch's table as the finished one reads it: whether a seat's person has
    opened their new seat."""

    @property
    def seats(self) -> Seats: ...


class Rematch:
    """One finished table's rematch, once a seat asked for one."""

    def __init__(self, stored: dict[str, Any] | None) -> None:
        """``stored``: the finished table's stored rematch, ``{"table": id, "by": seat}``
        (None: nobody asked for one yet; a row without the table's id reads as None)."""
        table = None if stored is None else stored.get("table")
        by = None if stored is None else stored.get("by")
        self.table: str | None = table if isinstance(table, str) else None
        self.by: int | None = by if isinstance(by, int) and self.table is not None else None
        # each person's seat's link to its new seat (known to the process that made it)
        self.links: dict[int, str] = {}
        self.new: NewTable | None = None

    @property
    def made(self) -> bool:
        """Whether there is a rematch (asking again gives the same table)."""
        return self.table is not None

    def record(
        self, table: str, by: int, links: dict[int, str], new: NewTable | None
    ) -> dict[str, Any]:
        """The host made the rematch ``table`` that seat ``by`` asked for: each person's
        seat's link, and the new table held here (None: not held here, so no link is
        told). Gives what is stored of it."""
        self.table, self.by, self.links, self.new = table, by, dict(links), new
        return {"table": table, "by": by}

    def send(self, conn: Peer) -> None:
        """Tell a seat's connection where the rematch is, once there is one (its own link
        only: each seat's token goes to that seat alone; and only until the new seat has
        been opened, so an old link someone else kept does not lead to the new seat)."""
        if self.table is None or conn.seat is None:
            return
        link = self.links.get(conn.seat)
        if self.new is None or self.new.seats[conn.seat].arrived:
            link = None
        conn.send(encode({"type": "rematch", "table": self.table, "by": self.by, "link": link}))

    def tell(self, conns: Iterable[Peer]) -> None:
        """Tell every seat's connection among ``conns`` (spectators are not told)."""
        for conn in conns:
            self.send(conn)
