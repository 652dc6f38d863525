"""A hint: one seat's choices ranked by one estimator, shown to the precision it supports.

:func:`advise` plays each legal action out from determinizations of the seat's view (the
view only: everything the seat cannot see is redrawn by ``game.sample_state``, as for
bots), the game then played to its end by the game's heuristic in every seat (a random
bot for a game without one). Every action is played on the same determinizations with the
same random numbers afterwards (common random numbers), so differences between actions
are not luck of the draw. The win chance is the seat's mean win share (1 for a win, 1/k
for a win shared by k seats), with its 95% Wilson interval from that action's own
playout count.

- **Time, not a playout count.** Playouts go in rounds, one determinization per round,
  until ``budget`` seconds have passed or ``max_playouts`` rounds are played. After the
  first :data:`OPENING` rounds a round plays only the choices still in question: the best
  and those whose interval overlaps the best's. Playouts go where the answer is not yet
  known; a choice already clearly worse keeps the count it had.
- **One ranking.** Choices are ranked by their win chance, then their mean points, then
  the order of the legal actions. The pick is the first of that ranking: there is no
  other search whose choice could disagree with the numbers shown.
- **Precision the samples support.** Each choice's win chance is shown rounded to a step
  of 1, 2, 5 or 10 percentage points: the largest not above half its interval's width
  (:func:`step`). Choices whose intervals overlap the best's are *about as good*: shown
  as such, not ranked apart.
- **Why, from what was measured.** :meth:`Advice.why` says which sentence the numbers
  support (the best clearly ahead; several about as good; nothing to choose between) and
  with which numbers; the browser and the terminal put it into players' words.

Seeded: the same view, seed and playout count give the same advice. How many playouts a
budget buys depends on the machine, so under a time budget alone two hints may differ in
their last digits, never in what they can tell apart.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core import Action, DragonlairError, Game, derive_seed
from ..core.bot import Bot, RandomBot, view_for
from . import UnknownBot, heuristic_class
from .interval import wilson_interval

OPENING = 16  # rounds every choice plays before the playouts go to the close ones
STEPS = (1, 2, 5, 10)  # the percentage steps a win chance may be shown to
BUDGET = 2.0  # seconds: a hint's default time (the server's and the terminal's)
MAX_PLAYOUTS = 4000  # per choice: beyond it the interval is narrower than 2 points


def step(low: float, high: float) -> int:
    """The step, in percentage points, a win chance with the interval ``low``-``high``
    is shown to: the largest of :data:`STEPS` not above half the interval's width."""
    half = (high - low) * 100 / 2
    return max([s for s in STEPS if s <= half + 1e-9], default=STEPS[0])


def shown(value: float, low: float, high: float) -> tuple[int, int, int]:
    """A win chance and its interval in whole percent, to its :func:`step`: the value
    rounded to the step, the interval widened outwards to it."""
    s = step(low, high)
    v = math.floor(value * 100 / s + 0.5) * s
    lo = math.floor(low * 100 / s + 1e-9) * s
    hi = min(100, math.ceil(high * 100 / s - 1e-9) * s)
    return v, max(0, lo), hi


@dataclass(frozen=True)
class Choice:
    """One legal action's playouts, and how it stands against the best."""

    action: Action
    playouts: int
    win: float  # the mean win share
    low: float
    high: float
    points: float
    close: bool  # its interval overlaps the best's (the best itself included)

    @property
    def step(self) -> int:
        return step(self.low, self.high)

    @property
    def shown(self) -> tuple[int, int, int]:
        return shown(self.win, self.low, self.high)

    def to_dict(self) -> dict[str, Any]:
        value, low, high = self.shown
        return {
            "action": str(self.action),
            "playouts": self.playouts,
            "win": {"value": self.win, "low": self.low, "high": self.high},
            "shown": {"value": value, "low": low, "high": high, "step": self.step},
            "points": round(self.points, 2),
            "close": self.close,
        }


@dataclass(frozen=True)
class Advice:
    """The ranked choices of one decision of one seat; ``choices[0]`` is the pick."""

    game: str
    seat: int
    move: int
    choices: tuple[Choice, ...]
    rounds: int
    seed: int

    @property
    def pick(self) -> Action:
        return self.choices[0].action

    def why(self) -> dict[str, Any]:
        """Which sentence the measurements support, and its numbers:

        - ``clear``: the best wins more often than every other choice (no interval
          overlaps its own); ``other`` is the runner-up;
        - ``close``: some choices are about as good as the best (``others``: how many),
          and ``other`` is the best of the clearly worse ones (None if there is none);
        - ``even``: every choice is about as good as every other for winning; ``best``
          scores the most points on average, ``other`` the fewest.
        """
        best = self.choices[0]
        close = [c for c in self.choices[1:] if c.close]
        apart = [c for c in self.choices[1:] if not c.close]
        out: dict[str, Any] = {"best": best.to_dict()}
        if not close:
            out.update(kind="clear", other=apart[0].to_dict() if apart else None)
        elif apart:
            out.update(kind="close", others=len(close), other=apart[0].to_dict())
        else:
            fewest = min(self.choices, key=lambda c: c.points)
            out.update(kind="even", others=len(close), other=fewest.to_dict())
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seat": self.seat,
            "move": self.move,
            "pick": str(self.pick),
            "rounds": self.rounds,
            "seed": self.seed,
            "choices": [c.to_dict() for c in self.choices],
            "why": self.why(),
        }


