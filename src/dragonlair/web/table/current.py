"""What every part of a table reads: the committed state of its game and the table's
status. The table owns it and replaces the state only once storage has committed a move;
the parts read it here rather than asking the table back."""

from __future__ import annotations

from ...core import State


class Current:
    """The committed state (None at a broken table) and the table's status."""

    def __init__(self, state: State | None, status: str) -> None:
        self.state = state
        self.status = status

    def playing(self) -> State | None:
        """The state while the game is being played, else None."""
        return self.state if self.status == "playing" else None
