"""A heuristic Dragon Stripes player: one card of lookahead, priced in gems.

It values everything in gems it would end the turn with, and looks one card ahead using
the make-up of the undrawn deck (public: every drawn card is seen).

- **Draw or hold.** Drawing once more is worth, on average: for each footprint card, the
  gems of the stripe it lands on (doubled after the second Danger; no more than the lair
  is thought to hold), or, past the last stripe, everything the lair is thought to hold;
  minus, for a Stop, the pot and the penalty (1/4 or 1/2 of its gems), and for a Danger
  the same, or all of its gems when it would be the third. It draws while that is
  positive and holds otherwise. So it pushes on early, when the pot is small and the
  stripes are rich, and stops as the pot grows, the deck turns dangerous or the dragon is
  half awake; it also runs for the head when the lair is rich and the head is close.
- **Take or decline.** Taking costs the price and gives the pot, but forces one draw, so
  the knight is worth the pot minus the price plus that one draw's value (with its risk
  to the pot just bought). It takes when that is positive.

The lair it estimates from the public ledger: the gems nobody is known to hold (each
seat's gems taken at the middle of what its ledger allows), or nothing once the lair is
known to be empty. It never sees the state, only its view and the legal actions.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, cast

from dragonlair.core import Action, Bot

from .view import DragonStripesView, holding_bounds


class Heuristic(Bot):
    """Draws while one more card is worth it; takes the knight when it is a bargain."""

    level = "heuristic"

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        # every view of this game is a DragonStripesView (the conformance suite checks it)
        return self._choose(cast(DragonStripesView, view), legal, rng)

    def _choose(
        self, view: DragonStripesView, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        by_kind = {a.kind: a for a in legal}
        gems = view["gems"]
        assert gems is not None, "a seat's view shows its own gems"
        if "hold" in by_kind:
            gain = draw_value(view, view["pot"], gems)
            return by_kind["draw"] if gain > 0 else by_kind["hold"]
        price = view["price"]
        value = view["pot"] - price + draw_value(view, view["pot"], gems - price)
        return by_kind["take"] if value > 0 else by_kind["decline"]


# The spots a footprint card moves the knight, by the card's name in the view ("footprint 2").
_STEPS: dict[str, int] = {}


def draw_value(view: DragonStripesView, pot: int, gems: int) -> float:
    """The expected gems won (or lost, if negative) by drawing one more card with
    ``pot`` in the pot and ``gems`` behind the screen, against holding now."""
    left: Mapping[str, int] = view["deck_left"]
    size = view["deck_size"]
    if size == 0:
        return 0.0
    stripes: Sequence[int] = view["stripes"]
    knight = view["knight"]
    double = view["reward_multiplier"]
    lair = lair_estimate(view)
    value = 0.0
    for name, count in left.items():
        if count == 0:
            continue
        p = count / size
        if name == "stop":
            value -= p * (pot + gems // (2 if view["dangers"] >= 2 else 4))
        elif name == "danger":
            dangers = view["dangers"] + 1
            lost = gems if dangers == 3 else gems // (2 if dangers >= 2 else 4)
            value -= p * (pot + lost)
        else:
            steps = _STEPS.get(name)
            if steps is None:
                steps = _STEPS[name] = int(name.split()[1])
            to = knight + steps
            value += p * (lair if to > len(stripes) else min(lair, stripes[to - 1] * double))
    return value


def lair_estimate(view: DragonStripesView) -> float:
    """The gems the lair probably holds: all the gems nobody is known to hold, taking
    each other seat's gems at the middle of what its ledger allows."""
    if view["lair_empty"]:
        return 0.0
    if "lair" in view:
        return float(view["lair"])
    held = 0.0
    for s, e in enumerate(view["ledger"]):
        if s == view["seat"]:
            held += view["gems"] or 0
            continue
        lo, hi = holding_bounds(
            view["start_gems"],
            e["banked"] + e["received"],
            e["paid"],
            e["penalties"] - e["half_penalties"],
            e["half_penalties"],
        )
        held += (lo + hi) / 2
    return max(0.0, float(view["total_gems"] - view["pot"] - held))
