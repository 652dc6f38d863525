"""Answers a seat does not have to give: the one rule every surface follows.

A seat is sometimes asked a question whose answer cannot change anything: a HALT! window
for a player who holds no HALT! card, an offer the player cannot afford, the last card of a
draft. The terminal and the server both answer such questions for the player (unless the
player turned it off), and both do it the same way, through this module:

- :func:`forced_action` is the seat's only legal action, or None when it has a real choice.
- The answer is applied only after :func:`answer_delay`, a delay drawn from the same
  distribution for every seat, every game and every kind of forced answer, from a generator
  that is not the game's (so records and replays are unchanged).

Why this leaks nothing: the engine asks exactly the seats the rules ask, whatever they hold,
so ``to_act`` and the views are the same as if the player had answered by hand; an automatic
answer is an ordinary action in the record. What others could read is timing, and an
automatic answer comes after a delay that does not depend on the hand, in the range of a
quick human answer. A player who holds a HALT! card and lets it pass is seen to take as long
as the player thinks, exactly as at a real table.

A reaction window (a HALT! after a play, a knight offered: the seats the state gives a
``default_action``) is stricter still, since a pass there is the common answer: every pass
in it, typed, answered for the seat or a bot's, ends :data:`WINDOW_SECONDS` after the seat
was asked, and not before (:func:`in_window`), so the window lasts as long whoever holds a
HALT! card. The server (``web.table.windows``) and the terminal both keep to it.
"""

from __future__ import annotations

import random
from typing import Final, Protocol

from .actions import Action

# The range of an automatic answer's delay, in seconds: long enough to be taken for a quick
# human answer, short enough that a table of bots and auto-answers keeps moving.
ANSWER_DELAY_MIN: Final = 0.6
ANSWER_DELAY_MAX: Final = 1.6
# How long a seat asked in a reaction window takes to pass, whatever it holds (seconds): the
# longest automatic answer, so a window ends no sooner than an answer given for a seat would.
WINDOW_SECONDS: Final = ANSWER_DELAY_MAX

_system = random.SystemRandom()


class _Asks(Protocol):
    @property
    def to_act(self) -> tuple[int, ...]: ...

    def legal_actions(self, seat: int) -> list[Action]: ...


class _Windows(Protocol):
    def default_action(self, seat: object) -> Action | None: ...


def forced_action(state: _Asks, seat: int) -> Action | None:
    """The one legal action of ``seat`` when it is asked and has no other; else None."""
    if seat not in state.to_act:
        return None
    actions = state.legal_actions(seat)
    return actions[0] if len(actions) == 1 else None


def answer_delay(rng: random.Random | None = None) -> float:
    """Seconds to wait before applying a forced answer: the same distribution for every
    seat; ``rng`` (default: the system's generator) never the game's own."""
    return (rng or _system).uniform(ANSWER_DELAY_MIN, ANSWER_DELAY_MAX)


def in_window(state: _Windows, seat: int) -> bool:
    """Whether ``seat`` is asked in a reaction window now (it has a default answer, a
    pass), where every pass takes :data:`WINDOW_SECONDS`."""
    return state.default_action(seat) is not None
