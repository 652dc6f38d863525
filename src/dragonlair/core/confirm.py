"""Decisions held until they are confirmed: the undo that always works.

A seat's decision is not final the moment it is made. Where a table allows undo, a
person's decision is *held*: it is applied to a private copy of the game that only that
seat is shown, and nothing of it reaches anyone else (the other seats, spectators, bots,
the stored record) until the seat's confirmation window ends (a few seconds after its
last held decision) or the person confirms. Within the window, taking the decision back
is always possible and tells nobody anything, since nobody else was told anything: there
is no check to run and nothing to replay, only the held decisions to drop.

A decision that would show the deciding seat something it could not know before (a card
drawn, the others' sealed choices turned over when its own pick completes them) is held
*unseen*: the seat is shown the game as it was, with the decision named as waiting, and
nothing more can be decided until it is confirmed (taking it back after seeing the card
would let the seat look and choose again). So every decision can be taken back within
its window, and none shows anything before it is final. Whether a decision would show
something is worked out from the seat's own view only (:func:`reveals_to_actor`, the
same redraw test as :mod:`.undo` uses, for one action).

:class:`Hold` is the same for the server (``web.session``) and the terminal
(``tui.app``): the held decisions of one seat on top of the committed state.
"""

from __future__ import annotations

from typing import Final

from .actions import Action
from .state import State
from .undo import learnt

# How long a held decision waits for its confirmation by default (seconds): long enough to
# see one's own mistake, short enough that a table of bots keeps moving.
CONFIRM_SECONDS: Final = 5.0
# The longest a table may set.
CONFIRM_MAX: Final = 30.0


def reveals_to_actor(before: State, seat: int, action: Action) -> bool:
    """Whether ``seat`` playing ``action`` at ``before`` would be shown something that
    depended on what it could not see (then the decision cannot be held)."""
    aid = before.game.action_id(action)
    return learnt(before, [(seat, aid)], seat)


class Hold:
    """One seat's decisions held on top of the committed state: the private state the seat
    is shown, and the actions (as text) to confirm, in order."""

    def __init__(self, seat: int, base: State) -> None:
        self.seat = seat
        self.base = base  # the committed state the held decisions were applied to
        self.started = base.move  # the move the first held decision was made at
        self.actions: list[Action] = []  # held and shown to the seat
        self.unseen: Action | None = None  # held after them, not applied (it would show)
        self.state = base  # base with the shown held actions applied
        self.confirming = False  # being played, one by one, on the committed state

    def __bool__(self) -> bool:
        return bool(self.actions) or self.unseen is not None

    def __len__(self) -> int:
        return len(self.actions) + (self.unseen is not None)

    def push(self, action: Action, shows: bool = False) -> None:
        """Hold one more decision (already checked legal for the seat at ``self.state``);
        ``shows``: it would show the seat something hidden, so it is held unapplied."""
        if self.unseen is not None:
            raise ValueError("a decision held unseen must be confirmed before the next")
        if shows:
            self.unseen = action
            return
        nxt = self.state.clone()
        nxt.apply(self.seat, action)
        self.actions.append(action)
        self.state = nxt

    def pop(self) -> Action:
        """Take back the last held decision."""
        if self.unseen is not None:
            action, self.unseen = self.unseen, None
            return action
        action = self.actions.pop()
        self.state = self._replay(self.base, self.actions)
        return action

    def take_first(self) -> Action | None:
        """The first held decision, taken off to be played (None: nothing held)."""
        if self.actions:
            return self.actions.pop(0)
        action, self.unseen = self.unseen, None
        return action

    def rebase(self, committed: State) -> bool:
        """The committed state changed under the held decisions (another seat's sealed
        choice was made meanwhile): apply them to it instead; False (and nothing held any
        more) when one of them is no longer legal there."""
        try:
            self.state = self._replay(committed, self.actions)
        except Exception:
            self.actions.clear()
            self.unseen = None
            self.state = committed
            self.base = committed
            return False
        self.base = committed
        return True

    def _replay(self, base: State, actions: list[Action]) -> State:
        s = base
        for a in actions:
            s = s.clone()
            s.apply(self.seat, a)
        return s