def _policy(game: Game) -> Bot:
    try:
        return heuristic_class(game)(game)
    except UnknownBot:
        return RandomBot(game)


def advise(
    game: Game,
    view: Mapping[str, Any],
    legal: Sequence[Action],
    *,
    seed: int = 0,
    budget: float = BUDGET,
    max_playouts: int = MAX_PLAYOUTS,
    clock: Callable[[], float] = time.perf_counter,
) -> Advice:
    """The seat's choices from its ``view`` and ``legal`` actions alone, ranked (see the
    module docstring): at most ``max_playouts`` per choice, in about ``budget`` seconds
    (the playout under way when it runs out is finished)."""
    seat = view.get("seat")
    if not isinstance(seat, int) or seat not in view.get("to_act", ()):
        raise DragonlairError(f"the view's seat {seat!r} is not asked to act")
    if not legal:
        raise DragonlairError(f"seat {seat} has no legal action to advise on")
    if isinstance(max_playouts, bool) or not isinstance(max_playouts, int) or max_playouts < 1:
        raise DragonlairError(f"max_playouts should be a whole number >= 1, not {max_playouts!r}")
    if not budget > 0:
        raise DragonlairError(f"the budget should be a number of seconds > 0, not {budget!r}")
    end = clock() + budget
    policy = _policy(game)
    shares: list[list[float]] = [[] for _ in legal]
    points: list[list[float]] = [[] for _ in legal]
    rounds = 0
    asked = list(range(len(legal)))
    while rounds < max_playouts and clock() < end:
        determinized = game.sample_state(view, random.Random(derive_seed(seed, 1, rounds, 0)))
        after = derive_seed(seed, 1, rounds, 1)
        for k in asked:
            if rounds >= OPENING and clock() >= end:
                break
            s = determinized.clone()
            s.apply(seat, legal[k])
            rng = random.Random(after)
            while not s.is_over:
                p = s.to_act[0]
                options = s.legal_actions(p)
                pick = (
                    options[0]
                    if len(options) == 1
                    else policy.choose(view_for(policy, s, p), options, rng)
                )
                s.apply(p, pick)
            result = s.result
            assert result is not None
            shares[k].append(1 / len(result.winners) if seat in result.winners else 0.0)
            points[k].append(float(result.points[seat]))
        rounds += 1
        if rounds >= OPENING:
            ranked = _rank(legal, shares, points)
            asked = sorted(c for c in range(len(legal)) if ranked[c][1])
            if len(asked) == 1:
                break  # the best is clear of every other choice
    ranked = _rank(legal, shares, points)
    order = sorted(range(len(legal)), key=lambda k: ranked[k][0])
    choices = []
    for k in order:
        win, low, high = _interval(shares[k])
        choices.append(
            Choice(
                action=legal[k],
                playouts=len(shares[k]),
                win=win,
                low=low,
                high=high,
                points=statistics.fmean(points[k]) if points[k] else 0.0,
                close=ranked[k][1],
            )
        )
    return Advice(
        game=game.spec.id,
        seat=seat,
        move=int(view["move"]),
        choices=tuple(choices),
        rounds=rounds,
        seed=seed,
    )


def _interval(shares: list[float]) -> tuple[float, float, float]:
    """The mean win share and its 95% Wilson interval (widened to hold the mean where
    rounding puts it outside, at 0 and 1)."""
    n = len(shares)
    win = sum(shares) / n if n else 0.0
    low, high = wilson_interval(sum(shares), n)
    return win, min(low, win), max(high, win)


def _rank(
    legal: Sequence[Action], shares: list[list[float]], points: list[list[float]]
) -> list[tuple[int, bool]]:
    """Each choice's place in the ranking and whether its interval overlaps the best's."""

    intervals = [_interval(s) for s in shares]

    def key(k: int) -> tuple[float, float, int]:
        pts = statistics.fmean(points[k]) if points[k] else 0.0
        return (-intervals[k][0], -pts, k)

    order = sorted(range(len(legal)), key=key)
    best = order[0]
    _, b_low, b_high = intervals[best]
    out: list[tuple[int, bool]] = [(0, False)] * len(legal)
    for place, k in enumerate(order):
        _, low, high = intervals[k]
        out[k] = (place, k == best or (low <= b_high and b_low <= high))
    return out
