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

How much it fears a Stop or a Danger, and the margins a draw or a takeover must clear,
are its :class:`Weights`; the archetypes (``archetypes.py``) are this bot with other
weights.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

from dragonlair.core import Action, Bot, Game

from .cards import DANGER, STOP
from .kinds import SECOND_DANGER
from .rules import DragonStripes, holding_bounds
from .view import AnyDragonStripesView, DragonStripesSeatView


@dataclass(frozen=True)
class Weights:
    """The bot's appetite for risk; the defaults are the heuristic's."""

    risk: float = 1.0  # what a Stop or a Danger would cost counts this much
    draw_margin: float = 0.0  # draw while one more card is worth more than this, in gems
    take_margin: float = 0.0  # take the knight when it is worth more than this, in gems


class Heuristic(Bot):
    """Draws while one more card is worth it; takes the knight when it is a bargain."""

    level = "heuristic"

    def __init__(self, game: Game, weights: Weights = Weights()) -> None:
        if not isinstance(weights, Weights):
            raise TypeError(f"the Dragon Stripes heuristic's weights are Weights, not {weights!r}")
        if not isinstance(game, DragonStripes):
            raise TypeError(f"the Dragon Stripes heuristic cannot play {game.spec.name}")
        super().__init__(game)
        self.ds = game
        self.weights = weights

    def choose(
        self, given: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        view: AnyDragonStripesView
        if isinstance(given, DragonStripesSeatView):
            view = given
            pot, price, gems = view.pot, view.price, view.gems
        else:
            # every view of this game is one of these (the conformance suite checks it)
            view = cast(AnyDragonStripesView, given)
            pot, price, gems = view["pot"], view["price"], view["gems"]
        assert gems is not None, "a seat's view shows its own gems"
        w = self.weights
        # two choices: draw or hold, or take or decline
        first, second = legal
        if first.kind == "hold" or second.kind == "hold":
            gain = draw_value(view, pot, gems, self.ds, w.risk)
            want = "draw" if gain > w.draw_margin else "hold"
        else:
            value = pot - price + draw_value(view, pot, gems - price, self.ds, w.risk)
            want = "take" if value > w.take_margin else "decline"
        return first if first.kind == want else second


def draw_value(
    view: AnyDragonStripesView, pot: int, gems: int, game: DragonStripes, risk: float = 1.0
) -> float:
    """The expected gems won (or lost, if negative) by drawing one more card with
    ``pot`` in the pot and ``gems`` behind the screen, against holding now (``risk``: how
    much the losses of a Stop or a Danger count), in ``game`` (its penalties and
    rewards: the data file's)."""
    if isinstance(view, DragonStripesSeatView):
        size = view.deck_size
        if size == 0:
            return 0.0
        left: Sequence[tuple[int, int]] = view.left
        stripes: Sequence[int] = view.stripes
        knight, dangers = view.knight, view.dangers
        sure = _seat_view_floor(view)  # lair_floor(view), without dispatching again
    else:
        size = view["deck_size"]
        if size == 0:
            return 0.0
        left = [(_code(name), count) for name, count in view["deck_left"].items()]
        stripes = view["stripes"]
        knight, dangers = view["knight"], view["dangers"]
        sure = lair_floor(view)
    divisors = game.divisors
    double = game.multipliers[dangers >= SECOND_DANGER]
    divisor = divisors[dangers >= SECOND_DANGER]
    next_divisor = divisors[dangers + 1 >= SECOND_DANGER]
    # what a Stop and a Danger would cost: the pot and the penalty, or every gem if the
    # Danger is the third
    stop = pot + gems // divisor
    danger = pot + (gems if dangers + 1 == 3 else gems // next_divisor)
    # The lair's estimate counts only for a footprint that reaches the head or lands on a
    # stripe showing more than the lair surely holds (``sure``: lair_floor, which costs
    # little), so it is worked out only then.
    lair = -1.0  # not worked out yet
    last = len(stripes)
    value = 0.0
    for code, count in left:
        if count == 0:
            continue
        p = count / size
        if code > 0:  # a footprint of ``code`` steps
            to = knight + code
            if to > last:
                if lair < 0.0:
                    lair = lair_estimate(view, divisors)
                value += p * lair
                continue
            shown = stripes[to - 1] * double
            if shown > sure:
                if lair < 0.0:
                    lair = lair_estimate(view, divisors)
                value += p * min(lair, shown)
            else:
                value += p * shown  # min(lair, shown) is shown
        elif code == STOP:
            value -= risk * p * stop
        else:
            value -= risk * p * danger
    return value


# Card codes by their names in the view ("footprint 2" is 2; cards.STOP, cards.DANGER).
_CODES: dict[str, int] = {"stop": STOP, "danger": DANGER}


def _code(name: str) -> int:
    code = _CODES.get(name)
    if code is None:
        code = _CODES[name] = int(name.split()[1])
    return code


Ledger = tuple[tuple[int, ...], ...]


def _known_lair(view: AnyDragonStripesView) -> float | None:
    """The lair's gems when the view tells them (empty, or shown), else None."""
    if isinstance(view, DragonStripesSeatView):
        if view.lair_empty:
            return 0.0
        return None if view.lair is None else float(view.lair)
    if view["lair_empty"]:
        return 0.0
    return float(view["lair"]) if "lair" in view else None


def _lair_figures(
    view: AnyDragonStripesView,
) -> tuple[int | None, int | None, int, int, int, Ledger]:
    """What the lair's figures are worked out from: the seat, its gems, the pot, each
    seat's starting gems, all the gems, and the public ledger (banked, received, paid,
    penalties, half penalties: each a tuple by seat)."""
    if isinstance(view, DragonStripesSeatView):
        ledger: Ledger = (
            view.banked,
            view.received,
            view.paid,
            view.penalties,
            view.half_penalties,
        )
        return view.seat, view.gems, view.pot, view.start_gems, view.total_gems, ledger
    entries = view["ledger"]
    ledger = (
        tuple(e["banked"] for e in entries),
        tuple(e["received"] for e in entries),
        tuple(e["paid"] for e in entries),
        tuple(e["penalties"] for e in entries),
        tuple(e["half_penalties"] for e in entries),
    )
    return view["seat"], view["gems"], view["pot"], view["start_gems"], view["total_gems"], ledger


def lair_estimate(view: AnyDragonStripesView, divisors: tuple[int, int]) -> float:
    """The gems the lair probably holds: all the gems nobody is known to hold, taking
    each other seat's gems at the middle of what its ledger allows (its penalties at 1/d
    of ``divisors``, the game's)."""
    known = _known_lair(view)
    if known is not None:
        return known
    seat, gems, pot, start, total, ledger = _lair_figures(view)
    held = others_held(start, seat, ledger, divisors) + (gems or 0)
    return max(0.0, float(total - pot - held))


@lru_cache(maxsize=4096)  # a ledger changes only on a penalty, a takeover or a banked pot
def others_held(start: int, seat: int | None, ledger: Ledger, divisors: tuple[int, int]) -> float:
    """What the seats other than ``seat`` probably hold, from the public ledger (banked,
    received, paid, penalties, half penalties: each a tuple by seat): each at the middle of
    what its ledger allows (halves of whole gems, so the sum is exact in any order)."""
    held = 0.0
    banked, received, paid, penalties, half = ledger
    for s in range(len(banked)):
        if s != seat:
            lo, hi = holding_bounds(
                start,
                banked[s] + received[s],
                paid[s],
                penalties[s] - half[s],
                half[s],
                divisors,
            )
            held += (lo + hi) / 2
    return held


def lair_floor(view: AnyDragonStripesView) -> float:
    """A figure never above :func:`lair_estimate` that costs little to work out: the
    gems nobody can hold, taking every other seat at the most its ledger allows (its
    gems as if it had never paid a penalty)."""
    if isinstance(view, DragonStripesSeatView):
        return _seat_view_floor(view)
    known = _known_lair(view)
    if known is not None:
        return known
    seat, gems, pot, start, total, (banked, received, paid, _, _) = _lair_figures(view)
    return _floor(seat, gems, pot, start, total, banked, received, paid)


def _seat_view_floor(view: DragonStripesSeatView) -> float:
    """:func:`lair_floor` of a typed view."""
    if view.lair_empty:
        return 0.0
    if view.lair is not None:
        return float(view.lair)
    return _floor(
        view.seat,
        view.gems,
        view.pot,
        view.start_gems,
        view.total_gems,
        view.banked,
        view.received,
        view.paid,
    )


def _floor(
    seat: int | None,
    gems: int | None,
    pot: int,
    start: int,
    total: int,
    banked: Sequence[int],
    received: Sequence[int],
    paid: Sequence[int],
) -> float:
    most = len(banked) * start + sum(banked) + sum(received) - sum(paid)
    if seat is not None:
        most -= start + banked[seat] + received[seat] - paid[seat]
    return float(total - pot - (gems or 0) - most)
