"""Which move each asked seat's decision dates from: the table's answer to a click made on
a state a moment old.

During a simultaneous choice (Space Race's picks and bids, Space Dragons' draft) the other
seats' choices arrive one by one, each a move of its own, while a person is still looking
at the hand they were dealt; a browser also shows the others' moves at the table's pace, so
what a person clicks on is often a few moves old. Such a click is still the decision the
seat was asked for when nothing that seat decides from has changed since: the seat has been
asked ever since, without acting, with the same legal actions, inside the same sealed
choice (whose other choices it cannot see). :class:`Decisions` keeps, per asked seat, the
first move of that stretch, so the move pipeline accepts an action made at any move of it
and refuses anything older with a reason that says what changed.
"""

from __future__ import annotations

from typing import Protocol

from ...core import Action


class Asked(Protocol):
    """What :class:`Decisions` reads of a state (a :class:`~dragonlair.core.State`)."""

    @property
    def move(self) -> int: ...

    @property
    def to_act(self) -> tuple[int, ...]: ...

    @property
    def in_sealed_choice(self) -> bool: ...

    def legal_actions(self, seat: object) -> list[Action]: ...


class Decisions:
    """Per asked seat: since which move it has faced the same decision, and what it is."""

    def __init__(self) -> None:
        self._since: dict[int, tuple[int, tuple[str, ...]]] = {}

    def reset(self, st: Asked) -> None:
        """Every asked seat's decision dates from now (a new table, a resumed one, an undo)."""
        self._since = {s: (st.move, _legal(st, s)) for s in st.to_act}

    def advance(self, st: Asked, actor: int) -> None:
        """``actor`` acted and the game is now at ``st``: a seat still asked keeps the move
        its decision dates from when it did not act, its legal actions are the same, and
        the others' choices are sealed from it; every other asked seat's dates from now."""
        out: dict[int, tuple[int, tuple[str, ...]]] = {}
        for s in st.to_act:
            legal = _legal(st, s)
            old = self._since.get(s)
            if old is not None and s != actor and st.in_sealed_choice and old[1] == legal:
                out[s] = old
            else:
                out[s] = (st.move, legal)
        self._since = out

    def since(self, seat: int) -> int | None:
        """The first move at which ``seat`` faced the decision it faces now (None: it is
        not asked)."""
        found = self._since.get(seat)
        return None if found is None else found[0]

    def current(self, seat: int, move: int, now: int) -> bool:
        """Whether an action ``seat`` made at ``move`` answers the decision it faces at
        move ``now``."""
        since = self.since(seat)
        return since is not None and since <= move <= now

    def why_stale(self, seat: int, move: int, now: int) -> str:
        """Why an action made at ``move`` no longer answers ``seat``'s decision: in words a
        player reads, with what to do."""
        since = self.since(seat)
        if move > now:
            return (
                f"that action was made at move {move}, but the game is only at move {now}: "
                "look at the latest state and act again"
            )
        if since is None:
            return (
                f"that action was made at move {move}; since then the game moved on to move "
                f"{now} and you are not asked anything now"
            )
        return (
            f"that action was made at move {move}; since then your choices changed (your "
            f"decision now dates from move {since}): look at the latest state and act again"
        )


def _legal(st: Asked, seat: int) -> tuple[str, ...]:
    return tuple(str(a) for a in st.legal_actions(seat))
