"""Fakes for the unit tests of a table's parts (``dragonlair.web.table``)."""

from __future__ import annotations

import json
from typing import Any


class FakePeer:
    """A connection (``table.ports.Peer``) that keeps each message it is sent, decoded."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.cursor = 0
        self.sent: list[dict[str, Any]] = []

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def close(self, code: int = 1000) -> None:
        pass
